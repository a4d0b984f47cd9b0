// SPDX-License-Identifier: MIT
/*
 * Preparing a program for the interpreter (interp.h): a handler per
 * instruction, the fused forms, and the checks a slot may leave out.
 *
 * A slot leaves out its memory check only where interp.c's checked
 * handler could not fail: the same rules the JIT uses (see the top of
 * jit_x86.c), with the same proofs. In both versions: a non-atomic access
 * through r10 at a constant offset inside the frame, when no instruction
 * writes r10. In "fast" only: a packet access the bounds analysis proves
 * covered by a data_end (or data) comparison, an access inside a map
 * value it proves came from bpf_map_lookup_elem and was tested not NULL
 * (writes only where the map lets programs write), a stack access through a
 * register it proves is this frame's r10 plus a constant, and an allowed
 * context field through a register it proves is the entry r1, all of
 * which hold because interp.c enters "fast" only with r1 == run->ctx.
 */
#include <stdlib.h>

#include "vm/interp.h"
#include "vm/bounds.h"

/* The ALU operations with handlers of their own, by XOP_ALU position
 * plus one (0: none). */
static const uint8_t alu_index[16] = {
	[HR_ADD >> 4] = 1,  [HR_SUB >> 4] = 2, [HR_MUL >> 4] = 3,
	[HR_OR >> 4] = 4,   [HR_AND >> 4] = 5, [HR_XOR >> 4] = 6,
	[HR_LSH >> 4] = 7,  [HR_RSH >> 4] = 8, [HR_ARSH >> 4] = 9,
	[HR_MOV >> 4] = 10,
};

/* The conditional jumps, by XOP_JMP position plus one (0: none). */
static const uint8_t jmp_index[16] = {
	[HR_JEQ >> 4] = 1,   [HR_JNE >> 4] = 2,	  [HR_JGT >> 4] = 3,
	[HR_JGE >> 4] = 4,   [HR_JLT >> 4] = 5,	  [HR_JLE >> 4] = 6,
	[HR_JSET >> 4] = 7,  [HR_JSGT >> 4] = 8,  [HR_JSGE >> 4] = 9,
	[HR_JSLT >> 4] = 10, [HR_JSLE >> 4] = 11,
};

static int size_index(uint8_t code)
{
	switch (HR_SIZE(code)) {
	case HR_B:
		return 0;
	case HR_H:
		return 1;
	case HR_W:
		return 2;
	default:
		return 3;
	}
}

struct prep {
	const struct hr_vm_prog *vm;
	struct jb_facts facts; /* empty for "safe" */
	bool fp_fixed;
	bool fuse;
};

/* Whether [breg + off, + size) at @pc is always allowed (see the top). */
static bool unchecked(const struct prep *p, uint32_t pc, int breg, int off,
		      int size, bool write)
{
	const struct jb_reg *r;

	if (jb_frame_access(p->fp_fixed, breg, off, size) ||
	    jb_access_proven(&p->facts, p->vm, pc, breg, off, size, write))
		return true;
	r = jb_reg_at(&p->facts, pc, breg);
	return p->fp_fixed && r && r->t == JB_FP &&
	       (int64_t)r->a + off >= -HR_STACK_SIZE &&
	       (int64_t)r->a + off + size <= 0;
}

/* A target inside the program, or the fall-off slot. */
static bool in_range(const struct hr_vm_prog *vm, uint32_t pc, int64_t delta)
{
	int64_t t = (int64_t)pc + 1 + delta;

	return t >= 0 && t <= vm->cnt;
}

static enum hr_xop mem_op(const struct prep *p, uint32_t pc,
			  const struct hr_insn *insn)
{
	uint8_t cls = HR_CLASS(insn->code);
	int s = size_index(insn->code), size = hr_size_bytes(insn->code);

	if (HR_MODE(insn->code) == HR_ATOMIC && cls == HR_STX &&
	    (insn->imm == HR_ADD || insn->imm == (HR_ADD | HR_FETCH)) &&
	    (size == 4 || size == 8) &&
	    jb_value_safe(&p->facts, pc, insn->dst, insn->off, size, true))
		return (insn->imm & HR_FETCH ? XOP_AFADD_W : XOP_AADD_W) +
		       (size == 8);
	if (HR_MODE(insn->code) != HR_MEM)
		return XOP_GENERIC; /* other atomics, sign-extending loads */
	if (cls == HR_LDX)
		return (unchecked(p, pc, insn->src, insn->off, size, false) ?
				XOP_LDXU_B :
				XOP_LDX_B) +
		       s;
	if (unchecked(p, pc, insn->dst, insn->off, size, true))
		return (cls == HR_STX ? XOP_STXU_B : XOP_STU_B) + s;
	return (cls == HR_STX ? XOP_STX_B : XOP_ST_B) + s;
}

