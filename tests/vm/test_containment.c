// SPDX-License-Identifier: MIT
/*
 * Containment: programs that abort where the engines' shared state is
 * easiest to get wrong. A bpf_loop callback that aborts below nested
 * bpf-to-bpf calls (progs/vm/contain_callback.bpf.c) must end XDP_ABORTED
 * with the out-of-bounds reason under the interpreter, the JIT and the
 * checked JIT, leave the process and the run intact (depth 0, the JIT
 * back on its own frame), and a normal run on the same hr_run after it
 * must work. Then the invariant checks: a run that breaks one ends with
 * HR_ABORT_INVARIANT.
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "progs/ctx.h"
#include "vm/engine.h"
#include "vm/jit.h"
#include "progs/prog.h"
#include <headroom/object.h>
#include <headroom/test_run.h>
#include <linux/bpf.h>
#include "harness.h"

static const enum hr_engine engines[] = { HR_ENGINE_INTERP, HR_ENGINE_JIT,
					  HR_ENGINE_JIT_CHECKED };
static const char *const engine_names[] = { "interp", "jit", "jit-checked" };
#define NENGINES (sizeof(engines) / sizeof(engines[0]))

struct one_run {
	uint64_t r0;
	int abort;
	uint32_t abort_pc;
	uint64_t abort_addr;
	unsigned int depth;
};

/* One run of @prog on a 64-byte packet in @page, on @run. */
static void run_on(struct hr_prog *prog, struct hr_run *run, uint8_t *page,
		   enum hr_engine eng, struct one_run *out)
{
	struct hr_xdp_buff xdp = {
		.data_hard_start = page,
		.data = page + 256,
		.data_meta = page + 256,
		.data_end = page + 256 + 64,
		.frame_sz = 4096,
	};
	struct hr_xdp_ctx c = { .xdp = &xdp };

	hr_prog_run_init(prog, run, &c.md);
	run->priv = &c;
	hr_xdp_ctx_sync(&c, run);
	out->r0 = hr_engine_run_ctx(eng, run);
	out->abort = run->abort;
	out->abort_pc = run->abort_pc;
	out->abort_addr = run->abort_addr;
	out->depth = run->depth;
}

