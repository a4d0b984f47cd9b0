// SPDX-License-Identifier: MIT
/*
 * A header parser that stops cleanly at every truncation: Ethernet, up to
 * two VLAN tags (802.1Q and 802.1ad), IPv4 with options, IPv6 with up to
 * four extension headers, then TCP, UDP or ICMP. What it found (struct
 * hr_parse_meta) is prepended to the metadata; malformed or truncated
 * packets are dropped, everything else passes.
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/tcp.h>
#include <linux/udp.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_endian.h>

#include "hr_progs.h"

#ifndef ETH_P_8021AD
#define ETH_P_8021AD 0x88A8
#endif
#define IP_MF 0x2000
#define IP_OFFSET 0x1fff
#define IP6_OFFSET 0xfff8

struct parse_ctx {
	void *data;
	void *data_end;
	__u32 off; /* of the next header from data */
	struct hr_parse_meta *r;
};

static __always_inline int fail(struct parse_ctx *p, __u8 status)
{
	p->r->status = status;
	return XDP_DROP;
}

static __always_inline int pass(struct parse_ctx *p, __u8 status)
{
	p->r->status = status;
	return XDP_PASS;
}

/* The ports, flags or ICMP fields at p->off, for protocol @proto. */
static __always_inline int parse_l4(struct parse_ctx *p, __u8 proto)
{
	__u8 *l4 = p->data + p->off;
	struct tcphdr *th;
	struct udphdr *uh;
	__u32 doff;

	p->r->l4_proto = proto;
	p->r->l4_off = (__u16)p->off;
	switch (proto) {
	case IPPROTO_TCP:
		th = (void *)l4;
		if ((void *)(th + 1) > p->data_end)
			return fail(p, HR_PARSE_TRUNC_L4);
		doff = (__u32)th->doff * 4;
		if (doff < sizeof(*th))
			return fail(p, HR_PARSE_TRUNC_L4);
		if ((void *)l4 + doff > p->data_end)
			return fail(p, HR_PARSE_TRUNC_L4);
		p->r->sport = th->source;
		p->r->dport = th->dest;
		p->r->tcp_flags = l4[13];
		return pass(p, HR_PARSE_OK);
	case IPPROTO_UDP:
		uh = (void *)l4;
		if ((void *)(uh + 1) > p->data_end)
			return fail(p, HR_PARSE_TRUNC_L4);
		p->r->sport = uh->source;
		p->r->dport = uh->dest;
		return pass(p, HR_PARSE_OK);
	case IPPROTO_ICMP:
	case IPPROTO_ICMPV6:
		if ((void *)(l4 + 8) > p->data_end)
			return fail(p, HR_PARSE_TRUNC_L4);
		p->r->sport = bpf_htons((__u16)(l4[0] << 8 | l4[1]));
		p->r->dport = *(__be16 *)(l4 + 4);
		return pass(p, HR_PARSE_OK);
	default:
		return pass(p, HR_PARSE_OTHER_L4);
	}
}

static __always_inline int parse_ipv4(struct parse_ctx *p)
{
	struct iphdr *iph = p->data + p->off;
	__u32 hlen;
	__u16 frag;

	if ((void *)(iph + 1) > p->data_end)
		return fail(p, HR_PARSE_TRUNC_L3);
	if (iph->version != 4 || iph->ihl < 5)
		return fail(p, HR_PARSE_BAD_L3);
	hlen = (__u32)iph->ihl * 4;
	if ((void *)iph + hlen > p->data_end)
		return fail(p, HR_PARSE_TRUNC_L3);
	p->r->ip_opt_len = (__u8)(hlen - sizeof(*iph));
	p->r->ttl = iph->ttl;
	p->r->src = iph->saddr;
	p->r->dst = iph->daddr;
	frag = bpf_ntohs(iph->frag_off);
	if (frag & (IP_MF | IP_OFFSET))
		p->r->frag = 1;
	p->off += hlen;
	if (frag & IP_OFFSET) {
		p->r->frag = 2;
		p->r->l4_proto = iph->protocol;
		return pass(p, HR_PARSE_FRAGMENT);
	}
	return parse_l4(p, iph->protocol);
}

static __always_inline __be32 fold_in6(const struct in6_addr *a)
{
	return a->in6_u.u6_addr32[0] ^ a->in6_u.u6_addr32[1] ^
	       a->in6_u.u6_addr32[2] ^ a->in6_u.u6_addr32[3];
}

