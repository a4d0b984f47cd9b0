/* A slice of an XDP dynptr used after bpf_xdp_adjust_head, which changes
 * the packet: clear_all_pkt_pointers invalidated it. The twin takes the
 * slice again. */
#include "v.h"
#include "hr_dynptr.h"

SEC("xdp") int bad_slice_stale(struct xdp_md *ctx)
{
	struct bpf_dynptr d;
	__u8 buf[14], *eth;

	bpf_dynptr_from_xdp(ctx, 0, &d);
	eth = bpf_dynptr_slice(&d, 0, buf, sizeof(buf));
	if (!eth)
		return XDP_DROP;
	if (bpf_xdp_adjust_head(ctx, 0))
		return XDP_DROP;
	return eth[12] == 8 ? XDP_PASS : XDP_DROP;
}

SEC("xdp") int ok_slice_stale(struct xdp_md *ctx)
{
	struct bpf_dynptr d;
	__u8 buf[14], *eth;

	bpf_dynptr_from_xdp(ctx, 0, &d);
	if (bpf_xdp_adjust_head(ctx, 0))
		return XDP_DROP;
	eth = bpf_dynptr_slice(&d, 0, buf, sizeof(buf));
	if (!eth)
		return XDP_DROP;
	return eth[12] == 8 ? XDP_PASS : XDP_DROP;
}
