// SPDX-License-Identifier: MIT
/*
 * The JIT's memory accesses (jit_x86.c): the inline and out-of-line checks
 * every load, store and atomic gets unless a proof elides it, and their
 * code, with the interpreter's results and abort reasons.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "vm/jit_x86.h"

#if defined(__x86_64__)

/* Whether the access is left unchecked because of what the bounds
 * analysis proved (which rests on r1 == run->ctx at entry). */
bool jx_by_facts(struct jit *j, uint32_t pc, int breg, int16_t off, int size,
		 bool write)
{
	return jb_access_proven(&j->facts, j->vm, pc, breg, off, size, write);
}

/*
 * Whether the access [breg + off, + size) at @pc needs no run-time check:
 * a constant offset into the current frame through an r10 nothing writes,
 * a packet access a data_end comparison covers, a map value access a NULL
 * test covers, or an allowed field of the context through a register that
 * holds run->ctx (see the top comment).
 */
bool jx_check_elided(struct jit *j, uint32_t pc, int breg, int16_t off,
		     int size, bool write, bool atomic)
{
	if (j->chk && jx_wrong_proofs)
		return !atomic;
	return !atomic && (jb_frame_access(j->fp_fixed, breg, off, size) ||
			   jx_by_facts(j, pc, breg, off, size, write));
}

/* Out-of-line abort stubs. */

/* A cold stub that aborts with @reason at @pc; the address is @addr, or
 * the ADDR register when @addr_reg. Returns its label. */
uint32_t jx_abort_stub(struct jit *j, uint32_t pc, enum hr_abort reason,
		       bool addr_reg, uint64_t addr)
{
	int saved = j->cur;
	uint32_t l = jx_new_label(j);

	j->cur = 1;
	jx_bind(j, l);
	if (addr_reg)
		jx_mov_rr(j, true, RCX, ADDR);
	else
		jx_mov_ri(j, RCX, addr);
	jx_mov_rr(j, true, RDI, RUN);
	jx_mov_ri(j, RSI, pc);
	jx_mov_ri(j, RDX, reason);
	jx_call_abs(j, hr_jit_abort);
	jx_jmp_to(j, j->l_abort_exit);
	j->cur = saved;
	return l;
}

/* The label of pc @t, or of a stub aborting with HR_ABORT_JUMP there. */
uint32_t jx_target_label(struct jit *j, uint32_t t)
{
	if (t < j->vm->cnt)
		return t;
	if (t == j->vm->cnt)
		return j->l_fall_off;
	return jx_abort_stub(j, t, HR_ABORT_JUMP, false, t);
}

/*
 * Checks [base + off, + size) for the instruction at @pc and returns the
 * x86 base register and displacement the access must use.
 */
