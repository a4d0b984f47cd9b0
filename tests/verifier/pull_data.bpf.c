/* bpf_xdp_pull_data (6.18) may move the packet: packet pointers taken
 * before it are invalid after it (clear_all_pkt_pointers), as after
 * bpf_xdp_adjust_head; read again from the context, they are fine. */
#include "v.h"

extern int bpf_xdp_pull_data(struct xdp_md *xdp, __u32 len) __ksym;

SEC("xdp.frags") int bad_pull_data(struct xdp_md *ctx)
{
	__u8 *data = (void *)(long)ctx->data;
	__u8 *end = (void *)(long)ctx->data_end;

	if (data + 14 > end)
		return XDP_PASS;
	bpf_xdp_pull_data(ctx, 64);
	return data[12] == 8 ? XDP_TX : XDP_PASS;
}

SEC("xdp.frags") int ok_pull_data(struct xdp_md *ctx)
{
	__u8 *data, *end;

	if (bpf_xdp_pull_data(ctx, 64))
		return XDP_DROP;
	data = (void *)(long)ctx->data;
	end = (void *)(long)ctx->data_end;
	if (data + 64 > end)
		return XDP_PASS;
	return data[12] == 8 ? XDP_TX : XDP_PASS;
}
