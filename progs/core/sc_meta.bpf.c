// SPDX-License-Identifier: MIT
/*
 * Seeds 000/003, XDP side: the RX hash, its type and the timestamp read
 * through the metadata kfuncs, written as the first words of cfg[0] bytes
 * of metadata (8 to 252, a multiple of 4), then a pattern:
 *
 *   word 0 hash, 1 rss type, 2 timestamp low, 3 timestamp high,
 *   word w >= 4: hash ^ (w * SC_META_MUL)
 *
 * sc_meta_tc checks them on the skb. With 256 bytes of headroom at most
 * 256 - 40 (struct xdp_frame) = 216 fit; for more, cfg[1] bytes of an
 * outer header are stripped first (bpf_xdp_adjust_head), as a decap
 * would, which leaves room for 252.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#include "hr_rx_kfuncs.h"

#define SC_META_MUL 0x9e3779b1u
#define SC_META_MAX_WORDS 63

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 2);
	__type(key, __u32);
	__type(value, __u32);
} sc_meta_cfg SEC(".maps");

SEC("xdp")
int sc_meta(struct xdp_md *ctx)
{
	enum xdp_rss_hash_type type = 0;
	__u32 key = 0, *len, *strip, *m, words, w, v;
	__u32 hash = 0;
	__u64 ts = 0;
	void *data;

	len = bpf_map_lookup_elem(&sc_meta_cfg, &key);
	if (!len || *len < 8 || *len > 4 * SC_META_MAX_WORDS || (*len & 3))
		return XDP_ABORTED;
	words = *len / 4;
	key = 1;
	strip = bpf_map_lookup_elem(&sc_meta_cfg, &key);
	if (!strip || *strip > 64)
		return XDP_ABORTED;
	if (*strip && bpf_xdp_adjust_head(ctx, (int)*strip))
		return XDP_ABORTED;
	if (bpf_xdp_metadata_rx_hash(ctx, &hash, &type) ||
	    bpf_xdp_metadata_rx_timestamp(ctx, &ts))
		return XDP_ABORTED;
	if (bpf_xdp_adjust_meta(ctx, -(int)(words * 4)))
		return XDP_ABORTED;
	m = (void *)(long)ctx->data_meta;
	data = (void *)(long)ctx->data;
	for (w = 0; w < SC_META_MAX_WORDS && w < words; w++) {
		if ((void *)(m + w + 1) > data)
			return XDP_ABORTED;
		if (w == 0)
			v = hash;
		else if (w == 1)
			v = type;
		else if (w == 2)
			v = (__u32)ts;
		else if (w == 3)
			v = (__u32)(ts >> 32);
		else
			v = hash ^ (w * SC_META_MUL);
		m[w] = v;
	}
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
