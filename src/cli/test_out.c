// SPDX-License-Identifier: MIT
/*
 * How `headroom test` shows a packet's outcome: text in the shape of
 * `bpftool prog run` (return value, average duration), JSON lines through
 * json-c, and pcapng records whose comments carry the verdict, hints and
 * metadata. Metadata is decoded with the object's BTF: the --meta-type
 * struct, or the struct whose type id the program stored in the last four
 * bytes of the area (bpf_core_type_id_local), as the AF_XDP hints
 * programs of xdp-project/bpf-examples do.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/btf.h>
#include <json-c/json.h>

#include "cli/cli.h"
#include "cli/test_io.h"
#include "dev/pcapng.h"
#include "loader/btf_value.h"

/* The object file of PROG.o[:SEL], as hr_cli_open_prog_opts splits it. */
static char *spec_path(const char *spec)
{
	char *path = strdup(spec), *colon;

	if (!path)
		return NULL;
	colon = strrchr(path, ':');
	if (colon && colon[1] && !strchr(colon, '/') && access(path, F_OK))
		*colon = '\0';
	return path;
}

int test_meta_type_open(struct test_meta_type *mt, const char *spec,
			const char *name)
{
	char *path = spec_path(spec);
	int err;

	memset(mt, 0, sizeof(*mt));
	mt->name = name;
	if (!path)
		return -ENOMEM;
	err = hr_btf_value_open(path, &mt->btf);
	if (err) {
		mt->btf = NULL;
		if (name) {
			fprintf(stderr, "headroom: --meta-type: %s: %s\n", path,
				err == -ENOENT ? "the object has no BTF" :
						 strerror(-err));
			free(path);
			return -EINVAL;
		}
		free(path);
		return 0; /* no BTF: hex only */
	}
	if (name) {
		mt->id = hr_btf_value_find_type(mt->btf, name);
		if (mt->id <= 0 ||
		    hr_btf_value_size(mt->btf, (uint32_t)mt->id) <= 0) {
			fprintf(stderr,
				"headroom: --meta-type: %s: no sized type '%s' "
				"in its BTF\n",
				path, name);
			free(path);
			test_meta_type_close(mt);
			return -EINVAL;
		}
	}
	free(path);
	return 0;
}

void test_meta_type_close(struct test_meta_type *mt)
{
	btf__free(mt->btf);
	mt->btf = NULL;
}

/* A struct whose last member is the 4-byte id @id names: what a program
 * storing bpf_core_type_id_local() last in its metadata wrote. */
static bool self_described(const struct btf *btf, uint32_t id, size_t len)
{
	const struct btf_type *t;
	const struct btf_member *m;
	uint16_t n;

	if (!id || id >= btf__type_cnt(btf))
		return false;
	t = btf__type_by_id(btf, id);
	if (!t || !btf_is_struct(t) || t->size < 4 || t->size > len)
		return false;
	n = btf_vlen(t);
	if (!n)
		return false;
	m = btf_members(t) + n - 1;
	return btf_member_bit_offset(t, n - 1) == (t->size - 4) * 8 &&
	       !btf_member_bitfield_size(t, n - 1) &&
	       btf__resolve_size(btf, m->type) == 4;
}

/* The type to decode @len bytes of metadata with, and how many bytes
 * right before data it covers; 0 when none. */
static uint32_t meta_type(const struct test_meta_type *mt, const uint8_t *meta,
			  size_t len, size_t *size)
{
	uint32_t id;
	long long sz;

	if (!mt || !mt->btf || !len)
		return 0;
	if (mt->id > 0) {
		sz = hr_btf_value_size(mt->btf, (uint32_t)mt->id);
		if (sz <= 0 || (size_t)sz > len)
			return 0;
		*size = (size_t)sz;
		return (uint32_t)mt->id;
	}
	if (len < 4)
		return 0;
	memcpy(&id, meta + len - 4, 4); /* little-endian, as the host */
	if (!self_described(mt->btf, id, len))
		return 0;
	*size = btf__type_by_id(mt->btf, id)->size;
	return id;
}

