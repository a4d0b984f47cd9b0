// SPDX-License-Identifier: MIT
/* A legacy SEC("maps") definition, as pre-BTF programs wrote them. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct bpf_map_def {
	unsigned int type;
	unsigned int key_size;
	unsigned int value_size;
	unsigned int max_entries;
	unsigned int map_flags;
};

struct bpf_map_def SEC("maps") legacy_arr = {
	.type = BPF_MAP_TYPE_ARRAY,
	.key_size = 4,
	.value_size = 8,
	.max_entries = 16,
};

struct bpf_map_def SEC("maps") legacy_hash = {
	.type = BPF_MAP_TYPE_HASH,
	.key_size = 8,
	.value_size = 4,
	.max_entries = 32,
};

SEC("xdp")
int legacy(struct xdp_md *ctx)
{
	__u32 k = 0;
	__u64 hk = 0;

	if (!bpf_map_lookup_elem(&legacy_arr, &k))
		return XDP_ABORTED;
	if (bpf_map_lookup_elem(&legacy_hash, &hk))
		return XDP_DROP;
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
