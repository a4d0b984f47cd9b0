/* A bpf_dynptr_data slice of a ring buffer dynptr written after the
 * record was submitted: the release took the slice's reference too. */
#include "v.h"
#include "rb.h"

SEC("xdp") int bad_rbdyn_after(struct xdp_md *ctx)
{
	struct bpf_dynptr d;
	__u64 *p;

	bpf_ringbuf_reserve_dynptr(&rb, 8, 0, &d);
	p = bpf_dynptr_data(&d, 0, 8);
	if (!p) {
		bpf_ringbuf_discard_dynptr(&d, 0);
		return XDP_DROP;
	}
	bpf_ringbuf_submit_dynptr(&d, 0);
	*p = 1;
	return XDP_PASS;
}

SEC("xdp") int ok_rbdyn_after(struct xdp_md *ctx)
{
	struct bpf_dynptr d;
	__u64 *p;

	bpf_ringbuf_reserve_dynptr(&rb, 8, 0, &d);
	p = bpf_dynptr_data(&d, 0, 8);
	if (!p) {
		bpf_ringbuf_discard_dynptr(&d, 0);
		return XDP_DROP;
	}
	*p = 1;
	bpf_ringbuf_submit_dynptr(&d, 0);
	return XDP_PASS;
}
