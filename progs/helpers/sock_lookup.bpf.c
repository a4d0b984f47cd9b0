// SPDX-License-Identifier: MIT
/*
 * Socket lookups as the XDP synproxy and tc load balancers write them: a
 * tuple from the test's cb[] (tc) or the packet (XDP), looked up as TCP,
 * TCP request/listener (skc) and UDP, each found socket checked for a
 * syncookie and released, and in tc assigned to the packet. The return value encodes which lookups found a
 * socket, so an empty socket table shows as 0 in the kernel and in
 * headroom alike.
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/ip.h>
#include <linux/tcp.h>
#include <bpf/bpf_helpers.h>

static __always_inline int probe(void *ctx, struct bpf_sock_tuple *t,
				 __u32 size, __u64 netns, __u64 flags,
				 void *iph, void *th)
{
	struct bpf_sock *sk;
	int found = 0;

	sk = bpf_sk_lookup_tcp(ctx, t, size, netns, flags);
	if (sk) {
		found |= 1;
		if (bpf_tcp_check_syncookie(sk, iph, 20, th, 20) == 0)
			found |= 8;
		bpf_sk_release(sk);
	}
	sk = bpf_skc_lookup_tcp(ctx, t, size, netns, flags);
	if (sk) {
		found |= 2;
		if (bpf_tcp_gen_syncookie(sk, iph, 20, th, 20) >= 0)
			found |= 16;
		bpf_sk_release(sk);
	}
	sk = bpf_sk_lookup_udp(ctx, t, size, netns, flags);
	if (sk) {
		found |= 4;
		bpf_sk_release(sk);
	}
	return found;
}

/* tc alone may steer the packet to a socket it found (tproxy's way). */
static __always_inline int assign(struct __sk_buff *skb,
				  struct bpf_sock_tuple *t, __u32 size,
				  __u64 netns, __u64 flags)
{
	struct bpf_sock *sk = bpf_skc_lookup_tcp(skb, t, size, netns, flags);
	int found = 0;

	if (sk) {
		found = bpf_sk_assign(skb, sk, 0) == 0 ? 32 : 64;
		bpf_sk_release(sk);
	}
	return found;
}

SEC("tc")
int tc_sock_lookup(struct __sk_buff *skb)
{
	void *data = (void *)(long)skb->data;
	void *end = (void *)(long)skb->data_end;
	struct bpf_sock_tuple t = {};
	__u32 size = skb->cb[4] ? sizeof(t.ipv6) : sizeof(t.ipv4);
	__u64 netns = skb->cb[2] ? (__u64)(__s32)skb->cb[2] :
				   BPF_F_CURRENT_NETNS;

	if (data + 14 + 40 > end)
		return 100;
	t.ipv4.saddr = skb->cb[0];
	t.ipv4.daddr = skb->cb[1];
	t.ipv4.sport = 0x3930;
	t.ipv4.dport = 0x5000;
	return probe(skb, &t, size, netns, skb->cb[3], data + 14, data + 34) |
	       assign(skb, &t, size, netns, skb->cb[3]);
}

SEC("xdp")
int xdp_sock_lookup(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *end = (void *)(long)ctx->data_end;
	struct iphdr *ip = data + sizeof(struct ethhdr);
	struct tcphdr *th = (void *)(ip + 1);
	struct bpf_sock_tuple t = {};

	if ((void *)(th + 1) > end)
		return XDP_ABORTED;
	t.ipv4.saddr = ip->saddr;
	t.ipv4.daddr = ip->daddr;
	t.ipv4.sport = th->source;
	t.ipv4.dport = th->dest;
	return XDP_PASS + 8 * probe(ctx, &t, sizeof(t.ipv4),
				    BPF_F_CURRENT_NETNS, 0, ip, th);
}

char _license[] SEC("license") = "GPL";
