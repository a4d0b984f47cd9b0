/* An skb helper called from XDP. */
#include "v.h"

SEC("xdp") int bad_helper_type(struct xdp_md *ctx)
{
	char buf[4];

	if (bpf_skb_load_bytes(ctx, 0, buf, sizeof(buf)))
		return XDP_DROP;
	return buf[0] ? XDP_PASS : XDP_DROP;
}

SEC("xdp") int ok_helper_type(struct xdp_md *ctx)
{
	char buf[4];

	if (bpf_xdp_load_bytes(ctx, 0, buf, sizeof(buf)))
		return XDP_DROP;
	return buf[0] ? XDP_PASS : XDP_DROP;
}
