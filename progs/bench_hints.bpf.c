// SPDX-License-Identifier: MIT
/*
 * bench/engines (c): read all three RX hints through the metadata kfuncs
 * and write 16 bytes of metadata in front of the packet (hash, RSS type,
 * the timestamp's low 32 bits, VLAN TCI and protocol). Device-bound: the
 * kernel cannot test-run it.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#include "hr_progs.h" /* enum xdp_rss_hash_type */

extern int bpf_xdp_metadata_rx_timestamp(const struct xdp_md *ctx,
					 __u64 *timestamp) __ksym;
extern int bpf_xdp_metadata_rx_hash(const struct xdp_md *ctx, __u32 *hash,
				    enum xdp_rss_hash_type *rss_type) __ksym;
extern int bpf_xdp_metadata_rx_vlan_tag(const struct xdp_md *ctx,
					__be16 *vlan_proto,
					__u16 *vlan_tci) __ksym;

struct bench_meta {
	__u32 hash;
	__u32 rss_type;
	__u32 ts_lo;
	__u16 vlan_tci;
	__u16 vlan_proto;
};

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
