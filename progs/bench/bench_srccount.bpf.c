// SPDX-License-Identifier: MIT
/*
 * bench/engines (e): (b)'s parse, plus a count per IPv4 source address in
 * a hash map, then DROP for UDP port 9 else PASS.
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/udp.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_endian.h>

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1024);
	__type(key, __u32);
	__type(value, __u64);
} per_source SEC(".maps");

SEC("xdp")
int bench_srccount(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *data_end = (void *)(long)ctx->data_end;
	struct ethhdr *eth = data;
	struct iphdr *ip;
	struct udphdr *udp;
	__u64 one = 1, *cnt;
	__u32 src;

	if ((void *)(eth + 1) > data_end)
		return XDP_PASS;
	if (eth->h_proto != bpf_htons(ETH_P_IP))
		return XDP_PASS;
	ip = (void *)(eth + 1);
	if ((void *)(ip + 1) > data_end || ip->ihl < 5)
		return XDP_PASS;
	src = ip->saddr;
	cnt = bpf_map_lookup_elem(&per_source, &src);
	if (cnt)
		__sync_fetch_and_add(cnt, 1);
	else
		bpf_map_update_elem(&per_source, &src, &one, BPF_NOEXIST);
	if (ip->protocol != IPPROTO_UDP)
		return XDP_PASS;
	udp = (void *)ip + ip->ihl * 4;
	if ((void *)(udp + 1) > data_end)
		return XDP_PASS;
	return udp->dest == bpf_htons(9) ? XDP_DROP : XDP_PASS;
}

char _license[] SEC("license") = "GPL";
