// SPDX-License-Identifier: MIT
/*
 * bench/engines (c): read all three RX hints through the metadata kfuncs
 * and write 16 bytes of metadata in front of the packet (hash, RSS type,
 * the timestamp's low 32 bits, VLAN TCI and protocol). Device-bound: the
 * kernel cannot test-run it.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#include "hr_rx_kfuncs.h"

SEC("xdp")
int bench_hints(struct xdp_md *ctx)
{
	struct bench_meta *m;
	__u64 ts = 0;
	enum xdp_rss_hash_type type = 0;
	__u32 hash = 0;
	__u16 tci = 0;
	__be16 proto = 0;
	void *data;

	bpf_xdp_metadata_rx_hash(ctx, &hash, &type);
	bpf_xdp_metadata_rx_timestamp(ctx, &ts);
	bpf_xdp_metadata_rx_vlan_tag(ctx, &proto, &tci);
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
