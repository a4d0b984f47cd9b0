/* Two frames whose stacks together pass 512 bytes. */
#include "v.h"

/* Each frame's depth is the deepest slot it touches. */
#define TOUCH(off)                                               \
	asm volatile("r1 = 0; *(u64 *)(r10 - " #off ") = r1;" :: \
			     : "r1", "memory")

static __attribute__((noinline)) int fill(int x)
{
	TOUCH(320);
	return x & 1;
}

SEC("xdp") int bad_call_stack_sum(struct xdp_md *ctx)
{
	TOUCH(256);
	return fill(ctx->rx_queue_index) + 1;
}

SEC("xdp") int ok_call_stack_sum(struct xdp_md *ctx)
{
	TOUCH(128);
	return fill(ctx->rx_queue_index) + 1;
}
