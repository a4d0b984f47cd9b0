// SPDX-License-Identifier: MIT
/*
 * tc ingress: the metadata an XDP program left (struct hr_demo_meta, or
 * at least a first word) becomes skb->mark; without metadata the mark is
 * cleared. Always TC_ACT_OK.
 */
#include <linux/bpf.h>
#include <linux/pkt_cls.h>
#include <bpf/bpf_helpers.h>

#include "hr_progs.h"

SEC("tc")
int tc_read_meta_prog(struct __sk_buff *skb)
{
	void *data = (void *)(long)skb->data;
	void *meta = (void *)(long)skb->data_meta;
	struct hr_demo_meta *dm = meta;
	__u32 *word = meta;

	if ((void *)(dm + 1) <= data && dm->magic == HR_DEMO_MAGIC)
		skb->mark = dm->counter;
	else if ((void *)(word + 1) <= data)
		skb->mark = *word;
	else
		skb->mark = 0;
	return TC_ACT_OK;
}

char _license[] SEC("license") = "GPL";
