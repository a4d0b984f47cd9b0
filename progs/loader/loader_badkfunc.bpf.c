// SPDX-License-Identifier: MIT
/* Calls a kfunc headroom does not have: loading must fail naming it. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

extern int bpf_no_such_kfunc(const struct xdp_md *ctx) __ksym;

SEC("xdp")
int bad_kfunc(struct xdp_md *ctx)
{
	return bpf_no_such_kfunc(ctx) ? XDP_PASS : XDP_DROP;
}

char _license[] SEC("license") = "GPL";
