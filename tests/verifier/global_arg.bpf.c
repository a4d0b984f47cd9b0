/* A global function's number argument must be a number at the call
 * (btf_check_func_arg_match), not a pointer. */
#include "v.h"

__attribute__((noinline)) int twice(int v)
{
	return v * 2;
}

SEC("xdp") int bad_global_arg(struct xdp_md *ctx)
{
	return twice((long)ctx) == 4 ? XDP_DROP : XDP_PASS;
}

SEC("xdp") int ok_global_arg(struct xdp_md *ctx)
{
	return twice(ctx->rx_queue_index) == 4 ? XDP_DROP : XDP_PASS;
}
