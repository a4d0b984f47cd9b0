// SPDX-License-Identifier: MIT
/*
 * --ctx-in / --ctx-out: struct __sk_buff and struct xdp_md as JSON objects
 * keyed by field name. The fields that may be set and the checks follow
 * net/bpf/test_run.c of Linux 6.18: convert___skb_to_skb and
 * bpf_prog_test_run_skb for tc, bpf_prog_test_run_xdp and
 * xdp_convert_md_to_buff for xdp; the fields written back follow
 * convert_skb_to___skb and xdp_convert_buff_to_md.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "cli/ctx_json.h"

#define GSO_MAX_SEGS 65535u
#define GSO_LEGACY_MAX_SIZE 65536u

struct ctx_field {
	const char *name;
	uint32_t off;
	uint8_t size; /* of one element: 4 or 8 */
	uint8_t count; /* elements (cb[5], remote_ip6[4]) */
	bool in; /* user space may set it */
	bool out; /* the kernel copies it back */
};

#define SKB_SZ(f) sizeof(((struct __sk_buff *)0)->f)
/* Arrays (cb, remote_ip6, local_ip6) are of __u32. */
#define SKB(f, in, out)                                           \
	{                                                         \
#f, offsetof(struct __sk_buff, f),                \
			SKB_SZ(f)> 8 ? 4 : SKB_SZ(f),             \
			SKB_SZ(f)> 8 ? SKB_SZ(f) / 4 : 1, in, out \
	}

/* Every field of struct __sk_buff but the padding and tstamp_type. */
static const struct ctx_field skb_fields[] = {
	SKB(len, false, false),	       SKB(pkt_type, false, false),
	SKB(mark, true, true),	       SKB(queue_mapping, false, false),
	SKB(protocol, false, false),   SKB(vlan_present, false, false),
	SKB(vlan_tci, false, false),   SKB(vlan_proto, false, false),
	SKB(priority, true, true),     SKB(ingress_ifindex, true, true),
	SKB(ifindex, true, true),      SKB(tc_index, false, false),
	SKB(cb, true, true),	       SKB(hash, false, false),
	SKB(tc_classid, false, false), SKB(data, false, false),
	SKB(data_end, false, false),   SKB(napi_id, false, false),
	SKB(family, false, false),     SKB(remote_ip4, false, false),
	SKB(local_ip4, false, false),  SKB(remote_ip6, false, false),
	SKB(local_ip6, false, false),  SKB(remote_port, false, false),
	SKB(local_port, false, false), SKB(data_meta, false, false),
	SKB(flow_keys, false, false),  SKB(tstamp, true, true),
	SKB(wire_len, true, true),     SKB(gso_segs, true, true),
	SKB(sk, false, false),	       SKB(gso_size, true, false),
	SKB(hwtstamp, true, true),
};

#define MD(f, in)                                              \
	{                                                      \
#f, offsetof(struct xdp_md, f), 4, 1, in, true \
	}

static const struct ctx_field md_fields[] = {
	MD(data, true),		  MD(data_end, true),
	MD(data_meta, false),	  MD(ingress_ifindex, true),
	MD(rx_queue_index, true), MD(egress_ifindex, false),
};

static const struct ctx_field *fields(bool xdp, size_t *n)
{
	*n = xdp ? sizeof(md_fields) / sizeof(md_fields[0]) :
		   sizeof(skb_fields) / sizeof(skb_fields[0]);
	return xdp ? md_fields : skb_fields;
}

static const struct ctx_field *find_field(bool xdp, const char *name)
{
	const struct ctx_field *f;
	size_t i, n;

	f = fields(xdp, &n);
	for (i = 0; i < n; i++)
		if (!strcmp(f[i].name, name))
			return &f[i];
	return NULL;
}

