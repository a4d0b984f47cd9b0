/* The Ethernet header checked, then a byte of the IP header read. */
#include "v.h"

SEC("xdp") int bad_pkt_short(struct xdp_md *ctx)
{
	unsigned char *data = (void *)(long)ctx->data;
	void *end = (void *)(long)ctx->data_end;

	if ((void *)(data + 14) > end)
		return XDP_DROP;
	return data[23] == 6 ? XDP_PASS : XDP_DROP;
}

SEC("xdp") int ok_pkt_short(struct xdp_md *ctx)
{
	unsigned char *data = (void *)(long)ctx->data;
	void *end = (void *)(long)ctx->data_end;

	if ((void *)(data + 34) > end)
		return XDP_DROP;
	return data[23] == 6 ? XDP_PASS : XDP_DROP;
}
