// SPDX-License-Identifier: MIT
/*
 * The kernel side of tests/dev/test_afxdp.c: at tc egress of the sending
 * veth end, the skb's flow hash (bpf_get_hash_recalc, skb_get_hash) by
 * UDP source port. The same skb crosses the veth, and the receiving end's
 * bpf_xdp_metadata_rx_hash answers skb_get_hash of it: headroom's program
 * must read this value through AF_XDP.
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/pkt_cls.h>
#include <linux/udp.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1024);
	__type(key, __u32);
	__type(value, __u32);
} skb_hash SEC(".maps");

SEC("tc")
int record_hash(struct __sk_buff *skb)
{
	void *data = (void *)(long)skb->data;
	void *end = (void *)(long)skb->data_end;
	struct ethhdr *eth = data;
	struct iphdr *ip = (void *)(eth + 1);
	struct udphdr *udp = (void *)(ip + 1);
	__u32 key, hash;

	if ((void *)(udp + 1) > end)
		return TC_ACT_OK;
	if (eth->h_proto != bpf_htons(ETH_P_IP) || ip->ihl != 5 ||
	    ip->protocol != IPPROTO_UDP)
		return TC_ACT_OK;
	key = bpf_ntohs(udp->source);
	hash = bpf_get_hash_recalc(skb);
	bpf_map_update_elem(&skb_hash, &key, &hash, BPF_ANY);
	return TC_ACT_OK;
}

char _license[] SEC("license") = "GPL";
