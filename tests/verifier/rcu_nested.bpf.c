/* bpf_rcu_read_lock inside an open RCU section: 6.18 does not nest them
 * (active_rcu_lock is a flag), unlike preemption sections. */
#include "v.h"

SEC("tc") int bad_rcu_nested(struct __sk_buff *skb)
{
	bpf_rcu_read_lock();
	bpf_rcu_read_lock();
	bpf_rcu_read_unlock();
	bpf_rcu_read_unlock();
	return TC_ACT_OK;
}

SEC("tc") int ok_rcu_nested(struct __sk_buff *skb)
{
	bpf_rcu_read_lock();
	bpf_rcu_read_unlock();
	bpf_rcu_read_lock();
	bpf_rcu_read_unlock();
	return TC_ACT_OK;
}
