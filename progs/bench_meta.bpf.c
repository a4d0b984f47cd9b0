// SPDX-License-Identifier: MIT
/*
 * bench/engines (c'): (c) without the hints: the same bpf_xdp_adjust_meta,
 * data_meta check and 16-byte metadata write, with the values the bench
 * device's hints give as constants. (c) - (c') is what the three hint
 * kfuncs cost.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#include "hr_rx_kfuncs.h" /* struct bench_meta */

SEC("xdp")
int bench_meta(struct xdp_md *ctx)
{
	struct bench_meta *m;
	void *data;

	if (bpf_xdp_adjust_meta(ctx, -(int)sizeof(*m)))
		return XDP_ABORTED;
	m = (void *)(long)ctx->data_meta;
	data = (void *)(long)ctx->data;
	if ((void *)(m + 1) > data)
		return XDP_ABORTED;
	m->hash = 0x9e3779b9;
	m->rss_type = 0x19;
	m->ts_lo = 0x3d85cd15; /* the low 32 bits of 1700000000123456789 */
	m->vlan_tci = 42;
	m->vlan_proto = 0x0081;
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