static void mem_check(struct jit *j, uint32_t pc, int breg, int16_t off,
		      int size, bool write, bool atomic, int *mbase,
		      int32_t *mdisp)
{
	uint32_t ok, stk, slow;
	bool proven = jx_check_elided(j, pc, breg, off, size, write, atomic);

	if (proven && !j->chk) {
		*mbase = bpf2x[breg];
		*mdisp = off;
		return;
	}
	*mbase = ADDR;
	*mdisp = 0;
	jx_lea(j, ADDR, bpf2x[breg], off);
	ok = jx_new_label(j);
	stk = jx_new_label(j);
	slow = jx_new_label(j);
	/* The rule depends on the program and the access only, so it is
	 * asked at compile time: only such sites get the inline context
	 * path, everything else takes the checks below. */
	if (jb_ctx_field_ok(j->vm, off, size, write)) {
		/* base == run->ctx (non-NULL): a field the rule allows. */
		jx_op_rm(j, true, false, 0x8b, 1, TMP, RUN, OFF_CTX);
		uint32_t no_ctx = jx_new_label(j);

		jx_op_rr(j, true, false, 0x85, 1, TMP, TMP);
		jx_jcc_to(j, CC_E, no_ctx);
		jx_op_rr(j, true, false, 0x39, 1, bpf2x[breg], TMP);
		jx_jcc_to(j, CC_E, ok);
		jx_bind(j, no_ctx);
	}
	/* Packet: pkt_lo <= addr <= pkt_hi && pkt_hi - addr >= size. */
	jx_op_rm(j, true, false, 0x3b, 1, ADDR, RUN, OFF_PKT_LO);
	jx_jcc_to(j, CC_B, stk);
	jx_op_rm(j, true, false, 0x8b, 1, TMP, RUN, OFF_PKT_HI);
	jx_op_rr(j, true, false, 0x29, 1, ADDR, TMP); /* sub tmp, addr */
	jx_jcc_to(j, CC_B, stk);
	jx_alu_ri(j, true, 7, TMP, size);
	jx_jcc_to(j, CC_B, stk);
	jx_bind(j, ok);

	j->cur = 1;
	jx_bind(j, stk);
	/* Checked mode does not trust rbp (the stack rule): the C check
	 * takes the frame from run->depth. */
	if (j->fp_fixed && !j->chk) {
		/* Current frame and callers: [r10 - 512, stack_hi). */
		jx_lea(j, TMP, RBP, -HR_STACK_SIZE);
		jx_op_rr(j, true, false, 0x39, 1, TMP,
			 ADDR); /* cmp addr, tmp */
		jx_jcc_to(j, CC_B, slow);
		jx_lea(j, TMP, RUN, OFF_STACK_HI);
		jx_op_rr(j, true, false, 0x29, 1, ADDR, TMP);
		jx_jcc_to(j, CC_B, slow);
		jx_alu_ri(j, true, 7, TMP, size);
		jx_jcc_to(j, CC_AE, ok);
	}
	jx_bind(j, slow);
	jx_mov_ri(j, TMP,
		  (uint64_t)pc << SLOW_PC_SHIFT | (proven ? SLOW_PROVEN : 0) |
			  (write ? SLOW_WRITE : 0) | (uint32_t)size);
	jx_call_to(j, j->l_slow);
	jx_jmp_to(j, ok);
	j->cur = 0;
}

/* ALU. */

/* A load from a frozen read-only global (.rodata once loaded, as the
 * verifier's bpf_map_direct_read): its constant, not the memory. */
static bool const_load(struct jit *j, uint32_t pc, const struct hr_insn *insn)
{
	const struct jb_reg *b;
	uint64_t v;

	if (!j->dce || HR_MODE(insn->code) != HR_MEM)
		return false;
	b = jb_reg_at(&j->facts, pc, insn->src);
	if (!b || !jb_const_value(b, insn->off, hr_size_bytes(insn->code), &v))
		return false;
	jx_mov_ri(j, bpf2x[insn->dst], v);
	j->nfused++;
	return true;
}

/* x86 register @dst = the @size bytes at @base + @disp, zero- or (@sx)
 * sign-extended. */
void jx_emit_load(struct jit *j, int size, bool sx, int dst, int base,
		  int32_t disp)
{
	switch (size) {
	case 1:
		jx_op_rm(j, sx, false, sx ? 0x0fbe : 0x0fb6, 2, dst, base,
			 disp);
		break;
	case 2:
		jx_op_rm(j, sx, false, sx ? 0x0fbf : 0x0fb7, 2, dst, base,
			 disp);
		break;
	case 4:
		if (sx)
			jx_op_rm(j, true, false, 0x63, 1, dst, base, disp);
		else
			jx_op_rm(j, false, false, 0x8b, 1, dst, base, disp);
		break;
	default:
		jx_op_rm(j, true, false, 0x8b, 1, dst, base, disp);
		break;
	}
}

void jx_emit_ldx(struct jit *j, uint32_t pc, const struct hr_insn *insn)
{
	int size = hr_size_bytes(insn->code), base;
	int32_t disp;

	if (const_load(j, pc, insn))
		return;
	mem_check(j, pc, insn->src, insn->off, size, false, false, &base,
		  &disp);
	jx_emit_load(j, size, HR_MODE(insn->code) == HR_MEMSX, bpf2x[insn->dst],
		     base, disp);
}

