// SPDX-License-Identifier: MIT
/*
 * The calls the JIT inlines, for tests/vm/test_jit_xdp.c to run under both
 * engines:
 *
 *   jit_hints: the three RX hint kfuncs into out variables that start as
 *     sentinels (so a value written on failure shows), then every return
 *     code and value into 32 bytes of metadata (struct jit_hints_out).
 *   jit_meta_seq: bpf_xdp_adjust_meta with constant deltas (the JIT's
 *     immediate form) in a fixed sequence that meets every error, each
 *     result's errno a byte of a u64 written at data + 16, and a store
 *     through ctx->data_meta that only the run's packet bounds check (no
 *     comparison proves it).
 *   jit_meta_wide: one call with the 64-bit r2 taken from the packet (the
 *     helper uses its low 32 bits), then the same unproven store.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#include "hr_rx_kfuncs.h"

struct jit_hints_out {
	__u64 ts;
	__u32 hash;
	__u32 rss_type;
	__u16 vlan_proto;
	__u16 vlan_tci;
	__s32 ret_hash;
	__s32 ret_ts;
	__s32 ret_vlan;
};

SEC("xdp")
int jit_hints(struct xdp_md *ctx)
{
	struct jit_hints_out *m;
	__u64 ts = 0x1111111111111111ull;
	enum xdp_rss_hash_type type = 0x33333333;
	__u32 hash = 0x22222222;
	__be16 proto = 0x4444;
	__u16 tci = 0x5555;
	int rh, rt, rv;

	rh = bpf_xdp_metadata_rx_hash(ctx, &hash, &type);
	rt = bpf_xdp_metadata_rx_timestamp(ctx, &ts);
	rv = bpf_xdp_metadata_rx_vlan_tag(ctx, &proto, &tci);
	if (bpf_xdp_adjust_meta(ctx, -(int)sizeof(*m)))
		return XDP_ABORTED;
	m = (void *)(long)ctx->data_meta;
	if ((void *)(m + 1) > (void *)(long)ctx->data)
		return XDP_ABORTED;
	m->ts = ts;
	m->hash = hash;
	m->rss_type = type;
	m->vlan_proto = proto;
	m->vlan_tci = tci;
	m->ret_hash = rh;
	m->ret_ts = rt;
	m->ret_vlan = rv;
	return XDP_PASS;
}

/* One result as a byte: its errno (0 for success). */
#define RES(r) ((__u64)(__u8)(-(r)))

SEC("xdp")
int jit_meta_seq(struct xdp_md *ctx)
{
	__u64 res = 0;
	void *data;
	long r;

	r = bpf_xdp_adjust_meta(ctx, -8); /* grow */
	res = res << 8 | RES(r);
	r = bpf_xdp_adjust_meta(ctx, 2); /* not a multiple of 4 */
	res = res << 8 | RES(r);
	r = bpf_xdp_adjust_meta(ctx, -256); /* below the frame header */
	res = res << 8 | RES(r);
	r = bpf_xdp_adjust_meta(ctx, 4); /* shrink */
	res = res << 8 | RES(r);
	r = bpf_xdp_adjust_meta(ctx, 0x7fffffff); /* past data */
	res = res << 8 | RES(r);
	r = bpf_xdp_adjust_meta(ctx, -0x7fffffff - 1);
	res = res << 8 | RES(r);
	r = bpf_xdp_adjust_meta(ctx, -252); /* more than 252 in all */
	res = res << 8 | RES(r);
	r = bpf_xdp_adjust_meta(ctx, -4);
	res = res << 8 | RES(r);
	*(__u8 *)(long)ctx->data_meta = 0x5a;
	data = (void *)(long)ctx->data;
	if (data + 24 > (void *)(long)ctx->data_end)
		return XDP_ABORTED;
	*(__u64 *)(data + 16) = res;
	return XDP_PASS;
}

SEC("xdp")
int jit_meta_wide(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *data_end = (void *)(long)ctx->data_end;
	long (*adjust)(void *, __u64) = (void *)bpf_xdp_adjust_meta;
	__u64 delta;
	long r;

	if (data + 8 > data_end)
		return 0x7fff;
	delta = *(__u64 *)data;
	r = adjust(ctx, delta);
	if (r)
		return (int)r;
	*(__u8 *)(long)ctx->data_meta = 0x5a;
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
