/* A ring buffer record reserved and neither submitted nor discarded on
 * one path. */
#include "v.h"

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 4096);
} rb SEC(".maps");

SEC("xdp") int bad_rb_leak(struct xdp_md *ctx)
{
	__u64 *r = bpf_ringbuf_reserve(&rb, 8, 0);

	if (!r)
		return XDP_PASS;
	*r = 1;
	if (ctx->ingress_ifindex == 1)
		return XDP_DROP;
	bpf_ringbuf_submit(r, 0);
	return XDP_PASS;
}

SEC("xdp") int ok_rb_leak(struct xdp_md *ctx)
{
	__u64 *r = bpf_ringbuf_reserve(&rb, 8, 0);

	if (!r)
		return XDP_PASS;
	*r = 1;
	if (ctx->ingress_ifindex == 1) {
		bpf_ringbuf_discard(r, 0);
		return XDP_DROP;
	}
	bpf_ringbuf_submit(r, 0);
	return XDP_PASS;
}
