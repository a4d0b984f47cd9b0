// SPDX-License-Identifier: MIT
/*
 * A program naming an exception callback of its own for bpf_throw (the
 * selftests' __exception_cb): the kernel loads it; headroom refuses it
 * by name (test_loader), running bpf_throw with the default callback
 * only.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

extern void bpf_throw(__u64 cookie) __ksym;

__attribute__((noinline)) int handler(__u64 cookie)
{
	return (int)cookie + 1;
}

SEC("xdp")
__attribute__((btf_decl_tag("exception_callback:handler"))) int
xdp_own_cb(struct xdp_md *ctx)
{
	if (ctx->data + 20 > ctx->data_end)
		bpf_throw(1);
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
