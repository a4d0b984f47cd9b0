// SPDX-License-Identifier: MIT
/*
 * veth's skb path, the receiving end B: calls the three hint kfuncs on
 * every packet and records what they answered (return codes and values)
 * in vs_rec, then returns a verdict. Packets of EtherType 0x88b6 (the
 * test's: byte 15 the verdict, PASS DROP TX, bytes 16..19 a sequence
 * number) are recorded at seq % 256 and choose their verdict; others at
 * the next free record, with the verdict in vs_cfg[0]. A PASSed packet
 * carries 8 bytes of metadata (VS_MAGIC, its record's index) to tc.
 * vs_counts: PASS, DROP, TX, others seen.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#include "hr_rx_kfuncs.h"

#define VS_ETH_P 0x88b6
#define VS_MAGIC 0x76736b62u
#define VS_UNSET_PROTO 0xaaaa
#define VS_UNSET_TCI 0xbbbb

struct vs_rec {
	__u32 count;
	__s32 ret_ts;
	__s32 ret_hash;
	__s32 ret_vlan;
	__u32 hash;
	__u32 type;
	__u16 proto;
	__u16 tci;
	__u32 len;
	__u64 ts;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 256);
	__type(key, __u32);
	__type(value, struct vs_rec);
} vs_rec SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 4);
	__type(key, __u32);
	__type(value, __u64);
} vs_counts SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u32);
} vs_cfg SEC(".maps");

static __always_inline __u64 count(__u32 key)
{
	__u64 *c = bpf_map_lookup_elem(&vs_counts, &key);

	return c ? __sync_fetch_and_add(c, 1) : 0;
}

SEC("xdp")
int vs_xdp(struct xdp_md *ctx)
{
	__u8 *p = (void *)(long)ctx->data;
	enum xdp_rss_hash_type type = 0;
	/* The VLAN outputs start non-zero: the record shows what the
	 * kfunc writes when it fails as well (veth zeroes the tci). */
	struct vs_rec r = { .count = 1,
			    .proto = VS_UNSET_PROTO,
			    .tci = VS_UNSET_TCI };
	__u32 key, verdict, zero = 0, *v;
	__u32 *m;

	if ((void *)(p + 20) > (void *)(long)ctx->data_end)
		return XDP_PASS;
	if (p[12] == (VS_ETH_P >> 8) && p[13] == (VS_ETH_P & 0xff)) {
		key = p[19];
		verdict = p[15] == 1 ? XDP_DROP :
			  p[15] == 2 ? XDP_TX :
				       XDP_PASS;
	} else {
		key = (__u32)count(3) & 255;
		v = bpf_map_lookup_elem(&vs_cfg, &zero);
		verdict = v ? *v : XDP_PASS;
	}
	r.ret_ts = bpf_xdp_metadata_rx_timestamp(ctx, &r.ts);
	r.ret_hash = bpf_xdp_metadata_rx_hash(ctx, &r.hash, &type);
	r.type = type;
	r.ret_vlan = bpf_xdp_metadata_rx_vlan_tag(ctx, &r.proto, &r.tci);
	r.len = (__u32)(ctx->data_end - ctx->data);
	bpf_map_update_elem(&vs_rec, &key, &r, 0);
	if (verdict == XDP_PASS) {
		count(0);
		if (bpf_xdp_adjust_meta(ctx, -8))
			return XDP_ABORTED;
		m = (void *)(long)ctx->data_meta;
		if ((void *)(m + 2) > (void *)(long)ctx->data)
			return XDP_ABORTED;
		m[0] = VS_MAGIC;
		m[1] = key;
	} else {
		count(verdict == XDP_DROP ? 1 : 2);
	}
	return verdict;
}

char _license[] SEC("license") = "GPL";
