// SPDX-License-Identifier: MIT
/*
 * What the kernel's verifier refuses for bpf_iter_bits, ring buffer
 * dynptrs and bpf_snprintf, which headroom, without one, must answer as
 * the helper would or end the run instead of touching memory it was not
 * given; packet byte 14 picks the case, XDP_PASS is the helper's answer
 * as expected:
 *
 *   0  bpf_snprintf, "%z": -EINVAL
 *   1  bpf_snprintf, data_len 12: -EINVAL
 *   2  bpf_snprintf, 13 arguments: -EINVAL
 *   3  bpf_snprintf, "%s %s" with one argument: -EINVAL
 *   4  bits iterator over 2 words, its copy's address overwritten, next()
 *   5  the same, destroy()
 *   6  a ring buffer dynptr forged over the stack, submitted
 *   7  a ring buffer dynptr forged over address 0x1000, read
 */
#include <errno.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#include "hr_iter_bits.h"

static const char bad_fmt[] = "%z";
static const char two_fmt[] = "%s %s";
static const char d_fmt[] = "%d";

static int snp(__u8 sel)
{
	__u64 args[13] = { 1, 2, 3 };
	char out[16];

	if (sel == 0)
		return bpf_snprintf(out, sizeof(out), bad_fmt, args, 8);
	if (sel == 1)
		return bpf_snprintf(out, sizeof(out), d_fmt, args, 12);
	if (sel == 2)
		return bpf_snprintf(out, sizeof(out), d_fmt, args, 104);
	return bpf_snprintf(out, sizeof(out), two_fmt, args, 8);
}

static int bits(__u8 sel)
{
	__u64 words[2] = { 5, 6 };
	struct bpf_iter_bits it;
	volatile __u64 *raw = (volatile __u64 *)&it;

	if (bpf_iter_bits_new(&it, words, 2))
		return XDP_DROP;
	raw[0] = (__u64)(long)words;
	if (sel == 4)
		bpf_iter_bits_next(&it);
	bpf_iter_bits_destroy(&it);
	return XDP_PASS;
}

static int ring(__u8 sel)
{
	__u64 d[2], stack[2] = {};
	__u8 out[4];

	d[0] = sel == 6 ? (__u64)(long)stack : 0x1000;
	d[1] = 2u << 28 | 16;
	if (sel == 6) {
		bpf_ringbuf_submit_dynptr((void *)d, 0);
		return XDP_PASS;
	}
	return bpf_dynptr_read(out, sizeof(out), (void *)d, 0, 0) ? XDP_DROP :
								    XDP_PASS;
}

SEC("xdp")
int brs_forged(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *end = (void *)(long)ctx->data_end;
	__u8 *p = data, sel;

	if ((void *)(p + 15) > end)
		return XDP_ABORTED;
	sel = p[14];
	if (sel < 4)
		return snp(sel) == -EINVAL ? XDP_PASS : XDP_DROP;
	if (sel < 6)
		return bits(sel);
	return ring(sel);
}

char _license[] SEC("license") = "GPL";
