// SPDX-License-Identifier: MIT
/*
 * Load-time check of context accesses: a small forward data-flow pass that
 * follows the context pointer from r1 through register moves, constant
 * adds and 8-byte stack spills, and asks the program type whether each
 * load or store through it is allowed, as the kernel's verifier does.
 *
 * What it cannot follow (a context pointer passed to a subprogram, or
 * computed with a variable offset) is still checked at run time by
 * hr_mem_check(); this pass only turns provable faults into load errors.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctx_check.h"

#define NSLOTS (HR_STACK_SIZE / 8)

enum kind {
	K_UNSET = 0, /* not reached yet */
	K_UNKNOWN,
	K_CTX,
};

struct val {
	uint8_t kind;
	int32_t off;
};

struct state {
	bool reached;
	struct val reg[HR_NREGS];
	struct val slot[NSLOTS];
};

static bool join_val(struct val *dst, const struct val *src)
{
	if (dst->kind == src->kind && dst->off == src->off)
		return false;
	if (dst->kind == K_UNKNOWN)
		return false;
	dst->kind = K_UNKNOWN;
	dst->off = 0;
	return true;
}

/* Merges @in into @st; true when @st changed. */
static bool join(struct state *st, const struct state *in)
{
	bool changed = false;
	int i;

	if (!st->reached) {
		*st = *in;
		return true;
	}
	for (i = 0; i < HR_NREGS; i++)
		changed |= join_val(&st->reg[i], &in->reg[i]);
	for (i = 0; i < NSLOTS; i++)
		changed |= join_val(&st->slot[i], &in->slot[i]);
	return changed;
}

static void set_unknown(struct val *v)
{
	v->kind = K_UNKNOWN;
	v->off = 0;
}

/* The stack slot an access at r10 + @off of @size bytes falls into. */
static int slot_of(int off, int size)
{
	if (off >= 0 || off < -HR_STACK_SIZE || off + size > 0)
		return -1;
	return (off + HR_STACK_SIZE) / 8;
}

static void clobber_stack(struct state *st, int off, int size)
{
	int lo = slot_of(off, 1), hi = slot_of(off + size - 1, 1), i;

	if (lo < 0 || hi < 0)
		return;
	for (i = lo; i <= hi; i++)
		set_unknown(&st->slot[i]);
}

struct ctx_checker {
	const struct hr_prog *prog;
	const struct hr_prog_type *type;
	char *err;
	size_t errsz;
};

static int check_access(struct ctx_checker *c, uint32_t pc,
			const struct val *base, const struct hr_insn *insn,
			bool write)
{
	int size = hr_size_bytes(insn->code);
	int off = base->off + insn->off;

	if (HR_MODE(insn->code) == HR_ATOMIC) {
		snprintf(c->err, c->errsz,
			 "insn %u: atomic operation on the context is not "
			 "allowed",
			 pc);
		return -EACCES;
	}
	if (c->type->ctx_access(c->prog, off, size, write))
		return 0;
	snprintf(c->err, c->errsz,
		 "insn %u: invalid bpf_context access off=%d size=%d (%s)", pc,
		 off, size, write ? "write" : "read");
	return -EACCES;
}

/* Applies @insn at @pc to @st; fills the successors. */
static int step(struct ctx_checker *c, uint32_t pc, const struct hr_insn *insn,
		struct state *st)
{
	uint8_t cls = HR_CLASS(insn->code), op = HR_OP(insn->code);
	struct val *dst = &st->reg[insn->dst], *src = &st->reg[insn->src];
	int slot, err;

