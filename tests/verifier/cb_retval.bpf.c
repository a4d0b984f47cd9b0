/* A bpf_loop callback must return 0 or 1; this one returns a value the
 * verifier cannot bound. */
#include "v.h"

static long step(__u64 i, void *c)
{
	return bpf_get_prandom_u32();
}

static long step1(__u64 i, void *c)
{
	return bpf_get_prandom_u32() & 1;
}

SEC("xdp") int bad_cb_retval(struct xdp_md *ctx)
{
	bpf_loop(4, step, 0, 0);
	return XDP_PASS;
}

SEC("xdp") int ok_cb_retval(struct xdp_md *ctx)
{
	bpf_loop(4, step1, 0, 0);
	return XDP_PASS;
}
