/* Four bytes of metadata checked, eight read. */
#include "v.h"

SEC("xdp") int bad_meta_short(struct xdp_md *ctx)
{
	__u32 *meta = (void *)(long)ctx->data_meta;
	void *data = (void *)(long)ctx->data;

	if ((void *)(meta + 1) > data)
		return XDP_DROP;
	return meta[1] == 7 ? XDP_PASS : XDP_DROP;
}

SEC("xdp") int ok_meta_short(struct xdp_md *ctx)
{
	__u32 *meta = (void *)(long)ctx->data_meta;
	void *data = (void *)(long)ctx->data;

	if ((void *)(meta + 2) > data)
		return XDP_DROP;
	return meta[1] == 7 ? XDP_PASS : XDP_DROP;
}