static uint64_t get_elem(const void *ctx, const struct ctx_field *f,
			 unsigned int i)
{
	const uint8_t *p = (const uint8_t *)ctx + f->off + i * f->size;
	uint64_t v = 0;

	memcpy(&v, p, f->size);
	return v;
}

static void set_elem(void *ctx, const struct ctx_field *f, unsigned int i,
		     uint64_t v)
{
	memcpy((uint8_t *)ctx + f->off + i * f->size, &v, f->size);
}

/* A JSON number (or "0x" string) in [0, max]; 0 or -EINVAL. */
static int json_u64(struct json_object *v, uint64_t max, uint64_t *out)
{
	char *end;

	errno = 0;
	if (json_object_is_type(v, json_type_int)) {
		if (json_object_get_int64(v) < 0)
			return -EINVAL;
		*out = json_object_get_uint64(v);
	} else if (json_object_is_type(v, json_type_string)) {
		const char *s = json_object_get_string(v);

		if (*s == '-')
			return -EINVAL;
		*out = strtoull(s, &end, 0);
		if (!*s || *end)
			return -EINVAL;
	} else {
		return -EINVAL;
	}
	return errno || *out > max ? -EINVAL : 0;
}

static int read_field(const char *path, bool xdp, const char *key,
		      struct json_object *v, void *ctx)
{
	const struct ctx_field *f = find_field(xdp, key);
	uint64_t max, x;
	unsigned int i, n = 1;

	if (!f) {
		fprintf(stderr,
			"headroom: --ctx-in %s: struct %s has no field '%s'\n",
			path, xdp ? "xdp_md" : "__sk_buff", key);
		return -EINVAL;
	}
	max = f->size == 8 ? UINT64_MAX : UINT32_MAX;
	if (f->count > 1) {
		n = json_object_is_type(v, json_type_array) ?
			    (unsigned int)json_object_array_length(v) :
			    0;
		if (!n || n > f->count) {
			fprintf(stderr,
				"headroom: --ctx-in %s: '%s' wants an array "
				"of 1 to %u numbers\n",
				path, key, f->count);
			return -EINVAL;
		}
	}
	for (i = 0; i < n; i++) {
		struct json_object *e =
			f->count > 1 ? json_object_array_get_idx(v, i) : v;

		if (json_u64(e, max, &x)) {
			fprintf(stderr,
				"headroom: --ctx-in %s: '%s': want a number "
				"from 0 to %llu, got %s\n",
				path, key, (unsigned long long)max,
				json_object_to_json_string_ext(
					e, JSON_C_TO_STRING_PLAIN));
			return -EINVAL;
		}
		set_elem(ctx, f, i, x);
	}
	return 0;
}

static const char skb_allowed[] =
	"bpf_prog_test_run_skb takes only mark, priority, ingress_ifindex, "
	"ifindex, cb, tstamp, wire_len, gso_segs, gso_size and hwtstamp "
	"(convert___skb_to_skb answers -EINVAL)";