static void test_callback_aborts(void)
{
	static const char *const progs[] = { "cb_depth1", "cb_depth2",
					     "cb_depth3", "cb_nested",
					     "cb_from_sub" };
	struct hr_object_open_opts oo = { .sz = sizeof(oo) };
	struct hr_object *obj = NULL;
	struct hr_run *run = aligned_alloc(64, (sizeof(*run) + 63) & ~63ul);
	uint8_t *page = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
			     MAP_PRIVATE | MAP_ANONYMOUS | MAP_32BIT, -1, 0);
	struct hr_prog *ok;
	char path[4200];
	unsigned int i, e, rep;

	snprintf(path, sizeof(path), "%s/contain_callback.o", t_progs_dir());
	if (!run || page == MAP_FAILED || hr_object_open(path, &oo, &obj)) {
		CHECK(0, "setup %s", path);
		goto out;
	}
	ok = hr_object_find_prog(obj, "cb_ok");
	CHECK(ok != NULL, "no cb_ok");
	if (!ok)
		goto out;
	for (i = 0; i < sizeof(progs) / sizeof(progs[0]); i++) {
		struct hr_prog *p = hr_object_find_prog(obj, progs[i]);
		struct one_run r[NENGINES], n;

		CHECK(p != NULL, "no %s", progs[i]);
		if (!p)
			continue;
		for (e = 0; e < NENGINES; e++) {
			/* Twice: the first run compiles, the second runs the
			 * cached code, then the normal run on the same run. */
			for (rep = 0; rep < 2; rep++) {
				memset(page, 0x5a, 4096);
				run_on(p, run, page, engines[e], &r[e]);
				CHECK(r[e].r0 == XDP_ABORTED &&
					      r[e].abort == HR_ABORT_OOB_LOAD &&
					      r[e].abort_addr ==
						      (uintptr_t)page + 256 +
							      100000 &&
					      r[e].depth == 0,
				      "%s under %s: r0 %llu abort %s addr %llx "
				      "depth %u",
				      progs[i], engine_names[e],
				      (unsigned long long)r[e].r0,
				      hr_abort_str(r[e].abort),
				      (unsigned long long)r[e].abort_addr,
				      r[e].depth);
				run_on(ok, run, page, engines[e], &n);
				CHECK(n.r0 == XDP_TX && n.abort == 0 &&
					      n.depth == 0,
				      "cb_ok after %s under %s: r0 %llu "
				      "abort %s",
				      progs[i], engine_names[e],
				      (unsigned long long)n.r0,
				      hr_abort_str(n.abort));
			}
			CHECK(r[e].abort_pc == r[0].abort_pc,
			      "%s: abort pc %u under %s, %u interpreted",
			      progs[i], r[e].abort_pc, engine_names[e],
			      r[0].abort_pc);
		}
		CHECK(p->vm.jit != NULL, "%s: not compiled", progs[i]);
		CHECK(p->vm.jit_chk != NULL, "%s: no checked code", progs[i]);
	}
	/* The same through the C API's engine option. */
	for (i = 0; i < sizeof(progs) / sizeof(progs[0]); i++) {
		struct hr_prog *p = hr_object_find_prog(obj, progs[i]);
		uint8_t pkt[64] = { 0 };

		for (e = 0; p && e < NENGINES; e++) {
			struct hr_test_run_opts o = { .sz = sizeof(o),
						      .data_in = pkt,
						      .data_size_in =
							      sizeof(pkt),
						      .repeat = 3,
						      .engine = engines[e] };

			CHECK_EQ(hr_prog_test_run(p, &o), 0);
			CHECK(o.retval == XDP_ABORTED &&
				      o.abort == HR_ABORT_OOB_LOAD,
			      "test_run %s under %s: %u %s", progs[i],
			      engine_names[e], o.retval, hr_abort_str(o.abort));
		}
	}
out:
	if (page != MAP_FAILED)
		munmap(page, 4096);
	free(run);
	if (obj)
		hr_object_close(obj);
}

/*
 * Invariants: a helper standing in for an engine bug breaks one, and the
 * run must end HR_ABORT_INVARIANT (r0 = abort_ret), counted, under every
 * engine it applies to.
 */
enum bug { BUG_BUDGET, BUG_DEPTH, BUG_FRAME };
static enum bug bug;

static uint64_t bug_helper(uint64_t r1, uint64_t r2, uint64_t r3, uint64_t r4,
			   uint64_t r5, struct hr_run *run)
{
	switch (bug) {
	case BUG_BUDGET:
		run->budget += 1000; /* a charge that wrapped */
		break;
	case BUG_DEPTH:
		run->depth = 3; /* a frame never popped */
		break;
	case BUG_FRAME:
		run->jit_sp += 8; /* the JIT's frame is not where it was */
		break;
	}
	return 0;
}

static uint64_t bug_run(enum hr_engine eng, int *abort)
{
	static const struct hr_insn insns[] = {
		{ .code = HR_JMP | HR_CALL, .src = HR_CALL_HELPER, .imm = 1 },
		{ .code = HR_ALU64 | HR_MOV | HR_K, .dst = 0, .imm = 7 },
		{ .code = HR_JMP | HR_EXIT },
	};
	hr_helper_fn calls[3] = { bug_helper, NULL, NULL };
	struct hr_vm_prog vm = {
		.insns = insns, .cnt = 3, .calls = calls, .abort_ret = 0xabad
	};
	struct hr_run *run = aligned_alloc(64, (sizeof(*run) + 63) & ~63ul);
	uint64_t r0;

	if (!run)
		return 0;
	hr_run_init(run, &vm, NULL);
	r0 = hr_engine_run(eng, run, 0);
	*abort = run->abort;
	CHECK_EQ(run->depth, 0); /* repaired for the next run */
	hr_jit_free(&vm);
	hr_interp_free(&vm);
	free(run);
	return r0;
}

