/* SPDX-License-Identifier: MIT */
/*
 * The eBPF disassembler: one instruction to text in the assembler's syntax
 * (asm.h), so that hr_asm() of the output gives back the same bytes. Jump
 * targets are printed as relative offsets ("+3"); an instruction that fails
 * hr_insn_validate() is printed with its raw fields and the reason.
 */
#ifndef HR_VM_DISASM_H
#define HR_VM_DISASM_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "vm/isa.h"

/*
 * Writes @insn as text into @buf (always NUL-terminated, truncated to
 * @sz). An lddw reads its second slot from @next, which may be NULL when
 * the program ends there. Returns the number of slots consumed (1, or 2
 * for a complete lddw).
 */
int hr_disasm_insn2(const struct hr_insn *insn, const struct hr_insn *next,
		    char *buf, size_t sz);

/* The same, for an instruction inside an array (lddw reads insn[1]). */
int hr_disasm_insn(const struct hr_insn *insn, char *buf, size_t sz);

/* Prints @cnt instructions to @f, one a line, prefixed by their index. */
void hr_disasm_prog(FILE *f, const struct hr_insn *insns, uint32_t cnt);

#endif /* HR_VM_DISASM_H */
