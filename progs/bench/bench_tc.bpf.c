// SPDX-License-Identifier: MIT
/*
 * headroom bench's tc ingress program (redirect-cpu with pass, meta):
 * counts skbs per CPU, and those that arrive with at least the 16 bytes
 * of metadata bench_hints writes (struct bench_meta); the metadata's RX
 * hash becomes skb->mark, as the metadata thread's tc reader does.
 */
#include <linux/bpf.h>
#include <linux/pkt_cls.h>
#include <bpf/bpf_helpers.h>

#include "hr_rx_kfuncs.h" /* struct bench_meta */

/* [0] skbs seen, [1] with 16 bytes of metadata. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 2);
	__type(key, __u32);
	__type(value, __u64);
} tc_seen SEC(".maps");

static __always_inline void count(__u32 key)
{
	__u64 *v = bpf_map_lookup_elem(&tc_seen, &key);

	if (v)
		*v += 1;
}

SEC("tc")
int bench_tc(struct __sk_buff *skb)
{
	void *data = (void *)(long)skb->data;
	struct bench_meta *m = (void *)(long)skb->data_meta;

	count(0);
	if ((void *)(m + 1) <= data) {
		skb->mark = m->hash;
		count(1);
	}
	return TC_ACT_OK;
}

char _license[] SEC("license") = "GPL";
