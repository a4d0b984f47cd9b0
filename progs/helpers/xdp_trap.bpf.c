// SPDX-License-Identifier: MIT
/*
 * __bpf_trap on a path the packet picks: the kernel's verifier refuses
 * the program (the trap is reachable); headroom runs the other path and
 * ends a run that reaches the trap (test_throw).
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

extern void __bpf_trap(void) __ksym;

SEC("xdp")
int xdp_trap(struct xdp_md *ctx)
{
	__u8 *p = (void *)(long)ctx->data;

	if (p + 1 > (__u8 *)(long)ctx->data_end)
		return XDP_DROP;
	if (p[0] == 1)
		__bpf_trap();
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
