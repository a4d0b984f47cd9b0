// SPDX-License-Identifier: MIT
/*
 * Two programs, one calling a kfunc nobody has: the object loads only when
 * the good one is asked for by name (headroom test OBJ:cli_good).
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

extern int bpf_hr_no_such_kfunc(struct xdp_md *ctx) __ksym;

SEC("xdp")
int cli_good(struct xdp_md *ctx)
{
	return XDP_PASS;
}

SEC("xdp")
int cli_bad(struct xdp_md *ctx)
{
	return bpf_hr_no_such_kfunc(ctx);
}

char _license[] SEC("license") = "GPL";
