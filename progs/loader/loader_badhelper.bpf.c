// SPDX-License-Identifier: MIT
/* Calls a helper ID no kernel has: loading must fail naming it. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

static long (*bpf_no_such_helper)(void) = (void *)9999;

SEC("xdp")
int bad_helper(struct xdp_md *ctx)
{
	return bpf_no_such_helper() ? XDP_PASS : XDP_DROP;
}

char _license[] SEC("license") = "GPL";
