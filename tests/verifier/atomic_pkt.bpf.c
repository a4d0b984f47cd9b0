/* An atomic add into packet memory: atomics only take stack, map value
 * and allocated memory. */
#include "v.h"

SEC("xdp") int bad_atomic_pkt(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *end = (void *)(long)ctx->data_end;

	if (data + 8 > end)
		return XDP_DROP;
	__sync_fetch_and_add((__u32 *)data, 1);
	return XDP_PASS;
}

SEC("xdp") int ok_atomic_pkt(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *end = (void *)(long)ctx->data_end;

	if (data + 8 > end)
		return XDP_DROP;
	*(__u32 *)data += 1;
	return XDP_PASS;
}
