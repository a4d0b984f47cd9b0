/* SPDX-License-Identifier: MIT */
/*
 * --ctx-in FILE.json / --ctx-out FILE.json of `headroom test`: struct
 * __sk_buff (tc) and struct xdp_md (xdp) by field name, with the rules of
 * the kernel's bpf_prog_test_run_skb (convert___skb_to_skb) and
 * bpf_prog_test_run_xdp (xdp_convert_md_to_buff) named when one is broken.
 */
#ifndef HR_CLI_CTX_JSON_H
#define HR_CLI_CTX_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <linux/bpf.h>

#include <headroom/test_run.h>

struct json_object;

union hr_cli_ctx_buf {
	struct __sk_buff skb;
	struct xdp_md md;
};

struct hr_cli_ctx {
	const char *in_path; /* --ctx-in, or NULL */
	const char *out_path; /* --ctx-out, or NULL */
	bool xdp;
	union hr_cli_ctx_buf in; /* as read (zero without --ctx-in) */
	FILE *out;
};

/*
 * Reads --ctx-in for an xdp (@xdp) or tc program and opens --ctx-out;
 * 0, or -EINVAL after a one-line message naming the file and the field
 * (an unknown field, a value out of range, or a field the kernel's test
 * run refuses to take, with its rule).
 */
int hr_cli_ctx_open(struct hr_cli_ctx *c, bool xdp);
void hr_cli_ctx_close(struct hr_cli_ctx *c);

/*
 * The context of one run of @len packet bytes after @meta_len bytes of
 * metadata into @in, pointed at by @o (ctx_in and ctx_out, @out). NULL, or
 * the kernel rule this packet breaks with that context (the kernel answers
 * -EINVAL): wire_len shorter than the packet, xdp data/data_end not the
 * metadata and packet, tc metadata (6.18's skb test run takes none).
 */
const char *hr_cli_ctx_prepare(const struct hr_cli_ctx *c, uint32_t meta_len,
			       uint32_t len, union hr_cli_ctx_buf *in,
			       union hr_cli_ctx_buf *out,
			       struct hr_test_run_opts *o);

/* The fields of @out that differ from what the run was given (@in):
 * what the program set. A new object ({} when none), or NULL on ENOMEM. */
struct json_object *hr_cli_ctx_changed(const struct hr_cli_ctx *c,
				       const union hr_cli_ctx_buf *in,
				       const union hr_cli_ctx_buf *out);

/* Every field the kernel copies back (convert_skb_to___skb,
 * xdp_convert_buff_to_md), as a new object; NULL on ENOMEM. */
struct json_object *hr_cli_ctx_json(const struct hr_cli_ctx *c,
				    const union hr_cli_ctx_buf *ctx);

/* One --ctx-out line: {"index":N, fields...}; 0 or -EIO. */
int hr_cli_ctx_write(struct hr_cli_ctx *c, unsigned int index,
		     const union hr_cli_ctx_buf *out);

#endif /* HR_CLI_CTX_JSON_H */
