/* A packet pointer returned as the verdict: root's programs may leak
 * pointers and XDP has no return range, so both load. */
#include "v.h"

SEC("xdp") int ok_ret_pkt(struct xdp_md *ctx)
{
	return (long)ctx->data;
}

SEC("xdp") int ok_ret_len(struct xdp_md *ctx)
{
	return ctx->data_end - ctx->data > 60 ? XDP_PASS : XDP_DROP;
}
