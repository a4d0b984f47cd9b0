/* SPDX-License-Identifier: MIT */
/* Engine choice: one entry point for the interpreter and (later) the JIT. */
#ifndef HR_BPF_ENGINE_H
#define HR_BPF_ENGINE_H

#include <stdbool.h>

#include <headroom/test_run.h>

#include "vm.h"

/* Whether @engine can run programs in this build. */
bool hr_engine_available(enum hr_engine engine);

/* Runs run->vm with r1 = @r1 under @engine (which must be available). */
uint64_t hr_engine_run(enum hr_engine engine, struct hr_run *run, uint64_t r1);

/* The same with r1 = run->ctx, the program type's context: the JIT then
 * enters past its r1 == run->ctx test, which holds by construction. */
uint64_t hr_engine_run_ctx(enum hr_engine engine, struct hr_run *run);

/* The same with r2 = @r2 (the conformance suite passes a length). */
uint64_t hr_engine_run2(enum hr_engine engine, struct hr_run *run, uint64_t r1,
			uint64_t r2);

#endif /* HR_BPF_ENGINE_H */
