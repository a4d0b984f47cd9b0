// SPDX-License-Identifier: MIT
/*
 * tc ingress programs for the datapath tests: dp_tc_mark sets the mark
 * from the metadata dp_meta wrote (magic, length) and the priority from
 * the queue mapping; dp_tc_shot_odd drops packets of odd length.
 */
#include <linux/bpf.h>
#include <linux/pkt_cls.h>
#include <bpf/bpf_helpers.h>

#define DP_META_MAGIC 0xfeedf00du

SEC("tc")
int dp_tc_mark(struct __sk_buff *skb)
{
	__u32 *meta = (void *)(long)skb->data_meta;
	void *data = (void *)(long)skb->data;

	if ((void *)(meta + 2) <= data && meta[0] == DP_META_MAGIC)
		skb->mark = meta[1] | 0x10000;
	else
		skb->mark = 1;
	skb->priority = skb->queue_mapping;
	return TC_ACT_OK;
}

SEC("tc")
int dp_tc_shot_odd(struct __sk_buff *skb)
{
	return skb->len & 1 ? TC_ACT_SHOT : TC_ACT_OK;
}

SEC("tc")
int dp_tc_stolen(struct __sk_buff *skb)
{
	return TC_ACT_STOLEN;
}

char _license[] SEC("license") = "GPL";
