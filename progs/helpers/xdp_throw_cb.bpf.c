// SPDX-License-Identifier: MIT
/*
 * bpf_throw inside bpf_loop's callback, which the kernel's verifier
 * refuses ("cannot call exception cb directly" / callbacks may not
 * throw): headroom has no verifier pass for it and ends the run instead
 * (test_throw), where a throw taken for a normal one would return 3.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

extern void bpf_throw(__u64 cookie) __ksym;

static long cb(__u32 i, void *ctx)
{
	bpf_throw(3);
	return 0;
}

SEC("xdp")
int xdp_throw_cb(struct xdp_md *ctx)
{
	bpf_loop(2, cb, NULL, 0);
	return XDP_TX;
}

char _license[] SEC("license") = "GPL";
