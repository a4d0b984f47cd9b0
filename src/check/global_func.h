/* SPDX-License-Identifier: MIT */
/*
 * The arguments of a global function, as btf_prepare_func_args reads
 * them from the object's BTF for the kernel to check a call of it
 * (btf_check_subprog_call) and to begin its own walk with.
 */
#ifndef HR_CHECK_GLOBAL_FUNC_H
#define HR_CHECK_GLOBAL_FUNC_H

#include <stdbool.h>

#define HR_GLOBAL_MAX_ARGS 5 /* MAX_BPF_FUNC_REG_ARGS */

enum hr_global_arg {
	HR_GARG_SCALAR, /* an integer or enum: any number */
	HR_GARG_CTX, /* a pointer to the program type's context */
	HR_GARG_OTHER, /* anything else: not followed */
};

/* The arguments of function @func in the object at @path, for an XDP
 * (@xdp) or tc program: their count, or -errno (no BTF, no such
 * function, more than HR_GLOBAL_MAX_ARGS). */
int hr_check_global_args(const char *path, const char *func, bool xdp,
			 enum hr_global_arg args[HR_GLOBAL_MAX_ARGS]);

#endif /* HR_CHECK_GLOBAL_FUNC_H */
