// SPDX-License-Identifier: MIT
/*
 * Structural validation of eBPF instructions (RFC 9669).
 *
 * This is the part of the kernel's verifier that needs no data flow: a known
 * opcode, registers in range, every field the encoding leaves unused set to
 * zero, jumps and local calls that land on an instruction of the same
 * subprogram, and subprograms that end in exit or an unconditional jump.
 * Memory safety is enforced at run time by the engines.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "vm/isa.h"

#define HR_REG_FP 10

/*
 * BPF_COMPLEXITY_LIMIT_INSNS: the largest program the kernel accepts
 * (bpf_prog_load(): -E2BIG past it). Unprivileged loads are held to
 * BPF_MAXINSNS (4096), but XDP and tc programs need CAP_BPF (and
 * CAP_NET_ADMIN) in the kernel, so privileged loads are the only ones
 * there are: 1,000,000, which every load-time pass handles in time close
 * to linear (bounds.c, ctx_check.c, test_load_limits).
 */
#define HR_MAX_INSNS 1000000u

static int fail(const char **why, const char *msg)
{
	if (why)
		*why = msg;
	return -EINVAL;
}

/* Registers an instruction writes must not be r10, reads may be. */
static int check_dst_write(const struct hr_insn *insn, const char **why)
{
	if (insn->dst > HR_REG_FP)
		return fail(why, "invalid dst register");
	if (insn->dst == HR_REG_FP)
		return fail(why, "frame pointer r10 is read only");
	return 0;
}

static int check_dst_read(const struct hr_insn *insn, const char **why)
{
	if (insn->dst > HR_REG_FP)
		return fail(why, "invalid dst register");
	return 0;
}

static int check_src_read(const struct hr_insn *insn, const char **why)
{
	if (insn->src > HR_REG_FP)
		return fail(why, "invalid src register");
	return 0;
}

static int need_zero_src(const struct hr_insn *insn, const char **why)
{
	return insn->src ? fail(why, "unused field src_reg is non-zero") : 0;
}

static int need_zero_dst(const struct hr_insn *insn, const char **why)
{
	return insn->dst ? fail(why, "unused field dst_reg is non-zero") : 0;
}

static int need_zero_off(const struct hr_insn *insn, const char **why)
{
	return insn->off ? fail(why, "unused field offset is non-zero") : 0;
}

static int need_zero_imm(const struct hr_insn *insn, const char **why)
{
	return insn->imm ? fail(why, "unused field imm is non-zero") : 0;
}

/* The K form uses imm and no src register; the X form the reverse. */
static int check_operand(const struct hr_insn *insn, const char **why)
{
	if (HR_SRC(insn->code) == HR_K)
		return need_zero_src(insn, why);
	if (check_src_read(insn, why))
		return -EINVAL;
	return need_zero_imm(insn, why);
}

static int check_end(const struct hr_insn *insn, const char **why)
{
	/* ALU64 | END is bswap, defined only with the K bit. */
	if (HR_CLASS(insn->code) == HR_ALU64 && HR_SRC(insn->code) != HR_K)
		return fail(why, "invalid opcode");
	if (need_zero_src(insn, why) || need_zero_off(insn, why))
		return -EINVAL;
	if (insn->imm != 16 && insn->imm != 32 && insn->imm != 64)
		return fail(why, "invalid byte swap width");
	return 0;
}

static int check_mov(const struct hr_insn *insn, const char **why)
{
	bool alu64 = HR_CLASS(insn->code) == HR_ALU64;

	if (HR_SRC(insn->code) == HR_K)
		return need_zero_src(insn, why) || need_zero_off(insn, why) ?
			       -EINVAL :
			       0;
	if (check_src_read(insn, why) || need_zero_imm(insn, why))
		return -EINVAL;
	/* movsx: off is the width to sign extend from. */
	if (insn->off == 0 || insn->off == 8 || insn->off == 16 ||
	    (alu64 && insn->off == 32))
		return 0;
	return fail(why, "invalid movsx offset");
}

