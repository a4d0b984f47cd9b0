// SPDX-License-Identifier: MIT
/*
 * The soak test's veth-side program (tests/core/test_soak.c), configured
 * before load as a skeleton would (const volatile globals), so that a
 * change of behaviour is a program replacement, never a map write under
 * traffic: @spin bpf_loop iterations per packet (a slow consumer), then
 * @verdict; XDP_REDIRECT goes to @redirect_ifindex with bpf_redirect.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

const volatile __u32 verdict = XDP_DROP;
const volatile __u32 spin = 0;
const volatile __u32 redirect_ifindex = 0;

static long spin_cb(__u32 i, void *data)
{
	__u64 *x = data;

	*x = *x * 31 + i;
	return 0;
}

SEC("xdp")
int soak_peer(struct xdp_md *ctx)
{
	__u64 x = 1;

	if (spin)
		bpf_loop(spin, spin_cb, &x, 0);
	if (verdict == XDP_REDIRECT)
		return bpf_redirect(redirect_ifindex, 0);
	/* x is never 0: keeps the loop's work from being optimised out. */
	return x ? verdict : XDP_ABORTED;
}

char _license[] SEC("license") = "GPL";
