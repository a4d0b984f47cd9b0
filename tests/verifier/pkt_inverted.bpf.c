/* A bounds check read the wrong way round: the header is read on the
 * branch where the packet is too short. */
#include "v.h"

SEC("xdp") int bad_pkt_inverted(struct xdp_md *ctx)
{
	unsigned char *data = (void *)(long)ctx->data;
	unsigned char *end = (void *)(long)ctx->data_end;

	if (data + 14 <= end)
		return XDP_PASS;
	return data[12] == 8 ? XDP_DROP : XDP_PASS;
}

SEC("xdp") int ok_pkt_inverted(struct xdp_md *ctx)
{
	unsigned char *data = (void *)(long)ctx->data;
	unsigned char *end = (void *)(long)ctx->data_end;

	if (data + 14 > end)
		return XDP_PASS;
	return data[12] == 8 ? XDP_DROP : XDP_PASS;
}
