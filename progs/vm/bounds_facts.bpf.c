// SPDX-License-Identifier: MIT
/*
 * tests/test_bounds: programs whose map-value and packet accesses the
 * load-time bounds analysis proves, or must not prove (one byte past a
 * value, a read-only map, a packet pointer kept across a helper that
 * moves the packet). Byte 0 of the packet picks the path.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct val12 {
	__u32 a, b, c; /* 12 bytes: slots of 16, only 12 reachable */
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 4);
	__type(key, __u32);
	__type(value, struct val12);
} arr SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 2);
	__type(key, __u32);
	__type(value, __u64);
} pcpu SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 64);
	__type(key, __u32);
	__type(value, struct val12);
} hash SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 64);
	__type(key, __u32);
	__type(value, __u64);
} lru SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__uint(map_flags, BPF_F_RDONLY_PROG);
	__type(key, __u32);
	__type(value, __u64);
} ro SEC(".maps");

#define PKT(ctx) ((__u8 *)(long)(ctx)->data)
#define END(ctx) ((__u8 *)(long)(ctx)->data_end)

/* Reads and writes every byte of a value, and one past it when asked. */
static __always_inline int touch(struct val12 *v, __u8 sel)
{
	v->a += 1;
	__sync_fetch_and_add(&v->b, 2);
	v->c = v->a ^ v->b;
	if (sel == 1) /* one byte past the value: never proven */
		*(volatile __u8 *)((__u8 *)v + 12) = 7;
	if (sel == 2) /* the last byte: proven */
		*(volatile __u8 *)((__u8 *)v + 11) = 7;
	return (int)(v->c & 3);
}

SEC("xdp")
int vals_array(struct xdp_md *ctx)
{
	__u8 *p = PKT(ctx);
	struct val12 *v;
	__u32 key;

	if (p + 4 > END(ctx))
		return XDP_DROP;
	key = p[1] & 3;
	v = bpf_map_lookup_elem(&arr, &key);
	if (!v)
		return XDP_ABORTED;
	return touch(v, p[0]);
}

SEC("xdp")
int vals_hash(struct xdp_md *ctx)
{
	struct val12 init = { 1, 2, 3 }, *v;
	__u8 *p = PKT(ctx);
	__u32 key;

	if (p + 4 > END(ctx))
		return XDP_DROP;
	key = p[1];
	v = bpf_map_lookup_elem(&hash, &key);
	if (!v) {
		bpf_map_update_elem(&hash, &key, &init, BPF_NOEXIST);
		return XDP_PASS;
	}
	/* The packet is still proven after the lookup (it does not move
	 * the packet): p[2], p[3] need no check. */
	return touch(v, p[0]) + (p[2] & 1) + (p[3] & 1);
}

SEC("xdp")
int vals_counters(struct xdp_md *ctx)
{
	__u8 *p = PKT(ctx);
	__u64 one = 1, *c;
	__u32 key = 0;

	if (p + 2 > END(ctx))
		return XDP_DROP;
	c = bpf_map_lookup_elem(&pcpu, &key);
	if (c)
		*c += p[1];
	key = p[1];
	c = bpf_map_lookup_elem(&lru, &key);
	if (c)
		__sync_fetch_and_add(c, 1);
	else
		bpf_map_update_elem(&lru, &key, &one, BPF_ANY);
	if (p[0] == 1 && c) /* past an 8-byte value */
		return (int)*(volatile __u32 *)((__u8 *)c + 6);
	return XDP_PASS;
}

SEC("xdp")
int vals_rdonly(struct xdp_md *ctx)
{
	__u8 *p = PKT(ctx);
	__u32 key = 0;
	__u64 *v;

	if (p + 1 > END(ctx))
		return XDP_DROP;
	v = bpf_map_lookup_elem(&ro, &key);
	if (!v)
		return XDP_ABORTED;
	if (p[0] == 1)
		*(volatile __u64 *)v = 5; /* refused at run time */
	return (int)(*v & 3);
}

/* Global data: .rodata, .bss and .data, each one array value. */
const volatile __u32 g_ro = 3;
__u64 g_bss;
__u32 g_data[4] = { 1, 2, 3, 4 };

SEC("xdp")
int vals_globals(struct xdp_md *ctx)
{
	volatile __u32 *past = g_data;
	__u8 *p = PKT(ctx);

	if (p + 2 > END(ctx))
		return XDP_DROP;
	g_bss += p[1]; /* proven: load and store at a constant offset */
	g_data[p[1] & 3] += 1; /* a variable offset: checked */
	/* Read-only: refused at run time. */
	if (p[0] == 1)
		*(volatile __u32 *)&g_ro = 5;
	if (p[0] == 2)
		return (int)past[4]; /* one past g_data: checked, aborts */
	return (int)((g_ro + g_bss) & 3);
}

SEC("xdp")
int pkt_moved(struct xdp_md *ctx)
{
	__u8 *p = PKT(ctx);

	if (p + 64 > END(ctx))
		return XDP_DROP;
	if (p[0] == 1 && bpf_xdp_adjust_head(ctx, 60))
		return XDP_ABORTED;
	/* Through the old pointer: after the head moved, below the packet
	 * (the analysis forgets p at that call, so this is checked). */
	return *(volatile __u8 *)(p + 40) & 3;
}

char _license[] SEC("license") = "GPL";
