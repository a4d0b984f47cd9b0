// SPDX-License-Identifier: MIT
#include "engine.h"

bool hr_engine_available(enum hr_engine engine)
{
	/* The x86-64 JIT is its own piece of work; until it lands only the
	 * interpreter runs programs. */
	return engine == HR_ENGINE_DEFAULT || engine == HR_ENGINE_INTERP;
}

uint64_t hr_engine_run(enum hr_engine engine, struct hr_run *run, uint64_t r1)
{
	return hr_interp_run(run, r1, 0);
}
