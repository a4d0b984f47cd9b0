// SPDX-License-Identifier: MIT
/*
 * The tc helpers of helpers_tc_net.c and bpf_trace_vprintk, driven by
 * the cb[] words the test passes in and answering in cb[], the mark and
 * the return value, for test_tc_net_helpers to compare with the kernel.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

/* Everything about the flow hash but its value, which the kernel keys
 * with a boot-time secret. */
SEC("tc")
int tc_hash(struct __sk_buff *skb)
{
	__u32 want = skb->cb[1];
	__u32 h1, h2, h3;

	h1 = bpf_get_hash_recalc(skb);
	h2 = bpf_get_hash_recalc(skb);
	skb->cb[0] = (h1 != 0) | (h1 == h2) << 1 | (skb->hash == h1) << 2;
	bpf_set_hash(skb, want);
	skb->cb[1] = bpf_get_hash_recalc(skb);
	skb->cb[2] = skb->hash;
	bpf_set_hash_invalid(skb);
	skb->cb[3] = skb->hash;
	h3 = bpf_get_hash_recalc(skb);
	skb->cb[4] = (h3 == h1) | (h3 != 0) << 1;
	return bpf_set_hash(skb, 0) + bpf_get_hash_recalc(skb);
}

SEC("tc")
int tc_ecn(struct __sk_buff *skb)
{
	skb->cb[0] = bpf_skb_ecn_set_ce(skb);
	return bpf_skb_ecn_set_ce(skb) + 10;
}

SEC("tc")
int tc_mtu(struct __sk_buff *skb)
{
	__u32 mtu_len = skb->cb[0];
	long ret;

	ret = bpf_check_mtu(skb, skb->cb[1], &mtu_len, (__s32)skb->cb[2],
			    skb->cb[3]);
	skb->cb[0] = mtu_len;
	skb->cb[1] = (__u32)ret;
	return 0;
}

SEC("tc")
int tc_redirect_neigh(struct __sk_buff *skb)
{
	struct bpf_redir_neigh nh = { .nh_family = 2, .ipv4_nh = 0x0100000a };
	__u32 plen = skb->cb[2];

	if (plen > sizeof(nh))
		plen = sizeof(nh) + 1;
	if (skb->cb[1])
		return bpf_redirect_neigh(skb->cb[0], &nh, plen, skb->cb[3]);
	return bpf_redirect_neigh(skb->cb[0], 0, 0, skb->cb[3]);
}

SEC("tc")
int tc_redirect_peer(struct __sk_buff *skb)
{
	return bpf_redirect_peer(skb->cb[0], skb->cb[1]);
}

SEC("tc")
int tc_vprintk(struct __sk_buff *skb)
{
	static const char fmt[] = "hr %d %u %x %llx %s";
	static const char str[] = "str";
	__u64 args[7] = {
		skb->cb[0],	  skb->cb[1], skb->cb[2], 0x123456789ull,
		(__u64)(long)str, 0,	      0
	};
	__u32 n = skb->cb[4] ? 5 : (skb->cb[3] & 7) * 8;

	skb->cb[4] = bpf_trace_vprintk(fmt, sizeof(fmt), args, n);
	return 0;
}

char _license[] SEC("license") = "GPL";
