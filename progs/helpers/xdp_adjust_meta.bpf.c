// SPDX-License-Identifier: MIT
/*
 * bpf_xdp_adjust_meta with the deltas taken from the packet (see
 * hr_progs.h), then a marker written into each word of the metadata, so
 * that both the return code and the resulting layout are observable.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#include "hr_adjust.h"

#define MAX_META_WORDS 63 /* 252 / 4 */

static __always_inline void mark_meta(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	__u32 *meta = (void *)(long)ctx->data_meta;
	int i;

	for (i = 0; i < MAX_META_WORDS; i++) {
		if ((void *)(meta + 1) > data)
			break;
		*meta = HR_META_MARK | (__u32)i;
		meta++;
	}
}

HR_ADJUST_PROG(xdp_adjust_meta_prog, bpf_xdp_adjust_meta, mark_meta(ctx))

char _license[] SEC("license") = "GPL";
