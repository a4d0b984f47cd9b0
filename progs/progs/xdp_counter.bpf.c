// SPDX-License-Identifier: MIT
/*
 * Counts packets per protocol (PERCPU_ARRAY, enum hr_count_slot) and
 * bytes per IPv4 source address (HASH). Always XDP_PASS.
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_endian.h>

#include "hr_progs.h"

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, HR_CNT_MAX);
	__type(key, __u32);
	__type(value, __u64);
} proto_count SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1024);
	__type(key, __be32);
	__type(value, __u64);
} src_bytes SEC(".maps");

static __always_inline void count(__u32 slot)
{
	__u64 *v = bpf_map_lookup_elem(&proto_count, &slot);

	if (v)
		*v += 1;
}

static __always_inline void add_bytes(__be32 src, __u64 len)
{
	__u64 *v = bpf_map_lookup_elem(&src_bytes, &src);

	if (v) {
		__sync_fetch_and_add(v, len);
		return;
	}
	/* A racing insert on another CPU wins; its count stays. */
	if (bpf_map_update_elem(&src_bytes, &src, &len, BPF_NOEXIST)) {
		v = bpf_map_lookup_elem(&src_bytes, &src);
		if (v)
			__sync_fetch_and_add(v, len);
	}
}

static __always_inline void count_ipv4(struct iphdr *iph)
{
	count(HR_CNT_IPV4);
	switch (iph->protocol) {
	case IPPROTO_TCP:
		count(HR_CNT_TCP);
		break;
	case IPPROTO_UDP:
		count(HR_CNT_UDP);
		break;
	case IPPROTO_ICMP:
		count(HR_CNT_ICMP);
		break;
	}
}

SEC("xdp")
int xdp_counter_prog(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *data_end = (void *)(long)ctx->data_end;
	struct ethhdr *eth = data;
	struct iphdr *iph;

	if ((void *)(eth + 1) > data_end) {
		count(HR_CNT_RUNT);
		return XDP_PASS;
	}
	switch (bpf_ntohs(eth->h_proto)) {
	case ETH_P_IP:
		iph = (void *)(eth + 1);
		if ((void *)(iph + 1) > data_end) {
			count(HR_CNT_RUNT);
			break;
		}
		count_ipv4(iph);
		add_bytes(iph->saddr, (__u64)(data_end - data));
		break;
	case ETH_P_IPV6:
		count(HR_CNT_IPV6);
		break;
	case ETH_P_ARP:
		count(HR_CNT_ARP);
		break;
	default:
		count(HR_CNT_OTHER);
		break;
	}
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
