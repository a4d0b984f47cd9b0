// SPDX-License-Identifier: MIT
/*
 * Engine choice: the JIT on x86-64 by default, the interpreter elsewhere,
 * the checked JIT when asked; and the engines' invariants after each run.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "vm/engine.h"
#include "vm/jit.h"
#include "util/print.h"

bool hr_engine_available(enum hr_engine engine)
{
	switch (engine) {
	case HR_ENGINE_DEFAULT:
	case HR_ENGINE_INTERP:
		return true;
	case HR_ENGINE_JIT:
	case HR_ENGINE_JIT_CHECKED:
		return hr_jit_supported();
	}
	return false;
}

/* Known at compile time, so the per-packet path makes no call to ask. */
#if defined(__x86_64__)
#define JIT_BUILT 1
#else
#define JIT_BUILT 0
#endif

static unsigned long invariant_breaks;

/* Test and debug builds (HR_DEBUG_INVARIANTS), the test harness, or
 * HEADROOM_INVARIANTS=1 in the environment turn the checks on. */
#ifdef HR_DEBUG_INVARIANTS
static bool invariants_on = true;
#else
static bool invariants_on;
#endif

/* HEADROOM_ENGINE=jit-checked: runs asking for the default engine get
 * the checked JIT (so a whole test suite runs under it); read only on the
 * slow path, which this turns on. */
static bool default_checked;

__attribute__((constructor)) static void invariants_env(void)
{
	const char *v = getenv("HEADROOM_INVARIANTS");

	if (v && *v)
		invariants_on = strcmp(v, "0") != 0;
	v = getenv("HEADROOM_ENGINE");
	if (v && !strcmp(v, "jit-checked") && JIT_BUILT)
		default_checked = invariants_on = true;
}

void hr_engine_set_invariants(bool on)
{
	__atomic_store_n(&invariants_on, on, __ATOMIC_RELAXED);
}

bool hr_engine_invariants(void)
{
	return __atomic_load_n(&invariants_on, __ATOMIC_RELAXED);
}

unsigned long hr_engine_invariant_breaks(void)
{
	return __atomic_load_n(&invariant_breaks, __ATOMIC_RELAXED);
}

void hr_engine_invariant_reset(void)
{
	__atomic_store_n(&invariant_breaks, 0, __ATOMIC_RELAXED);
}

/* Locks and records a run still holds after hr_run_release_locks():
 * none, always. */
static inline unsigned int run_locks_held(const struct hr_run *run)
{
	return (run->lock != NULL) + run->nheld;
}

/* A run that ends holding a bpf_spin_lock or ring buffer records gives
 * them back (run.c). */
static inline uint64_t locks_released(struct hr_run *run, uint64_t r0)
{
	if (__builtin_expect(((uintptr_t)run->lock | run->nheld) != 0, 0))
		return hr_run_release_locks(run, r0);
	return r0;
}

void hr_run_invariant(struct hr_run *run, const char *what)
{
	unsigned long n =
		__atomic_add_fetch(&invariant_breaks, 1, __ATOMIC_RELAXED);

	/* Loud, but a datapath that keeps breaking one must not flood. */
	if (n <= 16)
		hr_pr_warn("engine invariant broken (a headroom bug): %s "
			   "(program at pc %u, depth %u, abort %s)\n",
			   what, run->abort_pc, run->depth,
			   hr_abort_str(run->abort));
	run->abort = HR_ABORT_INVARIANT;
	run->abort_addr = 0;
}

/* The slow half of run_end(): which invariant broke, if one did (the
 * budget exhausted by a last step is the one wrap that is fine), and the
 * repair. */
__attribute__((noinline, cold)) static uint64_t
run_broken(struct hr_run *run, uint64_t budget0, uint64_t r0)
{
	bool broken = false;

	if (run->depth != 0) {
		hr_run_invariant(run, "call depth not back to 0");
		broken = true;
	}
	if (run->budget > budget0 &&
	    !(run->abort == HR_ABORT_BUDGET && run->budget == UINT64_MAX)) {
		hr_run_invariant(run, "budget grew or wrapped");
		broken = true;
	}
	if (run_locks_held(run)) {
		hr_run_invariant(run, "run ended holding a bpf_spin_lock");
		broken = true;
	}
	if (!broken)
		return r0;
	run->depth = 0;
	run->tail_call = NULL;
	return run->vm->abort_ret;
}

