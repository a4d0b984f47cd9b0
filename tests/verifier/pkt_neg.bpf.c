/* A byte before ctx->data read through the packet pointer. */
#include "v.h"

SEC("xdp") int bad_pkt_neg(struct xdp_md *ctx)
{
	unsigned char *data = (void *)(long)ctx->data;
	void *end = (void *)(long)ctx->data_end;

	if ((void *)(data + 14) > end)
		return XDP_DROP;
	return *(volatile unsigned char *)(data - 1) ? XDP_PASS : XDP_DROP;
}

SEC("xdp") int ok_pkt_neg(struct xdp_md *ctx)
{
	unsigned char *data = (void *)(long)ctx->data;
	void *end = (void *)(long)ctx->data_end;

	if ((void *)(data + 14) > end)
		return XDP_DROP;
	return *(volatile unsigned char *)(data + 1) ? XDP_PASS : XDP_DROP;
}
