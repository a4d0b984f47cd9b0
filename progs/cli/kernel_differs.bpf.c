// SPDX-License-Identifier: MIT
/*
 * For headroom test --kernel's own test: a program that agrees with the
 * kernel on everything but its return value, a random number (the two
 * generators are not the same), and one that agrees on every packet but
 * leaves a random number in its map; and one whose return value, step
 * and map entries come from headroom test's --set, --map and --map-size,
 * which the kernel's copy must be given too for the two to agree.
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

volatile const __u32 ret_code = XDP_PASS;
__u64 step = 1;

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 4);
	__type(key, __u32);
	__type(value, __u32);
} which SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 2);
	__type(key, __u32);
	__type(value, __u64);
} counts SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} per_cpu SEC(".maps");

/* counts[which[0]] += step, or = step when absent; returns ret_code. */
SEC("xdp")
int options(struct xdp_md *ctx)
{
	__u32 k = 0, *w = bpf_map_lookup_elem(&which, &k);
	__u64 *n, *p = bpf_map_lookup_elem(&per_cpu, &k);

	if (!w)
		return XDP_ABORTED;
	if (p)
		*p += 1;
	k = *w;
	n = bpf_map_lookup_elem(&counts, &k);
	if (n)
		*n += step;
	else
		bpf_map_update_elem(&counts, &k, &step, BPF_ANY);
	return ret_code;
}

char LICENSE[] SEC("license") = "GPL";
