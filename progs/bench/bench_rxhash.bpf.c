// SPDX-License-Identifier: MIT
/*
 * headroom bench rxhash: the xdp_rxhash sample of the RX-hints thread.
 * Reads the RX hash and its type through bpf_xdp_metadata_rx_hash and
 * counts per CPU by type (the 9 bits of enum xdp_rss_hash_type; entry
 * 512 when the device gave no hash), then returns the verdict in
 * .rodata. Unless notouch is set it also reads the Ethernet header, so
 * the difference shows what touching the packet costs.
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <bpf/bpf_helpers.h>

#include "hr_rx_kfuncs.h"

#define RXHASH_NO_HASH 512

const volatile __u32 action = XDP_DROP;
const volatile __u32 notouch = 0;

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, RXHASH_NO_HASH + 1);
	__type(key, __u32);
	__type(value, __u64);
} rxhash_types SEC(".maps");

SEC("xdp")
int bench_rxhash(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *data_end = (void *)(long)ctx->data_end;
	struct ethhdr *eth = data;
	enum xdp_rss_hash_type type = 0;
	__u32 hash = 0, key;
	__u64 *n;

	if (!notouch) {
		if ((void *)(eth + 1) > data_end)
			return XDP_ABORTED;
		if (eth->h_proto == 0)
			return XDP_ABORTED; /* never: the read is the point */
	}
	if (bpf_xdp_metadata_rx_hash(ctx, &hash, &type))
		key = RXHASH_NO_HASH;
	else
		key = (__u32)type & (RXHASH_NO_HASH - 1);
	n = bpf_map_lookup_elem(&rxhash_types, &key);
	if (n)
		*n += 1;
	return action;
}

char _license[] SEC("license") = "GPL";
