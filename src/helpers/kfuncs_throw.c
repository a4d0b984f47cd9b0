// SPDX-License-Identifier: MIT
/*
 * __bpf_trap (kernel/bpf/helpers.c, 6.16), what clang emits for
 * __builtin_trap: the verifier refuses a program that can reach it
 * ("unexpected __bpf_trap() due to uninitialized variable?"); one that
 * reaches it here ends as at an invalid instruction.
 *
 * bpf_throw (kernel/bpf/helpers.c, Linux 6.7) with the default exception
 * callback: the program ends at once, every bpf-to-bpf frame unwound,
 * and returns the cookie (the verifier's hidden callback moves r1 to r0;
 * bpf: Treat first argument as return value for bpf_throw). Both engines
 * end a run whose helper set run->unwind with that helper's result as r0.
 *
 * What the verifier refuses at load, headroom refuses as it can: a
 * program tagged with an exception callback of its own at load (loader,
 * exception_cb.c), a throw from a callback (bpf_loop's, a map walk's)
 * here, ending the run as a bad helper argument; a throw holding a lock
 * ends as any run does that still holds one.
 */
#include <stdint.h>

#include "helpers/helpers.h"

static uint64_t throw_fn(uint64_t cookie, uint64_t r2, uint64_t r3, uint64_t r4,
			 uint64_t r5, struct hr_run *run)
{
	if (run->in_callback) {
		hr_run_abort(run, HR_ABORT_HELPER_ARG, cookie);
		return 0;
	}
	run->unwind = true;
	return cookie;
}

HR_KFUNC(throw, throw_fn);

static uint64_t trap_fn(uint64_t r1, uint64_t r2, uint64_t r3, uint64_t r4,
			uint64_t r5, struct hr_run *run)
{
	hr_run_abort(run, HR_ABORT_BAD_INSN, 0);
	return 0;
}

const struct hr_kfunc hr_kfunc_trap = { .name = "__bpf_trap", .fn = trap_fn };