static void type_name(const struct btf *btf, uint32_t id, char *buf,
		      size_t size)
{
	const struct btf_type *t = btf__type_by_id(btf, id);
	const char *name = btf__name_by_offset(btf, t->name_off);

	snprintf(buf, size, "%s%s",
		 btf_is_struct(t) ? "struct " :
		 btf_is_union(t)  ? "union " :
				    "",
		 name && *name ? name : "(anon)");
}

/* The metadata decoded as text "struct NAME (text)", or NULL. */
static char *meta_text(const struct test_meta_type *mt,
		       const struct test_result *r)
{
	char name[128], *text = NULL, *out;
	size_t size;
	uint32_t id = meta_type(mt, r->meta, r->meta_len, &size);

	if (!id || hr_btf_value_text(mt->btf, id, r->meta + r->meta_len - size,
				     size, 0, &text))
		return NULL;
	type_name(mt->btf, id, name, sizeof(name));
	if (asprintf(&out, "%s %s", name, text) < 0)
		out = NULL;
	free(text);
	return out;
}

static struct json_object *hex_json(const void *buf, size_t len)
{
	char *s = hr_hex_str(buf, len);
	struct json_object *o = json_object_new_string(s ? s : "");

	free(s);
	return o;
}

static struct json_object *hints_json(const struct test_result *r)
{
	char buf[256];

	if (hr_hints_format(&r->hints, buf, sizeof(buf)) < 0)
		return NULL;
	return json_tokener_parse(buf);
}

static void print_json(const struct test_result *r,
		       const struct test_meta_type *mt)
{
	struct json_object *o = json_object_new_object(), *dec = NULL;
	char name[128], prof[64];
	size_t size;
	uint32_t id;

	if (!o)
		return;
	json_object_object_add(o, "index", json_object_new_uint64(r->index));
	json_object_object_add(o, "action",
			       r->action ? json_object_new_string(r->action) :
					   NULL);
	json_object_object_add(o, "retval", json_object_new_uint64(r->retval));
	json_object_object_add(o, "data", hex_json(r->data, r->data_len));
	json_object_object_add(o, "meta", hex_json(r->meta, r->meta_len));
	json_object_object_add(
		o, "error", r->error ? json_object_new_string(r->error) : NULL);
	if (r->action) {
		json_object_object_add(o, "repeat",
				       json_object_new_uint64(r->repeat));
		json_object_object_add(o, "duration_ns",
				       json_object_new_uint64(r->duration));
	}
	if (r->hinted) {
		json_object_object_add(o, "hints", hints_json(r));
		test_hints_profile_str(r->supported, prof, sizeof(prof));
		json_object_object_add(o, "device",
				       json_object_new_string(prof));
	}
	if (r->ctx_changed)
		json_object_object_add(o, "ctx",
				       json_tokener_parse(r->ctx_changed));
	if (r->abort)
		json_object_object_add(o, "abort", test_abort_json(r->abort));
	if (r->tunnel_set)
		json_object_object_add(o, "tunnel_set",
				       hr_cli_tunnel_json(r->tunnel_set));
	if (r->stream_out)
		json_object_object_add(o, "stdout",
				       json_object_new_string(r->stream_out));
	if (r->stream_err)
		json_object_object_add(o, "stderr",
				       json_object_new_string(r->stream_err));
	id = meta_type(mt, r->meta, r->meta_len, &size);
	if (id && !hr_btf_value_json(mt->btf, id, r->meta + r->meta_len - size,
				     size, &dec)) {
		type_name(mt->btf, id, name, sizeof(name));
		json_object_object_add(o, "meta_type",
				       json_object_new_string(name));
		json_object_object_add(o, "meta_decoded", dec);
	}
	printf("%s\n",
	       json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN));
	json_object_put(o);
}

