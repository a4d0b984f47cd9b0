/* SPDX-License-Identifier: MIT */
/*
 * LD_ABS / LD_IND rewritten into helper calls, as the kernel's
 * bpf_gen_ld_abs() does after verification (ld_abs.c).
 */
#ifndef HR_PROGS_LD_ABS_H
#define HR_PROGS_LD_ABS_H

#include <stddef.h>

#include "progs/prog.h"

/*
 * Replaces every LD_ABS/LD_IND of @prog with its call sequence, calling
 * @fns[0], [1], [2] for byte, half and word loads; with @fns NULL (a type
 * the kernel refuses them in) any such instruction fails the load. 0 or
 * -errno with "section 'S' insn N: why" in @err.
 */
int hr_ld_abs_expand(struct hr_prog *prog, const hr_helper_fn fns[3], char *err,
		     size_t errsz);

#endif /* HR_PROGS_LD_ABS_H */