static int check_alu(const struct hr_insn *insn, const char **why)
{
	uint8_t op = HR_OP(insn->code);

	if (check_dst_write(insn, why))
		return -EINVAL;
	switch (op) {
	case HR_ADD:
	case HR_SUB:
	case HR_MUL:
	case HR_OR:
	case HR_AND:
	case HR_LSH:
	case HR_RSH:
	case HR_XOR:
	case HR_ARSH:
		if (need_zero_off(insn, why))
			return -EINVAL;
		return check_operand(insn, why);
	case HR_DIV:
	case HR_MOD:
		/* off 1 selects the signed variant (sdiv, smod). */
		if (insn->off != 0 && insn->off != 1)
			return fail(why, "invalid signed division offset");
		return check_operand(insn, why);
	case HR_NEG:
		if (HR_SRC(insn->code) != HR_K)
			return fail(why, "invalid opcode");
		if (need_zero_src(insn, why) || need_zero_off(insn, why))
			return -EINVAL;
		return need_zero_imm(insn, why);
	case HR_MOV:
		return check_mov(insn, why);
	case HR_END:
		return check_end(insn, why);
	default:
		return fail(why, "invalid ALU operation");
	}
}

static int check_call(const struct hr_insn *insn, const char **why)
{
	if (HR_SRC(insn->code) == HR_X) {
		/* callx: the target is in dst (LLVM's encoding). */
		if (check_dst_read(insn, why) || need_zero_src(insn, why) ||
		    need_zero_off(insn, why))
			return -EINVAL;
		return need_zero_imm(insn, why);
	}
	if (need_zero_dst(insn, why))
		return -EINVAL;
	switch (insn->src) {
	case HR_CALL_HELPER:
	case HR_CALL_LOCAL:
		return need_zero_off(insn, why);
	case HR_CALL_KFUNC:
		/* off selects the module BTF a kfunc comes from. */
		return 0;
	default:
		return fail(why, "invalid call type in src_reg");
	}
}

static int check_jmp(const struct hr_insn *insn, const char **why)
{
	bool jmp32 = HR_CLASS(insn->code) == HR_JMP32;
	uint8_t op = HR_OP(insn->code);

	switch (op) {
	case HR_JA:
		if (HR_SRC(insn->code) != HR_K)
			return fail(why, "invalid opcode");
		if (need_zero_dst(insn, why) || need_zero_src(insn, why))
			return -EINVAL;
		/* JMP32 | JA (gotol) carries its 32-bit offset in imm. */
		return jmp32 ? need_zero_off(insn, why) :
			       need_zero_imm(insn, why);
	case HR_CALL:
		if (jmp32)
			return fail(why, "invalid opcode");
		return check_call(insn, why);
	case HR_EXIT:
		if (jmp32 || HR_SRC(insn->code) != HR_K)
			return fail(why, "invalid opcode");
		if (need_zero_dst(insn, why) || need_zero_src(insn, why) ||
		    need_zero_off(insn, why))
			return -EINVAL;
		return need_zero_imm(insn, why);
	case HR_JEQ:
	case HR_JGT:
	case HR_JGE:
	case HR_JSET:
	case HR_JNE:
	case HR_JSGT:
	case HR_JSGE:
	case HR_JLT:
	case HR_JLE:
	case HR_JSLT:
	case HR_JSLE:
		if (check_dst_read(insn, why))
			return -EINVAL;
		return check_operand(insn, why);
	default:
		return fail(why, "invalid jump operation");
	}
}

static int check_lddw(const struct hr_insn *insn, const struct hr_insn *next,
		      const char **why)
{
	if (check_dst_write(insn, why) || need_zero_off(insn, why))
		return -EINVAL;
	if (insn->src > HR_PSEUDO_MAP_IDX_VALUE)
		return fail(why, "invalid lddw pseudo source");
	if (!next)
		return fail(why, "lddw without its second slot");
	if (next->code || next->dst || next->src || next->off)
		return fail(why, "invalid lddw second slot");
	return 0;
}

