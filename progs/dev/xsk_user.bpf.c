// SPDX-License-Identifier: MIT
/*
 * A user's XDP programs for headroom's real-interface devices (tests/dev/
 * test_afxdp.c, test_tap.c, bench/afxdp.c):
 *   xsk_user_hints  records, per UDP source port, what the metadata kfuncs
 *                   answered (the kernel's hints brought in over AF_XDP);
 *   xsk_fwd         drops UDP to port 9 (a flood) and forwards everything
 *                   else to the device tx_port maps the ingress to, as a
 *                   two-port bridge;
 *   xsk_drop        drops and counts (the bench's program, also loaded
 *                   in the kernel for its own figure).
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/udp.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

#include "hr_rx_kfuncs.h"

struct xsk_seen {
	__s32 ret_hash;
	__u32 hash;
	__u32 hash_type;
	__s32 ret_ts;
	__u64 ts;
	__s32 ret_vlan;
	__u32 vlan_tci;
	__u32 count;
	__u32 pad;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1024);
	__type(key, __u32);
	__type(value, struct xsk_seen);
} seen SEC(".maps");

/* 0: flood dropped, 1: forwarded, 2: forward failed, 3: dropped (xsk_drop) */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 4);
	__type(key, __u32);
	__type(value, __u64);
} fwd_counts SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_DEVMAP);
	__uint(max_entries, 256);
	__type(key, __u32);
	__type(value, __u32);
} tx_port SEC(".maps");

static __always_inline void count(__u32 k)
{
	__u64 *c = bpf_map_lookup_elem(&fwd_counts, &k);

	if (c)
		__sync_fetch_and_add(c, 1);
}

/* The UDP header of an IPv4 packet without options, or NULL. */
static __always_inline struct udphdr *udp_of(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *end = (void *)(long)ctx->data_end;
	struct ethhdr *eth = data;
	struct iphdr *ip = (void *)(eth + 1);
	struct udphdr *udp = (void *)(ip + 1);

	if ((void *)(udp + 1) > end)
		return NULL;
	if (eth->h_proto != bpf_htons(ETH_P_IP) || ip->ihl != 5 ||
	    ip->protocol != IPPROTO_UDP)
		return NULL;
	return udp;
}

SEC("xdp")
int xsk_user_hints(struct xdp_md *ctx)
{
	struct udphdr *udp = udp_of(ctx);
	struct xsk_seen s = {}, *old;
	enum xdp_rss_hash_type type = 0;
	__be16 proto;
	__u16 tci;
	__u32 key;

	if (!udp)
		return XDP_DROP;
	key = bpf_ntohs(udp->source);
	s.ret_hash = bpf_xdp_metadata_rx_hash(ctx, &s.hash, &type);
	s.hash_type = type;
	s.ret_ts = bpf_xdp_metadata_rx_timestamp(ctx, &s.ts);
	s.ret_vlan = bpf_xdp_metadata_rx_vlan_tag(ctx, &proto, &tci);
	s.vlan_tci = s.ret_vlan ? 0 : tci;
	old = bpf_map_lookup_elem(&seen, &key);
	s.count = old ? old->count + 1 : 1;
	bpf_map_update_elem(&seen, &key, &s, BPF_ANY);
	return XDP_DROP;
}

SEC("xdp")
int xsk_fwd(struct xdp_md *ctx)
{
	struct udphdr *udp = udp_of(ctx);
	long ret;

	if (udp && udp->dest == bpf_htons(9)) {
		count(0);
		return XDP_DROP;
	}
	ret = bpf_redirect_map(&tx_port, ctx->ingress_ifindex, 0);
	count(ret == XDP_REDIRECT ? 1 : 2);
	return ret;
}

SEC("xdp")
int xsk_drop(struct xdp_md *ctx)
{
	count(3);
	return XDP_DROP;
}

char _license[] SEC("license") = "GPL";
