/* A packet offset taken from the packet, added without its own check. */
#include "v.h"

SEC("xdp") int bad_pkt_varoff(struct xdp_md *ctx)
{
	unsigned char *data = (void *)(long)ctx->data;
	void *end = (void *)(long)ctx->data_end;
	unsigned char *p;

	if ((void *)(data + 14) > end)
		return XDP_DROP;
	p = data + data[0];
	return *p ? XDP_PASS : XDP_DROP;
}

SEC("xdp") int ok_pkt_varoff(struct xdp_md *ctx)
{
	unsigned char *data = (void *)(long)ctx->data;
	void *end = (void *)(long)ctx->data_end;
	unsigned char *p;

	if ((void *)(data + 14) > end)
		return XDP_DROP;
	p = data + (data[0] & 0x3f);
	if ((void *)(p + 1) > end)
		return XDP_DROP;
	return *p ? XDP_PASS : XDP_DROP;
}
