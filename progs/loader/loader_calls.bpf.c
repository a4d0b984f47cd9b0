// SPDX-License-Identifier: MIT
/* .text subprograms: one called twice from another, linked in once. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

static __noinline int add(int x, int k)
{
	return x + k;
}

static __noinline int twice(int x)
{
	return add(x, 1) + add(x, 2);
}

SEC("xdp")
int calls(struct xdp_md *ctx)
{
	int q = (int)ctx->rx_queue_index;

	/* (q + 1) + (q + 2), whatever the queue. */
	return twice(q) == 2 * q + 3 ? XDP_TX : XDP_DROP;
}

char _license[] SEC("license") = "GPL";
