/* bpf_throw in bpf_loop's callback: the kernel refuses it after the walk
 * (check_max_stack_depth_subprog); from a function called directly the
 * throw ends the program, which loads. */
#include "v.h"

extern void bpf_throw(__u64 cookie) __ksym;

static __attribute__((noinline)) long throwing(__u32 i, void *ctx)
{
	if (i == 1)
		bpf_throw(3);
	return 0;
}

SEC("xdp") int bad_throw_cb(struct xdp_md *ctx)
{
	bpf_loop(2, throwing, NULL, 0);
	return XDP_PASS;
}

SEC("xdp") int ok_throw_cb(struct xdp_md *ctx)
{
	throwing(ctx->rx_queue_index, NULL);
	return XDP_PASS;
}

/* A callback that branches on its index: each return brings the caller's
 * state back unchanged to the bpf_loop call, which the kernel prunes. */
static __attribute__((noinline)) long branching(__u32 i, void *ctx)
{
	if (i == 1)
		return 1;
	return 0;
}

SEC("xdp") int ok_throw_cb_branch(struct xdp_md *ctx)
{
	bpf_loop(2, branching, NULL, 0);
	return XDP_PASS;
}
