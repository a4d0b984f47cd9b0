/* data_end kept across bpf_xdp_adjust_tail. */
#include "v.h"

SEC("xdp") int bad_pkt_tail(struct xdp_md *ctx)
{
	unsigned char *data = (void *)(long)ctx->data;
	void *end = (void *)(long)ctx->data_end;

	if ((void *)(data + 60) > end)
		return XDP_DROP;
	if (bpf_xdp_adjust_tail(ctx, -20))
		return XDP_DROP;
	return data[50] ? XDP_PASS : XDP_DROP;
}

SEC("xdp") int ok_pkt_tail(struct xdp_md *ctx)
{
	unsigned char *data, *end;

	if (bpf_xdp_adjust_tail(ctx, -20))
		return XDP_DROP;
	data = (void *)(long)ctx->data;
	end = (void *)(long)ctx->data_end;
	if (data + 60 > end)
		return XDP_DROP;
	return data[50] ? XDP_PASS : XDP_DROP;
}
