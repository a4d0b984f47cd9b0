/* A bpf_spin_lock still held when the program returns. */
#include "v.h"
#include "lock.h"

SEC("xdp") int bad_lock_exit(struct xdp_md *ctx)
{
	__u32 k = 0;
	struct val *v = bpf_map_lookup_elem(&vals, &k);

	if (!v)
		return XDP_PASS;
	bpf_spin_lock(&v->lock);
	v->n++;
	if (ctx->ingress_ifindex == 1)
		return XDP_DROP;
	bpf_spin_unlock(&v->lock);
	return XDP_PASS;
}

SEC("xdp") int ok_lock_exit(struct xdp_md *ctx)
{
	__u32 k = 0;
	struct val *v = bpf_map_lookup_elem(&vals, &k);

	if (!v)
		return XDP_PASS;
	bpf_spin_lock(&v->lock);
	v->n++;
	bpf_spin_unlock(&v->lock);
	return ctx->ingress_ifindex == 1 ? XDP_DROP : XDP_PASS;
}
