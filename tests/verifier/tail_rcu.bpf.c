/* A tail call from inside an RCU section. */
#include "v.h"

struct {
	__uint(type, BPF_MAP_TYPE_PROG_ARRAY);
	__uint(max_entries, 2);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(__u32));
} jmp SEC(".maps");

SEC("xdp") int bad_tail_rcu(struct xdp_md *ctx)
{
	bpf_rcu_read_lock();
	bpf_tail_call(ctx, &jmp, 1);
	bpf_rcu_read_unlock();
	return XDP_PASS;
}

SEC("xdp") int ok_tail_rcu(struct xdp_md *ctx)
{
	bpf_rcu_read_lock();
	bpf_rcu_read_unlock();
	bpf_tail_call(ctx, &jmp, 1);
	return XDP_PASS;
}
