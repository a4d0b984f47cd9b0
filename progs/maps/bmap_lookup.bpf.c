// SPDX-License-Identifier: MIT
/*
 * bench/maps: BMAP_OPS map lookups a run, one program per map type, on
 * keys derived from the packet (its last IPv4 destination byte). Every
 * key 0 .. BMAP_KEYS - 1 is present (user space fills the maps), so a run
 * returns XDP_DROP when every lookup hit and XDP_PASS otherwise.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

/* Shared with bench/maps.c: the key space, the lookups a run, the maps. */
#define BMAP_OPS 64
#define BMAP_KEYS 1024

struct bmap_lpm_key {
	__u32 prefixlen;
	__u8 addr[4];
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, BMAP_KEYS);
	__type(key, __u32);
	__type(value, __u64);
} m_array SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, BMAP_KEYS);
	__type(key, __u32);
	__type(value, __u64);
} m_percpu_array SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 4 * BMAP_KEYS);
	__type(key, __u32);
	__type(value, __u64);
} m_hash SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__uint(max_entries, 4 * BMAP_KEYS);
	__type(key, __u32);
	__type(value, __u64);
} m_percpu_hash SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 4 * BMAP_KEYS);
	__type(key, __u32);
	__type(value, __u64);
} m_lru_hash SEC(".maps");

/* 10.H.L.0/24 for each key H << 8 | L, below a 10.0.0.0/8. */
struct {
	__uint(type, BPF_MAP_TYPE_LPM_TRIE);
	__uint(max_entries, 4 * BMAP_KEYS);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, struct bmap_lpm_key);
	__type(value, __u64);
} m_lpm_trie SEC(".maps");

/* The i-th key of a run: 64 distinct keys spread over the key space. */
static __always_inline __u32 bmap_key(__u32 seed, int i)
{
	return (seed * 64 + i * 17) & (BMAP_KEYS - 1);
}

static __always_inline void bmap_lpm_key(struct bmap_lpm_key *k, __u32 key,
					 __u32 plen, __u32 host)
{
	k->prefixlen = plen;
	k->addr[0] = 10;
	k->addr[1] = key >> 8;
	k->addr[2] = key & 0xff;
	k->addr[3] = host;
}

#define BMAP_LOOKUP_PROG(NAME, MAP)                                        \
	SEC("xdp")                                                         \
	int NAME(struct xdp_md *ctx)                                       \
	{                                                                  \
		__u8 *data = (void *)(long)ctx->data;                      \
		__u8 *end = (void *)(long)ctx->data_end;                   \
		__u32 seed, hits = 0;                                      \
		__u64 acc = 0;                                             \
                                                                           \
		if (data + 34 > end)                                       \
			return XDP_ABORTED;                                \
		seed = data[33];                                           \
		_Pragma("clang loop unroll(full)") for (int i = 0;         \
							i < BMAP_OPS; i++) \
		{                                                          \
			__u32 k = bmap_key(seed, i);                       \
			__u64 *v = bpf_map_lookup_elem(&MAP, &k);          \
                                                                           \
			if (v) {                                           \
				hits++;                                    \
				acc += *v;                                 \
			}                                                  \
		}                                                          \
		if (acc == ~0ull)                                          \
			return XDP_TX;                                     \
		return hits == BMAP_OPS ? XDP_DROP : XDP_PASS;             \
	}

BMAP_LOOKUP_PROG(lookup_array, m_array)
BMAP_LOOKUP_PROG(lookup_percpu_array, m_percpu_array)
BMAP_LOOKUP_PROG(lookup_hash, m_hash)
BMAP_LOOKUP_PROG(lookup_percpu_hash, m_percpu_hash)
BMAP_LOOKUP_PROG(lookup_lru_hash, m_lru_hash)

SEC("xdp")
int lookup_lpm_trie(struct xdp_md *ctx)
{
	__u8 *data = (void *)(long)ctx->data;
	__u8 *end = (void *)(long)ctx->data_end;
	__u32 seed, hits = 0;
	__u64 acc = 0;

	if (data + 34 > end)
		return XDP_ABORTED;
	seed = data[33];
#pragma clang loop unroll(full)
	for (int i = 0; i < BMAP_OPS; i++) {
		struct bmap_lpm_key k;
		__u64 *v;

		bmap_lpm_key(&k, bmap_key(seed, i), 32, i);
		v = bpf_map_lookup_elem(&m_lpm_trie, &k);
		if (v) {
			hits++;
			acc += *v;
		}
	}
	if (acc == ~0ull)
		return XDP_TX;
	return hits == BMAP_OPS ? XDP_DROP : XDP_PASS;
}

char _license[] SEC("license") = "GPL";
