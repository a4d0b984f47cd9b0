// SPDX-License-Identifier: MIT
/*
 * veth's skb path, the tc side.
 *
 * vs_tc, at the ingress of the device packets enter by: gives the skb a
 * hash and a VLAN tag as asked, then redirects it out of veth A
 * (vs_tc_cfg[0], an ifindex). Packets of EtherType 0x88b6 ask in byte
 * 14: bit 0 bpf_set_hash(0x5eed0000 | seq), bit 1 a pushed 802.1Q tag,
 * bit 2 an 802.1ad one (TCI from seq); other packets take vs_tc_cfg[1]'s
 * bits and are redirected only when vs_tc_cfg[2] is set.
 *
 * vs_tc_in, at B's ingress: records what the skb brought past B's XDP
 * into vs_seen at the index its metadata names (255 without metadata).
 */
#include <linux/bpf.h>
#include <linux/pkt_cls.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_endian.h>

#define VS_ETH_P 0x88b6
#define VS_MAGIC 0x76736b62u

struct vs_seen {
	__u32 count;
	__u32 len;
	__u32 meta_len;
	__u32 magic;
	__u32 hash;
	__u32 vlan_present;
	__u32 vlan_tci;
	__u32 protocol;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 3);
	__type(key, __u32);
	__type(value, __u32);
} vs_tc_cfg SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 256);
	__type(key, __u32);
	__type(value, struct vs_seen);
} vs_seen SEC(".maps");

static __always_inline __u32 cfg(__u32 key)
{
	__u32 *v = bpf_map_lookup_elem(&vs_tc_cfg, &key);

	return v ? *v : 0;
}

SEC("tc")
int vs_tc(struct __sk_buff *skb)
{
	__u8 *p = (void *)(long)skb->data;
	__u32 ops, seq;

	if ((void *)(p + 20) > (void *)(long)skb->data_end)
		return TC_ACT_OK;
	if (p[12] == (VS_ETH_P >> 8) && p[13] == (VS_ETH_P & 0xff)) {
		ops = p[14];
		seq = p[19];
	} else {
		if (!cfg(2))
			return TC_ACT_OK;
		ops = cfg(1);
		seq = 0x77;
	}
	if (ops & 1)
		bpf_set_hash(skb, 0x5eed0000u | seq);
	if (ops & 2)
		bpf_skb_vlan_push(skb, bpf_htons(0x8100),
				  (__u16)(0x6000 | (seq & 0xfff)));
	else if (ops & 4)
		bpf_skb_vlan_push(skb, bpf_htons(0x88a8),
				  (__u16)(0x2000 | (seq & 0xfff)));
	return bpf_redirect(cfg(0), 0);
}

SEC("tc")
int vs_tc_in(struct __sk_buff *skb)
{
	__u32 *m = (void *)(long)skb->data_meta;
	void *data = (void *)(long)skb->data;
	struct vs_seen *s;
	__u32 key = 255, magic = 0;

	if ((void *)(m + 2) <= data) {
		magic = m[0];
		key = m[1] & 255;
	}
	s = bpf_map_lookup_elem(&vs_seen, &key);
	if (!s)
		return TC_ACT_OK;
	__sync_fetch_and_add(&s->count, 1);
	s->len = skb->len;
	s->meta_len = (__u32)((long)data - (long)m);
	s->magic = magic;
	s->hash = skb->hash;
	s->vlan_present = skb->vlan_present;
	s->vlan_tci = skb->vlan_tci;
	s->protocol = skb->protocol;
	return TC_ACT_OK;
}

char _license[] SEC("license") = "GPL";
