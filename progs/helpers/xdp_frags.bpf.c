// SPDX-License-Identifier: MIT
/*
 * Multi-buffer packets moved by a program (xdp.frags): frag_tail calls
 * bpf_xdp_adjust_tail, frag_pull the bpf_xdp_pull_data kfunc (6.18), each
 * with the 32-bit argument at packet offset 14, read with
 * bpf_xdp_load_bytes so that it may lie in a fragment. Both return 1 on
 * success, else 100 + the error's magnitude, so the error code shows in
 * retval; the packet and xdp_md after it show in data_out and ctx_out.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

extern int bpf_xdp_pull_data(struct xdp_md *xdp, __u32 len) __ksym;

static __always_inline __u32 verdict(int err)
{
	return err ? 100 + (__u32)-err : 1;
}

SEC("xdp.frags")
int frag_tail(struct xdp_md *ctx)
{
	int delta;

	if (bpf_xdp_load_bytes(ctx, 14, &delta, sizeof(delta)))
		return 99;
	return verdict(bpf_xdp_adjust_tail(ctx, delta));
}

SEC("xdp.frags")
int frag_pull(struct xdp_md *ctx)
{
	__u32 len;
	int err;

	if (bpf_xdp_load_bytes(ctx, 14, &len, sizeof(len)))
		return 99;
	err = bpf_xdp_pull_data(ctx, len);
	if (err)
		return verdict(err);
	/* What was pulled is linear now: its last byte is readable. */
	if (len) {
		__u8 *data = (void *)(long)ctx->data;
		__u8 *end = (void *)(long)ctx->data_end;

		if (len > 0xffff || data + len > end)
			return 98;
		if (bpf_xdp_store_bytes(ctx, 0, &len, 4))
			return 97;
	}
	return 1;
}

char _license[] SEC("license") = "GPL";
