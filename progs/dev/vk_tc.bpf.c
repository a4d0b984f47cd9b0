// SPDX-License-Identifier: MIT
/*
 * The tc side of the veth oracle: for packets of EtherType 0x88b5 (see
 * vk_xdp.bpf.c), records what the skb carried at tc ingress into
 * vk_seen[seq % 256] (length, metadata length and bytes, protocol,
 * pkt_type, queue_mapping), sets the mark from the metadata and records
 * the mark read back. Others are counted in vk_tc_other. TC_ACT_OK.
 */
#include <linux/bpf.h>
#include <linux/pkt_cls.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_endian.h>

#define VK_ETH_P 0x88b5
#define VK_MAGIC 0x766b6d64u

struct vk_seen {
	__u32 count;
	__u32 len;
	__u32 meta_len;
	__u32 mark;
	__u32 protocol;
	__u32 pkt_type;
	__u32 queue_mapping;
	__u32 seq;
	__u32 meta[8];
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 256);
	__type(key, __u32);
	__type(value, struct vk_seen);
} vk_seen SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 2);
	__type(key, __u32);
	__type(value, __u64);
} vk_tc_count SEC(".maps");

static __always_inline void count(__u32 key)
{
	__u64 *c = bpf_map_lookup_elem(&vk_tc_count, &key);

	if (c)
		__sync_fetch_and_add(c, 1);
}

SEC("tc")
int vk_tc(struct __sk_buff *skb)
{
	void *data = (void *)(long)skb->data;
	void *data_end = (void *)(long)skb->data_end;
	__u32 *m = (void *)(long)skb->data_meta;
	__u8 *p = data;
	struct vk_seen *s;
	__u32 seq, key, ml, i, mark;

	if ((void *)(p + 20) > data_end || p[12] != (VK_ETH_P >> 8) ||
	    p[13] != (VK_ETH_P & 0xff)) {
		count(1);
		return TC_ACT_OK;
	}
	count(0);
	seq = ((__u32)p[16] << 24) | ((__u32)p[17] << 16) |
	      ((__u32)p[18] << 8) | p[19];
	key = seq & 255;
	s = bpf_map_lookup_elem(&vk_seen, &key);
	if (!s)
		return TC_ACT_OK;
	__sync_fetch_and_add(&s->count, 1);
	s->seq = seq;
	s->len = skb->len;
	ml = (__u32)((long)data - (long)m);
	s->meta_len = ml;
#pragma unroll
	for (i = 0; i < 8; i++) {
		if ((void *)(m + i + 1) > data)
			break;
		s->meta[i] = m[i];
	}
	mark = 0xdead;
	if ((void *)(m + 2) <= data && m[0] == VK_MAGIC)
		mark = m[1] ^ 0x5a000000u ^ (ml << 16);
	skb->mark = mark;
	s->mark = skb->mark;
	s->protocol = skb->protocol;
	s->pkt_type = skb->pkt_type;
	s->queue_mapping = skb->queue_mapping;
	return TC_ACT_OK;
}

char _license[] SEC("license") = "GPL";
