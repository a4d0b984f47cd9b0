// SPDX-License-Identifier: MIT
/*
 * bpf_map_sum_elem_count over a hash, a per-CPU hash, an LRU hash and an
 * array after the inserts, replacements and deletes the packet asks for,
 * every map first emptied so that each run starts alike; the counts go
 * back in the packet for test_map_elem_count to compare with the kernel.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

/* libbpf matches the kfunc's prototype with the kernel's: a pointer to
 * a declared-only struct is no pointer to a struct, an empty one is. */
struct bpf_map {};

extern __s64 bpf_map_sum_elem_count(const struct bpf_map *map) __ksym;

#define KEYS 16

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 8);
	__type(key, __u32);
	__type(value, __u64);
} hash SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__uint(max_entries, 8);
	__type(key, __u32);
	__type(value, __u64);
} pcpu SEC(".maps");

/* Large enough that the kernel's per-CPU free lists never evict. */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 1024);
	__type(key, __u32);
	__type(value, __u64);
} lru SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 8);
	__type(key, __u32);
	__type(value, __u64);
} array SEC(".maps");

/* After the Ethernet header: the case in, the answers out. */
struct count_rec {
	__u32 inserts, deletes; /* keys [0, inserts), then [0, deletes) */
	__u32 replace; /* update key 0 again after the inserts */
	int full_ret; /* hash: the last insert's return */
	__s64 empty, hash, pcpu, lru, array;
};

#define COUNT(m) bpf_map_sum_elem_count((const struct bpf_map *)&(m))

SEC("xdp")
int xdp_map_elem_count(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *data_end = (void *)(long)ctx->data_end;
	struct count_rec *r = data + 14;
	__u64 v = 7;
	/* The loops count in a register: a key on the stack, which the
	 * helpers take by pointer, is no bound the verifier can follow. */
	__u32 i, k;

	if ((void *)(r + 1) > data_end)
		return XDP_ABORTED;
	for (i = 0; i < KEYS; i++) {
		k = i;
		bpf_map_delete_elem(&hash, &k);
		bpf_map_delete_elem(&pcpu, &k);
		bpf_map_delete_elem(&lru, &k);
	}
	r->empty = COUNT(hash) | COUNT(pcpu) | COUNT(lru);
	r->full_ret = 0;
	for (i = 0; i < KEYS && i < r->inserts; i++) {
		k = i;
		r->full_ret = bpf_map_update_elem(&hash, &k, &v, BPF_ANY);
		bpf_map_update_elem(&pcpu, &k, &v, BPF_ANY);
		bpf_map_update_elem(&lru, &k, &v, BPF_ANY);
		bpf_map_update_elem(&array, &k, &v, BPF_ANY);
	}
	if (r->replace) {
		k = 0;
		bpf_map_update_elem(&hash, &k, &v, BPF_EXIST);
		bpf_map_update_elem(&pcpu, &k, &v, BPF_EXIST);
		bpf_map_update_elem(&lru, &k, &v, BPF_EXIST);
	}
	for (i = 0; i < KEYS && i < r->deletes; i++) {
		k = i;
		bpf_map_delete_elem(&hash, &k);
		bpf_map_delete_elem(&pcpu, &k);
		bpf_map_delete_elem(&lru, &k);
	}
	r->hash = COUNT(hash);
	r->pcpu = COUNT(pcpu);
	r->lru = COUNT(lru);
	r->array = COUNT(array);
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
