// SPDX-License-Identifier: MIT
/*
 * headroom test --kernel: every packet run again through the live
 * kernel's BPF_PROG_TEST_RUN, as bpftool prog run does it (XDP with a
 * struct xdp_md giving the metadata, tc with the bare packet), and what
 * differs printed: the verdict and return value, the packet, the
 * metadata, an error one side gave alone; then the maps, entry by entry.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <json-c/json.h>
#include <linux/bpf.h>

#include "check/check.h"
#include "cli/ctx_json.h"
#include "cli/test_kernel.h"
#include "headroom/map.h"
#include "headroom/object.h"

/* An XDP packet with its fragments, or a tc packet whose head a helper
 * grew (up to 64 KiB, as headroom allows: test_run_tc.c). */
#define OUT_CAP (4096 * 32)

struct test_kernel {
	struct bpf_object *obj;
	int fd;
	bool xdp;
	unsigned int compared, differed;
};

/* libbpf's own messages are not the user's: the verifier's verdict is
 * read again through headroom check's kernel side when it refuses. */
static int quiet(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	return 0;
}

bool test_kernel_map_comparable(uint32_t t)
{
	return t == BPF_MAP_TYPE_ARRAY || t == BPF_MAP_TYPE_HASH ||
	       t == BPF_MAP_TYPE_LRU_HASH || t == BPF_MAP_TYPE_LPM_TRIE;
}

/*
 * Before the load, the kernel's object takes what headroom's options
 * changed in headroom's: each map's max_entries (--map-size) and the
 * global data sections' bytes (--set), so both start alike.
 */
static int take_layout(struct test_kernel *k, const struct hr_object *obj)
{
	struct bpf_map *km;
	uint32_t zero = 0;
	int err;

	bpf_object__for_each_map(km, k->obj)
	{
		struct hr_map *hm = hr_object_find_map(obj, bpf_map__name(km));
		size_t size = 0;
		void *init;

		if (!hm)
			continue;
		if (!bpf_map__is_internal(km)) {
			if (hr_map_max_entries(hm) == bpf_map__max_entries(km))
				continue;
			err = bpf_map__set_max_entries(km,
						       hr_map_max_entries(hm));
			if (err)
				return err;
			continue;
		}
		/* .kconfig and friends are the kernel's to fill. */
		if (!bpf_map__initial_value(km, &size) ||
		    size != hr_map_value_size(hm))
			continue;
		init = malloc(size);
		if (!init)
			return -ENOMEM;
		err = hr_map_lookup_elem(hm, &zero, init);
		if (!err)
			err = bpf_map__set_initial_value(km, init, size);
		free(init);
		if (err)
			return err;
	}
	return 0;
}

int test_kernel_open(const char *path, const char *prog, bool xdp,
		     const struct hr_object *hobj, struct test_kernel **out)
{
	struct test_kernel *k = calloc(1, sizeof(*k));
	libbpf_print_fn_t old = libbpf_set_print(quiet);
	struct bpf_program *p, *want = NULL;
	int err = -ENOMEM;

	*out = NULL;
	if (!k)
		goto fail;
	k->xdp = xdp;
	k->obj = bpf_object__open_file(path, NULL);
	if (!k->obj) {
		err = -errno;
		fprintf(stderr,
			"headroom test --kernel: %s: libbpf cannot "
			"open it: %s\n",
			path, strerror(errno));
		goto fail;
	}
	bpf_object__for_each_program(p, k->obj)
	{
		bool me = !strcmp(bpf_program__name(p), prog);

		bpf_program__set_autoload(p, me);
		if (me)
			want = p;
	}
	if (!want) {
		err = -ENOENT;
		fprintf(stderr,
			"headroom test --kernel: %s: no program '%s' "
			"for libbpf\n",
			path, prog);
		goto fail;
	}
	/* The type headroom runs it as (iproute2's section names). */
	bpf_program__set_type(want, xdp ? BPF_PROG_TYPE_XDP :
					  BPF_PROG_TYPE_SCHED_CLS);
	err = take_layout(k, hobj);
	if (err) {
		fprintf(stderr,
			"headroom test --kernel: %s: the kernel's maps cannot "
			"take headroom's sizes and global data: %s\n",
			path, strerror(-err));
		goto fail;
	}
	err = bpf_object__load(k->obj);
	if (err == -EPERM) {
		fprintf(stderr,
			"headroom test --kernel: loading '%s' into the "
			"kernel needs root (CAP_BPF and "
			"CAP_NET_ADMIN)\n",
			prog);
		goto fail;
	}
	if (err) {
		struct hr_check_result r;

		if (hr_check_kernel(path, prog, false, &r, NULL) ||
		    r.verdict != HR_CHECK_REJECT)
			snprintf(r.reason, sizeof(r.reason), "%s",
				 strerror(-err));
		fprintf(stderr,
			"headroom test --kernel: differs: the kernel does not "
			"load '%s': %s",
			prog, r.reason);
		if (r.verdict == HR_CHECK_REJECT && r.insn >= 0 && r.file[0])
			fprintf(stderr, " (insn %d, %s:%u)", r.insn, r.file,
				r.line);
		else if (r.verdict == HR_CHECK_REJECT && r.insn >= 0)
			fprintf(stderr, " (insn %d)", r.insn);
		fputc('\n', stderr);
		goto fail;
	}
	k->fd = bpf_program__fd(want);
	libbpf_set_print(old);
	*out = k;
	return 0;
fail:
	libbpf_set_print(old);
	test_kernel_close(k);
	return err;
}

