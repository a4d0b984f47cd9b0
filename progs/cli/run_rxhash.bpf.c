// SPDX-License-Identifier: MIT
/*
 * examples/rxhash.yaml: the xdp_rxhash sample of the hints thread. Reads
 * the RX hash through bpf_xdp_metadata_rx_hash, counts packets per L3
 * and L4 hash type (run_rxhash_types, indexed by the bit of
 * enum xdp_rss_hash_type, 9 for no hash) and returns the .rodata
 * setting's action (XDP_PASS by default), never reading the packet.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#include "hr_rx_kfuncs.h"

const volatile __u32 action = XDP_PASS;

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 10);
	__type(key, __u32);
	__type(value, __u64);
} run_rxhash_types SEC(".maps");

static __always_inline void count(__u32 key)
{
	__u64 *v = bpf_map_lookup_elem(&run_rxhash_types, &key);

	if (v)
		*v += 1;
}

SEC("xdp")
int run_rxhash(struct xdp_md *ctx)
{
	enum xdp_rss_hash_type type = 0;
	__u32 hash = 0, bit;

	if (bpf_xdp_metadata_rx_hash(ctx, &hash, &type)) {
		count(9);
		return action;
	}
	for (bit = 0; bit < 9; bit++)
		if (type & (1u << bit))
			count(bit);
	return action;
}

char _license[] SEC("license") = "GPL";
