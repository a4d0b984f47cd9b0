/* A store into a ring buffer dynptr's bytes: it holds a reference, and
 * destroy_if_dynptr_stack_slot refuses to forget it. The twin stores
 * next to it. */
#include "v.h"
#include "rb.h"

SEC("xdp") int bad_rbdyn_overwrite(struct xdp_md *ctx)
{
	struct {
		struct bpf_dynptr d;
		__u64 x;
	} s;

	bpf_ringbuf_reserve_dynptr(&rb, 8, 0, &s.d);
	*(volatile __u64 *)&s.d = 0;
	bpf_ringbuf_discard_dynptr(&s.d, 0);
	return XDP_PASS;
}

SEC("xdp") int ok_rbdyn_overwrite(struct xdp_md *ctx)
{
	struct {
		struct bpf_dynptr d;
		__u64 x;
	} s;

	bpf_ringbuf_reserve_dynptr(&rb, 8, 0, &s.d);
	*(volatile __u64 *)&s.x = 0;
	bpf_ringbuf_discard_dynptr(&s.d, 0);
	return XDP_PASS;
}
