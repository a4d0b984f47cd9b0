/* A write past the end of a ring buffer record: the verifier knows the
 * size reserved. */
#include "v.h"

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 4096);
} rb SEC(".maps");

SEC("xdp") int bad_rb_oob(struct xdp_md *ctx)
{
	__u32 *r = bpf_ringbuf_reserve(&rb, 8, 0);

	if (!r)
		return XDP_PASS;
	r[2] = 1;
	bpf_ringbuf_submit(r, 0);
	return XDP_PASS;
}

SEC("xdp") int ok_rb_oob(struct xdp_md *ctx)
{
	__u32 *r = bpf_ringbuf_reserve(&rb, 12, 0);

	if (!r)
		return XDP_PASS;
	r[2] = 1;
	bpf_ringbuf_submit(r, 0);
	return XDP_PASS;
}
