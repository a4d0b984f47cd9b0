// SPDX-License-Identifier: MIT
/*
 * The JIT's ALU instructions (jit_x86.c): moves, byte swaps, shifts,
 * division with the BPF ISA's rules for 0 and overflow, and the rest.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "vm/jit_x86.h"

#if defined(__x86_64__)

static void emit_div(struct jit *j, const struct hr_insn *insn, bool w)
{
	bool is_mod = HR_OP(insn->code) == HR_MOD;
	bool sgn = insn->off == 1;
	int dst = bpf2x[insn->dst];
	uint32_t zero = jx_new_label(j), minus1 = jx_new_label(j),
		 done = jx_new_label(j);

	if (HR_SRC(insn->code) == HR_X)
		jx_mov_rr(j, true, R11, bpf2x[insn->src]);
	else
		jx_mov_ri(j, R11,
			  w ? (uint64_t)(int64_t)insn->imm :
			      (uint32_t)insn->imm);
	jx_op_rr(j, w, false, 0x85, 1, R11, R11); /* test */
	jx_jcc_to(j, CC_E, zero);
	if (sgn) {
		jx_alu_ri(j, w, 7, R11, -1);
		jx_jcc_to(j, CC_E, minus1);
	}
	jx_push(j, RAX);
	jx_push(j, RDX);
	jx_mov_rr(j, w, RAX, dst);
	if (sgn) {
		jx_rex(j, w, 0, 0, false);
		jx_emit1(j, 0x99); /* cdq / cqo */
	} else {
		jx_op_rr(j, false, false, 0x31, 1, RDX, RDX);
	}
	jx_op_rr(j, w, false, 0xf7, 1, sgn ? 7 : 6, R11);
	jx_mov_rr(j, true, R11, is_mod ? RDX : RAX);
	jx_pop(j, RDX);
	jx_pop(j, RAX);
	jx_mov_rr(j, w, dst, R11);
	jx_jmp_to(j, done);

	jx_bind(j, zero);
	if (!is_mod)
		jx_op_rr(j, false, false, 0x31, 1, dst, dst);
	else if (!w)
		jx_mov_rr(j, false, dst, dst);
	jx_jmp_to(j, done);

	jx_bind(j, minus1);
	if (sgn) {
		if (!is_mod)
			jx_op_rr(j, w, false, 0xf7, 1, 3, dst); /* neg */
		else
			jx_op_rr(j, false, false, 0x31, 1, dst, dst);
	}
	jx_bind(j, done);
}

static void emit_shift(struct jit *j, const struct hr_insn *insn, bool w)
{
	int dst = bpf2x[insn->dst], digit, src, cnt;

	switch (HR_OP(insn->code)) {
	case HR_LSH:
		digit = 4;
		break;
	case HR_RSH:
		digit = 5;
		break;
	default:
		digit = 7;
		break;
	}
	if (HR_SRC(insn->code) == HR_K) {
		cnt = insn->imm & (w ? 63 : 31);
		if (cnt) {
			jx_op_rr(j, w, false, 0xc1, 1, digit, dst);
			jx_emit1(j, (uint8_t)cnt);
		} else if (!w) {
			jx_mov_rr(j, false, dst, dst);
		}
		return;
	}
	src = bpf2x[insn->src];
	if (src == RCX) {
		jx_op_rr(j, w, false, 0xd3, 1, digit, dst);
	} else if (dst == RCX) {
		jx_mov_rr(j, true, R11, RCX);
		jx_mov_rr(j, true, RCX, src);
		jx_op_rr(j, w, false, 0xd3, 1, digit, R11);
		jx_mov_rr(j, true, RCX, R11);
	} else {
		jx_mov_rr(j, true, R11, RCX);
		jx_mov_rr(j, true, RCX, src);
		jx_op_rr(j, w, false, 0xd3, 1, digit, dst);
		jx_mov_rr(j, true, RCX, R11);
	}
	/* A 32-bit shift by a count of 0 must still zero the upper half. */
	if (!w)
		jx_mov_rr(j, false, dst, dst);
}

static uint64_t sext_bits(uint64_t v, int bits)
{
	return (uint64_t)((int64_t)(v << ((64 - bits) & 63)) >>
			  ((64 - bits) & 63));
}

