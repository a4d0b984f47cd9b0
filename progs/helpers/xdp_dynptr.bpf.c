// SPDX-License-Identifier: MIT
/*
 * Dynptrs over XDP and tc packets. The first four packet bytes are the
 * arguments: [0] flags for the dynptr's creation (bit 0) and the slice
 * kind (bit 1: rdwr), [1] an offset, [2] flags for read, [3] flags for
 * write. Results go back into the packet (XDP, at offset 4 by dynptr
 * write) or into cb[] (tc).
 */
#include <linux/bpf.h>
#include <linux/pkt_cls.h>
#include <bpf/bpf_helpers.h>

#include "hr_dynptr.h"

/*
 * The rdwr slice and a store through it. xdp_dynptr_nordwr.bpf.c builds
 * this file again for kernels that refuse bpf_dynptr_slice_rdwr
 * (include/hr_rdwr_emul.h, tests/lib/kernel_side.h).
 */
#ifndef SLICE_RDWR
#define SLICE_RDWR(d, off, buf, len) bpf_dynptr_slice_rdwr(d, off, buf, len)
#define SLICE_STORE(d, off, p, buf, i, v) ((p)[i] = (v))
#endif

struct out {
	__s32 create, rd, wr;
	__u8 slice, first, pad[2];
};

/* 0 NULL, 1 inside the packet, 2 the buffer; the slice's first byte. */
static __always_inline void do_slice(struct bpf_dynptr *d, __u8 kind, __u32 off,
				     struct out *o)
{
	__u8 buf[16] = { 0xee };
	__u8 *p;

	if (kind & 2)
		p = SLICE_RDWR(d, off, buf, sizeof(buf));
	else
		p = bpf_dynptr_slice(d, off, buf, sizeof(buf));
	if (!p) {
		o->slice = 0;
		return;
	}
	o->slice = p == buf ? 2 : 1;
	o->first = p[0];
	if (kind & 2)
		SLICE_STORE(d, off, p, buf, 15, p[15] ^ 0xff);
}

SEC("xdp")
int xdp_dynptr(struct xdp_md *ctx)
{
	struct bpf_dynptr d;
	struct out o = {};
	__u8 a[4] = {}, buf[8] = {};

	if (bpf_dynptr_from_xdp(ctx, 0, &d))
		return XDP_ABORTED;
	if (bpf_dynptr_read(a, sizeof(a), &d, 0, 0))
		return XDP_DROP;
	o.rd = bpf_dynptr_read(buf, sizeof(buf), &d, a[1], a[2]);
	o.wr = bpf_dynptr_write(&d, a[1], buf, sizeof(buf), a[3]);
	do_slice(&d, a[0], a[1], &o);
	if (a[0] & 1) {
		struct bpf_dynptr bad;

		o.create = bpf_dynptr_from_xdp(ctx, 1, &bad);
		o.rd = bpf_dynptr_read(buf, sizeof(buf), &bad, 0, 0);
		o.wr = bpf_dynptr_write(&bad, 0, buf, sizeof(buf), 0);
	}
	bpf_dynptr_write(&d, 4, &o, sizeof(o), 0);
	return XDP_PASS;
}

/* A parser in the dynptr style: Ethernet and IPv4 through slices, the
 * TTL decremented through a rdwr slice. */
SEC("xdp")
int xdp_dynptr_ttl(struct xdp_md *ctx)
{
	struct bpf_dynptr d;
	__u8 eth_buf[14], ip_buf[20];
	__u8 *eth, *ip;

	if (bpf_dynptr_from_xdp(ctx, 0, &d))
		return XDP_ABORTED;
	eth = bpf_dynptr_slice(&d, 0, eth_buf, sizeof(eth_buf));
	if (!eth)
		return XDP_DROP;
	if (eth[12] != 0x08 || eth[13] != 0x00)
		return XDP_PASS;
	ip = SLICE_RDWR(&d, 14, ip_buf, sizeof(ip_buf));
	if (!ip)
		return XDP_DROP;
	if (ip[8] <= 1)
		return XDP_DROP;
	SLICE_STORE(&d, 14, ip, ip_buf, 8, ip[8] - 1);
	if (ip == ip_buf)
		bpf_dynptr_write(&d, 14, ip_buf, sizeof(ip_buf), 0);
	return XDP_TX;
}

SEC("tc")
int tc_dynptr(struct __sk_buff *skb)
{
	struct bpf_dynptr d;
	struct out o = {};
	__u8 a[4] = {}, buf[8] = {};

	if (bpf_dynptr_from_skb(skb, 0, &d))
		return TC_ACT_SHOT;
	if (bpf_dynptr_read(a, sizeof(a), &d, 0, 0))
		return TC_ACT_SHOT;
	o.rd = bpf_dynptr_read(buf, sizeof(buf), &d, a[1], a[2]);
	o.wr = bpf_dynptr_write(&d, a[1], buf, sizeof(buf), a[3]);
	do_slice(&d, a[0], a[1], &o);
	if (a[0] & 1) {
		struct bpf_dynptr bad;

		o.create = bpf_dynptr_from_skb(skb, 1, &bad);
		o.rd = bpf_dynptr_read(buf, sizeof(buf), &bad, 0, 0);
		o.wr = bpf_dynptr_write(&bad, 0, buf, sizeof(buf), 0);
	}
	skb->cb[0] = o.create;
	skb->cb[1] = o.rd;
	skb->cb[2] = o.wr;
	skb->cb[3] = o.slice | o.first << 8;
	skb->cb[4] = skb->len;
	return TC_ACT_OK;
}

char _license[] SEC("license") = "GPL";
