// SPDX-License-Identifier: MIT
/*
 * Tail calls and callbacks for tests/vm/test_jit.c, which runs each program
 * under both engines and compares r0, the abort and the maps. Slot 0 of
 * jmp is set by the test (tc_leaf, tc_abort or nothing), slot 1 is
 * tc_self: a chain of 33 tail calls, the 34th falling through.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_PROG_ARRAY);
	__uint(max_entries, 4);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(__u32));
} jmp SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 8);
	__type(key, __u32);
	__type(value, __u64);
} vals SEC(".maps");

__u64 trace[8];
__u32 runs;

SEC("xdp")
int tc_entry(struct xdp_md *ctx)
{
	volatile __u64 buf[4];

	buf[0] = 0x1111;
	buf[3] = runs;
	runs++;
	trace[0] = buf[0] + buf[3];
	bpf_tail_call(ctx, &jmp, 0);
	return 1000 + runs;
}

SEC("xdp")
int tc_leaf(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *end = (void *)(long)ctx->data_end;

	runs += 10;
	trace[1] = runs;
	if (data + 2 > end)
		return 1;
	return 2000 + runs + ((__u8 *)data)[1];
}

SEC("xdp")
int tc_abort(struct xdp_md *ctx)
{
	runs += 100;
	/* Not a valid address: an out-of-bounds load. */
	return *(volatile __u32 *)(long)(runs * 8);
}

SEC("xdp")
int tc_self(struct xdp_md *ctx)
{
	runs++;
	trace[runs & 7] += runs;
	bpf_tail_call(ctx, &jmp, 1);
	return 3000 + runs;
}

/* Tail-calls slot 2 with r3..r9 set: the target reads them first (the
 * interpreter keeps registers across a tail call). */
SEC("xdp")
__attribute__((naked)) int tc_setregs(struct xdp_md *ctx)
{
	asm volatile("r6 = 6; r7 = 7; r8 = 8; r9 = 9;"
		     "r2 = %[jmp] ll;"
		     "r3 = 2; r4 = 4; r5 = 5;"
		     "call 12;"
		     "r0 = 99;"
		     "exit;"
		     :
		     : [jmp] "i"(&jmp)
		     : "memory");
}

SEC("xdp")
__attribute__((naked)) int tc_regs(struct xdp_md *ctx)
{
	asm volatile("r0 = r9; r0 *= 10; r0 += r8; r0 *= 10; r0 += r7;"
		     "r0 *= 10; r0 += r6; r0 *= 10; r0 += r5;"
		     "r0 *= 10; r0 += r4; r0 *= 10; r0 += r3;"
		     "exit;" ::
			     : "memory");
}

struct loop_ctx {
	__u64 sum;
	__u32 n;
};

static long inner_cb(__u64 i, void *c)
{
	((struct loop_ctx *)c)->sum += 1000 * i;
	return 0;
}

static long loop_cb(__u64 i, void *c)
{
	struct loop_ctx *l = c;

	l->sum += i * i;
	l->n++;
	trace[i & 7] ^= i + 1;
	if (i == 2)
		bpf_loop(3, inner_cb, c, 0); /* one frame deeper again */
	return i == 6;
}

SEC("xdp")
int cb_loop(struct xdp_md *ctx)
{
	struct loop_ctx l = { 1, 0 };
	long r = bpf_loop(10, loop_cb, &l, 0);

	return r * 1000000 + l.sum * 10 + l.n;
}

static long each_cb(void *map, __u32 *key, __u64 *val, void *c)
{
	*(__u64 *)c += *val + *key;
	*val += 1;
	return *key == 5;
}

SEC("xdp")
int cb_each(struct xdp_md *ctx)
{
	__u64 acc = 0;
	long n = bpf_for_each_map_elem(&vals, each_cb, &acc, 0);

	return n * 10000 + acc;
}

static long bad_cb(__u64 i, void *c)
{
	runs++;
	if (i == 3)
		return *(volatile __u64 *)(long)(i * 8 + *(__u64 *)c);
	return 0;
}

SEC("xdp")
int cb_abort(struct xdp_md *ctx)
{
	__u64 z = 0;

	bpf_loop(5, bad_cb, &z, 0);
	return 7;
}

/* A callback, then a tail call from the same program. */
SEC("xdp")
int cb_tail(struct xdp_md *ctx)
{
	struct loop_ctx l = { 0, 0 };

	bpf_loop(4, loop_cb, &l, 0);
	runs += l.n;
	bpf_tail_call(ctx, &jmp, 0);
	return 4000 + runs;
}

char LICENSE[] SEC("license") = "GPL";