static void emit_mov(struct jit *j, const struct hr_insn *insn, bool w)
{
	int dst = bpf2x[insn->dst], src = bpf2x[insn->src];
	uint64_t v;

	if (HR_SRC(insn->code) == HR_K) {
		v = (uint64_t)(int64_t)insn->imm;
		if (insn->off)
			v = sext_bits(v, insn->off);
		jx_mov_ri(j, dst, w ? v : (uint32_t)v);
		return;
	}
	switch (insn->off) {
	case 0:
		jx_mov_rr(j, w, dst, src);
		return;
	case 8:
		jx_op_rr(j, w, true, 0x0fbe, 2, dst, src);
		return;
	case 16:
		jx_op_rr(j, w, false, 0x0fbf, 2, dst, src);
		return;
	case 32:
		if (w)
			jx_op_rr(j, true, false, 0x63, 1, dst, src);
		else
			jx_mov_rr(j, false, dst, src);
		return;
	}
	/* Not produced by a valid program: mirror the C expression. */
	jx_mov_rr(j, true, dst, src);
	jx_op_rr(j, true, false, 0xc1, 1, 4, dst);
	jx_emit1(j, (uint8_t)((64 - insn->off) & 63));
	jx_op_rr(j, true, false, 0xc1, 1, 7, dst);
	jx_emit1(j, (uint8_t)((64 - insn->off) & 63));
	if (!w)
		jx_mov_rr(j, false, dst, dst);
}

static void emit_end(struct jit *j, const struct hr_insn *insn)
{
	int dst = bpf2x[insn->dst];
	bool swap = HR_CLASS(insn->code) == HR_ALU64 ||
		    HR_SRC(insn->code) == HR_X;

	if (swap) {
		switch (insn->imm) {
		case 16:
			jx_emit1(j, 0x66);
			jx_op_rr(j, false, false, 0xc1, 1, 1, dst); /* ror 8 */
			jx_emit1(j, 8);
			jx_op_rr(j, false, false, 0x0fb7, 2, dst, dst);
			return;
		case 32:
			jx_rex(j, false, 0, dst, false);
			jx_emit1(j, 0x0f);
			jx_emit1(j, 0xc8 + (dst & 7));
			return;
		default:
			jx_rex(j, true, 0, dst, false);
			jx_emit1(j, 0x0f);
			jx_emit1(j, 0xc8 + (dst & 7));
			return;
		}
	}
	switch (insn->imm) {
	case 16:
		jx_op_rr(j, false, false, 0x0fb7, 2, dst, dst);
		return;
	case 32:
		jx_mov_rr(j, false, dst, dst);
		return;
	case 64:
		return;
	}
	/* Not produced by a valid program: v & ((1 << bits) - 1). */
	jx_mov_ri(j, R11, (1ull << (insn->imm & 63)) - 1);
	jx_op_rr(j, true, false, 0x21, 1, R11, dst);
}

void jx_emit_alu(struct jit *j, uint32_t pc, const struct hr_insn *insn)
{
	bool w = HR_CLASS(insn->code) == HR_ALU64;
	bool x = HR_SRC(insn->code) == HR_X;
	int dst = bpf2x[insn->dst], src = bpf2x[insn->src];
	uint8_t op = HR_OP(insn->code);
	static const struct {
		uint8_t opc, digit;
	} group1[16] = {
		[HR_ADD >> 4] = { 0x01, 0 }, [HR_SUB >> 4] = { 0x29, 5 },
		[HR_OR >> 4] = { 0x09, 1 },  [HR_AND >> 4] = { 0x21, 4 },
		[HR_XOR >> 4] = { 0x31, 6 },
	};

	switch (op) {
	case HR_ADD:
	case HR_SUB:
	case HR_OR:
	case HR_AND:
	case HR_XOR:
		if (x)
			jx_op_rr(j, w, false, group1[op >> 4].opc, 1, src, dst);
		else
			jx_alu_ri(j, w, group1[op >> 4].digit, dst, insn->imm);
		return;
	case HR_MUL:
		if (x) {
			jx_op_rr(j, w, false, 0x0faf, 2, dst, src);
		} else if (jx_is_imm8(insn->imm)) {
			jx_op_rr(j, w, false, 0x6b, 1, dst, dst);
			jx_emit1(j, (uint8_t)insn->imm);
		} else {
			jx_op_rr(j, w, false, 0x69, 1, dst, dst);
			jx_emit4(j, (uint32_t)insn->imm);
		}
		return;
	case HR_DIV:
	case HR_MOD:
		emit_div(j, insn, w);
		return;
	case HR_LSH:
	case HR_RSH:
	case HR_ARSH:
		emit_shift(j, insn, w);
		return;
	case HR_NEG:
		jx_op_rr(j, w, false, 0xf7, 1, 3, dst);
		return;
	case HR_MOV:
		emit_mov(j, insn, w);
		return;
	case HR_END:
		emit_end(j, insn);
		return;
	}
	jx_jmp_to(j, jx_abort_stub(j, pc, HR_ABORT_BAD_INSN, false, pc));
}

/* Loads and stores. */

#endif /* __x86_64__ */
