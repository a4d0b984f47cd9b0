/* bpf_dynptr_read from a dynptr never made: process_dynptr_func wants an
 * initialized one. */
#include "v.h"
#include "hr_dynptr.h"

SEC("xdp") int bad_dynptr_uninit(struct xdp_md *ctx)
{
	struct bpf_dynptr d;
	__u8 buf[4];

	return bpf_dynptr_read(buf, sizeof(buf), &d, 0, 0) ? XDP_DROP :
							     XDP_PASS;
}

SEC("xdp") int ok_dynptr_uninit(struct xdp_md *ctx)
{
	struct bpf_dynptr d;
	__u8 buf[4];

	bpf_dynptr_from_xdp(ctx, 0, &d);
	return bpf_dynptr_read(buf, sizeof(buf), &d, 0, 0) ? XDP_DROP :
							     XDP_PASS;
}