static __always_inline int is_ext_hdr(__u8 nh)
{
	return nh == IPPROTO_HOPOPTS || nh == IPPROTO_ROUTING ||
	       nh == IPPROTO_FRAGMENT || nh == IPPROTO_DSTOPTS;
}

/* One extension header at p->off: its next header, or -1 if truncated. */
static __always_inline int skip_ext_hdr(struct parse_ctx *p, __u8 nh)
{
	__u8 *eh = p->data + p->off;
	__u32 len;
	__u16 fo;

	if ((void *)(eh + 8) > p->data_end)
		return -1;
	if (nh == IPPROTO_FRAGMENT) {
		fo = bpf_ntohs(*(__be16 *)(eh + 2));
		p->r->frag = (fo & IP6_OFFSET) ? 2 : 1;
		len = 8;
	} else {
		len = ((__u32)eh[1] + 1) * 8;
		if ((void *)eh + len > p->data_end)
			return -1;
	}
	p->off += len;
	p->r->ext_count++;
	return eh[0];
}

static __always_inline int parse_ipv6(struct parse_ctx *p)
{
	struct ipv6hdr *ip6 = p->data + p->off;
	int nh;
	int i;

	if ((void *)(ip6 + 1) > p->data_end)
		return fail(p, HR_PARSE_TRUNC_L3);
	if (ip6->version != 6)
		return fail(p, HR_PARSE_BAD_L3);
	p->r->ttl = ip6->hop_limit;
	p->r->src = fold_in6(&ip6->saddr);
	p->r->dst = fold_in6(&ip6->daddr);
	nh = ip6->nexthdr;
	p->off += sizeof(*ip6);

	for (i = 0; i < HR_PARSE_MAX_EXT; i++) {
		if (!is_ext_hdr((__u8)nh) || p->r->frag == 2)
			break;
		nh = skip_ext_hdr(p, (__u8)nh);
		if (nh < 0)
			return fail(p, HR_PARSE_TRUNC_EXT);
	}
	if (p->r->frag == 2) {
		p->r->l4_proto = (__u8)nh;
		return pass(p, HR_PARSE_FRAGMENT);
	}
	if (is_ext_hdr((__u8)nh))
		return fail(p, HR_PARSE_TOO_MANY_EXT);
	return parse_l4(p, (__u8)nh);
}

static __always_inline int parse(struct parse_ctx *p)
{
	struct ethhdr *eth = p->data;
	__be16 proto;
	__u8 *vh;
	int i;

	p->r->pkt_len = (__u16)(p->data_end - p->data);
	if ((void *)(eth + 1) > p->data_end)
		return fail(p, HR_PARSE_TRUNC_ETH);
	proto = eth->h_proto;
	p->off = sizeof(*eth);

	for (i = 0; i < HR_PARSE_MAX_VLANS; i++) {
		if (proto != bpf_htons(ETH_P_8021Q) &&
		    proto != bpf_htons(ETH_P_8021AD))
			break;
		vh = p->data + p->off;
		if ((void *)(vh + 4) > p->data_end)
			return fail(p, HR_PARSE_TRUNC_VLAN);
		p->r->vlan_id[i] = bpf_ntohs(*(__be16 *)vh) & 0x0fff;
		proto = *(__be16 *)(vh + 2);
		p->off += 4;
		p->r->vlan_count++;
	}
	p->r->ethertype = proto;
	p->r->l3_off = (__u8)p->off;

	if (proto == bpf_htons(ETH_P_IP))
		return parse_ipv4(p);
	if (proto == bpf_htons(ETH_P_IPV6))
		return parse_ipv6(p);
	return pass(p, HR_PARSE_NOT_IP);
}

SEC("xdp")
int xdp_parse_prog(struct xdp_md *ctx)
{
	struct hr_parse_meta r = {};
	struct parse_ctx p = {
		.data = (void *)(long)ctx->data,
		.data_end = (void *)(long)ctx->data_end,
		.r = &r,
	};
	struct hr_parse_meta *meta;
	int verdict;

	verdict = parse(&p);

	if (bpf_xdp_adjust_meta(ctx, -(int)sizeof(*meta)))
		return XDP_ABORTED;
	meta = (void *)(long)ctx->data_meta;
	if ((void *)(meta + 1) > (void *)(long)ctx->data)
		return XDP_ABORTED;
	__builtin_memcpy(meta, &r, sizeof(r));
	return verdict;
}

char _license[] SEC("license") = "GPL";