static enum hr_xop jmp_op(const struct hr_vm_prog *vm, uint32_t pc,
			  const struct hr_insn *insn)
{
	uint8_t op = HR_OP(insn->code);
	int j;

	if (HR_CLASS(insn->code) == HR_JMP32 &&
	    (op == HR_EXIT || op == HR_CALL))
		return XOP_GENERIC; /* invalid: the reference decides */
	if (op == HR_EXIT)
		return XOP_EXIT;
	if (op == HR_CALL) {
		if (insn->src == HR_CALL_LOCAL || HR_SRC(insn->code) == HR_X ||
		    !vm->calls || !vm->calls[pc])
			return XOP_GENERIC;
		return XOP_CALL;
	}
	if (!in_range(vm, pc, insn->off))
		return XOP_GENERIC;
	if (op == HR_JA)
		return HR_CLASS(insn->code) == HR_JMP ? XOP_JA : XOP_GENERIC;
	j = jmp_index[op >> 4] - 1;
	if (j < 0)
		return XOP_GENERIC;
	return (HR_CLASS(insn->code) == HR_JMP ? XOP_JEQ_K : XOP_J32EQ_K) +
	       2 * j + (HR_SRC(insn->code) == HR_X);
}

static enum hr_xop plain_op(const struct prep *p, uint32_t pc)
{
	const struct hr_vm_prog *vm = p->vm;
	const struct hr_insn *insn = &vm->insns[pc];
	uint8_t cls = HR_CLASS(insn->code), op = HR_OP(insn->code);
	int x = HR_SRC(insn->code) == HR_X;

	switch (cls) {
	case HR_ALU64:
	case HR_ALU:
		if (!alu_index[op >> 4] || (op == HR_MOV && insn->off))
			return XOP_GENERIC; /* div, mod, neg, end, movsx */
		if (op != HR_MOV && insn->off)
			return XOP_GENERIC; /* the reference decides */
		return (cls == HR_ALU64 ? XOP_A64_ADD_K : XOP_A32_ADD_K) +
		       2 * (alu_index[op >> 4] - 1) + x;
	case HR_LDX:
	case HR_ST:
	case HR_STX:
		return mem_op(p, pc, insn);
	case HR_LD:
		if (insn->code != HR_OPC_LDDW || pc + 1 >= vm->cnt ||
		    insn->src == HR_PSEUDO_FUNC)
			return XOP_GENERIC;
		return XOP_LDDW;
	case HR_JMP:
	case HR_JMP32:
		return jmp_op(vm, pc, insn);
	}
	return XOP_GENERIC; /* the invalid */
}

/* mov64 rD, rS; add64 rD, K: one slot. */
static bool is_mov_add(const struct hr_vm_prog *vm, uint32_t pc)
{
	const struct hr_insn *a = &vm->insns[pc], *b = a + 1;

	return pc + 1 < vm->cnt && a->code == (HR_ALU64 | HR_MOV | HR_X) &&
	       !a->off && b->code == (HR_ALU64 | HR_ADD | HR_K) && !b->off &&
	       b->dst == a->dst;
}

/* ... then "if rD > rZ goto +off" forward, inside the program. */
static bool is_bounds_jump(const struct hr_vm_prog *vm, uint32_t pc)
{
	const struct hr_insn *c = &vm->insns[pc + 2];

	return pc + 2 < vm->cnt && c->code == (HR_JMP | HR_JGT | HR_X) &&
	       c->dst == vm->insns[pc].dst && c->off >= 0 &&
	       in_range(vm, pc + 2, c->off);
}

static uint8_t size_code(int size)
{
	return size == 1 ? HR_B : size == 2 ? HR_H : size == 4 ? HR_W : HR_DW;
}

/* The slot @pc + @i is an unchecked load of @size bytes. */
static bool is_ldxu(const struct prep *p, uint32_t pc, uint32_t i, int size)
{
	const struct hr_insn *insn = &p->vm->insns[pc + i];
	enum hr_xop op;

	if (pc + i >= p->vm->cnt ||
	    insn->code != (HR_LDX | HR_MEM | size_code(size)))
		return false;
	op = mem_op(p, pc + i, insn);
	return op >= XOP_LDXU_B && op <= XOP_LDXU_DW;
}

