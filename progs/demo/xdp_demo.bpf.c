// SPDX-License-Identifier: MIT
/*
 * The demo program: 16 bytes of metadata (struct hr_demo_meta: magic,
 * packet length, a running counter, ethertype) for the tc program
 * downstream, and the Ethernet addresses swapped. IPv4 UDP goes back out
 * (XDP_TX), runts are dropped, everything else passes.
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_endian.h>

#include "hr_progs.h"

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u32);
} demo_counter SEC(".maps");

static __always_inline void swap_macs(struct ethhdr *eth)
{
	__u8 tmp[ETH_ALEN];

	__builtin_memcpy(tmp, eth->h_dest, ETH_ALEN);
	__builtin_memcpy(eth->h_dest, eth->h_source, ETH_ALEN);
	__builtin_memcpy(eth->h_source, tmp, ETH_ALEN);
}

static __always_inline __u32 next_count(void)
{
	__u32 key = 0;
	__u32 *v = bpf_map_lookup_elem(&demo_counter, &key);

	if (!v)
		return 0;
	/* clang 14 at the default -mcpu cannot use a fetch-add's result, so
	 * the value is read back: workers racing may see the same count. */
	__sync_fetch_and_add(v, 1);
	return *v;
}

SEC("xdp")
int xdp_demo_prog(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *data_end = (void *)(long)ctx->data_end;
	struct hr_demo_meta *meta;
	struct ethhdr *eth = data;
	struct iphdr *iph;
	__u32 len = (__u32)(data_end - data);
	__be16 proto;

	if ((void *)(eth + 1) > data_end)
		return XDP_DROP;
	proto = eth->h_proto;

	/* Moves data_meta: every packet pointer must be loaded again. */
	if (bpf_xdp_adjust_meta(ctx, -(int)sizeof(*meta)) == 0) {
		meta = (void *)(long)ctx->data_meta;
		data = (void *)(long)ctx->data;
		if ((void *)(meta + 1) > data)
			return XDP_ABORTED;
		meta->magic = HR_DEMO_MAGIC;
		meta->pkt_len = len;
		meta->counter = next_count();
		meta->ethertype = proto;
		meta->pad = 0;
	}

	data = (void *)(long)ctx->data;
	data_end = (void *)(long)ctx->data_end;
	eth = data;
	if ((void *)(eth + 1) > data_end)
		return XDP_ABORTED;
	swap_macs(eth);

	if (proto != bpf_htons(ETH_P_IP))
		return XDP_PASS;
	iph = (void *)(eth + 1);
	if ((void *)(iph + 1) > data_end)
		return XDP_DROP;
	return iph->protocol == IPPROTO_UDP ? XDP_TX : XDP_PASS;
}

char _license[] SEC("license") = "GPL";
