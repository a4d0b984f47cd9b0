// SPDX-License-Identifier: MIT
/* Engine choice: the JIT on x86-64 by default, the interpreter elsewhere. */
#include "engine.h"
#include "jit.h"

bool hr_engine_available(enum hr_engine engine)
{
	switch (engine) {
	case HR_ENGINE_DEFAULT:
	case HR_ENGINE_INTERP:
		return true;
	case HR_ENGINE_JIT:
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

uint64_t hr_engine_run2(enum hr_engine engine, struct hr_run *run, uint64_t r1,
			uint64_t r2)
{
	if (engine == HR_ENGINE_JIT ||
	    (engine == HR_ENGINE_DEFAULT && JIT_BUILT))
		return hr_jit_run(run, r1, r2);
	return hr_interp_run(run, r1, r2);
}

uint64_t hr_engine_run(enum hr_engine engine, struct hr_run *run, uint64_t r1)
{
	return hr_engine_run2(engine, run, r1, 0);
}

uint64_t hr_engine_run_ctx(enum hr_engine engine, struct hr_run *run)
{
	if (engine == HR_ENGINE_JIT ||
	    (engine == HR_ENGINE_DEFAULT && JIT_BUILT))
		return hr_jit_run_ctx(run);
	return hr_interp_run(run, (uintptr_t)run->ctx, 0);
}
