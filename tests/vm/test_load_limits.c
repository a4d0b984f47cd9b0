// SPDX-License-Identifier: MIT
/*
 * Load-time cost and limits (issue 12): programs generated in memory
 * (load_shapes.h) of the shapes that cost the load-time analyses most,
 * one of them 1,000,000 instructions (the kernel's
 * BPF_COMPLEXITY_LIMIT_INSNS), loaded as the loader loads a program
 * (hr_prog_finalize) and run under both engines, each run's r0 checked
 * against what the generator computed. Load times are printed, not
 * asserted (bench/load measures them). Then the limits: one instruction
 * over the kernel's size limit is -E2BIG naming the count; a stack access
 * outside its 512-byte frame and a ninth call frame end the run with
 * their abort reasons under both engines.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "vm/bounds.h"
#include "vm/interp.h"
#include "vm/jit.h"
#include "progs/prog.h"
#include "maps/map.h"
#include <headroom/test_run.h>
#include "harness.h"
#include "load_shapes.h"

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

struct run_out {
	int ret, abort;
	uint32_t retval;
};

static struct run_out run(struct hr_prog *prog, enum hr_engine engine)
{
	uint8_t pkt[LS_PKT_LEN], out[LS_PKT_LEN];
	struct hr_test_run_opts o = { .sz = sizeof(o) };
	struct run_out r;

	ls_packet(pkt);
	o.data_in = pkt;
	o.data_size_in = sizeof(pkt);
	o.data_out = out;
	o.data_size_out = sizeof(out);
	o.engine = engine;
	r.ret = hr_prog_test_run(prog, &o);
	r.abort = o.abort;
	r.retval = o.retval;
	return r;
}

/* Loads @shape at @n instructions, runs it under both engines. */
static void shape(enum ls_shape s, uint32_t n)
{
	double t0, t_fin, t_int, t_jit;
	struct hr_insn *insns;
	struct hr_prog *prog;
	uint32_t cnt, expect;
	struct run_out ri, rj;
	char err[256] = "";
	int ret;

	ret = ls_build(s, n, &insns, &cnt, &expect);
	CHECK(ret == 0, "%s: build: %d", ls_name(s), ret);
	if (ret)
		return;
	t0 = now_ms();
	prog = ls_prog(insns, cnt, &ret, err, sizeof(err));
	t_fin = now_ms() - t0;
	CHECK(prog, "%s (%u insns) does not load: %s", ls_name(s), cnt, err);
	if (!prog)
		return;
	if (s == LS_STRAIGHT) {
		/* The analysis covers the whole program: its first and last
		 * packet loads are proven by the prologue's test. */
		struct jb_facts f;

		jb_analyze(&prog->vm, jb_fp_fixed(&prog->vm), &f);
		CHECK(jb_access_proven(&f, &prog->vm, 9, 2, 0, 1, false) &&
			      jb_access_proven(&f, &prog->vm, cnt - 4, 2,
					       prog->insns[cnt - 4].off, 1,
					       false),
		      "%s (%u insns): packet loads not proven", ls_name(s),
		      cnt);
		CHECK(!jb_access_proven(&f, &prog->vm, 9, 2, 64, 1, false),
		      "%s: a load past the proven 64 bytes proven", ls_name(s));
		jb_free(&f);
	}
	/* The first run prepares the interpreter's code (the analysis
	 * included), as hr_jit_compile() compiles. */
	t0 = now_ms();
	ri = run(prog, HR_ENGINE_INTERP);
	t_int = now_ms() - t0;
	t0 = now_ms();
	ret = hr_jit_compile(&prog->vm);
	t_jit = now_ms() - t0;
	CHECK(ret == 0, "%s: the JIT refuses it: %d", ls_name(s), ret);
	rj = run(prog, HR_ENGINE_JIT);
	CHECK(ri.ret == 0 && !ri.abort && ri.retval == expect,
	      "%s interpreter: ret %d abort %s r0 %u, expected %u", ls_name(s),
	      ri.ret, hr_abort_str(ri.abort), ri.retval, expect);
	CHECK(rj.ret == 0 && !rj.abort && rj.retval == expect,
	      "%s JIT: ret %d abort %s r0 %u, expected %u", ls_name(s), rj.ret,
	      hr_abort_str(rj.abort), rj.retval, expect);
	printf("  %-13s %8u insns: finalize %7.1f ms, interpreter prep+run "
	       "%7.1f ms, JIT %7.1f ms\n",
	       ls_name(s), cnt, t_fin, t_int, t_jit);
	hr_prog_free(prog);
}

