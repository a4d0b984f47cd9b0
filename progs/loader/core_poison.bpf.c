// SPDX-License-Identifier: MIT
/*
 * A CO-RE field the target does not have, read when the first packet
 * byte is 0xff: libbpf poisons the load, so reaching it ends the run
 * (the kernel's verifier refuses the program; headroom aborts the run).
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct ethhdr___poison {
	unsigned char h_dest[6];
	unsigned char h_source[6];
	unsigned short h_proto;
	unsigned short h_missing; /* not in struct ethhdr */
} __attribute__((preserve_access_index));

SEC("xdp")
int core_poison(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *end = (void *)(long)ctx->data_end;
	struct ethhdr___poison *eth = data;

	if (data + 16 > end)
		return XDP_DROP;
	if (eth->h_dest[0] == 0xff)
		return eth->h_missing ? XDP_DROP : XDP_TX;
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
