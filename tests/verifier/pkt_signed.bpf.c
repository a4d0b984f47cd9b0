/* A packet offset read as a signed byte and only bounded from above: it
 * can be negative, before the packet's start. */
#include "v.h"

SEC("xdp") int bad_pkt_signed(struct xdp_md *ctx)
{
	unsigned char *data = (void *)(long)ctx->data;
	void *end = (void *)(long)ctx->data_end;
	unsigned char *p;
	int off;

	if (data + 1 > (unsigned char *)end)
		return XDP_DROP;
	off = (signed char)data[0];
	if (off > 32)
		return XDP_DROP;
	p = data + off;
	if (p + 1 > (unsigned char *)end)
		return XDP_DROP;
	return *p ? XDP_PASS : XDP_DROP;
}

SEC("xdp") int ok_pkt_signed(struct xdp_md *ctx)
{
	unsigned char *data = (void *)(long)ctx->data;
	void *end = (void *)(long)ctx->data_end;
	unsigned char *p;
	unsigned int off;

	if (data + 1 > (unsigned char *)end)
		return XDP_DROP;
	off = data[0];
	if (off > 32)
		return XDP_DROP;
	p = data + off;
	if (p + 1 > (unsigned char *)end)
		return XDP_DROP;
	return *p ? XDP_PASS : XDP_DROP;
}