static void test_shapes(void)
{
	int s;

	printf("load times (printed, not asserted; see bench/load):\n");
	/* The kernel's largest program, straight-line. */
	shape(LS_STRAIGHT, 1000000);
	for (s = 0; s < LS__MAX; s++)
		shape(s, 1 << 16);
}

/* One over BPF_COMPLEXITY_LIMIT_INSNS: -E2BIG, naming the count; the
 * limit itself loads (test_shapes). */
static void test_size_limit(void)
{
	uint32_t n = 1000001, i;
	struct hr_insn *insns = calloc(n, sizeof(*insns));
	struct hr_prog *prog;
	char err[256] = "";
	int ret;

	if (!insns) {
		CHECK(0, "out of memory");
		return;
	}
	for (i = 0; i + 1 < n; i++)
		insns[i] = (struct hr_insn){ HR_ALU64 | HR_MOV | HR_K, 0, 0, 0,
					     2 };
	insns[n - 1] = (struct hr_insn){ HR_JMP | HR_EXIT, 0, 0, 0, 0 };
	prog = ls_prog(insns, n, &ret, err, sizeof(err));
	CHECK(!prog && ret == -E2BIG, "1000001 insns: ret %d", ret);
	CHECK(strstr(err, "1000001") && strstr(err, "1000000"),
	      "1000001 insns: error '%s' names neither count nor limit", err);
	hr_prog_free(prog);
}

/* @text under both engines: the abort reason each ends with. */
static void expect_abort(const char *what, struct hr_insn *insns, uint32_t cnt,
			 int reason, uint32_t r0)
{
	struct hr_prog *prog;
	struct run_out ri, rj;
	char err[256] = "";
	int ret;

	prog = ls_prog(insns, cnt, &ret, err, sizeof(err));
	CHECK(prog, "%s: does not load: %s", what, err);
	if (!prog)
		return;
	ri = run(prog, HR_ENGINE_INTERP);
	rj = run(prog, HR_ENGINE_JIT);
	CHECK(ri.ret == 0 && ri.abort == reason && (reason || ri.retval == r0),
	      "%s interpreter: abort %s r0 %u, expected %s", what,
	      hr_abort_str(ri.abort), ri.retval, hr_abort_str(reason));
	CHECK(rj.ret == 0 && rj.abort == reason && (reason || rj.retval == r0),
	      "%s JIT: abort %s r0 %u, expected %s", what,
	      hr_abort_str(rj.abort), rj.retval, hr_abort_str(reason));
	hr_prog_free(prog);
}

static struct hr_insn *dup_insns(const struct hr_insn *src, uint32_t cnt)
{
	struct hr_insn *p = malloc(cnt * sizeof(*p));

	if (p)
		memcpy(p, src, cnt * sizeof(*p));
	return p;
}

/* 512 bytes a frame (MAX_BPF_STACK): the frame's bottom byte is fine,
 * one below it is not, nor is r10 itself. */
static void test_stack_limit(void)
{
	static const struct hr_insn in[] = {
		{ HR_ST | HR_MEM | HR_B, 10, 0, -512, 7 },
		{ HR_LDX | HR_MEM | HR_B, 0, 10, -512, 0 },
		{ HR_JMP | HR_EXIT, 0, 0, 0, 0 },
	};
	static const struct hr_insn below[] = {
		{ HR_ALU64 | HR_MOV | HR_X, 1, 10, 0, 0 },
		{ HR_ALU64 | HR_ADD | HR_K, 1, 0, 0, -513 },
		{ HR_ST | HR_MEM | HR_B, 1, 0, 0, 7 },
		{ HR_ALU64 | HR_MOV | HR_K, 0, 0, 0, 2 },
		{ HR_JMP | HR_EXIT, 0, 0, 0, 0 },
	};
	static const struct hr_insn above[] = {
		{ HR_ALU64 | HR_MOV | HR_X, 1, 10, 0, 0 },
		{ HR_LDX | HR_MEM | HR_B, 0, 1, 0, 0 },
		{ HR_JMP | HR_EXIT, 0, 0, 0, 0 },
	};

	expect_abort("stack bottom", dup_insns(in, 3), 3, HR_ABORT_NONE, 7);
	expect_abort("stack 513 below r10", dup_insns(below, 5), 5,
		     HR_ABORT_OOB_STORE, 0);
	expect_abort("stack at r10", dup_insns(above, 3), 3, HR_ABORT_OOB_LOAD,
		     0);
}

