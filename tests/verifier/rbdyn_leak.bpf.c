/* A ring buffer dynptr neither submitted nor discarded on one path, after
 * a failed reserve too: its reference is still held at exit. */
#include "v.h"
#include "rb.h"

SEC("xdp") int bad_rbdyn_leak(struct xdp_md *ctx)
{
	struct bpf_dynptr d;

	if (bpf_ringbuf_reserve_dynptr(&rb, 8, 0, &d))
		return XDP_DROP;
	bpf_ringbuf_submit_dynptr(&d, 0);
	return XDP_PASS;
}

SEC("xdp") int ok_rbdyn_leak(struct xdp_md *ctx)
{
	struct bpf_dynptr d;
	int ret = XDP_PASS;

	if (bpf_ringbuf_reserve_dynptr(&rb, 8, 0, &d))
		ret = XDP_DROP;
	bpf_ringbuf_submit_dynptr(&d, 0);
	return ret;
}
