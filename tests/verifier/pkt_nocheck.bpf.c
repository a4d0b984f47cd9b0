/* Packet byte read with no data_end comparison at all. */
#include "v.h"

SEC("xdp") int bad_pkt_nocheck(struct xdp_md *ctx)
{
	unsigned char *data = (void *)(long)ctx->data;

	return data[12] == 8 ? XDP_PASS : XDP_DROP;
}

SEC("xdp") int ok_pkt_nocheck(struct xdp_md *ctx)
{
	unsigned char *data = (void *)(long)ctx->data;
	void *end = (void *)(long)ctx->data_end;

	if ((void *)(data + 13) > end)
		return XDP_DROP;
	return data[12] == 8 ? XDP_PASS : XDP_DROP;
}
