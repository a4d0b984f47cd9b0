// SPDX-License-Identifier: MIT
/*
 * headroom bench redirect-map: every packet through entry 0 of a DEVMAP
 * (xdp-bench redirect-map), and a built-in egress program for the entry
 * (xdp-bench's --load-egress) that swaps the MAC addresses and counts
 * per CPU the frames it saw.
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_DEVMAP);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct bpf_devmap_val);
} tx_port SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} egress_seen SEC(".maps");

SEC("xdp")
int bench_devmap(struct xdp_md *ctx)
{
	return bpf_redirect_map(&tx_port, 0, 0);
}

SEC("xdp/devmap")
int bench_devmap_egress(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *data_end = (void *)(long)ctx->data_end;
	struct ethhdr *eth = data;
	__u8 tmp[ETH_ALEN];
	__u32 key = 0;
	__u64 *n = bpf_map_lookup_elem(&egress_seen, &key);

	if (n)
		*n += 1;
	if ((void *)(eth + 1) > data_end)
		return XDP_DROP;
	__builtin_memcpy(tmp, eth->h_dest, ETH_ALEN);
	__builtin_memcpy(eth->h_dest, eth->h_source, ETH_ALEN);
	__builtin_memcpy(eth->h_source, tmp, ETH_ALEN);
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
