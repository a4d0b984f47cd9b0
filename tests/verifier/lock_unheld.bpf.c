/* bpf_spin_unlock on a path where the lock was not taken. */
#include "v.h"
#include "lock.h"

SEC("xdp") int bad_lock_unheld(struct xdp_md *ctx)
{
	__u32 k = 0;
	struct val *v = bpf_map_lookup_elem(&vals, &k);

	if (!v)
		return XDP_PASS;
	if (ctx->ingress_ifindex != 1)
		bpf_spin_lock(&v->lock);
	v->n = 1;
	bpf_spin_unlock(&v->lock);
	return XDP_PASS;
}

SEC("xdp") int ok_lock_unheld(struct xdp_md *ctx)
{
	__u32 k = 0;
	struct val *v = bpf_map_lookup_elem(&vals, &k);

	if (!v)
		return XDP_PASS;
	bpf_spin_lock(&v->lock);
	v->n = 1;
	bpf_spin_unlock(&v->lock);
	return XDP_PASS;
}
