/* A tail call from inside a preemption or an RCU section, which it would
 * never close. */
#include "v.h"

struct {
	__uint(type, BPF_MAP_TYPE_PROG_ARRAY);
	__uint(max_entries, 2);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(__u32));
} jmp SEC(".maps");

SEC("tc") int bad_tail_section(struct __sk_buff *skb)
{
	bpf_preempt_disable();
	bpf_tail_call(skb, &jmp, 0);
	bpf_preempt_enable();
	return TC_ACT_OK;
}

SEC("tc") int ok_tail_section(struct __sk_buff *skb)
{
	bpf_preempt_disable();
	bpf_preempt_enable();
	bpf_tail_call(skb, &jmp, 0);
	return TC_ACT_OK;
}

SEC("tc") int bad_tail_rcu(struct __sk_buff *skb)
{
	bpf_rcu_read_lock();
	bpf_tail_call(skb, &jmp, 1);
	bpf_rcu_read_unlock();
	return TC_ACT_OK;
}

SEC("tc") int ok_tail_rcu(struct __sk_buff *skb)
{
	bpf_rcu_read_lock();
	bpf_rcu_read_unlock();
	bpf_tail_call(skb, &jmp, 1);
	return TC_ACT_OK;
}