void test_kernel_close(struct test_kernel *k)
{
	if (!k)
		return;
	bpf_object__close(k->obj);
	free(k);
}

static void hex(char *out, size_t cap, const uint8_t *b, size_t n)
{
	static const char d[] = "0123456789abcdef";
	size_t i;

	for (i = 0; i < n && 2 * i + 2 < cap; i++) {
		out[2 * i] = d[b[i] >> 4];
		out[2 * i + 1] = d[b[i] & 15];
	}
	out[2 * i] = 0;
}

/* The first byte two buffers differ at, or -1. */
static long first_diff(const uint8_t *a, size_t alen, const uint8_t *b,
		       size_t blen)
{
	size_t i;

	for (i = 0; i < alen && i < blen; i++)
		if (a[i] != b[i])
			return (long)i;
	return alen == blen ? -1 : (long)i;
}

static void say(bool json, unsigned int index, const char *what,
		const char *kernel, const char *headroom)
{
	if (json) {
		json_object *o = json_object_new_object();

		json_object_object_add(o, "index",
				       json_object_new_int((int)index));
		json_object_object_add(o, "differs",
				       json_object_new_string(what));
		json_object_object_add(o, "kernel",
				       json_object_new_string(kernel));
		json_object_object_add(o, "headroom",
				       json_object_new_string(headroom));
		printf("%s\n", json_object_to_json_string_ext(
				       o, JSON_C_TO_STRING_PLAIN));
		json_object_put(o);
		return;
	}
	printf("packet %u: %s differs: kernel %s, headroom %s\n", index, what,
	       kernel, headroom);
}

static bool cmp_bytes(bool json, unsigned int index, const char *what,
		      const uint8_t *k, size_t klen, const uint8_t *h,
		      size_t hlen)
{
	static char kh[2 * OUT_CAP + 64], hh[2 * OUT_CAP + 64];
	long at = first_diff(k, klen, h, hlen);

	if (at < 0)
		return true;
	hex(kh, sizeof(kh), k, klen);
	hex(hh, sizeof(hh), h, hlen);
	snprintf(kh + strlen(kh), 64, " (%zu bytes)", klen);
	snprintf(hh + strlen(hh), 64,
		 " (%zu bytes, first difference at "
		 "byte %ld)",
		 hlen, at);
	say(json, index, what, kh, hh);
	return false;
}

/* The context fields the kernel copies back, as JSON on both sides. */
static bool cmp_ctx(bool json, unsigned int index, const struct hr_cli_ctx *c,
		    const union hr_cli_ctx_buf *kout,
		    const union hr_cli_ctx_buf *hout)
{
	struct json_object *kj = hr_cli_ctx_json(c, kout);
	struct json_object *hj = hr_cli_ctx_json(c, hout);
	const char *ks = kj ? json_object_to_json_string_ext(
				      kj, JSON_C_TO_STRING_PLAIN) :
			      "?";
	const char *hs = hj ? json_object_to_json_string_ext(
				      hj, JSON_C_TO_STRING_PLAIN) :
			      "?";
	bool same = !strcmp(ks, hs);

	if (!same)
		say(json, index, "ctx", ks, hs);
	json_object_put(kj);
	json_object_put(hj);
	return same;
}

