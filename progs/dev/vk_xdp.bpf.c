// SPDX-License-Identifier: MIT
/*
 * The XDP side of the veth oracle (tests/dev/test_veth_kernel.c, also used by
 * tests/core/test_live_change.c). Packets of EtherType 0x88b5 carry, after the
 * Ethernet header, a selector byte, a metadata length in 4-byte units and
 * a 32-bit sequence number (network order):
 *
 *   vk_xdp       writes 4 * units bytes (8 .. 32) of metadata with
 *                bpf_xdp_adjust_meta (magic, seq, then seq-derived words)
 *                and returns the selector's verdict: 0 PASS, 1 DROP,
 *                2 TX, anything else ABORTED; counts verdicts.
 *   vk_xdp_back  on the sending end: counts the frames XDP_TX sent back
 *                and drops them.
 *   vk_xdp_cfg   returns the verdict in cfg[0] (the live-change test
 *                swaps programs and values under traffic).
 *
 * Other EtherTypes are counted and passed.
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_endian.h>

#define VK_ETH_P 0x88b5
#define VK_MAGIC 0x766b6d64u

/* Indexes of the counters. */
#define VK_C_ABORTED 0
#define VK_C_DROP 1
#define VK_C_PASS 2
#define VK_C_TX 3
#define VK_C_REDIRECT 4
#define VK_C_META_ERR 5
#define VK_C_OTHER 6
#define VK_C_BACK 7

struct vk_hdr {
	__u8 dst[6];
	__u8 src[6];
	__be16 proto;
	__u8 sel;
	__u8 units;
	__be32 seq;
} __attribute__((packed));

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 8);
	__type(key, __u32);
	__type(value, __u64);
} vk_counts SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u32);
} cfg SEC(".maps");

static __always_inline void count(__u32 key)
{
	__u64 *c = bpf_map_lookup_elem(&vk_counts, &key);

	if (c)
		__sync_fetch_and_add(c, 1);
}

SEC("xdp")
int vk_xdp(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *data_end = (void *)(long)ctx->data_end;
	struct vk_hdr *h = data;
	__u32 seq, units, sel, i, *m;
	int act;

	if ((void *)(h + 1) > data_end || h->proto != bpf_htons(VK_ETH_P)) {
		count(VK_C_OTHER);
		return XDP_PASS;
	}
	sel = h->sel;
	units = h->units;
	seq = bpf_ntohl(h->seq);
	if (units < 2 || units > 8)
		units = 2;
	if (bpf_xdp_adjust_meta(ctx, -(int)(units * 4))) {
		count(VK_C_META_ERR);
		return XDP_ABORTED;
	}
	data = (void *)(long)ctx->data;
	m = (void *)(long)ctx->data_meta;
#pragma unroll
	for (i = 0; i < 8; i++) {
		if (i >= units || (void *)(m + i + 1) > data)
			break;
		m[i] = i == 0 ? VK_MAGIC :
		       i == 1 ? seq :
				(seq * 0x01000193u) ^ (i << 24);
	}
	switch (sel) {
	case 0:
		act = XDP_PASS;
		count(VK_C_PASS);
		break;
	case 1:
		act = XDP_DROP;
		count(VK_C_DROP);
		break;
	case 2:
		act = XDP_TX;
		count(VK_C_TX);
		break;
	default:
		act = XDP_ABORTED;
		count(VK_C_ABORTED);
		break;
	}
	return act;
}

SEC("xdp")
int vk_xdp_back(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *data_end = (void *)(long)ctx->data_end;
	struct vk_hdr *h = data;

	if ((void *)(h + 1) > data_end || h->proto != bpf_htons(VK_ETH_P)) {
		count(VK_C_OTHER);
		return XDP_PASS;
	}
	count(VK_C_BACK);
	return XDP_DROP;
}

SEC("xdp")
int vk_xdp_cfg(struct xdp_md *ctx)
{
	__u32 key = 0, *v = bpf_map_lookup_elem(&cfg, &key);
	__u32 act = v ? *v : XDP_ABORTED;

	if (act <= XDP_REDIRECT)
		count(act == XDP_ABORTED ? VK_C_ABORTED :
		      act == XDP_DROP	 ? VK_C_DROP :
		      act == XDP_PASS	 ? VK_C_PASS :
		      act == XDP_TX	 ? VK_C_TX :
					   VK_C_REDIRECT);
	return act;
}

char _license[] SEC("license") = "GPL";
