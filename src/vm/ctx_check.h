/* SPDX-License-Identifier: MIT */
#ifndef HR_VM_CTX_CHECK_H
#define HR_VM_CTX_CHECK_H

#include <stddef.h>

#include "progs/prog.h"

/* Fails (-EACCES, message in @err) when @prog provably makes a context
 * access @type forbids. */
int hr_ctx_check(const struct hr_prog *prog, const struct hr_prog_type *type,
		 char *err, size_t errsz);

#endif /* HR_VM_CTX_CHECK_H */
