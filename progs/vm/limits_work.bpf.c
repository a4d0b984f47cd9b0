// SPDX-License-Identifier: MIT
/*
 * Work and references a program can cause without bound, each of which
 * must end the run with a reason of its own (tests/helpers/test_helper_limits.c):
 * nested bpf_loop (budget), a bpf_for_each_map_elem callback that deletes
 * and re-inserts keys (map walk), bpf_spin_lock taken twice or held at
 * exit, unlock of a lock not held, and ring buffer writes outside the
 * record the program holds. The verifier refuses most of these; headroom
 * runs them and must stay contained.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct bpf_map;

struct val {
	struct bpf_spin_lock lock;
	__u32 n;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 2);
	__type(key, __u32);
	__type(value, struct val);
} locks SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 64);
	__type(key, __u32);
	__type(value, __u64);
} walk SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 4096);
} rb SEC(".maps");

static long inner(__u32 i, void *ctx)
{
	return 0;
}

static long outer(__u32 i, void *ctx)
{
	bpf_loop(1 << 23, inner, ctx, 0);
	return 0;
}

/* 8M x 8M callbacks: ends with the budget, not in days. */
SEC("xdp")
int nested_loop(struct xdp_md *ctx)
{
	bpf_loop(1 << 23, outer, NULL, 0);
	return XDP_PASS;
}

static long replace(struct bpf_map *map, __u32 *key, __u64 *val, void *ctx)
{
	__u32 k = *key + 1000;
	__u64 v = *val;

	bpf_map_delete_elem(map, key);
	bpf_map_update_elem(map, &k, &v, BPF_ANY);
	return 0;
}

/* Each visit moves the element to a new key: the walk never runs out. */
SEC("xdp")
int walk_forever(struct xdp_md *ctx)
{
	__u32 k = 1;
	__u64 v = 1;

	bpf_map_update_elem(&walk, &k, &v, BPF_ANY);
	bpf_for_each_map_elem(&walk, replace, NULL, 0);
	return XDP_PASS;
}

static long count(struct bpf_map *map, __u32 *key, __u64 *val, void *ctx)
{
	(*(__u64 *)ctx)++;
	return 0;
}

/* A walk of what is there: the control for walk_forever. */
SEC("xdp")
int walk_once(struct xdp_md *ctx)
{
	__u64 n = 0;
	__u32 k;

	for (k = 0; k < 5; k++)
		bpf_map_update_elem(&walk, &k, &n, BPF_ANY);
	bpf_for_each_map_elem(&walk, count, &n, 0);
	return n == 5 ? XDP_PASS : XDP_DROP;
}

static struct val *val_at(__u32 k)
{
	return bpf_map_lookup_elem(&locks, &k);
}

SEC("xdp")
int lock_twice(struct xdp_md *ctx)
{
	struct val *v = val_at(0);

	if (!v)
		return XDP_DROP;
	bpf_spin_lock(&v->lock);
	bpf_spin_lock(&v->lock);
	v->n++;
	bpf_spin_unlock(&v->lock);
	return XDP_PASS;
}

SEC("xdp")
int lock_two(struct xdp_md *ctx)
{
	struct val *a = val_at(0), *b = val_at(1);

	if (!a || !b)
		return XDP_DROP;
	bpf_spin_lock(&a->lock);
	bpf_spin_lock(&b->lock);
	bpf_spin_unlock(&b->lock);
	bpf_spin_unlock(&a->lock);
	return XDP_PASS;
}

SEC("xdp")
int lock_held_at_exit(struct xdp_md *ctx)
{
	struct val *v = val_at(0);

	if (!v)
		return XDP_DROP;
	bpf_spin_lock(&v->lock);
	v->n++;
	return XDP_PASS;
}

SEC("xdp")
int unlock_not_held(struct xdp_md *ctx)
{
	struct val *v = val_at(0);

	if (!v)
		return XDP_DROP;
	bpf_spin_unlock(&v->lock);
	return XDP_PASS;
}

/* The well-behaved lock user: the count moves by one a run. */
SEC("xdp")
int lock_ok(struct xdp_md *ctx)
{
	struct val *v = val_at(0);

	if (!v)
		return XDP_DROP;
	bpf_spin_lock(&v->lock);
	v->n++;
	bpf_spin_unlock(&v->lock);
	return XDP_PASS;
}

/* The record's own 8 bytes, submitted: the consumer gets them. */
SEC("xdp")
int rb_ok(struct xdp_md *ctx)
{
	__u64 *r = bpf_ringbuf_reserve(&rb, 8, 0);

	if (!r)
		return XDP_DROP;
	*r = 0x1122334455667788ull;
	bpf_ringbuf_submit(r, 0);
	return XDP_PASS;
}

/* A write to the record's header (its length) 8 bytes before it. */
SEC("xdp")
int rb_header(struct xdp_md *ctx)
{
	__u32 *r = bpf_ringbuf_reserve(&rb, 8, 0);

	if (!r)
		return XDP_DROP;
	*(volatile __u32 *)((char *)r - 8) = 0x7ffffff0;
	bpf_ringbuf_submit(r, 0);
	return XDP_PASS;
}

/* A write one past the record. */
SEC("xdp")
int rb_past(struct xdp_md *ctx)
{
	__u8 *r = bpf_ringbuf_reserve(&rb, 8, 0);

	if (!r)
		return XDP_DROP;
	*(volatile __u8 *)(r + 8) = 1;
	bpf_ringbuf_submit(r, 0);
	return XDP_PASS;
}

/* A write through the pointer after the record was submitted. */
SEC("xdp")
int rb_after_submit(struct xdp_md *ctx)
{
	__u32 *r = bpf_ringbuf_reserve(&rb, 8, 0);
	volatile __u32 *keep = r;

	if (!r)
		return XDP_DROP;
	bpf_ringbuf_submit(r, 0);
	*(keep - 2) = 0x7ffffff0;
	return XDP_PASS;
}

/* A reservation never submitted: discarded at the end of the run, so
 * the ring is not blocked for the next one. */
SEC("xdp")
int rb_leak(struct xdp_md *ctx)
{
	__u64 *r = bpf_ringbuf_reserve(&rb, 8, 0);

	if (!r)
		return XDP_DROP;
	*r = 1;
	return XDP_PASS;
}

char LICENSE[] SEC("license") = "GPL";
