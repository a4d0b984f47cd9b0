/* A chain of bpf-to-bpf calls nine frames deep: the verifier allows eight. */
#include "v.h"

#define LEVEL(name, next)                                \
	static __attribute__((noinline)) int name(int x) \
	{                                                \
		return next(x ^ 1) + 1;                  \
	}

static __attribute__((noinline)) int f8(int x)
{
	return x & 1;
}

LEVEL(f7, f8)
LEVEL(f6, f7)
LEVEL(f5, f6)
LEVEL(f4, f5)
LEVEL(f3, f4)
LEVEL(f2, f3)
LEVEL(f1, f2)

SEC("xdp") int bad_call_deep(struct xdp_md *ctx)
{
	return f1(ctx->ingress_ifindex) & 3;
}

SEC("xdp") int ok_call_deep(struct xdp_md *ctx)
{
	return f2(ctx->ingress_ifindex) & 3;
}
