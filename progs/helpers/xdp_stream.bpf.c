// SPDX-License-Identifier: MIT
/*
 * bpf_stream_vprintk_impl, each of its answers once a run: a text to
 * stdout with the format the packet picks, a stream that does not exist,
 * a data size not whole u64s, fewer arguments than the format converts,
 * a text past the 1 KiB a stream element holds; and bpf_snprintf of the
 * same format and arguments, the kernel's own text to compare the
 * stream's with. The answers go back in the packet for test_stream.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

extern int bpf_stream_vprintk_impl(int stream_id, const char *fmt__str,
				   const void *args, __u32 len__sz,
				   void *aux__prog) __ksym;

#define OUT 256

/* After the Ethernet header: the case in, the answers out. */
struct stream_rec {
	__u32 which, pad;
	__u64 args[4];
	char s[16]; /* the string %s reads */
	int ret[5];
	int snp;
	char out[OUT];
};

static const char f_num[] = "n=%d u=%u x=%llx\n";
static const char f_str[] = "[%s] %c%%";
static const char f_none[] = "no arguments\n";
static const char f_two[] = "%d %d";
static const char f_big[] = "%600d%600d";

SEC("xdp")
int xdp_stream(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *data_end = (void *)(long)ctx->data_end;
	struct stream_rec *r = data + 14;
	char out[OUT] = {}, s[16];
	__u64 args[4];
	const char *fmt;
	__u32 n;

	if ((void *)(r + 1) > data_end)
		return XDP_ABORTED;
	__builtin_memcpy(args, r->args, sizeof(args));
	__builtin_memcpy(s, r->s, sizeof(s));
	if (r->which == 1) {
		fmt = f_str;
		args[0] = (__u64)(long)s;
		n = 2;
	} else if (r->which == 2) {
		fmt = f_none;
		n = 0;
	} else {
		fmt = f_num;
		n = 3;
	}
	r->ret[0] = bpf_stream_vprintk_impl(1, fmt, args, n * 8, 0);
	r->ret[1] = bpf_stream_vprintk_impl(3, f_num, args, 24, 0);
	r->ret[2] = bpf_stream_vprintk_impl(2, f_num, args, 20, 0);
	r->ret[3] = bpf_stream_vprintk_impl(2, f_two, args, 8, 0);
	r->ret[4] = bpf_stream_vprintk_impl(2, f_big, args, 16, 0);
	if (r->which == 1)
		r->snp = bpf_snprintf(out, sizeof(out), f_str, args, 16);
	else if (r->which == 2)
		r->snp = bpf_snprintf(out, sizeof(out), f_none, args, 0);
	else
		r->snp = bpf_snprintf(out, sizeof(out), f_num, args, 24);
	__builtin_memcpy(r->out, out, sizeof(out));
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
