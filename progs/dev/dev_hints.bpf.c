// SPDX-License-Identifier: MIT
/*
 * Copies the RX hints the device reports (through the metadata kfuncs)
 * into 32 bytes of metadata in front of the packet, with each kfunc's
 * return value, and passes the packet (struct dev_hints_meta).
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#include "hr_rx_kfuncs.h"

struct dev_hints_meta {
	__s32 ret_ts;
	__s32 ret_hash;
	__s32 ret_vlan;
	__u32 hash;
	__u32 rss_type;
	__u16 vlan_proto; /* network order, as the kfunc gives it */
	__u16 vlan_tci;
	__u64 ts;
};

SEC("xdp")
int dev_hints(struct xdp_md *ctx)
{
	struct dev_hints_meta *m;
	enum xdp_rss_hash_type type = 0;
	__u64 ts = 0;
	__u32 hash = 0;
	__be16 proto = 0;
	__u16 tci = 0;
	int rt, rh, rv;

	rt = bpf_xdp_metadata_rx_timestamp(ctx, &ts);
	rh = bpf_xdp_metadata_rx_hash(ctx, &hash, &type);
	rv = bpf_xdp_metadata_rx_vlan_tag(ctx, &proto, &tci);
	if (bpf_xdp_adjust_meta(ctx, -(int)sizeof(*m)))
		return XDP_ABORTED;
	m = (void *)(long)ctx->data_meta;
	if ((void *)(m + 1) > (void *)(long)ctx->data)
		return XDP_ABORTED;
	m->ret_ts = rt;
	m->ret_hash = rh;
	m->ret_vlan = rv;
	m->hash = hash;
	m->rss_type = type;
	m->vlan_proto = proto;
	m->vlan_tci = tci;
	m->ts = ts;
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