static int check_ld(const struct hr_insn *insn, const struct hr_insn *next,
		    const char **why)
{
	uint8_t mode = HR_MODE(insn->code);

	if (insn->code == HR_OPC_LDDW)
		return check_lddw(insn, next, why);
	if (mode == HR_ABS || mode == HR_IND)
		return fail(why, "legacy ld_abs/ld_ind is only valid in "
				 "socket filters");
	return fail(why, "invalid ld opcode");
}

static int check_ldx(const struct hr_insn *insn, const char **why)
{
	uint8_t mode = HR_MODE(insn->code);

	if (mode != HR_MEM && mode != HR_MEMSX)
		return fail(why, "invalid ldx mode");
	if (mode == HR_MEMSX && HR_SIZE(insn->code) == HR_DW)
		return fail(why, "invalid sign-extending load size");
	if (check_dst_write(insn, why) || check_src_read(insn, why))
		return -EINVAL;
	return need_zero_imm(insn, why);
}

static int check_st(const struct hr_insn *insn, const char **why)
{
	if (HR_MODE(insn->code) != HR_MEM)
		return fail(why, "invalid st mode");
	if (check_dst_read(insn, why))
		return -EINVAL;
	return need_zero_src(insn, why);
}

static int check_atomic(const struct hr_insn *insn, const char **why)
{
	uint8_t size = HR_SIZE(insn->code);

	if (size != HR_W && size != HR_DW)
		return fail(why, "invalid atomic size");
	switch (insn->imm) {
	case HR_ADD:
	case HR_OR:
	case HR_AND:
	case HR_XOR:
		return 0;
	case HR_ADD | HR_FETCH:
	case HR_OR | HR_FETCH:
	case HR_AND | HR_FETCH:
	case HR_XOR | HR_FETCH:
	case HR_XCHG:
	case HR_CMPXCHG:
		/* These write the old value back into src. */
		if (insn->src == HR_REG_FP)
			return fail(why, "frame pointer r10 is read only");
		return 0;
	default:
		return fail(why, "invalid atomic operation");
	}
}

static int check_stx(const struct hr_insn *insn, const char **why)
{
	uint8_t mode = HR_MODE(insn->code);

	if (check_dst_read(insn, why) || check_src_read(insn, why))
		return -EINVAL;
	if (mode == HR_ATOMIC)
		return check_atomic(insn, why);
	if (mode != HR_MEM)
		return fail(why, "invalid stx mode");
	return need_zero_imm(insn, why);
}

int hr_insn_validate(const struct hr_insn *insn, const struct hr_insn *next,
		     const char **why)
{
	switch (HR_CLASS(insn->code)) {
	case HR_LD:
		return check_ld(insn, next, why);
	case HR_LDX:
		return check_ldx(insn, why);
	case HR_ST:
		return check_st(insn, why);
	case HR_STX:
		return check_stx(insn, why);
	case HR_ALU:
	case HR_ALU64:
		return check_alu(insn, why);
	default: /* HR_JMP, HR_JMP32 */
		return check_jmp(insn, why);
	}
}

static bool is_local_call(const struct hr_insn *insn)
{
	return insn->code == (HR_JMP | HR_CALL | HR_K) &&
	       insn->src == HR_CALL_LOCAL;
}

static bool is_func_addr(const struct hr_insn *insn)
{
	return insn->code == HR_OPC_LDDW && insn->src == HR_PSEUDO_FUNC;
}

/* Whether @insn transfers control by a pc-relative offset, and where. */
static bool jump_target(const struct hr_insn *insn, uint32_t pc, int64_t *dst)
{
	uint8_t cls = HR_CLASS(insn->code);
	uint8_t op = HR_OP(insn->code);

	if (cls != HR_JMP && cls != HR_JMP32)
		return false;
	if (op == HR_CALL || op == HR_EXIT)
		return false;
	if (cls == HR_JMP32 && op == HR_JA)
		*dst = (int64_t)pc + 1 + insn->imm;
	else
		*dst = (int64_t)pc + 1 + insn->off;
	return true;
}

