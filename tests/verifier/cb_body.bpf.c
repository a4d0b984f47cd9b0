/* A bpf_loop callback reading past its context, a stack buffer of the
 * caller's, against one that stays inside it. */
#include "v.h"

struct acc {
	__u64 v[2];
};

static long read_past(__u32 i, void *c)
{
	struct acc *a = c;

	return *(volatile __u64 *)((char *)a + 16) == 7;
}

static long read_in(__u32 i, void *c)
{
	struct acc *a = c;

	return *(volatile __u64 *)((char *)a + 8) == 7;
}

SEC("xdp") int bad_cb_body(struct xdp_md *ctx)
{
	struct acc a = { { 1, 2 } };

	bpf_loop(4, read_past, &a, 0);
	return XDP_PASS;
}

SEC("xdp") int ok_cb_body(struct xdp_md *ctx)
{
	struct acc a = { { 1, 2 } };

	bpf_loop(4, read_in, &a, 0);
	return XDP_PASS;
}
