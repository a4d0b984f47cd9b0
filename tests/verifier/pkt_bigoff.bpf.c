/* A packet offset from a 32-bit header field, checked against data_end
 * unmasked: past 0xffff the check proves nothing. */
#include "v.h"

SEC("xdp") int bad_pkt_bigoff(struct xdp_md *ctx)
{
	unsigned char *data = (void *)(long)ctx->data;
	unsigned char *end = (void *)(long)ctx->data_end;
	unsigned char *p;
	__u32 off;

	if (data + 4 > end)
		return XDP_DROP;
	off = *(__u32 *)data;
	p = data + off;
	if (p + 1 > end)
		return XDP_DROP;
	return *p ? XDP_PASS : XDP_DROP;
}

SEC("xdp") int ok_pkt_bigoff(struct xdp_md *ctx)
{
	unsigned char *data = (void *)(long)ctx->data;
	unsigned char *end = (void *)(long)ctx->data_end;
	unsigned char *p;
	__u32 off;

	if (data + 4 > end)
		return XDP_DROP;
	off = *(__u32 *)data & 0xfff;
	p = data + off;
	if (p + 1 > end)
		return XDP_DROP;
	return *p ? XDP_PASS : XDP_DROP;
}
