// SPDX-License-Identifier: MIT
/* LD_ABS in XDP, which the kernel refuses at load (may_access_skb). */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

unsigned long long load_half(void *skb,
			     unsigned long long off) asm("llvm.bpf.load.half");

SEC("xdp")
int xdp_ld_abs(struct xdp_md *ctx)
{
	return load_half(ctx, 12) == 0x0800 ? XDP_PASS : XDP_DROP;
}

char _license[] SEC("license") = "GPL";