	switch (cls) {
	case HR_ALU64:
		if (op == HR_MOV && HR_SRC(insn->code) == HR_X && !insn->off) {
			*dst = *src;
		} else if (op == HR_ADD && HR_SRC(insn->code) == HR_K &&
			   dst->kind == K_CTX) {
			dst->off += insn->imm;
		} else if (op == HR_SUB && HR_SRC(insn->code) == HR_K &&
			   dst->kind == K_CTX) {
			dst->off -= insn->imm;
		} else {
			set_unknown(dst);
		}
		break;
	case HR_ALU:
	case HR_LD:
		set_unknown(dst);
		break;
	case HR_LDX:
		if (src->kind == K_CTX) {
			err = check_access(c, pc, src, insn, false);
			if (err)
				return err;
		}
		slot = insn->src == 10 ? slot_of(insn->off, 8) : -1;
		if (slot >= 0 && HR_SIZE(insn->code) == HR_DW &&
		    HR_MODE(insn->code) == HR_MEM && !((insn->off) & 7))
			*dst = st->slot[slot];
		else
			set_unknown(dst);
		break;
	case HR_ST:
	case HR_STX:
		if (dst->kind == K_CTX) {
			err = check_access(c, pc, dst, insn, true);
			if (err)
				return err;
		}
		if (insn->dst != 10)
			break;
		if (HR_MODE(insn->code) == HR_ATOMIC && (insn->imm & HR_FETCH))
			set_unknown(insn->imm == HR_CMPXCHG ? &st->reg[0] :
							      src);
		clobber_stack(st, insn->off, hr_size_bytes(insn->code));
		slot = slot_of(insn->off, 8);
		if (cls == HR_STX && HR_MODE(insn->code) == HR_MEM &&
		    HR_SIZE(insn->code) == HR_DW && slot >= 0 &&
		    !(insn->off & 7))
			st->slot[slot] = *src;
		break;
	case HR_JMP:
		if (op == HR_CALL) {
			int i;

			for (i = 0; i <= 5; i++)
				set_unknown(&st->reg[i]);
		}
		break;
	default:
		break;
	}
	return 0;
}

static int successors(const struct hr_insn *insns, uint32_t cnt, uint32_t pc,
		      uint32_t out[2])
{
	const struct hr_insn *insn = &insns[pc];
	uint8_t cls = HR_CLASS(insn->code), op = HR_OP(insn->code);
	int n = 0;

	if (insn->code == HR_OPC_LDDW) {
		out[n++] = pc + 2;
		return n;
	}
	if (cls != HR_JMP && cls != HR_JMP32) {
		out[n++] = pc + 1;
		return n;
	}
	if (op == HR_EXIT)
		return 0;
	if (op == HR_CALL) {
		out[n++] = pc + 1;
		return n;
	}
	if (op == HR_JA) {
		out[n++] = pc + 1 + (cls == HR_JMP ? insn->off : insn->imm);
		return n;
	}
	out[n++] = pc + 1;
	out[n++] = pc + 1 + insn->off;
	return n;
}

int hr_ctx_check(const struct hr_prog *prog, const struct hr_prog_type *type,
		 char *err, size_t errsz)
{
	struct ctx_checker c = { prog, type, err, errsz };
	uint32_t cnt = prog->cnt, *work, nwork = 0, pc, next[2];
	struct state *states, cur;
	uint8_t *queued;
	int ret = 0, n, i;

	if (!type->ctx_access || !cnt)
		return 0;
	states = calloc(cnt, sizeof(*states));
	work = calloc(cnt, sizeof(*work));
	queued = calloc(cnt, 1);
	if (!states || !work || !queued) {
		ret = -ENOMEM;
		goto out;
	}
	memset(&cur, 0, sizeof(cur));
	cur.reached = true;
	for (i = 0; i < HR_NREGS; i++)
		set_unknown(&cur.reg[i]);
	for (i = 0; i < NSLOTS; i++)
		set_unknown(&cur.slot[i]);
	cur.reg[1].kind = K_CTX;
	join(&states[0], &cur);
	work[nwork++] = 0;
	queued[0] = 1;
	/* A pc is queued at most once at a time and the lattice only moves
	 * down (CTX -> UNKNOWN), so this terminates. */
	while (nwork) {
		pc = work[--nwork];
		queued[pc] = 0;
		cur = states[pc];
		ret = step(&c, pc, &prog->insns[pc], &cur);
		if (ret)
			goto out;
		n = successors(prog->insns, cnt, pc, next);
		for (i = 0; i < n; i++) {
			if (next[i] >= cnt)
				continue; /* the validator reports it */
			if (join(&states[next[i]], &cur) && !queued[next[i]]) {
				queued[next[i]] = 1;
				work[nwork++] = next[i];
			}
		}
	}
out:
	free(states);
	free(work);
	free(queued);
	return ret;
}