static bool ends_subprog(const struct hr_insn *insn)
{
	return insn->code == (HR_JMP | HR_EXIT) ||
	       insn->code == (HR_JMP | HR_JA) ||
	       insn->code == (HR_JMP32 | HR_JA);
}

/*
 * Pass 1: every instruction alone, and which indexes are the second slot
 * of an ld_imm64 (@slot2) and which start a subprogram (@start).
 */
static int validate_insns(const struct hr_insn *insns, uint32_t cnt,
			  bool *slot2, bool *start, uint32_t *bad_pc,
			  const char **why)
{
	uint32_t pc;
	int64_t dst;

	start[0] = true;
	for (pc = 0; pc < cnt; pc++) {
		const struct hr_insn *next = pc + 1 < cnt ? &insns[pc + 1] :
							    NULL;

		*bad_pc = pc;
		if (hr_insn_validate(&insns[pc], next, why))
			return -EINVAL;
		if (is_local_call(&insns[pc]) || is_func_addr(&insns[pc])) {
			dst = (int64_t)pc + 1 + insns[pc].imm;
			if (dst < 0 || dst >= cnt)
				return fail(why, "call to a target outside "
						 "the program");
			start[dst] = true;
		}
		if (hr_insn_is_lddw(&insns[pc]))
			slot2[++pc] = true;
	}
	return 0;
}

/* Pass 2: jumps stay inside their subprogram; each ends with exit/ja. */
static int validate_flow(const struct hr_insn *insns, uint32_t cnt,
			 const bool *slot2, const bool *start, uint32_t *bad_pc,
			 const char **why)
{
	uint32_t pc, first = 0, last = 0;
	int64_t dst;

	for (pc = 0; pc < cnt; pc++) {
		if (start[pc]) {
			if (slot2[pc]) {
				*bad_pc = pc;
				return fail(why, "call into the middle of "
						 "an lddw");
			}
			first = pc;
			for (last = pc + 1; last < cnt && !start[last]; last++)
				;
			*bad_pc = last - 1;
			if (!ends_subprog(&insns[last - 1]))
				return fail(why, "last instruction is not an "
						 "exit or a jump");
		}
		if (slot2[pc] || !jump_target(&insns[pc], pc, &dst))
			continue;
		*bad_pc = pc;
		if (dst < 0 || dst >= cnt)
			return fail(why, "jump out of program");
		if (dst < first || dst >= last)
			return fail(why, "jump out of its function");
		if (slot2[dst])
			return fail(why, "jump into the middle of an lddw");
	}
	return 0;
}

int hr_prog_validate(const struct hr_insn *insns, uint32_t cnt,
		     uint32_t *bad_pc, const char **why)
{
	uint32_t pc_dummy;
	bool *slot2, *start;
	int err;

	if (!bad_pc)
		bad_pc = &pc_dummy;
	*bad_pc = 0;
	if (cnt == 0)
		return fail(why, "empty program");
	if (cnt > HR_MAX_INSNS) {
		/* The message names the count: per thread, as loads may run
		 * on several at once. */
		static __thread char msg[128];

		snprintf(msg, sizeof(msg),
			 "program of %u instructions is larger than the "
			 "kernel's limit of %u (BPF_COMPLEXITY_LIMIT_INSNS)",
			 cnt, HR_MAX_INSNS);
		*bad_pc = HR_MAX_INSNS;
		if (why)
			*why = msg;
		return -E2BIG;
	}
	slot2 = calloc(cnt, sizeof(*slot2));
	start = calloc(cnt, sizeof(*start));
	if (!slot2 || !start) {
		free(slot2);
		free(start);
		if (why)
			*why = "out of memory";
		return -ENOMEM;
	}
	err = validate_insns(insns, cnt, slot2, start, bad_pc, why);
	if (!err)
		err = validate_flow(insns, cnt, slot2, start, bad_pc, why);
	free(slot2);
	free(start);
	return err;
}
