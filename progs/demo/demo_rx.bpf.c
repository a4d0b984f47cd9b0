// SPDX-License-Identifier: MIT
/*
 * The demo's RX program: reads the RX hash, its type and the timestamp
 * through the metadata kfuncs, writes them in 16 bytes of metadata in front
 * of the packet, and spreads packets over two CPUs by hash via a cpumap.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#include "hr_rx_kfuncs.h"

struct demo_meta {
	__u32 hash;
	__u32 rss_type;
	__u32 ts_lo;
	__u32 magic;
};

#define DEMO_MAGIC 0x4d524448 /* "HDRM" */

struct {
	__uint(type, BPF_MAP_TYPE_CPUMAP);
	__uint(max_entries, 2);
	__type(key, __u32);
	__type(value, __u32);
} cpu_map SEC(".maps");

SEC("xdp")
int demo_rx(struct xdp_md *ctx)
{
	enum xdp_rss_hash_type type = 0;
	struct demo_meta *m;
	__u32 hash = 0;
	__u64 ts = 0;
	void *data;

	bpf_xdp_metadata_rx_hash(ctx, &hash, &type);
	bpf_xdp_metadata_rx_timestamp(ctx, &ts);
	if (bpf_xdp_adjust_meta(ctx, -(int)sizeof(*m)))
		return XDP_ABORTED;
	m = (void *)(long)ctx->data_meta;
	data = (void *)(long)ctx->data;
	if ((void *)(m + 1) > data)
		return XDP_ABORTED;
	m->hash = hash;
	m->rss_type = type;
	m->ts_lo = (__u32)ts;
	m->magic = DEMO_MAGIC;
	return bpf_redirect_map(&cpu_map, hash & 1, XDP_DROP);
}

char _license[] SEC("license") = "GPL";
