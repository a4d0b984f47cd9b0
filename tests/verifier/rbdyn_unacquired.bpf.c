/* bpf_ringbuf_submit_dynptr of an XDP dynptr: it holds no reference to
 * release (check_func_arg looks at the slot's ref_obj_id). */
#include "v.h"
#include "rb.h"
#include "hr_dynptr.h"

SEC("xdp") int bad_rbdyn_unacquired(struct xdp_md *ctx)
{
	struct bpf_dynptr d;

	bpf_dynptr_from_xdp(ctx, 0, &d);
	bpf_ringbuf_submit_dynptr(&d, 0);
	return XDP_PASS;
}

SEC("xdp") int ok_rbdyn_unacquired(struct xdp_md *ctx)
{
	struct bpf_dynptr d;

	bpf_ringbuf_reserve_dynptr(&rb, 8, 0, &d);
	bpf_ringbuf_submit_dynptr(&d, 0);
	return XDP_PASS;
}
