/* A packet pointer kept across bpf_xdp_adjust_head, which moves the packet. */
#include "v.h"

SEC("xdp") int bad_pkt_adjust(struct xdp_md *ctx)
{
	unsigned char *data = (void *)(long)ctx->data;
	void *end = (void *)(long)ctx->data_end;

	if ((void *)(data + 14) > end)
		return XDP_DROP;
	if (bpf_xdp_adjust_head(ctx, 4))
		return XDP_DROP;
	return data[0] == 1 ? XDP_PASS : XDP_DROP;
}

SEC("xdp") int ok_pkt_adjust(struct xdp_md *ctx)
{
	unsigned char *data, *end;

	if (bpf_xdp_adjust_head(ctx, 4))
		return XDP_DROP;
	data = (void *)(long)ctx->data;
	end = (void *)(long)ctx->data_end;
	if (data + 14 > end)
		return XDP_DROP;
	return data[0] == 1 ? XDP_PASS : XDP_DROP;
}
