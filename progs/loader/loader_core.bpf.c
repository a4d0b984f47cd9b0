// SPDX-License-Identifier: MIT
/* A CO-RE field access to a struct no target has: poisoned when reached. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct hdr {
	__u32 a;
	__u32 b;
} __attribute__((preserve_access_index));

SEC("xdp")
int core(struct xdp_md *ctx)
{
	struct hdr *h = (void *)(long)ctx->data;

	if ((void *)(h + 1) > (void *)(long)ctx->data_end)
		return XDP_DROP;
	return h->b ? XDP_PASS : XDP_DROP;
}

char _license[] SEC("license") = "GPL";
