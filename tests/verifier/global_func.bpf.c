/* A global function is walked on its own, from its BTF signature (the
 * context, a number): an unchecked packet read in it is refused there,
 * whatever its caller checked. */
#include "v.h"

__attribute__((noinline)) int byte_at(struct xdp_md *ctx, int off)
{
	void *data = (void *)(long)ctx->data;

	return *(volatile unsigned char *)data + off;
}

__attribute__((noinline)) int byte_at_checked(struct xdp_md *ctx, int off)
{
	void *data = (void *)(long)ctx->data;
	void *end = (void *)(long)ctx->data_end;

	if (data + 1 > end)
		return 0;
	return *(volatile unsigned char *)data + off;
}

SEC("xdp") int bad_global_func(struct xdp_md *ctx)
{
	return byte_at(ctx, ctx->rx_queue_index) == 1 ? XDP_DROP : XDP_PASS;
}

SEC("xdp") int ok_global_func(struct xdp_md *ctx)
{
	return byte_at_checked(ctx, ctx->rx_queue_index) == 1 ? XDP_DROP :
								XDP_PASS;
}