static void emit_store(struct jit *j, uint32_t pc, const struct hr_insn *insn)
{
	int size = hr_size_bytes(insn->code), src = bpf2x[insn->src], base;
	int32_t disp;

	mem_check(j, pc, insn->dst, insn->off, size, true, false, &base, &disp);
	if (HR_CLASS(insn->code) == HR_STX) {
		if (size == 2)
			jx_emit1(j, 0x66);
		jx_op_rm(j, size == 8, size == 1, size == 1 ? 0x88 : 0x89, 1,
			 src, base, disp);
		return;
	}
	if (size == 2)
		jx_emit1(j, 0x66);
	jx_op_rm(j, size == 8, false, size == 1 ? 0xc6 : 0xc7, 1, 0, base,
		 disp);
	if (size == 1)
		jx_emit1(j, (uint8_t)insn->imm);
	else if (size == 2) {
		jx_emit1(j, (uint8_t)insn->imm);
		jx_emit1(j, (uint8_t)(insn->imm >> 8));
	} else
		jx_emit4(j, (uint32_t)insn->imm);
}

/* fetch-or / -and / -xor: a cmpxchg loop on [ADDR]. */
static void emit_fetch_loop(struct jit *j, bool w, uint32_t opc, int src)
{
	uint32_t again = jx_new_label(j);
	int operand = src == RAX ? TMP : src;

	jx_mov_rr(j, true, TMP, RAX); /* r0, which cmpxchg uses */
	jx_op_rm(j, w, false, 0x8b, 1, RAX, ADDR, 0);
	jx_bind(j, again);
	jx_mov_rr(j, true, TMP2, RAX);
	jx_op_rr(j, w, false, opc, 1, operand, TMP2);
	jx_emit1(j, 0xf0);
	jx_op_rm(j, w, false, 0x0fb1, 2, TMP2, ADDR, 0);
	jx_jcc_to(j, CC_NE, again);
	jx_mov_rr(j, true, TMP2, RAX); /* old value */
	jx_mov_rr(j, true, RAX, TMP);
	jx_mov_rr(j, w, src, TMP2);
}

static void emit_atomic(struct jit *j, uint32_t pc, const struct hr_insn *insn)
{
	int size = hr_size_bytes(insn->code), src = bpf2x[insn->src], base;
	bool w = HR_SIZE(insn->code) == HR_DW;
	int32_t disp;
	int32_t op = insn->imm;

	mem_check(j, pc, insn->dst, insn->off, size, true, true, &base, &disp);
	if (size > 1) {
		jx_op_rr(j, false, false, 0xf6, 1, 0, ADDR); /* test r11b */
		jx_emit1(j, (uint8_t)(size - 1));
		jx_jcc_to(j, CC_NE,
			  jx_abort_stub(j, pc, HR_ABORT_OOB_STORE, true, 0));
	}
	switch (op) {
	case HR_ADD:
	case HR_OR:
	case HR_AND:
	case HR_XOR:
		jx_emit1(j, 0xf0);
		jx_op_rm(j, w, false,
			 op == HR_ADD ? 0x01 :
			 op == HR_OR  ? 0x09 :
			 op == HR_AND ? 0x21 :
					0x31,
			 1, src, ADDR, 0);
		return;
	case HR_ADD | HR_FETCH:
		jx_mov_rr(j, true, TMP, src);
		jx_emit1(j, 0xf0);
		jx_op_rm(j, w, false, 0x0fc1, 2, TMP, ADDR, 0);
		jx_mov_rr(j, w, src, TMP);
		return;
	case HR_OR | HR_FETCH:
		emit_fetch_loop(j, w, 0x09, src);
		return;
	case HR_AND | HR_FETCH:
		emit_fetch_loop(j, w, 0x21, src);
		return;
	case HR_XOR | HR_FETCH:
		emit_fetch_loop(j, w, 0x31, src);
		return;
	case HR_XCHG:
		jx_mov_rr(j, true, TMP, src);
		jx_op_rm(j, w, false, 0x87, 1, TMP, ADDR, 0);
		jx_mov_rr(j, w, src, TMP);
		return;
	case HR_CMPXCHG:
		jx_emit1(j, 0xf0);
		jx_op_rm(j, w, false, 0x0fb1, 2, src, ADDR, 0);
		if (!w)
			jx_mov_rr(j, false, RAX, RAX);
		return;
	}
	jx_jmp_to(j, jx_abort_stub(j, pc, HR_ABORT_BAD_INSN, false, pc));
}

void jx_emit_st(struct jit *j, uint32_t pc, const struct hr_insn *insn)
{
	if (HR_MODE(insn->code) == HR_ATOMIC)
		emit_atomic(j, pc, insn);
	else
		emit_store(j, pc, insn);
}

/* Jumps and calls. */

#endif /* __x86_64__ */