static bool is_code(const struct hr_vm_prog *vm, uint32_t pc, uint8_t code)
{
	return pc < vm->cnt && vm->insns[pc].code == code &&
	       (HR_CLASS(code) == HR_JMP || !vm->insns[pc].off);
}

/* A forward conditional jump at @pc with its target in the program. */
static bool fwd_jump(const struct hr_vm_prog *vm, uint32_t pc, uint8_t code)
{
	return is_code(vm, pc, code) && vm->insns[pc].off >= 0 &&
	       in_range(vm, pc, vm->insns[pc].off);
}

/* 0..7: the slot's unchecked load/store kind (HR_XMEM_ROW); else -1. */
static int xmem_kind(const struct prep *p, uint32_t pc)
{
	enum hr_xop op;

	if (pc >= p->vm->cnt)
		return -1;
	op = plain_op(p, pc);
	if (op >= XOP_LDXU_B && op <= XOP_LDXU_DW)
		return op - XOP_LDXU_B;
	if (op >= XOP_STXU_B && op <= XOP_STXU_DW)
		return 4 + op - XOP_STXU_B;
	return -1;
}

/* Two unchecked loads or stores side by side, or XOP_GENERIC. */
static enum hr_xop pair_op(const struct prep *p, uint32_t pc)
{
	int a = xmem_kind(p, pc), b = a >= 0 ? xmem_kind(p, pc + 1) : -1;

	return b >= 0 ? XOP_PAIR_LB_LB + 8 * a + b : XOP_GENERIC;
}

/*
 * Register shapes the fused handlers rely on (interp_fast.h carries a
 * value in a local from one instruction to the next): clang's shapes.
 * Other shapes are left to the plain slots.
 */

/* ldxb rA; lsh rA, 8; ldxb rC; or rA, rC (rC not rA, not its base). */
static bool bytes16_regs(const struct hr_insn *i)
{
	return i[1].dst == i[0].dst && i[3].dst == i[0].dst &&
	       i[3].src == i[2].dst && i[2].dst != i[0].dst &&
	       i[2].src != i[0].dst;
}

/* mov r0, K; ldxw rE, [..]; ldxw rD, [..]; mov rP, rD; add rP, K;
 * if rP > rE: neither load's base is overwritten before it is read, and
 * rE holds data_end up to the test. */
static bool prologue_regs(const struct hr_insn *i)
{
	return i[1].src != i[0].dst && i[2].src != i[0].dst &&
	       i[2].src != i[1].dst && i[3].src == i[2].dst &&
	       i[5].src == i[1].dst && i[1].dst != i[2].dst &&
	       i[1].dst != i[3].dst;
}

/* Fused forms starting at @pc, or XOP_GENERIC for none. */
static enum hr_xop fused_op(const struct prep *p, uint32_t pc)
{
	const struct hr_vm_prog *vm = p->vm;
	const struct hr_insn *insn = &vm->insns[pc];