/* A stream's text, a line of output each of its lines (bpftool prog
 * tracelog prints the text as it is). */
static void print_stream(const char *name, const char *text)
{
	const char *p = text, *nl;

	while (p && *p) {
		nl = strchr(p, '\n');
		printf("  %s: %.*s\n", name,
		       (int)(nl ? nl - p : (long)strlen(p)), p);
		p = nl ? nl + 1 : NULL;
	}
}

void test_print(const struct test_result *r, bool json,
		const struct test_meta_type *mt)
{
	char prof[64], hints[256], tunnel[1024], *dec;

	if (json) {
		print_json(r, mt);
		return;
	}
	printf("packet %u: %s retval %u", r->index,
	       r->action ? r->action : "(no action)", r->retval);
	if (r->error)
		printf(" error: %s", r->error);
	printf("\n  data (%zu): ", r->data_len);
	hr_hex_print(stdout, r->data, r->data_len);
	printf("\n  meta (%zu): ", r->meta_len);
	hr_hex_print(stdout, r->meta, r->meta_len);
	printf("\n");
	if (r->ctx_changed)
		printf("  ctx set: %s\n", r->ctx_changed);
	if (r->tunnel_set) {
		hr_cli_tunnel_text(r->tunnel_set, tunnel, sizeof(tunnel));
		printf("  tunnel set: %s\n", tunnel);
	}
	print_stream("stdout", r->stream_out);
	print_stream("stderr", r->stream_err);
	dec = meta_text(mt, r);
	if (dec)
		printf("  meta decoded: %s\n", dec);
	free(dec);
	if (r->hinted &&
	    hr_hints_format(&r->hints, hints, sizeof(hints)) >= 0) {
		test_hints_profile_str(r->supported, prof, sizeof(prof));
		printf("  hints: %s (device: %s)\n", hints, prof);
	}
	/* As bpftool prog run: the mean over the repeated runs. */
	if (r->action && r->repeat > 1)
		printf("  duration (average of %u runs): %u ns\n", r->repeat,
		       r->duration);
}

int test_write(struct hr_pcapng_writer *w, const struct test_result *r,
	       const struct test_meta_type *mt)
{
	char verdict[192], hints[300], device[64], prof[48];
	char *meta = NULL, *dec = NULL, *hex;
	const char *comments[5];
	struct hr_pcapng_rec rec = {
		.data = r->data,
		.caplen = (uint32_t)r->data_len,
		.ts_ns = r->ts_ns,
		.comments = comments,
	};
	unsigned int n = 0;
	int ret;

	snprintf(verdict, sizeof(verdict), "hr-verdict: %s retval %u%s%s",
		 r->action ? r->action : "(no action)", r->retval,
		 r->error ? " error: " : "", r->error ? r->error : "");
	comments[n++] = verdict;
	if (r->hinted) {
		char h[256];

		if (hr_hints_format(&r->hints, h, sizeof(h)) >= 0) {
			snprintf(hints, sizeof(hints), HR_PCAPNG_HINTS_TAG "%s",
				 h);
			comments[n++] = hints;
		}
		test_hints_profile_str(r->supported, prof, sizeof(prof));
		snprintf(device, sizeof(device), TEST_DEVICE_TAG "%s", prof);
		comments[n++] = device;
	}
	if (r->meta_len) {
		hex = hr_hex_str(r->meta, r->meta_len);
		if (hex && asprintf(&meta, "hr-meta: %s", hex) >= 0)
			comments[n++] = meta;
		free(hex);
		dec = meta_text(mt, r);
		if (dec) {
			char *t;

			if (asprintf(&t, "hr-meta-decoded: %s", dec) >= 0) {
				free(dec);
				dec = t;
				comments[n++] = dec;
			}
		}
	}
	rec.ncomments = n;
	ret = hr_pcapng_write(w, &rec);
	free(meta);
	free(dec);
	return ret;
}