static void test_invariants(void)
{
	unsigned int e;
	int abort, status;
	uint64_t r0;
	pid_t pid;

	for (e = 0; e < NENGINES; e++) {
		hr_engine_invariant_reset();
		bug = BUG_BUDGET;
		r0 = bug_run(engines[e], &abort);
		CHECK(r0 == 0xabad && abort == HR_ABORT_INVARIANT,
		      "budget under %s: r0 %llu abort %s", engine_names[e],
		      (unsigned long long)r0, hr_abort_str(abort));
		CHECK_EQ(hr_engine_invariant_breaks(), 1);
		/* The interpreter pops frames by depth: only the JIT's code
		 * (no local calls here) runs on to the end with it wrong. */
		if (engines[e] == HR_ENGINE_INTERP)
			continue;
		bug = BUG_DEPTH;
		r0 = bug_run(engines[e], &abort);
		CHECK(r0 == 0xabad && abort == HR_ABORT_INVARIANT,
		      "depth under %s: r0 %llu abort %s", engine_names[e],
		      (unsigned long long)r0, hr_abort_str(abort));
		CHECK_EQ(hr_engine_invariant_breaks(), 2);
		/* The frame check: an exit whose frame it cannot trust stops
		 * the process (SIGABRT) instead of returning through it. */
		fflush(NULL);
		pid = fork();
		if (pid == 0) {
			bug = BUG_FRAME;
			bug_run(engines[e], &abort);
			_exit(0);
		}
		CHECK(pid > 0 && waitpid(pid, &status, 0) == pid &&
			      WIFSIGNALED(status) &&
			      WTERMSIG(status) == SIGABRT,
		      "frame bug under %s: status %#x", engine_names[e],
		      status);
	}
	/* Broken on purpose: not a failure of this binary (t_done). */
	hr_engine_invariant_reset();
}

/*
 * The checked JIT checks: with the test hook, its code takes every access
 * as proven (a wrong proof); each access that is in fact out of bounds
 * must then end the run with HR_ABORT_JIT_CHECK, never touch memory. The
 * same programs without the hook abort with their own reason.
 */
static uint64_t no_helper(uint64_t r1, uint64_t r2, uint64_t r3, uint64_t r4,
			  uint64_t r5, struct hr_run *run)
{
	return 0;
}

static void wrong_proof_run(const struct hr_insn *insns, uint32_t cnt,
			    enum hr_engine eng, bool wrong, int *abort,
			    uint64_t *r0)
{
	static uint8_t outside[64];
	hr_helper_fn calls[8] = { 0 };

	calls[1] = no_helper; /* the helper call's pc in call[] */
	struct hr_vm_prog vm = {
		.insns = insns, .cnt = cnt, .calls = calls, .abort_ret = 0xabad
	};
	struct hr_run *run = aligned_alloc(64, (sizeof(*run) + 63) & ~63ul);

	*abort = -1;
	if (!run)
		return;
	hr_run_init(run, &vm, NULL);
	hr_jit_test_wrong_proofs(wrong);
	*r0 = hr_engine_run(eng, run, (uintptr_t)outside);
	hr_jit_test_wrong_proofs(false);
	*abort = run->abort;
	hr_jit_free(&vm);
	hr_interp_free(&vm);
	free(run);
}

