/* SPDX-License-Identifier: MIT */
/*
 * Metadata of a known pattern made by an XDP program, for the tests that
 * follow it into tc (skb_meta_dynptr, skb_meta_helpers). The pattern is
 * shared with the host code that checks it; the function is BPF only.
 */
#ifndef HR_PROGS_META_MAKE_H
#define HR_PROGS_META_MAKE_H

#include <linux/types.h>

#define HR_META_MAX 252
/* Byte @i of the metadata made for case @idx. */
#define HR_META_BYTE(idx, i) ((__u8)((idx)*37u + (i)*3u + 1u))

#ifdef __bpf__
/*
 * bpf_xdp_adjust_meta(-@len) unless @len is 0, then each byte made set to
 * HR_META_BYTE(@idx, i); the adjustment's result (nothing set when it
 * failed).
 */
static __always_inline int hr_meta_make(struct xdp_md *ctx, __u32 len,
					__u32 idx)
{
	__u8 *m, *d;
	int rc = 0, i;

	if (len)
		rc = bpf_xdp_adjust_meta(ctx, -(int)len);
	if (rc)
		return rc;
	m = (void *)(long)ctx->data_meta;
	d = (void *)(long)ctx->data;
#pragma unroll
	for (i = 0; i < HR_META_MAX; i++) {
		if (m + i + 1 > d)
			break;
		m[i] = HR_META_BYTE(idx, i);
	}
	return 0;
}
#endif

#endif /* HR_PROGS_META_MAKE_H */
