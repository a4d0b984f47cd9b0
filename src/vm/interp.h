/* SPDX-License-Identifier: MIT */
/*
 * Inside the interpreter: the prepared form it runs (interp_prep.c builds
 * it, interp.c runs it).
 *
 * A program is prepared once into one slot per instruction, in the same
 * order, so that pc and slot index are the same number and every jump
 * target is a slot. Each slot names its handler (a label address of the
 * interpreter's loop: direct threading, no decode at run time). A slot
 * may fuse the instructions after it (mov + add + bounds jump, say): it
 * then does their work and skips their slots, which keep their own
 * meaning for jumps that land on them. One more slot past the end aborts
 * a fall-through.
 *
 * Two versions are prepared. "safe" checks every access except constant
 * stack offsets through an r10 no instruction writes. "fast" also leaves
 * out what the bounds analysis (bounds.c) proves, which rests on
 * r1 == run->ctx at entry: runs entered otherwise (callbacks, resumed or
 * tail-called runs, another r1) take "safe".
 */
#ifndef HR_VM_INTERP_H
#define HR_VM_INTERP_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "vm/vm.h"

/* The unchecked memory slots that pair up: loads and stores by size. */
/* clang-format off */
#define HR_XMEM_ROW(X, a) \
	X(a, LB) X(a, LH) X(a, LW) X(a, LD) X(a, SB) X(a, SH) X(a, SW) X(a, SD)
#define HR_XMEM_PAIRS(X) \
	HR_XMEM_ROW(X, LB) HR_XMEM_ROW(X, LH) HR_XMEM_ROW(X, LW) \
	HR_XMEM_ROW(X, LD) HR_XMEM_ROW(X, SB) HR_XMEM_ROW(X, SH) \
	HR_XMEM_ROW(X, SW) HR_XMEM_ROW(X, SD)
/* clang-format on */

/* The handlers, named in the order of interp.c's label table. */
enum hr_xop {
	XOP_GENERIC, /* the reference switch on the original instruction */
	XOP_FALL_OFF, /* the slot past the end */
#define XOP_ALU(p)                                                        \
	p##_ADD_K, p##_ADD_X, p##_SUB_K, p##_SUB_X, p##_MUL_K, p##_MUL_X, \
		p##_OR_K, p##_OR_X, p##_AND_K, p##_AND_X, p##_XOR_K,      \
		p##_XOR_X, p##_LSH_K, p##_LSH_X, p##_RSH_K, p##_RSH_X,    \
		p##_ARSH_K, p##_ARSH_X, p##_MOV_K, p##_MOV_X
	XOP_ALU(XOP_A64),
	XOP_ALU(XOP_A32),
#undef XOP_ALU
	/* Memory: checked, then unchecked (proven at preparation). */
	XOP_LDX_B,
	XOP_LDX_H,
	XOP_LDX_W,
	XOP_LDX_DW,
	XOP_STX_B,
	XOP_STX_H,
	XOP_STX_W,
	XOP_STX_DW,
	XOP_ST_B,
	XOP_ST_H,
	XOP_ST_W,
	XOP_ST_DW,
	XOP_LDXU_B,
	XOP_LDXU_H,
	XOP_LDXU_W,
	XOP_LDXU_DW,
	XOP_STXU_B,
	XOP_STXU_H,
	XOP_STXU_W,
	XOP_STXU_DW,
	XOP_STU_B,
	XOP_STU_H,
	XOP_STU_W,
	XOP_STU_DW,
	/* Jumps with a target inside the program (ja: 64-bit only). */
	XOP_JA,
#define XOP_JMP(n) XOP_##n##_K, XOP_##n##_X
	XOP_JMP(JEQ),
	XOP_JMP(JNE),
	XOP_JMP(JGT),
	XOP_JMP(JGE),
	XOP_JMP(JLT),
	XOP_JMP(JLE),
	XOP_JMP(JSET),
	XOP_JMP(JSGT),
	XOP_JMP(JSGE),
	XOP_JMP(JSLT),
	XOP_JMP(JSLE),
	/* The same, 32-bit (JMP32). */
	XOP_JMP(J32EQ),
	XOP_JMP(J32NE),
	XOP_JMP(J32GT),
	XOP_JMP(J32GE),
	XOP_JMP(J32LT),
	XOP_JMP(J32LE),
	XOP_JMP(J32SET),
	XOP_JMP(J32SGT),
	XOP_JMP(J32SGE),
	XOP_JMP(J32SLT),
	XOP_JMP(J32SLE),
#undef XOP_JMP
	/* Atomic add into a proven map value (alignment still checked),
	 * without and with fetch. */
	XOP_AADD_W,
	XOP_AADD_DW,
	XOP_AFADD_W,
	XOP_AFADD_DW,
	XOP_LDDW, /* a plain 64-bit constant */
	XOP_CALL, /* helper or kfunc resolved in vm->calls */
	XOP_EXIT,
	/* Fused: rD = rS + imm (mov64 X; add64 K). */
	XOP_MOV_ADD,
	/* Fused: that, then "if rD > rZ goto" (a bounds test). */
	XOP_MOV_ADD_JGT,
	/* Fused, unchecked loads only (slots that cannot abort): */
	XOP_BYTES16, /* ldxb; lsh 8; ldxb; or: a 16-bit field, bytewise */
	XOP_LDXU_B_AND, /* ldxb; and K */
	XOP_LDXU_B_JEQ, /* a load, then a forward "if rD ==/!= K" */
	XOP_LDXU_B_JNE,
	XOP_LDXU_H_JEQ,
	XOP_LDXU_H_JNE,
	XOP_LDXU_W_JEQ,
	XOP_LDXU_W_JNE,
	XOP_BYTES16_JEQ, /* that 16-bit field, then "if rD ==/!= K" */
	XOP_BYTES16_JNE,
	XOP_ADD_LDXU_B, /* add64 K, then a load */
	XOP_ADD_LDXU_H,
	XOP_ADD_LDXU_W,
	XOP_MOV_LDXU_W2, /* mov64 K, then two 4-byte loads */
	XOP_PROLOGUE, /* that, then mov + add + bounds jump: XDP's start */
	/* Fused, arithmetic: */
	XOP_LSH_ADD, /* lsh64 K; add64 X */
	XOP_MOV_JGT, /* mov64 K; forward "if rD > rZ" */
	XOP_MOV_EXIT, /* mov64 K; exit */
	XOP_MOV_JEQ, /* mov64 K; forward "if rD ==/!= K" */
	XOP_MOV_JNE,
/* Fused: two unchecked loads or stores, each of any size. */
#define XOP_PAIR(a, b) XOP_PAIR_##a##_##b,
	HR_XMEM_PAIRS(XOP_PAIR)
#undef XOP_PAIR
		XOP__MAX,
};

