// SPDX-License-Identifier: MIT
/*
 * Containment: callbacks that abort below bpf-to-bpf calls. Each program
 * ends with an out-of-bounds load (100000 bytes past the packet) at a
 * given depth inside a bpf_loop callback; the run must end XDP_ABORTED
 * with that reason under both engines, and the JIT must unwind to its own
 * frame whatever depth the callback reached (tests/vm/test_containment.c).
 * cb_ok is the normal run that follows on the same hr_run.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct cb_state {
	__u64 addr; /* the out-of-bounds address */
	__u64 n; /* work done before the abort */
};

__u64 done;

static __noinline __u64 oob(__u64 addr)
{
	return *(volatile __u64 *)addr;
}

static __noinline __u64 f2(__u64 addr, __u64 bad)
{
	if (bad)
		return oob(addr) + 1;
	return addr & 7;
}

static __noinline __u64 f1(__u64 addr, __u64 bad)
{
	return f2(addr, bad) + 2;
}

/* Depth 1: two nested calls that return, then the load in the callback. */
static long cb_d1(__u32 i, void *data)
{
	struct cb_state *st = data;

	st->n += f1(st->addr, 0);
	st->n += *(volatile __u64 *)st->addr;
	return 0;
}

/* Depth 2: the load in the first function the callback calls. */
static __noinline __u64 g1(__u64 addr)
{
	return *(volatile __u64 *)addr + 5;
}

static long cb_d2(__u32 i, void *data)
{
	struct cb_state *st = data;

	st->n += f1(st->addr, 0);
	st->n += g1(st->addr);
	return 0;
}

/* Depth 3 and below: callback -> f1 -> f2 -> oob (the reviewed case). */
static long cb_d3(__u32 i, void *data)
{
	struct cb_state *st = data;

	if (i < 2) {
		st->n++;
		return 0;
	}
	st->n += f1(st->addr, 1);
	return 0;
}

/* A nested bpf_loop: its callback aborts three frames below it. */
static long cb_outer(__u32 i, void *data)
{
	struct cb_state *st = data;

	st->n++;
	bpf_loop(3, cb_d3, st, 0);
	return 0;
}

static __always_inline __u64 bad_addr(struct xdp_md *ctx)
{
	return (__u64)ctx->data + 100000;
}

SEC("xdp")
int cb_depth1(struct xdp_md *ctx)
{
	struct cb_state st = { bad_addr(ctx), 0 };

	bpf_loop(4, cb_d1, &st, 0);
	done = st.n;
	return XDP_PASS;
}

SEC("xdp")
int cb_depth2(struct xdp_md *ctx)
{
	struct cb_state st = { bad_addr(ctx), 0 };

	bpf_loop(4, cb_d2, &st, 0);
	done = st.n;
	return XDP_PASS;
}

SEC("xdp")
int cb_depth3(struct xdp_md *ctx)
{
	struct cb_state st = { bad_addr(ctx), 0 };

	bpf_loop(4, cb_d3, &st, 0);
	done = st.n;
	return XDP_PASS;
}

SEC("xdp")
int cb_nested(struct xdp_md *ctx)
{
	struct cb_state st = { bad_addr(ctx), 0 };

	bpf_loop(2, cb_outer, &st, 0);
	done = st.n;
	return XDP_PASS;
}

/* The JIT itself two calls deep when the callback aborts. */
static __noinline __u64 s2(struct cb_state *st)
{
	bpf_loop(4, cb_d3, st, 0);
	return st->n;
}

static __noinline __u64 s1(struct cb_state *st)
{
	return s2(st) + 1;
}

SEC("xdp")
int cb_from_sub(struct xdp_md *ctx)
{
	struct cb_state st = { bad_addr(ctx), 0 };

	done = s1(&st);
	return XDP_PASS;
}

/* Normal: the same shapes, nothing out of bounds. */
static long cb_fine(__u32 i, void *data)
{
	struct cb_state *st = data;

	st->n += f1(st->addr, 0);
	return 0;
}

static __noinline __u64 t1(struct cb_state *st)
{
	bpf_loop(3, cb_fine, st, 0);
	return st->n;
}

SEC("xdp")
int cb_ok(struct xdp_md *ctx)
{
	struct cb_state st = { (__u64)ctx->data, 0 };

	done = t1(&st);
	return st.n ? XDP_TX : XDP_DROP;
}

char LICENSE[] SEC("license") = "GPL";
