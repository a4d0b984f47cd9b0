/* XDP: no field of xdp_md may be written. */
#include "v.h"

SEC("xdp") int bad_ctx_xdp_write(struct xdp_md *ctx)
{
	ctx->rx_queue_index = 0;
	return XDP_PASS;
}

SEC("xdp") int ok_ctx_xdp_write(struct xdp_md *ctx)
{
	return ctx->rx_queue_index ? XDP_PASS : XDP_DROP;
}
