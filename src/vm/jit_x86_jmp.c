// SPDX-License-Identifier: MIT
/*
 * The JIT's jumps (jit_x86.c): conditional jumps, those decided by
 * constants, and the dispatch of one instruction to its emitter.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "vm/jit_x86.h"

#if defined(__x86_64__)

int jx_jump_cc(uint8_t op)
{
	switch (op) {
	case HR_JEQ:
		return CC_E;
	case HR_JNE:
	case HR_JSET:
		return CC_NE;
	case HR_JGT:
		return CC_A;
	case HR_JGE:
		return CC_AE;
	case HR_JLT:
		return CC_B;
	case HR_JLE:
		return CC_BE;
	case HR_JSGT:
		return CC_G;
	case HR_JSGE:
		return CC_GE;
	case HR_JSLT:
		return CC_L;
	case HR_JSLE:
		return CC_LE;
	}
	return -1;
}

void jx_emit_jmp(struct jit *j, uint32_t pc, const struct hr_insn *insn);

/* A known constant in BPF register @reg entering @pc. */
static bool const_reg(struct jit *j, uint32_t pc, int reg, uint64_t *v)
{
	const struct jb_reg *r = jb_reg_at(&j->facts, pc, reg);

	if (!r || r->t != JB_SCALAR || r->a != r->b)
		return false;
	*v = r->a;
	return true;
}

/*
 * A conditional jump on registers the analysis knows to be constants
 * (a .rodata setting, most often): left out when never taken, a plain
 * jump when always. True when done so.
 */
static bool const_jmp(struct jit *j, uint32_t pc, const struct hr_insn *insn)
{
	bool wide = HR_CLASS(insn->code) == HR_JMP;
	struct hr_insn ja = { .code = HR_JMP | HR_JA, .off = insn->off };
	uint64_t d, s;

	if (!j->dce || jx_jump_cc(HR_OP(insn->code)) < 0 ||
	    !const_reg(j, pc, insn->dst, &d))
		return false;
	if (HR_SRC(insn->code) == HR_K)
		s = (uint64_t)(int64_t)insn->imm;
	else if (!const_reg(j, pc, insn->src, &s))
		return false;
	j->nfused++;
	if (hr_jump_taken(HR_OP(insn->code), d, s, wide))
		jx_emit_jmp(j, pc, &ja);
	return true;
}

void jx_emit_jmp(struct jit *j, uint32_t pc, const struct hr_insn *insn)
{
	bool wide = HR_CLASS(insn->code) == HR_JMP;
	uint8_t op = HR_OP(insn->code);
	int dst = bpf2x[insn->dst], cc;
	int64_t delta;
	uint32_t t, skip;

	if (op == HR_EXIT) {
		jx_emit_exit(j);
		return;
	}
	if (op == HR_CALL) {
		jx_emit_call(j, pc, insn);
		return;
	}
	if (op == HR_JA) {
		delta = wide ? insn->off : insn->imm;
		t = (uint32_t)((int64_t)pc + 1 + delta);
		if (delta < 0)
			jx_budget_step(j, pc);
		jx_jmp_to(j, jx_target_label(j, t));
		return;
	}
	cc = jx_jump_cc(op);
	if (cc < 0)
		return; /* never taken in the interpreter */
	if (const_jmp(j, pc, insn))
		return;
	if (HR_SRC(insn->code) == HR_X)
		jx_op_rr(j, wide, false, op == HR_JSET ? 0x85 : 0x39, 1,
			 bpf2x[insn->src], dst);
	else if (op == HR_JSET) {
		jx_op_rr(j, wide, false, 0xf7, 1, 0, dst);
		jx_emit4(j, (uint32_t)insn->imm);
	} else
		jx_alu_ri(j, wide, 7, dst, insn->imm);
	delta = insn->off;
	t = (uint32_t)((int64_t)pc + 1 + delta);
	if (delta >= 0) {
		jx_jcc_to(j, cc, jx_target_label(j, t));
		return;
	}
	skip = jx_new_label(j);
	jx_jcc_to(j, cc ^ 1, skip);
	jx_budget_step(j, pc);
	jx_jmp_to(j, jx_target_label(j, t));
	jx_bind(j, skip);
}

void jx_emit_insn(struct jit *j, uint32_t pc)
{
	const struct hr_vm_prog *vm = j->vm;
	const struct hr_insn *insn = &vm->insns[pc];

	/* run->pkt_dirty = 1 before anything that may write the packet
	 * (jx_plan() made the run's register hold the run for it). */
	if (!jb_insn_pkt_ro(&j->facts, insn, pc) && !j->dirty_marked) {
		jx_op_rm(j, false, false, 0xc6, 1, 0, RUN, OFF_PKT_DIRTY);
		jx_emit1(j, 1);
		j->dirty_marked = true;
	}
	switch (HR_CLASS(insn->code)) {
	case HR_ALU:
	case HR_ALU64:
		jx_emit_alu(j, pc, insn);
		break;
	case HR_LDX:
		jx_emit_ldx(j, pc, insn);
		break;
	case HR_ST:
	case HR_STX:
		jx_emit_st(j, pc, insn);
		break;
	case HR_LD:
		if (insn->code != HR_OPC_LDDW || pc + 1 >= vm->cnt) {
			jx_jmp_to(j, jx_abort_stub(j, pc, HR_ABORT_BAD_INSN,
						   false, pc));
			break;
		}
		/* A function address is its instruction index. */
		if (insn->src == HR_PSEUDO_FUNC)
			jx_mov_ri(j, bpf2x[insn->dst],
				  (uint64_t)(pc + 1 + (int64_t)insn->imm));
		else
			jx_mov_ri(j, bpf2x[insn->dst],
				  hr_insn_lddw_value(insn));
		break;
	default:
		jx_emit_jmp(j, pc, insn);
		break;
	}
}

bool jx_dead_alu(const struct jit *j, uint32_t pc);
bool jx_dead_lddw(const struct jit *j, uint32_t pc);

/* Prologue, epilogue and the shared out-of-line routines. */

#endif /* __x86_64__ */
