/* A bpf_loop callback reading the caller's dynptr through its context:
 * the object also declares kfuncs (extern functions whose parameters
 * clang leaves unnamed, which libbpf names: the kernel keeps the BTF and
 * its func_info). The bad twin never makes the dynptr. */
#include "v.h"
#include "hr_dynptr.h"

struct cb_ctx {
	struct bpf_dynptr *d;
	int sum;
};

static long cb_read(__u64 i, void *c)
{
	struct cb_ctx *x = c;
	__u8 b;

	if (bpf_dynptr_read(&b, 1, x->d, i, 0))
		return 1;
	x->sum += b;
	return 0;
}

SEC("xdp") int bad_cb_dynptr(struct xdp_md *ctx)
{
	struct bpf_dynptr d;
	struct cb_ctx c = { &d, 0 };

	bpf_loop(4, cb_read, &c, 0);
	return c.sum ? XDP_PASS : XDP_DROP;
}

SEC("xdp") int ok_cb_dynptr(struct xdp_md *ctx)
{
	struct bpf_dynptr d;
	struct cb_ctx c = { &d, 0 };

	bpf_dynptr_from_xdp(ctx, 0, &d);
	bpf_loop(4, cb_read, &c, 0);
	return c.sum ? XDP_PASS : XDP_DROP;
}