/* MAX_CALL_FRAMES 8: a chain of @frames frames, each function calling
 * the next; r0 counts the frames. */
static struct hr_insn *call_chain(int frames, uint32_t *cnt)
{
	struct hr_insn *p = calloc((size_t)frames * 3, sizeof(*p));
	int f;

	*cnt = (uint32_t)frames * 3;
	if (!p)
		return NULL;
	for (f = 0; f < frames; f++) {
		struct hr_insn *fn = &p[3 * f];

		if (f + 1 < frames)
			fn[0] = (struct hr_insn){ HR_JMP | HR_CALL, 0,
						  HR_CALL_LOCAL, 0, 2 };
		else
			fn[0] = (struct hr_insn){ HR_ALU64 | HR_MOV | HR_K, 0,
						  0, 0, 0 };
		fn[1] = (struct hr_insn){ HR_ALU64 | HR_ADD | HR_K, 0, 0, 0,
					  1 };
		fn[2] = (struct hr_insn){ HR_JMP | HR_EXIT, 0, 0, 0, 0 };
	}
	return p;
}

static void test_call_depth(void)
{
	struct hr_insn *p;
	uint32_t cnt;

	p = call_chain(HR_MAX_CALL_FRAMES, &cnt);
	expect_abort("8 frames", p, cnt, HR_ABORT_NONE, HR_MAX_CALL_FRAMES);
	p = call_chain(HR_MAX_CALL_FRAMES + 1, &cnt);
	expect_abort("9 frames", p, cnt, HR_ABORT_CALL_DEPTH, 0);
}

/* Maps that cannot be allocated are create errors (-E2BIG or -ENOMEM),
 * never an abort or a huge allocation that succeeds and faults later:
 * the sizes are multiplied in 64 bits and bounded first. */
static void test_map_sizes(void)
{
	static const struct {
		uint32_t type, key, value, entries;
	} cases[] = {
		{ HR_MAP_ARRAY, 4, 8, 0xffffffffu },
		{ HR_MAP_ARRAY, 4, 0x7fffffffu, 1u << 20 },
		{ HR_MAP_PERCPU_ARRAY, 4, 1u << 20, 1u << 20 },
		{ HR_MAP_HASH, 4, 8, 0xffffffffu },
		{ HR_MAP_HASH, 4, 0x7fffffffu, 1u << 20 },
		{ HR_MAP_LRU_HASH, 4, 0x7fffffffu, 1u << 20 },
		{ HR_MAP_PERCPU_HASH, 4, 1u << 20, 1u << 20 },
		{ HR_MAP_QUEUE, 0, 0x7fffffffu, 1u << 20 },
		{ HR_MAP_DEVMAP, 4, 4, 0xffffffffu },
		{ HR_MAP_PROG_ARRAY, 4, 4, 0xffffffffu },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct hr_map_attr a = {
			.type = cases[i].type,
			.key_size = cases[i].key,
			.value_size = cases[i].value,
			.max_entries = cases[i].entries,
			.ncpus = 2,
			.name = "huge",
		};
		struct hr_map *m = NULL;
		int ret = hr_map_create(&a, &m);

		CHECK((ret == -E2BIG || ret == -ENOMEM) && !m,
		      "map type %u key %u value %#x entries %#x: ret %d",
		      a.type, a.key_size, a.value_size, a.max_entries, ret);
		hr_map_free(m);
	}
}

int main(void)
{
	test_map_sizes();
	test_size_limit();
	test_stack_limit();
	test_call_depth();
	test_shapes();
	return t_done();
}
