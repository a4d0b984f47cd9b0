/* SPDX-License-Identifier: MIT */
/*
 * Running a program the way the bpf_conformance suite expects: r1 points
 * at the test's memory (NULL when it has none), r2 is its length, and
 * helper 5 is the suite's "unwind" helper. Shared by test_conformance and
 * headroom-conformance-plugin.
 */
#ifndef HR_VM_CONFORMANCE_H
#define HR_VM_CONFORMANCE_H

#include <stddef.h>
#include <stdint.h>

#include <headroom/test_run.h>

#include "vm/isa.h"

/* The helper ID of the suite's unwind helper (ubpf's convention). */
#define HR_CONFORMANCE_UNWIND 5

/*
 * Validates @insns and runs them under the interpreter over @mem (@len
 * bytes, read-write). Returns 0 with r0 in *@r0, -EINVAL when the program
 * is rejected, or -EFAULT when the run aborted; @err then says why.
 */
int hr_conformance_run(const struct hr_insn *insns, uint32_t cnt, void *mem,
		       size_t len, uint64_t *r0, char *err, size_t errsz);

/*
 * The same under @engine. HR_ENGINE_JIT compiles the program first and
 * runs the compiled code; when the JIT refuses the program it returns
 * -ENOEXEC without running it, never falling back to the interpreter.
 * *@jit_bytes (when not NULL) is the size of the code that ran, 0 when
 * the interpreter ran it.
 */
int hr_conformance_run_engine(enum hr_engine engine,
			      const struct hr_insn *insns, uint32_t cnt,
			      void *mem, size_t len, uint64_t *r0,
			      size_t *jit_bytes, char *err, size_t errsz);

#endif /* HR_VM_CONFORMANCE_H */
