// SPDX-License-Identifier: MIT
/*
 * headroom bench drop|pass|tx|redirect: the verdict in .rodata, as
 * xdp-bench's xdp_basic programs take theirs from the skeleton. With
 * touch set the packet is read (drop, pass) or its MAC addresses swapped
 * (tx, redirect), as xdp-bench's --packet-operation read-data/swap-macs.
 * Counts per CPU what it returned, so the command can check the books.
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <bpf/bpf_helpers.h>

const volatile __u32 action = XDP_DROP;
const volatile __u32 touch = 0;
const volatile __u32 redirect_ifindex = 0;

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} bench_runs SEC(".maps");

static __always_inline void swap_macs(struct ethhdr *eth)
{
	__u8 tmp[ETH_ALEN];

	__builtin_memcpy(tmp, eth->h_dest, ETH_ALEN);
	__builtin_memcpy(eth->h_dest, eth->h_source, ETH_ALEN);
	__builtin_memcpy(eth->h_source, tmp, ETH_ALEN);
}

SEC("xdp")
int bench_action(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *data_end = (void *)(long)ctx->data_end;
	struct ethhdr *eth = data;
	__u32 key = 0;
	__u64 *n = bpf_map_lookup_elem(&bench_runs, &key);

	if (n)
		*n += 1;
	if (touch) {
		if ((void *)(eth + 1) > data_end)
			return XDP_ABORTED;
		if (action == XDP_TX || action == XDP_REDIRECT)
			swap_macs(eth);
		else if (eth->h_proto == 0)
			return XDP_ABORTED; /* never: the read is the point */
	}
	if (action == XDP_REDIRECT)
		return bpf_redirect(redirect_ifindex, 0);
	return action;
}

char _license[] SEC("license") = "GPL";
