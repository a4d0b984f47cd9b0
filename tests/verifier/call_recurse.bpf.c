/* A bpf-to-bpf function that calls itself: the verifier refuses recursion. */
#include "v.h"

static __attribute__((noinline)) int sum(int n)
{
	int r;

	if (n <= 0)
		return 0;
	r = sum(n - 1);
	return (r << 1) - n;
}

static __attribute__((noinline)) int sum2(int n)
{
	int r = n - 1;

	return (r << 1) - n;
}

SEC("xdp") int bad_call_recurse(struct xdp_md *ctx)
{
	return sum(ctx->ingress_ifindex & 3) & 3;
}

SEC("xdp") int ok_call_recurse(struct xdp_md *ctx)
{
	return sum2(ctx->ingress_ifindex & 3) & 3;
}
