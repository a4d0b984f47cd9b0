// SPDX-License-Identifier: MIT
/*
 * Dynptrs forged on the stack (the kernel's verifier refuses these
 * programs; headroom, without one, must end the run instead of touching
 * memory): 16 bytes naming the context with a type and size the program
 * picks from packet byte 0, then bpf_dynptr_read through them.
 *
 *   0  skb_meta type, 4 bytes     (no metadata in test runs; not XDP's)
 *   1  skb_meta type, 64 bytes    (more than the metadata)
 *   2  xdp type, 16 bytes         (tc cannot make it; valid in XDP)
 *   3  skb type, 16 bytes         (XDP cannot make it; valid in tc)
 *   4  type 7, 16 bytes           (no such type)
 *   5  skb_meta, 4 bytes at 250   (past the metadata)
 */
#include <linux/bpf.h>
#include <linux/pkt_cls.h>
#include <bpf/bpf_helpers.h>

static __always_inline int forge_read(void *ctx, __u8 sel)
{
	static const __u32 words[6][2] = {
		{ 5u << 28 | 4, 0 },  { 5u << 28 | 64, 0 },
		{ 4u << 28 | 16, 0 }, { 3u << 28 | 16, 0 },
		{ 7u << 28 | 16, 0 }, { 5u << 28 | 4, 250 },
	};
	__u64 d[2];
	__u8 out[4];

	if (sel > 5)
		return -1;
	d[0] = (__u64)(long)ctx;
	d[1] = (__u64)words[sel][1] << 32 | words[sel][0];
	return bpf_dynptr_read(out, sizeof(out), (void *)d, 0, 0);
}

SEC("xdp")
int forged_xdp(struct xdp_md *ctx)
{
	__u8 *p = (void *)(long)ctx->data;

	if ((void *)(p + 1) > (void *)(long)ctx->data_end)
		return XDP_DROP;
	return forge_read(ctx, p[0]) ? XDP_DROP : XDP_PASS;
}

SEC("tc")
int forged_tc(struct __sk_buff *skb)
{
	__u8 sel;

	if (bpf_skb_load_bytes(skb, 0, &sel, 1))
		return TC_ACT_SHOT;
	return forge_read(skb, sel) ? TC_ACT_SHOT : TC_ACT_OK;
}

char _license[] SEC("license") = "GPL";
