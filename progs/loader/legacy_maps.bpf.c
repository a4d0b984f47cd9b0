// SPDX-License-Identifier: MIT
/*
 * Pre-BTF map definitions in SEC("maps") of the three sizes found in the
 * wild: libbpf's 20-byte struct bpf_map_def, the 28-byte one with
 * inner_map_idx and numa_node (kernel samples), and iproute2's 36-byte
 * struct bpf_elf_map; and old section names. The program counts packets
 * in each map and returns XDP_PASS when all three maps are there.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct bpf_map_def20 {
	unsigned int type, key_size, value_size, max_entries, map_flags;
};

struct bpf_map_def28 {
	unsigned int type, key_size, value_size, max_entries, map_flags;
	unsigned int inner_map_idx, numa_node;
};

struct bpf_elf_map {
	unsigned int type, size_key, size_value, max_elem, flags;
	unsigned int id, pinning, inner_id, inner_idx;
};

struct bpf_map_def20 SEC("maps") def20 = {
	.type = BPF_MAP_TYPE_ARRAY,
	.key_size = 4,
	.value_size = 8,
	.max_entries = 4,
};

struct bpf_map_def28 SEC("maps") def28 = {
	.type = BPF_MAP_TYPE_HASH,
	.key_size = 4,
	.value_size = 8,
	.max_entries = 8,
};

struct bpf_elf_map SEC("maps") elf36 = {
	.type = BPF_MAP_TYPE_PERCPU_ARRAY,
	.size_key = 4,
	.size_value = 8,
	.max_elem = 2,
};

static int count(void *map, int hash)
{
	__u32 k = 1;
	__u64 one = 1, *v = bpf_map_lookup_elem(map, &k);

	if (v) {
		__sync_fetch_and_add(v, 1);
		return 1;
	}
	if (hash)
		return bpf_map_update_elem(map, &k, &one, BPF_ANY) == 0;
	return 0;
}

SEC("xdp_legacy_count")
int legacy_count(struct xdp_md *ctx)
{
	int n = count(&def20, 0) + count(&def28, 1) + count(&elf36, 0);

	return n == 3 ? XDP_PASS : XDP_DROP;
}

SEC("classifier_legacy")
int legacy_cls(struct __sk_buff *skb)
{
	return skb->len > 20 ? 0 : 2; /* TC_ACT_OK : TC_ACT_SHOT */
}

char _license[] SEC("license") = "GPL";
