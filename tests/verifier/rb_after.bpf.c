/* A ring buffer record read after bpf_ringbuf_submit gave it away: every
 * copy of the pointer is released with it. */
#include "v.h"

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 4096);
} rb SEC(".maps");

SEC("xdp") int bad_rb_after(struct xdp_md *ctx)
{
	__u64 *r = bpf_ringbuf_reserve(&rb, 8, 0);
	__u64 v;

	if (!r)
		return XDP_PASS;
	*r = ctx->ingress_ifindex;
	bpf_ringbuf_submit(r, 0);
	v = *(volatile __u64 *)r;
	return v == 3 ? XDP_DROP : XDP_PASS;
}

SEC("xdp") int ok_rb_after(struct xdp_md *ctx)
{
	__u64 *r = bpf_ringbuf_reserve(&rb, 8, 0);
	__u64 v;

	if (!r)
		return XDP_PASS;
	*r = ctx->ingress_ifindex;
	v = *(volatile __u64 *)r;
	bpf_ringbuf_submit(r, 0);
	return v == 3 ? XDP_DROP : XDP_PASS;
}