/*
 * Every run ends here: one test on the fast path. The budget may wrap
 * once, from 0, as the step that finds it exhausted (both engines
 * decrement, then abort); run_broken() tells that from a real wrap.
 */
static inline uint64_t run_end(struct hr_run *run, uint64_t budget0,
			       uint64_t r0)
{
	if (__builtin_expect((run->depth | run_locks_held(run)) != 0 ||
				     run->budget > budget0,
			     0))
		return run_broken(run, budget0, r0);
	return r0;
}

/* The engine's own entries, without the invariants. */
static inline uint64_t engine_run2(enum hr_engine engine, struct hr_run *run,
				   uint64_t r1, uint64_t r2)
{
	uint64_t r0;

	if (engine == HR_ENGINE_JIT ||
	    (engine == HR_ENGINE_DEFAULT && JIT_BUILT))
		r0 = hr_jit_run(run, r1, r2);
	else if (engine == HR_ENGINE_JIT_CHECKED)
		r0 = hr_jit_run_checked(run, r1, r2);
	else
		r0 = hr_interp_run(run, r1, r2);
	return locks_released(run, r0);
}

static inline uint64_t engine_run_ctx(enum hr_engine engine, struct hr_run *run)
{
	uint64_t r0;

	if (engine == HR_ENGINE_JIT ||
	    (engine == HR_ENGINE_DEFAULT && JIT_BUILT))
		r0 = hr_jit_run_ctx(run);
	else if (engine == HR_ENGINE_JIT_CHECKED)
		r0 = hr_jit_run_checked(run, (uintptr_t)run->ctx, 0);
	else
		r0 = hr_interp_run(run, (uintptr_t)run->ctx, 0);
	return locks_released(run, r0);
}

/* Whether the invariants are checked: one load and a tail call when not
 * (the checks cost about 1 ns a run, the JIT's frame check part of it). */
static inline bool checking(enum hr_engine engine)
{
	return __builtin_expect(__atomic_load_n(&invariants_on,
						__ATOMIC_RELAXED) ||
					engine == HR_ENGINE_JIT_CHECKED,
				0);
}

__attribute__((noinline)) static uint64_t checked_run2(enum hr_engine engine,
						       struct hr_run *run,
						       uint64_t r1, uint64_t r2)
{
	uint64_t budget0 = run->budget;

	if (engine == HR_ENGINE_DEFAULT && default_checked)
		engine = HR_ENGINE_JIT_CHECKED;
	return run_end(run, budget0, engine_run2(engine, run, r1, r2));
}

__attribute__((noinline)) static uint64_t checked_run_ctx(enum hr_engine engine,
							  struct hr_run *run)
{
	uint64_t budget0 = run->budget;

	if (engine == HR_ENGINE_DEFAULT && default_checked)
		engine = HR_ENGINE_JIT_CHECKED;
	return run_end(run, budget0, engine_run_ctx(engine, run));
}

uint64_t hr_engine_run2(enum hr_engine engine, struct hr_run *run, uint64_t r1,
			uint64_t r2)
{
	if (checking(engine))
		return checked_run2(engine, run, r1, r2);
	return engine_run2(engine, run, r1, r2);
}

uint64_t hr_engine_run(enum hr_engine engine, struct hr_run *run, uint64_t r1)
{
	return hr_engine_run2(engine, run, r1, 0);
}

hr_engine_ctx_fn hr_engine_ctx_entry(enum hr_engine engine,
				     const struct hr_vm_prog *vm)
{
	void *code;

	if (checking(engine) || !(engine == HR_ENGINE_JIT ||
				  (engine == HR_ENGINE_DEFAULT && JIT_BUILT)))
		return NULL;
	/* jit_tail is stored before the code is published (release). */
	code = __atomic_load_n(&vm->jit, __ATOMIC_ACQUIRE);
	if (!code || __atomic_load_n(&vm->jit_tail, __ATOMIC_RELAXED))
		return NULL;
	return (hr_engine_ctx_fn)code;
}

uint64_t hr_engine_run_ctx(enum hr_engine engine, struct hr_run *run)
{
	if (checking(engine))
		return checked_run_ctx(engine, run);
	return engine_run_ctx(engine, run);
}
