// SPDX-License-Identifier: MIT
/*
 * For headroom test --kernel's own test: a program that agrees with the
 * kernel on everything but its return value, a random number (the two
 * generators are not the same), and one that agrees on every packet but
 * leaves a random number in its map.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} seen SEC(".maps");

SEC("xdp")
int random_verdict(struct xdp_md *ctx)
{
	__u32 k = 0;
	__u64 *n = bpf_map_lookup_elem(&seen, &k);

	if (n)
		__sync_fetch_and_add(n, 1);
	return bpf_get_prandom_u32() | 0x10000;
}

/* Agrees on every packet, but leaves a random number in the map. */
SEC("xdp")
int random_store(struct xdp_md *ctx)
{
	__u32 k = 0;
	__u64 *n = bpf_map_lookup_elem(&seen, &k);

	if (n)
		*n = bpf_get_prandom_u32() | 1ull << 40;
	return XDP_PASS;
}

char LICENSE[] SEC("license") = "GPL";
