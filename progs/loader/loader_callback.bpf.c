// SPDX-License-Identifier: MIT
/* A bpf_loop callback: ld_imm64 of a function address (BPF_PSEUDO_FUNC). */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

static int loop_cb(__u32 i, void *data)
{
	*(int *)data += (int)i;
	return 0;
}

SEC("xdp")
int loops(struct xdp_md *ctx)
{
	int sum = 0;

	bpf_loop(4, loop_cb, &sum, 0);
	return sum == 6 ? XDP_PASS : XDP_DROP;
}

char _license[] SEC("license") = "GPL";
