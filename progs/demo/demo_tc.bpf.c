// SPDX-License-Identifier: MIT
/*
 * The demo's tc ingress program: finds the XDP program's metadata in front
 * of the packet (__sk_buff data_meta), sets the mark to the RX hash and
 * counts what it saw.
 */
#include <linux/bpf.h>
#include <linux/pkt_cls.h>
#include <bpf/bpf_helpers.h>

struct demo_meta {
	__u32 hash;
	__u32 rss_type;
	__u32 ts_lo;
	__u32 magic;
};

#define DEMO_MAGIC 0x4d524448

/* 0: skbs seen, 1: with the metadata, 2: without. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 3);
	__type(key, __u32);
	__type(value, __u64);
} seen SEC(".maps");

static void count(__u32 key)
{
	__u64 *v = bpf_map_lookup_elem(&seen, &key);

	if (v)
		*v += 1;
}

SEC("tc")
int demo_tc(struct __sk_buff *skb)
{
	struct demo_meta *m = (void *)(long)skb->data_meta;
	void *data = (void *)(long)skb->data;

	count(0);
	if ((void *)(m + 1) > data || m->magic != DEMO_MAGIC) {
		count(2);
		return TC_ACT_OK;
	}
	skb->mark = m->hash;
	count(1);
	return TC_ACT_OK;
}

char _license[] SEC("license") = "GPL";
