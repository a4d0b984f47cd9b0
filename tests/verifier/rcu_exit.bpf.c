/* A return from inside a bpf_rcu_read_lock section. */
#include "v.h"

SEC("tc") int bad_rcu_exit(struct __sk_buff *skb)
{
	bpf_rcu_read_lock();
	if (skb->len > 100)
		return TC_ACT_SHOT;
	bpf_rcu_read_unlock();
	return TC_ACT_OK;
}

SEC("tc") int ok_rcu_exit(struct __sk_buff *skb)
{
	int ret = TC_ACT_OK;

	bpf_rcu_read_lock();
	if (skb->len > 100)
		ret = TC_ACT_SHOT;
	bpf_rcu_read_unlock();
	return ret;
}
