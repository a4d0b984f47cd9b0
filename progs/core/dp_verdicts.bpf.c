// SPDX-License-Identifier: MIT
/*
 * One program per XDP verdict, for the datapath tests (tests/
 * test_datapath.c): each returns its action; the redirect ones go to
 * ifindex 3 (the second device the test registers) or to a missing one;
 * dp_meta writes 8 bytes of metadata (a magic word and the packet length)
 * for the tc program of dp_tc_meta.bpf.c.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define DP_META_MAGIC 0xfeedf00du
#define DP_REDIRECT_IFINDEX 3

SEC("xdp")
int dp_drop(struct xdp_md *ctx)
{
	return XDP_DROP;
}

SEC("xdp")
int dp_pass(struct xdp_md *ctx)
{
	return XDP_PASS;
}

SEC("xdp")
int dp_tx(struct xdp_md *ctx)
{
	return XDP_TX;
}

SEC("xdp")
int dp_aborted(struct xdp_md *ctx)
{
	return XDP_ABORTED;
}

SEC("xdp")
int dp_invalid(struct xdp_md *ctx)
{
	return 42;
}

SEC("xdp")
int dp_redirect(struct xdp_md *ctx)
{
	return bpf_redirect(DP_REDIRECT_IFINDEX, 0);
}

SEC("xdp")
int dp_redirect_missing(struct xdp_md *ctx)
{
	return bpf_redirect(200, 0);
}

SEC("xdp")
int dp_redirect_badflags(struct xdp_md *ctx)
{
	return bpf_redirect(DP_REDIRECT_IFINDEX, 1);
}

/* XDP_REDIRECT without a helper call: -EBADRQC in xdp_do_redirect. */
SEC("xdp")
int dp_redirect_none(struct xdp_md *ctx)
{
	return XDP_REDIRECT;
}

SEC("xdp")
int dp_meta(struct xdp_md *ctx)
{
	__u32 *meta;
	void *data;

	if (bpf_xdp_adjust_meta(ctx, -8))
		return XDP_ABORTED;
	meta = (void *)(long)ctx->data_meta;
	data = (void *)(long)ctx->data;
	if ((void *)(meta + 2) > data)
		return XDP_ABORTED;
	meta[0] = DP_META_MAGIC;
	meta[1] = ctx->data_end - ctx->data;
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
