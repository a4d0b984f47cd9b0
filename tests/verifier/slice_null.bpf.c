/* A dynptr slice read before its NULL test (bpf_dynptr_slice returns
 * PTR_TO_MEM | MEM_RDONLY | PTR_MAYBE_NULL). */
#include "v.h"
#include "hr_dynptr.h"

SEC("xdp") int bad_slice_null(struct xdp_md *ctx)
{
	struct bpf_dynptr d;
	__u8 buf[14], *eth;

	bpf_dynptr_from_xdp(ctx, 0, &d);
	eth = bpf_dynptr_slice(&d, 0, buf, sizeof(buf));
	return eth[12] == 8 ? XDP_PASS : XDP_DROP;
}

SEC("xdp") int ok_slice_null(struct xdp_md *ctx)
{
	struct bpf_dynptr d;
	__u8 buf[14], *eth;

	bpf_dynptr_from_xdp(ctx, 0, &d);
	eth = bpf_dynptr_slice(&d, 0, buf, sizeof(buf));
	if (!eth)
		return XDP_DROP;
	return eth[12] == 8 ? XDP_PASS : XDP_DROP;
}
