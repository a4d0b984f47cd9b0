/* bpf_rcu_read_unlock on a path that took no bpf_rcu_read_lock. */
#include "v.h"

SEC("xdp") int bad_rcu_unmatched(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *end = (void *)(long)ctx->data_end;
	unsigned char *p = data;

	if ((void *)(p + 1) > end)
		return XDP_PASS;
	if (*p == 1)
		bpf_rcu_read_lock();
	bpf_rcu_read_unlock();
	return XDP_PASS;
}

SEC("xdp") int ok_rcu_unmatched(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *end = (void *)(long)ctx->data_end;
	unsigned char *p = data;

	if ((void *)(p + 1) > end)
		return XDP_PASS;
	bpf_rcu_read_lock();
	if (*p == 1) {
		bpf_rcu_read_unlock();
		return XDP_DROP;
	}
	bpf_rcu_read_unlock();
	return XDP_PASS;
}
