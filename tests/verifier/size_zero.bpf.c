/* A buffer passed with size 0 (ARG_CONST_SIZE_OR_ZERO) is still checked
 * where it points: a packet pointer may sit at the proven end, not past
 * it. */
#include "v.h"

SEC("xdp") int bad_size_zero(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *end = (void *)(long)ctx->data_end;

	if (data + 20 > end)
		return XDP_PASS;
	return bpf_csum_diff(data + 24, 0, data, 20, 0) ? XDP_DROP : XDP_PASS;
}

SEC("xdp") int ok_size_zero(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *end = (void *)(long)ctx->data_end;

	if (data + 20 > end)
		return XDP_PASS;
	return bpf_csum_diff(data + 20, 0, data, 20, 0) ? XDP_DROP : XDP_PASS;
}
