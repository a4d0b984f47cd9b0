/* Nested bpf_preempt_disable left open by one level at the return. */
#include "v.h"

SEC("xdp") int bad_preempt_exit(struct xdp_md *ctx)
{
	bpf_preempt_disable();
	bpf_rcu_read_lock();
	bpf_preempt_disable();
	bpf_rcu_read_unlock();
	bpf_preempt_enable();
	return XDP_PASS;
}

SEC("xdp") int ok_preempt_exit(struct xdp_md *ctx)
{
	bpf_preempt_disable();
	bpf_rcu_read_lock();
	bpf_preempt_disable();
	bpf_rcu_read_unlock();
	bpf_preempt_enable();
	bpf_preempt_enable();
	return XDP_PASS;
}
