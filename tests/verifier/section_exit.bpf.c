/* A return with both an RCU and a preemption section open: the kernel's
 * check_resource_leak names the RCU one. */
#include "v.h"

SEC("tc") int bad_section_exit(struct __sk_buff *skb)
{
	bpf_preempt_disable();
	bpf_rcu_read_lock();
	return TC_ACT_OK;
}

SEC("tc") int ok_section_exit(struct __sk_buff *skb)
{
	bpf_preempt_disable();
	bpf_rcu_read_lock();
	bpf_rcu_read_unlock();
	bpf_preempt_enable();
	return TC_ACT_OK;
}