/* What the kernel refuses whatever the packet; NULL when it takes it. */
static const char *ctx_rule(bool xdp, const union hr_cli_ctx_buf *b,
			    const char **field)
{
	const struct ctx_field *f;
	size_t i, n;
	unsigned int j;

	f = fields(xdp, &n);
	for (i = 0; i < n; i++) {
		if (f[i].in)
			continue;
		for (j = 0; j < f[i].count; j++)
			if (get_elem(b, &f[i], j))
				break;
		if (j == f[i].count)
			continue;
		*field = f[i].name;
		if (!xdp)
			return skb_allowed;
		if (!strcmp(f[i].name, "data_meta"))
			return "bpf_prog_test_run_xdp takes data_meta 0 (the "
			       "metadata is the first 'data' bytes of "
			       "data_in): -EINVAL";
		return "xdp_convert_md_to_buff takes no egress_ifindex: "
		       "-EINVAL";
	}
	if (xdp) {
		*field = "rx_queue_index";
		if (!b->md.ingress_ifindex && b->md.rx_queue_index)
			return "xdp_convert_md_to_buff: rx_queue_index needs "
			       "ingress_ifindex: -EINVAL";
		*field = "ingress_ifindex";
		if (b->md.ingress_ifindex > 1)
			return "headroom's test runs have only lo (ifindex "
			       "1): -ENODEV (the kernel looks the device up "
			       "in its network namespace)";
		*field = "rx_queue_index";
		if (b->md.rx_queue_index >= 1)
			return "xdp_convert_md_to_buff: rx_queue_index must "
			       "be below lo's 1 RX queue: -EINVAL";
		return NULL;
	}
	*field = "ifindex";
	if (b->skb.ifindex > 1)
		return "headroom's test runs have only lo (ifindex 1): "
		       "-ENODEV (the kernel looks the device up in its "
		       "network namespace)";
	*field = "gso_segs";
	if (b->skb.gso_segs > GSO_MAX_SEGS)
		return "convert___skb_to_skb: gso_segs above GSO_MAX_SEGS "
		       "(65535): -EINVAL";
	*field = "wire_len";
	if (b->skb.wire_len > GSO_LEGACY_MAX_SIZE)
		return "convert___skb_to_skb: wire_len above "
		       "GSO_LEGACY_MAX_SIZE (65536): -EINVAL";
	return NULL;
}

static int read_in(struct hr_cli_ctx *c)
{
	struct json_object *root = json_object_from_file(c->in_path);
	const char *rule, *field = "";
	int ret = 0;

	if (!root || !json_object_is_type(root, json_type_object)) {
		fprintf(stderr,
			"headroom: --ctx-in %s: not a JSON object: %s\n",
			c->in_path,
			root ? "another JSON value" : json_util_get_last_err());
		json_object_put(root);
		return -EINVAL;
	}
	json_object_object_foreach(root, key, val)
	{
		ret = read_field(c->in_path, c->xdp, key, val, &c->in);
		if (ret)
			break;
	}
	json_object_put(root);
	if (ret)
		return ret;
	rule = ctx_rule(c->xdp, &c->in, &field);
	if (rule) {
		fprintf(stderr,
			"headroom: --ctx-in %s: '%s' may not be set: %s\n",
			c->in_path, field, rule);
		return -EINVAL;
	}
	return 0;
}

int hr_cli_ctx_open(struct hr_cli_ctx *c, bool xdp)
{
	c->xdp = xdp;
	memset(&c->in, 0, sizeof(c->in));
	if (c->in_path && read_in(c))
		return -EINVAL;
	if (c->out_path) {
		c->out = fopen(c->out_path, "w");
		if (!c->out) {
			fprintf(stderr, "headroom: --ctx-out %s: %s\n",
				c->out_path, strerror(errno));
			return -EINVAL;
		}
	}
	return 0;
}

void hr_cli_ctx_close(struct hr_cli_ctx *c)
{
	if (c->out)
		fclose(c->out);
	c->out = NULL;
}

const char *hr_cli_ctx_prepare(const struct hr_cli_ctx *c, uint32_t meta_len,
			       uint32_t len, union hr_cli_ctx_buf *in,
			       union hr_cli_ctx_buf *out,
			       struct hr_test_run_opts *o)
{
	*in = c->in;
	memset(out, 0, sizeof(*out));
	o->ctx_in = in;
	o->ctx_out = out;
	o->ctx_size_in = o->ctx_size_out = c->xdp ? sizeof(in->md) :
						    sizeof(in->skb);
	if (c->xdp) {
		if (in->md.data && in->md.data != meta_len)
			return "bpf_prog_test_run_xdp: 'data' is the metadata "
			       "length (the --meta bytes): -EINVAL";
		/* 6.18 reads data_end as the end of the linear part (the
		 * rest of the packet goes to fragments); 0 here means not
		 * given: all of it, as far as a frame holds. */
		if (in->md.data_end > meta_len + len)
			return "bpf_prog_test_run_xdp: 'data_end' is past the "
			       "end of data_in (metadata and packet): -EINVAL";
		if (in->md.data_end && in->md.data_end < meta_len)
			return "bpf_prog_test_run_xdp: 'data_end' is before "
			       "'data' (the metadata's end): -EINVAL";
		in->md.data = meta_len;
		if (!in->md.data_end)
			in->md.data_end = meta_len + len;
		return NULL;
	}
	if (meta_len)
		return "Linux 6.18's tc test run (bpf_prog_test_run_skb) "
		       "takes no metadata: __sk_buff.data_meta is not among "
		       "the fields convert___skb_to_skb accepts: -EINVAL";
	if (in->skb.wire_len && in->skb.wire_len < len)
		return "convert___skb_to_skb: wire_len shorter than the "
		       "packet: -EINVAL";
	return NULL;
}