	if (is_mov_add(vm, pc))
		return is_bounds_jump(vm, pc) ? XOP_MOV_ADD_JGT : XOP_MOV_ADD;
	if (is_code(vm, pc, HR_ALU64 | HR_MOV | HR_K)) {
		if (fwd_jump(vm, pc + 1, HR_JMP | HR_JGT | HR_X) &&
		    insn[1].dst == insn->dst)
			return XOP_MOV_JGT;
		if (fwd_jump(vm, pc + 1, HR_JMP | HR_JEQ | HR_K))
			return XOP_MOV_JEQ;
		if (fwd_jump(vm, pc + 1, HR_JMP | HR_JNE | HR_K))
			return XOP_MOV_JNE;
		if (is_code(vm, pc + 1, HR_JMP | HR_EXIT))
			return XOP_MOV_EXIT;
		if (is_ldxu(p, pc, 1, 4) && is_ldxu(p, pc, 2, 4))
			return is_mov_add(vm, pc + 3) &&
					       is_bounds_jump(vm, pc + 3) &&
					       prologue_regs(insn) ?
				       XOP_PROLOGUE :
				       XOP_MOV_LDXU_W2;
	}
	if (is_code(vm, pc, HR_ALU64 | HR_LSH | HR_K) &&
	    is_code(vm, pc + 1, HR_ALU64 | HR_ADD | HR_X) &&
	    insn[1].src == insn->dst)
		return XOP_LSH_ADD;
	if (is_code(vm, pc, HR_ALU64 | HR_ADD | HR_K) && pc + 1 < vm->cnt &&
	    insn[1].src == insn->dst) {
		if (is_ldxu(p, pc, 1, 1))
			return XOP_ADD_LDXU_B;
		if (is_ldxu(p, pc, 1, 2))
			return XOP_ADD_LDXU_H;
		if (is_ldxu(p, pc, 1, 4))
			return XOP_ADD_LDXU_W;
	}
	if (HR_CLASS(insn->code) != HR_LDX)
		return pair_op(p, pc);
	if (is_ldxu(p, pc, 0, 1) &&
	    is_code(vm, pc + 1, HR_ALU64 | HR_LSH | HR_K) && insn[1].imm == 8 &&
	    is_ldxu(p, pc, 2, 1) &&
	    is_code(vm, pc + 3, HR_ALU64 | HR_OR | HR_X) &&
	    bytes16_regs(insn)) {
		bool test = pc + 4 < vm->cnt && insn[4].dst == insn->dst;

		if (test && fwd_jump(vm, pc + 4, HR_JMP | HR_JEQ | HR_K))
			return XOP_BYTES16_JEQ;
		if (test && fwd_jump(vm, pc + 4, HR_JMP | HR_JNE | HR_K))
			return XOP_BYTES16_JNE;
		return XOP_BYTES16;
	}
	if (pc + 1 >= vm->cnt || insn[1].dst != insn->dst)
		return pair_op(p, pc);
	if (is_ldxu(p, pc, 0, 1) &&
	    is_code(vm, pc + 1, HR_ALU64 | HR_AND | HR_K))
		return XOP_LDXU_B_AND;
	if (fwd_jump(vm, pc + 1, HR_JMP | HR_JEQ | HR_K) ||
	    fwd_jump(vm, pc + 1, HR_JMP | HR_JNE | HR_K)) {
		int ne = HR_OP(insn[1].code) == HR_JNE;

		if (is_ldxu(p, pc, 0, 1))
			return XOP_LDXU_B_JEQ + ne;
		if (is_ldxu(p, pc, 0, 2))
			return XOP_LDXU_H_JEQ + ne;
		if (is_ldxu(p, pc, 0, 4))
			return XOP_LDXU_W_JEQ + ne;
	}
	return pair_op(p, pc);
}

static enum hr_xop slot_op(const struct prep *p, uint32_t pc)
{
	enum hr_xop op = p->fuse ? fused_op(p, pc) : XOP_GENERIC;

	return op != XOP_GENERIC ? op : plain_op(p, pc);
}

static struct hr_xinsn *build(const struct prep *p)
{
	const void *const *labels = hr_interp_labels();
	const struct hr_vm_prog *vm = p->vm;
	struct hr_xinsn *xs = calloc((size_t)vm->cnt + 1, sizeof(*xs));
	uint32_t pc;

	if (!xs)
		return NULL;
	for (pc = 0; pc < vm->cnt; pc++) {
		const struct hr_insn *insn = &vm->insns[pc];
		enum hr_xop op = slot_op(p, pc);

		xs[pc].h = labels[op];
		xs[pc].dst = insn->dst;
		xs[pc].src = insn->src;
		xs[pc].off = insn->off;
		/* mov + add keeps the add's constant in the first slot. */
		xs[pc].imm = op == XOP_MOV_ADD || op == XOP_MOV_ADD_JGT ?
				     insn[1].imm :
				     insn->imm;
	}
	xs[vm->cnt].h = labels[XOP_FALL_OFF];
	return xs;
}

struct hr_xcode *hr_xcode_build(const struct hr_vm_prog *vm, unsigned int flags)
{
	struct hr_xcode *xc = calloc(1, sizeof(*xc));
	struct prep p = {
		.vm = vm,
		.fp_fixed = jb_fp_fixed(vm),
		.fuse = !(flags & HR_XCODE_NO_FUSE),
	};

	if (!xc)
		return NULL;
	xc->cnt = vm->cnt;
	xc->safe = build(&p);
	if (!xc->safe) {
		free(xc);
		return NULL;
	}
	if (!(flags & HR_XCODE_NO_FACTS))
		jb_analyze(vm, p.fp_fixed, &p.facts);
	xc->fast = p.facts.store ? build(&p) : xc->safe;
	jb_free(&p.facts);
	if (!xc->fast)
		xc->fast = xc->safe;
	return xc;
}

void hr_xcode_free(struct hr_xcode *xc)
{
	if (!xc)
		return;
	if (xc->fast != xc->safe)
		free(xc->fast);
	free(xc->safe);
	free(xc);
}
