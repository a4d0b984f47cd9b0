/* SPDX-License-Identifier: MIT */
/*
 * The x86-64 JIT: the interpreter's semantics (interp.c) compiled to
 * machine code. The code lives in memory that is written once and then
 * made read+exec; it is cached on the hr_vm_prog (vm->jit).
 */
#ifndef HR_VM_JIT_H
#define HR_VM_JIT_H

#include <stdbool.h>
#include <stdint.h>

#include "vm/vm.h"

/* Whether this build has a JIT for the host (x86-64 only). */
bool hr_jit_supported(void);

/*
 * Compiles @vm into vm->jit (a no-op when it is already compiled). Safe to
 * call from several threads at once: one compiled copy wins. 0 or -errno
 * (-ENOTSUP off x86-64, -E2BIG for huge programs, -ENOMEM).
 */
int hr_jit_compile(struct hr_vm_prog *vm);

/*
 * Runs run->vm under the JIT with r1 = @r1, r2 = @r2, compiling it first
 * when needed. Same contract as hr_interp_run(). When the program cannot
 * be compiled it runs under the interpreter, so the answer is the same.
 */
uint64_t hr_jit_run(struct hr_run *run, uint64_t r1, uint64_t r2);

/*
 * hr_jit_run(run, run->ctx, 0): the program on its own context. The code
 * is entered past its test that r1 is run->ctx (what the load-time proofs
 * rest on), since here it holds by construction.
 */
uint64_t hr_jit_run_ctx(struct hr_run *run);

/*
 * The compiled entry of @vm (compiling it first), for callers that run
 * one program many times and want one indirect call a packet: calling
 * fn(run->ctx, 0, run) is hr_jit_run_ctx(run) for a run of @vm whose
 * context is not NULL. It is the entry past the r1 == run->ctx test, so
 * r1 must be run->ctx. NULL when the JIT refuses the program or it may
 * tail-call (run those with hr_jit_run_ctx).
 */
typedef uint64_t (*hr_jit_fn)(uint64_t r1, uint64_t r2, struct hr_run *run);
hr_jit_fn hr_jit_entry(struct hr_vm_prog *vm);

/*
 * hr_jit_run() with the checked JIT (HR_ENGINE_JIT_CHECKED): code of its
 * own (vm->jit_chk) in which every access the bounds analysis or the
 * stack rule lets the JIT leave unchecked is checked anyway, as is every
 * fact an inlined call rests on; one that fails ends the run with
 * HR_ABORT_JIT_CHECK. Tail calls are followed into checked code.
 */
uint64_t hr_jit_run_checked(struct hr_run *run, uint64_t r1, uint64_t r2);

/*
 * Test-only: while set, programs compiled from then on in checked mode
 * take every non-atomic access as proven and r1 at every helper or kfunc
 * call as the context (wrong facts), so a test can see the checks catch
 * them.
 */
void hr_jit_test_wrong_proofs(bool on);

/* Releases vm->jit and vm->jit_chk (safe on a program never compiled). */
void hr_jit_free(struct hr_vm_prog *vm);

#endif /* HR_VM_JIT_H */
