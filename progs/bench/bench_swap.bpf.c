// SPDX-License-Identifier: MIT
/*
 * bench/engines (d): swap the Ethernet addresses and send it back, as
 * DPDK's version of it does: a 4- and a 2-byte move per address (x86 and
 * the kernel's verifier on it allow unaligned packet access).
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <bpf/bpf_helpers.h>

SEC("xdp")
int bench_swap(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *data_end = (void *)(long)ctx->data_end;
	__u32 d0, s0;
	__u16 d1, s1;

	if (data + ETH_HLEN > data_end)
		return XDP_DROP;
	d0 = *(__u32 *)data;
	d1 = *(__u16 *)(data + 4);
	s0 = *(__u32 *)(data + 6);
	s1 = *(__u16 *)(data + 10);
	*(__u32 *)data = s0;
	*(__u16 *)(data + 4) = s1;
	*(__u32 *)(data + 6) = d0;
	*(__u16 *)(data + 10) = d1;
	return XDP_TX;
}

char _license[] SEC("license") = "GPL";
