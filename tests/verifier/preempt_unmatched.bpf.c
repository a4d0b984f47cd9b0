/* One bpf_preempt_enable more than there were bpf_preempt_disable. */
#include "v.h"

SEC("tc") int bad_preempt_unmatched(struct __sk_buff *skb)
{
	bpf_preempt_disable();
	bpf_preempt_disable();
	bpf_preempt_enable();
	bpf_preempt_enable();
	bpf_preempt_enable();
	return TC_ACT_OK;
}

SEC("tc") int ok_preempt_unmatched(struct __sk_buff *skb)
{
	bpf_preempt_disable();
	bpf_preempt_disable();
	bpf_preempt_enable();
	bpf_preempt_enable();
	return TC_ACT_OK;
}