bool test_kernel_packet(struct test_kernel *k, unsigned int index,
			const uint8_t *in, size_t in_len, size_t meta_len,
			const struct test_kernel_answer *hr, bool json)
{
	static uint8_t out[OUT_CAP];
	union hr_cli_ctx_buf cin, cout;
	LIBBPF_OPTS(bpf_test_run_opts, o, .data_in = in,
		    .data_size_in = (uint32_t)in_len, .data_out = out,
		    .data_size_out = sizeof(out), .repeat = 1);
	char a[64], b[64];
	bool same = true;
	int err;

	memset(&cin, 0, sizeof(cin));
	memset(&cout, 0, sizeof(cout));
	if (hr->ctx_in)
		cin = *hr->ctx_in;
	if (k->xdp) {
		cin.md.data = (uint32_t)meta_len;
		cin.md.data_end = (uint32_t)in_len;
	}
	if (k->xdp || hr->ctx_in) {
		o.ctx_in = &cin;
		o.ctx_out = &cout;
		o.ctx_size_in = o.ctx_size_out = k->xdp ? sizeof(cin.md) :
							  sizeof(cin.skb);
	}
	err = bpf_prog_test_run_opts(k->fd, &o) ? -errno : 0;
	k->compared++;
	if (err || hr->err) {
		if (err != hr->err) {
			snprintf(a, sizeof(a), "%s",
				 err ? strerror(-err) : "ran");
			snprintf(b, sizeof(b), "%s",
				 hr->err ? strerror(-hr->err) : "ran");
			say(json, index, "test run", a, b);
			same = false;
		}
		goto out;
	}
	if (o.retval != hr->retval) {
		snprintf(a, sizeof(a), "%u", o.retval);
		snprintf(b, sizeof(b), "%u", hr->retval);
		say(json, index, "retval", a, b);
		same = false;
	}
	if (hr->ctx && hr->ctx_out)
		same &= cmp_ctx(json, index, hr->ctx, &cout, hr->ctx_out);
	if (k->xdp) {
		size_t ml = cout.md.data <= o.data_size_out ? cout.md.data : 0;

		same &= cmp_bytes(json, index, "meta", out, ml, hr->meta,
				  hr->meta_len);
		same &= cmp_bytes(json, index, "data", out + ml,
				  o.data_size_out - ml, hr->data, hr->data_len);
	} else {
		same &= cmp_bytes(json, index, "data", out, o.data_size_out,
				  hr->data, hr->data_len);
	}
out:
	k->differed += !same;
	return same;
}

static bool cmp_map(struct bpf_map *km, struct hr_map *hm, bool json)
{
	uint32_t ks = bpf_map__key_size(km), vs = bpf_map__value_size(km);
	uint8_t *key = calloc(1, ks ? ks : 1), *next = calloc(1, ks ? ks : 1);
	uint8_t *kv = calloc(1, vs), *hv = calloc(1, vs);
	char what[128], kh[512], hh[512];
	bool same = true, first = true;
	unsigned int n = 0;
	int fd = bpf_map__fd(km);

	if (!key || !next || !kv || !hv)
		goto out;
	while (!bpf_map_get_next_key(fd, first ? NULL : key, next)) {
		first = false;
		memcpy(key, next, ks);
		if (bpf_map_lookup_elem(fd, key, kv))
			continue;
		n++;
		if (!hr_map_lookup_elem(hm, key, hv) && !memcmp(kv, hv, vs))
			continue;
		hex(what, sizeof(what), key, ks > 48 ? 48 : ks);
		hex(kh, sizeof(kh), kv, vs > 200 ? 200 : vs);
		if (hr_map_lookup_elem(hm, key, hv))
			snprintf(hh, sizeof(hh), "no entry");
		else
			hex(hh, sizeof(hh), hv, vs > 200 ? 200 : vs);
		if (json) {
			json_object *o = json_object_new_object();

			json_object_object_add(
				o, "map",
				json_object_new_string(bpf_map__name(km)));
			json_object_object_add(o, "key",
					       json_object_new_string(what));
			json_object_object_add(o, "kernel",
					       json_object_new_string(kh));
			json_object_object_add(o, "headroom",
					       json_object_new_string(hh));
			printf("%s\n", json_object_to_json_string_ext(
					       o, JSON_C_TO_STRING_PLAIN));
			json_object_put(o);
		} else {
			printf("map %s key %s differs: kernel %s, headroom "
			       "%s\n",
			       bpf_map__name(km), what, kh, hh);
		}
		same = false;
	}
out:
	free(key);
	free(next);
	free(kv);
	free(hv);
	return same;
}