static void test_checked_checks(void)
{
	/* A load through r1 (memory of no region). */
	static const struct hr_insn load[] = {
		{ .code = HR_LDX | HR_MEM | HR_DW, .dst = 0, .src = 1 },
		{ .code = HR_JMP | HR_EXIT },
	};
	/* A store 1000 bytes below r10: outside the frame. */
	static const struct hr_insn store[] = {
		{ .code = HR_ALU64 | HR_MOV | HR_X, .dst = 2, .src = 10 },
		{ .code = HR_ST | HR_MEM | HR_DW, .dst = 2, .off = -1000 },
		{ .code = HR_ALU64 | HR_MOV | HR_K, .dst = 0, .imm = 1 },
		{ .code = HR_JMP | HR_EXIT },
	};
	/* A load at the frame's top through r10: in bounds, stays fine. */
	static const struct hr_insn fine[] = {
		{ .code = HR_ST | HR_MEM | HR_DW,
		  .dst = 10,
		  .off = -8,
		  .imm = 5 },
		{ .code = HR_LDX | HR_MEM | HR_DW,
		  .dst = 0,
		  .src = 10,
		  .off = -8 },
		{ .code = HR_JMP | HR_EXIT },
	};
	/* A helper call with r1 = 5: the hook's wrong fact says the
	 * context (NULL here). */
	static const struct hr_insn call[] = {
		{ .code = HR_ALU64 | HR_MOV | HR_K, .dst = 1, .imm = 5 },
		{ .code = HR_JMP | HR_CALL, .src = HR_CALL_HELPER, .imm = 1 },
		{ .code = HR_ALU64 | HR_MOV | HR_K, .dst = 0, .imm = 9 },
		{ .code = HR_JMP | HR_EXIT },
	};
	int abort;
	uint64_t r0 = 0;

	wrong_proof_run(call, 4, HR_ENGINE_JIT_CHECKED, true, &abort, &r0);
	CHECK(abort == HR_ABORT_JIT_CHECK && r0 == 0xabad,
	      "wrong fact at a call: %s", hr_abort_str(abort));
	wrong_proof_run(call, 4, HR_ENGINE_JIT_CHECKED, false, &abort, &r0);
	CHECK(abort == 0 && r0 == 9, "call, right facts: %s %llu",
	      hr_abort_str(abort), (unsigned long long)r0);
	wrong_proof_run(load, 2, HR_ENGINE_JIT_CHECKED, true, &abort, &r0);
	CHECK(abort == HR_ABORT_JIT_CHECK && r0 == 0xabad,
	      "wrong proof, load: %s", hr_abort_str(abort));
	wrong_proof_run(store, 4, HR_ENGINE_JIT_CHECKED, true, &abort, &r0);
	CHECK(abort == HR_ABORT_JIT_CHECK && r0 == 0xabad,
	      "wrong proof, store: %s", hr_abort_str(abort));
	wrong_proof_run(fine, 3, HR_ENGINE_JIT_CHECKED, true, &abort, &r0);
	CHECK(abort == 0 && r0 == 5, "wrong proof, in bounds: %s %llu",
	      hr_abort_str(abort), (unsigned long long)r0);
	/* Without the hook: not proven, so the program's own reasons. */
	wrong_proof_run(load, 2, HR_ENGINE_JIT_CHECKED, false, &abort, &r0);
	CHECK_EQ(abort, HR_ABORT_OOB_LOAD);
	wrong_proof_run(store, 4, HR_ENGINE_JIT_CHECKED, false, &abort, &r0);
	CHECK_EQ(abort, HR_ABORT_OOB_STORE);
	wrong_proof_run(load, 2, HR_ENGINE_JIT, false, &abort, &r0);
	CHECK_EQ(abort, HR_ABORT_OOB_LOAD);
	wrong_proof_run(store, 4, HR_ENGINE_INTERP, false, &abort, &r0);
	CHECK_EQ(abort, HR_ABORT_OOB_STORE);
}

int main(void)
{
	test_callback_aborts();
	CHECK_EQ(hr_engine_invariant_breaks(), 0);
	test_invariants();
	test_checked_checks();
	return t_done();
}
