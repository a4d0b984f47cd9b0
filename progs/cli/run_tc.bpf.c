// SPDX-License-Identifier: MIT
/*
 * `headroom run`'s pipeline, tc ingress: reads struct run_meta from
 * __sk_buff data_meta and sets the mark to the RX hash it carries (skbs
 * without it get mark 0xdead), counting both kinds.
 */
#include <linux/bpf.h>
#include <linux/pkt_cls.h>
#include <bpf/bpf_helpers.h>

#include "hr_run_meta.h"

/* 0: skbs with the metadata, 1: without. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 2);
	__type(key, __u32);
	__type(value, __u64);
} run_tc_seen SEC(".maps");

SEC("tc")
int run_tc(struct __sk_buff *skb)
{
	struct run_meta *m = (void *)(long)skb->data_meta;
	__u32 key = 1;
	__u64 *v;

	if ((void *)(m + 1) <= (void *)(long)skb->data &&
	    m->magic == RUN_MAGIC) {
		skb->mark = m->hash;
		key = 0;
	} else {
		skb->mark = 0xdead;
	}
	v = bpf_map_lookup_elem(&run_tc_seen, &key);
	if (v)
		*v += 1;
	return TC_ACT_OK;
}

char _license[] SEC("license") = "GPL";
