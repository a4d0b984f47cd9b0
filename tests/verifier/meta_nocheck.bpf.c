/* Metadata read without the data_meta + n <= data comparison. */
#include "v.h"

SEC("xdp") int bad_meta_nocheck(struct xdp_md *ctx)
{
	__u32 *meta = (void *)(long)ctx->data_meta;

	return *meta == 7 ? XDP_PASS : XDP_DROP;
}

SEC("xdp") int ok_meta_nocheck(struct xdp_md *ctx)
{
	__u32 *meta = (void *)(long)ctx->data_meta;
	void *data = (void *)(long)ctx->data;

	if ((void *)(meta + 1) > data)
		return XDP_DROP;
	return *meta == 7 ? XDP_PASS : XDP_DROP;
}