/* Every entry of headroom's @hm put in the kernel's @km (an array's
 * zeroes are already there). */
static int copy_map(struct bpf_map *km, struct hr_map *hm)
{
	uint32_t ks = hr_map_key_size(hm), vs = hr_map_value_size(hm);
	uint8_t *key = calloc(1, ks), *next = calloc(1, ks);
	uint8_t *val = calloc(1, vs), *zero = calloc(1, vs);
	bool array = bpf_map__type(km) == BPF_MAP_TYPE_ARRAY;
	int err = -ENOMEM, fd = bpf_map__fd(km);
	bool first = true;

	if (!key || !next || !val || !zero)
		goto out;
	err = 0;
	while (!err && !hr_map_get_next_key(hm, first ? NULL : key, next)) {
		first = false;
		memcpy(key, next, ks);
		if (hr_map_lookup_elem(hm, key, val) ||
		    (array && !memcmp(val, zero, vs)))
			continue;
		if (bpf_map_update_elem(fd, key, val, BPF_ANY))
			err = -errno;
	}
out:
	free(key);
	free(next);
	free(val);
	free(zero);
	return err;
}

int test_kernel_take_maps(struct test_kernel *k, const struct hr_object *obj)
{
	struct bpf_map *km;
	int err;

	bpf_object__for_each_map(km, k->obj)
	{
		struct hr_map *hm = hr_object_find_map(obj, bpf_map__name(km));

		if (!hm || bpf_map__is_internal(km) ||
		    !test_kernel_map_comparable(bpf_map__type(km)) ||
		    hr_map_key_size(hm) != bpf_map__key_size(km) ||
		    hr_map_value_size(hm) != bpf_map__value_size(km))
			continue;
		err = copy_map(km, hm);
		if (err) {
			fprintf(stderr,
				"headroom test --kernel: map %s: the kernel "
				"refuses headroom's entries: %s\n",
				bpf_map__name(km), strerror(-err));
			return err;
		}
	}
	return 0;
}

int test_kernel_user_ringbuf(struct test_kernel *k, const char *map,
			     uint8_t *const *data, const size_t *len,
			     unsigned int n)
{
	int fd = bpf_object__find_map_fd_by_name(k->obj, map);
	struct user_ring_buffer *rb;
	unsigned int i;
	void *sample;
	int err = 0;

	rb = fd >= 0 ? user_ring_buffer__new(fd, NULL) : NULL;
	if (!rb) {
		err = fd >= 0 ? -errno : -ENOENT;
		fprintf(stderr,
			"headroom test --kernel: map %s: no user ring buffer "
			"in the kernel's copy: %s\n",
			map, strerror(-err));
		return err;
	}
	for (i = 0; i < n && !err; i++) {
		sample = user_ring_buffer__reserve(rb, (uint32_t)len[i]);
		if (!sample) {
			err = -errno;
			fprintf(stderr,
				"headroom test --kernel: map %s: the kernel's "
				"ring refuses sample %u: %s\n",
				map, i + 1, strerror(errno));
			break;
		}
		memcpy(sample, data[i], len[i]);
		user_ring_buffer__submit(rb, sample);
	}
	user_ring_buffer__free(rb);
	return err;
}

bool test_kernel_maps(struct test_kernel *k, const struct hr_object *obj,
		      bool json)
{
	struct bpf_map *km;
	bool same = true;

	bpf_object__for_each_map(km, k->obj)
	{
		enum bpf_map_type t = bpf_map__type(km);
		struct hr_map *hm = hr_object_find_map(obj, bpf_map__name(km));

		if (!hm || bpf_map__is_internal(km))
			continue;
		if (!test_kernel_map_comparable(t)) {
			if (!json)
				printf("map %s: %s maps not compared\n",
				       bpf_map__name(km),
				       libbpf_bpf_map_type_str(t));
			continue;
		}
		same &= cmp_map(km, hm, json);
	}
	return same;
}

void test_kernel_counts(const struct test_kernel *k, unsigned int *compared,
			unsigned int *differed)
{
	*compared = k->compared;
	*differed = k->differed;
}
