// SPDX-License-Identifier: MIT
/*
 * The helpers of issue 3 from a program, each section returning what it
 * saw, so that BPF_PROG_TEST_RUN in the kernel and headroom's test run
 * can be compared: queue/stack push/pop/peek, ring buffer output and
 * reserve/submit/discard/query, bpf_loop, bpf_for_each_map_elem,
 * bpf_spin_lock, LRU and LPM lookups.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct bpf_map;

struct {
	__uint(type, BPF_MAP_TYPE_QUEUE);
	__uint(max_entries, 4);
	__type(value, __u32);
} queue SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_STACK);
	__uint(max_entries, 4);
	__type(value, __u32);
} stack SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 4096);
} rb SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 8);
	__type(key, __u32);
	__type(value, __u64);
} arr SEC(".maps");

struct locked {
	struct bpf_spin_lock lock;
	__u32 count;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct locked);
} lockmap SEC(".maps");

struct lpm_key {
	__u32 prefixlen;
	__u8 data[4];
};

struct {
	__uint(type, BPF_MAP_TYPE_LPM_TRIE);
	__uint(max_entries, 16);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, struct lpm_key);
	__type(value, __u32);
} lpm SEC(".maps");

/* Pushes 1..6 with BPF_ANY then BPF_EXIST, pops all: a digest of every
 * return code and value. */
SEC("xdp")
int queue_ops(struct xdp_md *ctx)
{
	__u32 v, out = 0, i;
	long r, digest = 0;

	for (i = 1; i <= 6; i++) {
		v = i;
		r = bpf_map_push_elem(&queue, &v, i <= 5 ? BPF_ANY : BPF_EXIST);
		digest = digest * 3 + (r == 0 ? 1 : r == -7 ? 2 : 0);
	}
	r = bpf_map_push_elem(&queue, &v, BPF_NOEXIST);
	digest = digest * 3 + (r == -22 ? 1 : 0);
	r = bpf_map_peek_elem(&queue, &out);
	digest = digest * 10 + out;
	for (i = 0; i < 5; i++) {
		out = 0;
		r = bpf_map_pop_elem(&queue, &out);
		digest = digest * 10 + (r == 0 ? out : r == -2 ? 9 : 8);
	}
	return digest & 0x7fffffff;
}

SEC("xdp")
int stack_ops(struct xdp_md *ctx)
{
	__u32 v, out = 0, i;
	long r, digest = 0;

	for (i = 1; i <= 5; i++) {
		v = i;
		r = bpf_map_push_elem(&stack, &v, BPF_EXIST);
		digest = digest * 2 + (r == 0);
	}
	for (i = 0; i < 5; i++) {
		out = 0;
		r = bpf_map_pop_elem(&stack, &out);
		digest = digest * 10 + (r == 0 ? out : r == -2 ? 9 : 8);
	}
	return digest & 0x7fffffff;
}

/* Fills the ring with 64-byte records until it refuses: the count. */
SEC("xdp")
int ringbuf_ops(struct xdp_md *ctx)
{
	__u64 data[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	long n = 0, i, r;
	__u64 *rec;

	if (bpf_ringbuf_output(&rb, data, sizeof(data), 4) != -22)
		return 1000;
	rec = bpf_ringbuf_reserve(&rb, 16, 0);
	if (!rec)
		return 1001;
	rec[0] = 42;
	bpf_ringbuf_discard(rec, 0);
	rec = bpf_ringbuf_reserve(&rb, 16, 0);
	if (!rec)
		return 1002;
	rec[0] = 43;
	rec[1] = bpf_ringbuf_query(&rb, BPF_RB_AVAIL_DATA);
	bpf_ringbuf_submit(rec, 0);
	for (i = 0; i < 100; i++) {
		r = bpf_ringbuf_output(&rb, data, sizeof(data), 0);
		if (r == -11)
			break;
		if (r)
			return 1003;
		n++;
	}
	return n * 100000 + bpf_ringbuf_query(&rb, BPF_RB_AVAIL_DATA) * 10 +
	       (bpf_ringbuf_query(&rb, BPF_RB_RING_SIZE) == 4096);
}

static long loop_cb(__u64 index, void *ctx)
{
	__u64 *sum = ctx;

	*sum += index;
	return index == 9 ? 1 : 0;
}

SEC("xdp")
int loop_ops(struct xdp_md *ctx)
{
	__u64 sum = 0;
	long n, bad1, bad2;

	n = bpf_loop(100, loop_cb, &sum, 0);
	bad1 = bpf_loop(100, loop_cb, &sum, 1);
	bad2 = bpf_loop((1 << 23) + 1, loop_cb, &sum, 0);
	/* bad2 as the kernel gives it: the low byte of (u32)-E2BIG, 0xf9,
	 * and whether the upper half is zero (inlined bpf_loop). */
	return n * 100000000 + sum * 100000 + (bad1 == -22) * 10000 +
	       (bad2 & 0xff) * 10 + ((bad2 >> 32) == 0);
}

struct each_ctx {
	__u64 sum;
	__u32 keys;
};

static long each_cb(struct bpf_map *map, __u32 *key, __u64 *val,
		    struct each_ctx *c)
{
	c->sum += *val;
	c->keys += *key;
	return *key == 5 ? 1 : 0;
}

SEC("xdp")
int each_ops(struct xdp_md *ctx)
{
	struct each_ctx c = { 0, 0 };
	__u32 k;
	__u64 v;
	long n;
	int i;

	for (i = 0; i < 8; i++) {
		k = i;
		v = i * 10;
		bpf_map_update_elem(&arr, &k, &v, BPF_ANY);
	}
	n = bpf_for_each_map_elem(&arr, each_cb, &c, 0);
	return n * 100000 + c.sum * 10 + c.keys % 10;
}

SEC("xdp")
int lock_ops(struct xdp_md *ctx)
{
	struct locked *l;
	__u32 k = 0, c;

	l = bpf_map_lookup_elem(&lockmap, &k);
	if (!l)
		return 0;
	bpf_spin_lock(&l->lock);
	l->count += 3;
	c = l->count;
	bpf_spin_unlock(&l->lock);
	return c;
}

SEC("xdp")
int lpm_ops(struct xdp_md *ctx)
{
	struct lpm_key k = { 32, { 10, 1, 2, 3 } };
	__u32 v, *got, digest = 0;

	v = 8;
	k.prefixlen = 8;
	bpf_map_update_elem(&lpm, &k, &v, BPF_ANY);
	v = 24;
	k.prefixlen = 24;
	bpf_map_update_elem(&lpm, &k, &v, BPF_ANY);
	k.prefixlen = 32;
	got = bpf_map_lookup_elem(&lpm, &k);
	digest = got ? *got : 99;
	k.data[2] = 9;
	got = bpf_map_lookup_elem(&lpm, &k);
	digest = digest * 100 + (got ? *got : 99);
	k.data[0] = 11;
	got = bpf_map_lookup_elem(&lpm, &k);
	digest = digest * 100 + (got ? *got : 99);
	return digest;
}

char LICENSE[] SEC("license") = "GPL";
