/* SPDX-License-Identifier: MIT */
/*
 * Engine choice: one entry point for the interpreter, the JIT and the
 * checked JIT, and the one place every run ends, where the engines'
 * invariants are checked.
 */
#ifndef HR_VM_ENGINE_H
#define HR_VM_ENGINE_H

#include <stdbool.h>

#include <headroom/test_run.h>

#include "vm/vm.h"

/* Whether @engine can run programs in this build. */
bool hr_engine_available(enum hr_engine engine);

/* Runs run->vm with r1 = @r1 under @engine (which must be available). */
uint64_t hr_engine_run(enum hr_engine engine, struct hr_run *run, uint64_t r1);

/* The same with r1 = run->ctx, the program type's context: the JIT then
 * enters past its r1 == run->ctx test, which holds by construction. */
uint64_t hr_engine_run_ctx(enum hr_engine engine, struct hr_run *run);

/*
 * The JIT's code for @vm, to be called as hr_engine_call_ctx(fn, run) in
 * place of hr_engine_run_ctx(@engine, run) on runs of @vm, or NULL when
 * that is not the same: an engine other than the plain JIT, invariants
 * checked (their runs go through the checks), a program not compiled yet
 * (its first run compiles it) or one that follows tail calls. Read once
 * for a batch of runs that holds @vm alive (a poll's epoch): a batch
 * that started before the invariants were turned on finishes without.
 */
typedef uint64_t (*hr_engine_ctx_fn)(uint64_t r1, uint64_t r2,
				     struct hr_run *run);
hr_engine_ctx_fn hr_engine_ctx_entry(enum hr_engine engine,
				     const struct hr_vm_prog *vm);

/*
 * One run of hr_engine_ctx_entry()'s code: what hr_jit_run_ctx() and
 * hr_engine_run_ctx() do for it, without their two calls. r1 is
 * run->ctx, which the code's fast entry assumes (it is entered past its
 * r1 == run->ctx test); a tail call it meets is left as jit_follow_tail
 * leaves it for code that does not follow them (jit_tail is 0); locks
 * and ring records still held are given back as after any run.
 */
static inline uint64_t hr_engine_call_ctx(hr_engine_ctx_fn fn,
					  struct hr_run *run)
{
	uint64_t r0 = fn((uintptr_t)run->ctx, 0, run);

	if (__builtin_expect(((uintptr_t)run->lock | run->nheld) != 0, 0))
		return hr_run_release_locks(run, r0);
	return r0;
}

/* The same with r2 = @r2 (the conformance suite passes a length). */
uint64_t hr_engine_run2(enum hr_engine engine, struct hr_run *run, uint64_t r1,
			uint64_t r2);

/*
 * Engine invariants, checked (when on, see below) after every run that
 * ends through the functions above (the JIT also checks its host frame
 * at each exit of code compiled while they are on):
 * call depth back to 0, the budget never above what the run started
 * with (an exhausted one is the single wrap of its last step), no
 * bpf_spin_lock held. A broken one is an engine bug: the run ends with
 * HR_ABORT_INVARIANT whatever it ended with, r0 is vm->abort_ret, it is
 * printed and counted, and the state is repaired for the next run.
 */
void hr_run_invariant(struct hr_run *run, const char *what);

/*
 * Whether the invariants are checked: on in builds with
 * -DHR_DEBUG_INVARIANTS, with HEADROOM_INVARIANTS=1 in the environment,
 * in every test binary (the harness turns them on before any run) and
 * always for HR_ENGINE_JIT_CHECKED; off otherwise, since they cost about
 * a nanosecond a run. Code the JIT compiled earlier keeps what it had.
 */
void hr_engine_set_invariants(bool on);

/* HEADROOM_ENGINE=jit-checked in the environment: every run asking for
 * HR_ENGINE_DEFAULT runs under HR_ENGINE_JIT_CHECKED (invariants on). */
bool hr_engine_invariants(void);

/* Runs that broke an invariant since start (or the last reset); the
 * test harness fails a test binary whose count is not 0. */
unsigned long hr_engine_invariant_breaks(void);
void hr_engine_invariant_reset(void);

#endif /* HR_VM_ENGINE_H */