struct hr_xinsn {
	const void *h;
	uint8_t dst;
	uint8_t src;
	int16_t off;
	int32_t imm;
};

/*
 * A slot's dst, src, off and imm in one 8-byte load: handlers are short
 * of loads, not of arithmetic, so one load beats one per field.
 */
_Static_assert(offsetof(struct hr_xinsn, dst) == sizeof(void *) &&
		       offsetof(struct hr_xinsn, src) == sizeof(void *) + 1 &&
		       offsetof(struct hr_xinsn, off) == sizeof(void *) + 2 &&
		       offsetof(struct hr_xinsn, imm) == sizeof(void *) + 4,
	       "hr_xops() reads dst..imm as one word");
_Static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
	       "XO_*() take the fields of a little-endian word");

static inline uint64_t hr_xops(const struct hr_xinsn *x)
{
	uint64_t w;

	memcpy(&w, &x->dst, sizeof(w));
	return w;
}

#define XO_DST(w) ((unsigned int)(w)&0xff)
#define XO_SRC(w) ((unsigned int)((w) >> 8) & 0xff)
#define XO_OFF(w) ((int64_t)(int16_t)((w) >> 16))
#define XO_IMM(w) ((int64_t)(int32_t)((w) >> 32))

struct hr_xcode {
	struct hr_xinsn *safe;
	struct hr_xinsn *fast; /* == safe when nothing was proven */
	uint32_t cnt;
};

/* The label addresses of enum hr_xop, from interp.c. */
const void *const *hr_interp_labels(void);

/* Preparation without fused slots, or without the analysis' proofs: for
 * tests that compare the forms (a program may run on such code when
 * vm->xcode is set to it; hr_interp_free() releases it). */
#define HR_XCODE_NO_FUSE 0x1u
#define HR_XCODE_NO_FACTS 0x2u

/* Prepares @vm; NULL without memory. */
struct hr_xcode *hr_xcode_build(const struct hr_vm_prog *vm,
				unsigned int flags);
void hr_xcode_free(struct hr_xcode *xc);

#endif /* HR_VM_INTERP_H */
