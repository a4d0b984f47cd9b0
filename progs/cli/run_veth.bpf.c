// SPDX-License-Identifier: MIT
/*
 * examples/veth.yaml: the veth pair of the veth XDP patch set. run_fwd
 * sends every packet out of the device whose ifindex the .rodata
 * setting out_ifindex names (bpf_redirect), run_tx bounces it back
 * (XDP_TX, with source and destination MACs swapped), run_pass lets it
 * through to tc and the stack.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

const volatile __u32 out_ifindex = 3;

SEC("xdp")
int run_fwd(struct xdp_md *ctx)
{
	return bpf_redirect(out_ifindex, 0);
}

SEC("xdp")
int run_tx(struct xdp_md *ctx)
{
	unsigned char *d = (void *)(long)ctx->data, t[6];
	int i;

	if ((void *)(d + 12) > (void *)(long)ctx->data_end)
		return XDP_DROP;
	for (i = 0; i < 6; i++) {
		t[i] = d[i];
		d[i] = d[i + 6];
		d[i + 6] = t[i];
	}
	return XDP_TX;
}

SEC("xdp")
int run_pass(struct xdp_md *ctx)
{
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
