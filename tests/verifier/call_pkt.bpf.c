/* A packet read in a static subprogram, given data and data_end: the
 * bounds check must be there too. */
#include "v.h"

static __attribute__((noinline)) int first_byte(void *data, void *end)
{
	volatile unsigned char *p = data;

	return p[13];
}

static __attribute__((noinline)) int first_byte_checked(void *data, void *end)
{
	volatile unsigned char *p = data;

	if ((void *)(p + 14) > end)
		return 0;
	return p[13];
}

SEC("xdp") int bad_call_pkt(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *end = (void *)(long)ctx->data_end;

	return first_byte(data, end) == 8 ? XDP_DROP : XDP_PASS;
}

SEC("xdp") int ok_call_pkt(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *end = (void *)(long)ctx->data_end;

	return first_byte_checked(data, end) == 8 ? XDP_DROP : XDP_PASS;
}
