/* SPDX-License-Identifier: MIT */
/*
 * Headroom-only runs of programs the kernel's verifier refuses, each
 * expected to end with its abort reason (XDP_ABORTED) or, for
 * HR_ABORT_NONE, to finish with XDP_PASS: run twice in a row (the first
 * run's state left behind) under the interpreter, the JIT and the
 * checked JIT. For test_obj's and test_rbtree's misuses.
 */
#ifndef HR_TESTS_FORGED_RUNS_H
#define HR_TESTS_FORGED_RUNS_H

#include <stddef.h>
#include <stdint.h>

struct t_forged {
	const char *prog;
	int abort;
};

/* Each of @cases (@n) of program object @obj (under the test programs'
 * directory) run on the 64-byte packet @in, checked. */
void t_forged_runs(const char *obj, const struct t_forged *cases, size_t n,
		   const uint8_t in[64]);

#endif /* HR_TESTS_FORGED_RUNS_H */
