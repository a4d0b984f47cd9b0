/* SPDX-License-Identifier: MIT */
/*
 * What every benchmark under bench/ shares.
 */
#ifndef HR_BENCH_BENCH_H
#define HR_BENCH_BENCH_H

#include <stdlib.h>

#include "vm/engine.h"

/*
 * First thing in main. The test harness every benchmark links
 * (tests/lib/harness.c) turns the engines' run invariants on for every
 * test binary; a benchmark measures the engines as users run them, with
 * them off, unless HEADROOM_INVARIANTS says otherwise.
 */
static inline void bench_begin(void)
{
	if (!getenv("HEADROOM_INVARIANTS"))
		hr_engine_set_invariants(false);
}

#endif /* HR_BENCH_BENCH_H */
