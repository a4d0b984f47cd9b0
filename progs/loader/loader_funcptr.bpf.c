// SPDX-License-Identifier: MIT
/*
 * A subprogram's address taken without bpf_loop: ld_imm64 of a function
 * (BPF_PSEUDO_FUNC) that links the callee in, whatever helpers exist.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

static __noinline int cb(__u32 i, void *data)
{
	return (int)i + 1;
}

SEC("xdp")
int fptr(struct xdp_md *ctx)
{
	void *volatile p = cb;

	return p ? XDP_PASS : XDP_DROP;
}

char _license[] SEC("license") = "GPL";
