// SPDX-License-Identifier: MIT
/*
 * bench/engines (c'): (c) without the hints. The same program, with each
 * kfunc call replaced by a compiler barrier that takes the addresses of
 * its out variables, so that the variables, their zeroing, their reload
 * and the bpf_xdp_adjust_meta, data_meta check and 16-byte write stay as
 * in (c): "(a) plus the cost of the metadata write". (c) - (c') is what
 * the three hint kfuncs cost.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#include "hr_rx_kfuncs.h" /* struct bench_meta */

/* What the compiler must assume a kfunc may do to @a and @b. */
#define WRITTEN(a, b) asm volatile("" : : "r"(a), "r"(b) : "memory")

SEC("xdp")
int bench_meta(struct xdp_md *ctx)
{
	struct bench_meta *m;
	__u64 ts = 0;
	enum xdp_rss_hash_type type = 0;
	__u32 hash = 0;
	__u16 tci = 0;
	__be16 proto = 0;
	void *data;

	WRITTEN(&hash, &type);
	WRITTEN(&ts, &ts);
	WRITTEN(&proto, &tci);
	if (bpf_xdp_adjust_meta(ctx, -(int)sizeof(*m)))
		return XDP_ABORTED;
	m = (void *)(long)ctx->data_meta;
	data = (void *)(long)ctx->data;
	if ((void *)(m + 1) > data)
		return XDP_ABORTED;
	m->hash = hash;
	m->rss_type = type;
	m->ts_lo = (__u32)ts;
	m->vlan_tci = tci;
	m->vlan_proto = proto;
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
