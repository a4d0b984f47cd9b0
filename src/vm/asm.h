/* SPDX-License-Identifier: MIT */
/*
 * A text assembler for eBPF, in the syntax of the bpf_conformance suite
 * (the `-- asm` sections of its .data files) and of hr_disasm_insn():
 *
 *	mov32 %r0, 5          add %r1, %r2          neg %r3
 *	lddw %r0, 0x1122334455667788
 *	ldxw %r0, [%r1+4]     stxdw [%r10-8], %r0   stb [%r10-1], 0x80
 *	ldxsb %r0, [%r10-1]   movsx832 %r0, %r1     sdiv %r0, 3
 *	be16 %r0  le32 %r0  bswap64 %r0 (alias swap64)
 *	jeq %r1, 5, label     jne32 %r1, %r2, +3    ja -1   ja32 label
 *	lock add [%r10-8], %r1    lock fetch xor32 [%r1+0], %r2
 *	lock xchg [%r10-8], %r1   lock cmpxchg32 [%r10-8], %r1
 *	call 5 (helper)  call local label  call kfunc 7  call %r2 (callx)
 *	exit                  label:                # comment
 *
 * The label "exit" names the first exit instruction unless it is defined.
 */
#ifndef HR_VM_ASM_H
#define HR_VM_ASM_H

#include <stddef.h>
#include <stdint.h>

#include "vm/isa.h"

/*
 * Assembles @text. On success *@out is a malloc()ed array of *@cnt
 * instructions (the caller frees it) and 0 is returned. On failure
 * returns -EINVAL (or -ENOMEM) and writes "line N: what" to @err.
 */
int hr_asm(const char *text, struct hr_insn **out, uint32_t *cnt, char *err,
	   size_t errsz);

#endif /* HR_VM_ASM_H */
