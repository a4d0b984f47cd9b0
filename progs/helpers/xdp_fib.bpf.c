// SPDX-License-Identifier: MIT
/*
 * bpf_fib_lookup from XDP and tc: the packet carries the flags (4 bytes),
 * 4 spare bytes and a struct bpf_fib_lookup; the program looks it up and
 * writes the result over the flags and the updated struct back.
 */
#include <linux/bpf.h>
#include <linux/pkt_cls.h>
#include <bpf/bpf_helpers.h>

#define PLEN (8 + sizeof(struct bpf_fib_lookup))

SEC("xdp")
int xdp_fib(struct xdp_md *ctx)
{
	struct bpf_fib_lookup p;
	__u32 hdr[2];
	long rc;

	if (bpf_xdp_load_bytes(ctx, 0, hdr, sizeof(hdr)) ||
	    bpf_xdp_load_bytes(ctx, 8, &p, sizeof(p)))
		return XDP_DROP;
	rc = bpf_fib_lookup(ctx, &p, hdr[1] ? 32 : sizeof(p), hdr[0]);
	hdr[0] = (__u32)rc;
	bpf_xdp_store_bytes(ctx, 0, hdr, sizeof(hdr));
	bpf_xdp_store_bytes(ctx, 8, &p, sizeof(p));
	return XDP_PASS;
}

SEC("tc")
int tc_fib(struct __sk_buff *skb)
{
	struct bpf_fib_lookup p;
	__u32 hdr[2];
	long rc;

	if (bpf_skb_load_bytes(skb, 0, hdr, sizeof(hdr)) ||
	    bpf_skb_load_bytes(skb, 8, &p, sizeof(p)))
		return TC_ACT_SHOT;
	rc = bpf_fib_lookup(skb, &p, hdr[1] ? 32 : sizeof(p), hdr[0]);
	hdr[0] = (__u32)rc;
	bpf_skb_store_bytes(skb, 0, hdr, sizeof(hdr), 0);
	bpf_skb_store_bytes(skb, 8, &p, sizeof(p), 0);
	return TC_ACT_OK;
}

char _license[] SEC("license") = "GPL";