static int add(struct json_object *o, const char *k, struct json_object *v)
{
	if (!v || json_object_object_add(o, k, v)) {
		json_object_put(v);
		return -ENOMEM;
	}
	return 0;
}

static struct json_object *field_json(const void *ctx,
				      const struct ctx_field *f)
{
	struct json_object *a;
	unsigned int i;

	if (f->count == 1)
		return json_object_new_uint64(get_elem(ctx, f, 0));
	a = json_object_new_array();
	for (i = 0; a && i < f->count; i++)
		if (json_object_array_add(
			    a, json_object_new_uint64(get_elem(ctx, f, i)))) {
			json_object_put(a);
			return NULL;
		}
	return a;
}

static bool field_same(const void *a, const void *b, const struct ctx_field *f)
{
	return !memcmp((const uint8_t *)a + f->off, (const uint8_t *)b + f->off,
		       (size_t)f->size * f->count);
}

struct json_object *hr_cli_ctx_changed(const struct hr_cli_ctx *c,
				       const union hr_cli_ctx_buf *in,
				       const union hr_cli_ctx_buf *out)
{
	struct json_object *o = json_object_new_object();
	const struct ctx_field *f;
	size_t i, n;

	f = fields(c->xdp, &n);
	for (i = 0; o && i < n; i++) {
		if (!f[i].out || field_same(in, out, &f[i]))
			continue;
		/* Moved by an adjust helper or filled in by the run: not
		 * something the program set. */
		if (c->xdp || !strcmp(f[i].name, "ifindex") ||
		    !strcmp(f[i].name, "wire_len"))
			continue;
		if (add(o, f[i].name, field_json(out, &f[i]))) {
			json_object_put(o);
			return NULL;
		}
	}
	return o;
}

struct json_object *hr_cli_ctx_json(const struct hr_cli_ctx *c,
				    const union hr_cli_ctx_buf *ctx)
{
	struct json_object *o = json_object_new_object();
	const struct ctx_field *f;
	size_t i, n;

	f = fields(c->xdp, &n);
	for (i = 0; o && i < n; i++)
		if (f[i].out && add(o, f[i].name, field_json(ctx, &f[i]))) {
			json_object_put(o);
			return NULL;
		}
	return o;
}

int hr_cli_ctx_write(struct hr_cli_ctx *c, unsigned int index,
		     const union hr_cli_ctx_buf *out)
{
	struct json_object *o, *line = json_object_new_object();
	int ret = -EIO;

	if (!c->out)
		return 0;
	o = hr_cli_ctx_json(c, out);
	if (line && o && !add(line, "index", json_object_new_int64(index))) {
		json_object_object_foreach(o, k, v)
		{
			if (add(line, k, json_object_get(v)))
				goto out;
		}
		if (fprintf(c->out, "%s\n",
			    json_object_to_json_string_ext(
				    line, JSON_C_TO_STRING_PLAIN)) > 0)
			ret = 0;
	}
out:
	json_object_put(o);
	json_object_put(line);
	return ret;
}
