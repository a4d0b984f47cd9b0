// SPDX-License-Identifier: MIT
/*
 * Load-time check of context accesses: a small forward data-flow pass that
 * follows the context pointer from r1 through register moves, constant
 * adds and 8-byte stack spills, and asks the program type whether each
 * load or store through it is allowed, as the kernel's verifier does
 * (check_ctx_access).
 *
 * What it cannot follow (a context pointer passed to a subprogram, or
 * computed with a variable offset) is still checked at run time by
 * hr_mem_check(); this pass only turns provable faults into load errors.
 *
 * Cost: states join only at leaders (cfg.h), which wait in reverse
 * post-order; between leaders a walk carries one state through the
 * straight line. A state is the set of registers and stack slots that
 * hold the context, each with its offset, and a join only removes
 * members, so a leader is walked at most 1 + HR_NREGS + NSLOTS times
 * (76): linear in the program, acyclic code walked once. States are kept
 * encoded at leaders only (10 bytes and 4 a member), a few bytes an
 * instruction.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vm/cfg.h"
#include "vm/ctx_check.h"

#define NSLOTS (HR_STACK_SIZE / 8)
/* Context offsets tracked; a pointer moved further is not followed. */
#define OFF_LIMIT (1 << 20)

/* The registers and 8-byte stack slots that hold the context + off. */
struct state {
	uint16_t rmask;
	uint64_t smask;
	int32_t roff[HR_NREGS];
	int32_t soff[NSLOTS];
};

#define ENC_MAX (2 + 8 + 4 * (HR_NREGS + NSLOTS))

static size_t enc(const struct state *s, uint8_t *out)
{
	uint8_t *p = out + 10;
	int i;

	memcpy(out, &s->rmask, 2);
	memcpy(out + 2, &s->smask, 8);
	for (i = 0; i < HR_NREGS; i++)
		if (s->rmask >> i & 1) {
			memcpy(p, &s->roff[i], 4);
			p += 4;
		}
	for (i = 0; i < NSLOTS; i++)
		if (s->smask >> i & 1) {
			memcpy(p, &s->soff[i], 4);
			p += 4;
		}
	return (size_t)(p - out);
}

static void dec(const uint8_t *p, struct state *s)
{
	int i;

	memset(s, 0, sizeof(*s));
	memcpy(&s->rmask, p, 2);
	memcpy(&s->smask, p + 2, 8);
	p += 10;
	for (i = 0; i < HR_NREGS; i++)
		if (s->rmask >> i & 1) {
			memcpy(&s->roff[i], p, 4);
			p += 4;
		}
	for (i = 0; i < NSLOTS; i++)
		if (s->smask >> i & 1) {
			memcpy(&s->soff[i], p, 4);
			p += 4;
		}
}

/* Keeps in @d only what @in agrees on; true when @d changed. */
static bool join(struct state *d, const struct state *in)
{
	uint16_t rm = d->rmask & in->rmask;
	uint64_t sm = d->smask & in->smask, bits;
	bool changed;
	int i;

	for (bits = rm; bits; bits &= bits - 1) {
		i = __builtin_ctzll(bits);
		if (d->roff[i] != in->roff[i])
			rm &= ~(1u << i);
	}
	for (bits = sm; bits; bits &= bits - 1) {
		i = __builtin_ctzll(bits);
		if (d->soff[i] != in->soff[i])
			sm &= ~(1ull << i);
	}
	changed = rm != d->rmask || sm != d->smask;
	d->rmask = rm;
	d->smask = sm;
	return changed;
}

static bool reg_ctx(const struct state *s, int r)
{
	return s->rmask >> r & 1;
}

static void set_reg(struct state *s, int r, bool ctx, int64_t off)
{
	if (ctx && off >= -OFF_LIMIT && off <= OFF_LIMIT) {
		s->rmask |= 1u << r;
		s->roff[r] = (int32_t)off;
	} else {
		s->rmask &= ~(1u << r);
	}
}

/* The stack slot an access at r10 + @off of @size bytes falls into. */
static int slot_of(int off, int size)
{
	if (off >= 0 || off < -HR_STACK_SIZE || off + size > 0)
		return -1;
	return (off + HR_STACK_SIZE) / 8;
}

static void clobber_stack(struct state *s, int off, int size)
{
	int lo = slot_of(off, 1), hi = slot_of(off + size - 1, 1), i;

	if (lo < 0 || hi < 0)
		return;
	for (i = lo; i <= hi; i++)
		s->smask &= ~(1ull << i);
}

struct ctx_checker {
	const struct hr_prog *prog;
	const struct hr_prog_type *type;
	char *err;
	size_t errsz;
	struct hr_cfg cfg;
	struct hr_arena arena;
	uint32_t *loff; /* per leader: its state in arena, or NONE */
};

static int check_access(struct ctx_checker *c, uint32_t pc, int32_t base,
			const struct hr_insn *insn, bool write)
{
	int size = hr_size_bytes(insn->code);
	int off = base + insn->off; /* |base| <= OFF_LIMIT: no overflow */

	if (HR_MODE(insn->code) == HR_ATOMIC) {
		snprintf(c->err, c->errsz,
			 "insn %u: atomic operation on the context in R%u is "
			 "not allowed",
			 hr_prog_orig_pc(c->prog, pc), (unsigned int)insn->dst);
		return -EACCES;
	}
	if (c->type->ctx_access(c->prog, off, size, write))
		return 0;
	snprintf(c->err, c->errsz,
		 "insn %u: invalid bpf_context access off=%d size=%d (%s)",
		 hr_prog_orig_pc(c->prog, pc), off, size,
		 write ? "write" : "read");
	return -EACCES;
}

/* Applies @insn at @pc to @st. */
static int step(struct ctx_checker *c, uint32_t pc, const struct hr_insn *insn,
		struct state *st)
{
	uint8_t cls = HR_CLASS(insn->code), op = HR_OP(insn->code);
	int d = insn->dst, s = insn->src, slot, err, i;

	switch (cls) {
	case HR_ALU64:
		if (op == HR_MOV && HR_SRC(insn->code) == HR_X && !insn->off)
			set_reg(st, d, reg_ctx(st, s), st->roff[s]);
		else if (op == HR_ADD && HR_SRC(insn->code) == HR_K &&
			 reg_ctx(st, d))
			set_reg(st, d, true, (int64_t)st->roff[d] + insn->imm);
		else if (op == HR_SUB && HR_SRC(insn->code) == HR_K &&
			 reg_ctx(st, d))
			set_reg(st, d, true, (int64_t)st->roff[d] - insn->imm);
		else
			set_reg(st, d, false, 0);
		break;
	case HR_ALU:
	case HR_LD:
		set_reg(st, d, false, 0);
		break;
	case HR_LDX:
		if (reg_ctx(st, s)) {
			err = check_access(c, pc, st->roff[s], insn, false);
			if (err)
				return err;
		}
		slot = s == 10 ? slot_of(insn->off, 8) : -1;
		if (slot >= 0 && HR_SIZE(insn->code) == HR_DW &&
		    HR_MODE(insn->code) == HR_MEM && !(insn->off & 7))
			set_reg(st, d, st->smask >> slot & 1, st->soff[slot]);
		else
			set_reg(st, d, false, 0);
		break;
	case HR_ST:
	case HR_STX:
		if (reg_ctx(st, d)) {
			err = check_access(c, pc, st->roff[d], insn, true);
			if (err)
				return err;
		}
		/* These write the old value to r0 or src, wherever they
		 * point. */
		if (cls == HR_STX && HR_MODE(insn->code) == HR_ATOMIC &&
		    (insn->imm & HR_FETCH))
			set_reg(st, insn->imm == HR_CMPXCHG ? 0 : s, false, 0);
		if (d != 10)
			break;
		clobber_stack(st, insn->off, hr_size_bytes(insn->code));
		slot = slot_of(insn->off, 8);
		if (cls == HR_STX && HR_MODE(insn->code) == HR_MEM &&
		    HR_SIZE(insn->code) == HR_DW && slot >= 0 &&
		    !(insn->off & 7) && reg_ctx(st, s)) {
			st->smask |= 1ull << slot;
			st->soff[slot] = st->roff[s];
		}
		break;
	case HR_JMP:
		if (op == HR_CALL)
			for (i = 0; i <= 5; i++)
				set_reg(st, i, false, 0);
		break;
	default:
		break;
	}
	return 0;
}

/* This pass's control flow (hr_cfg_succ_fn): local calls are not
 * followed (the callee's r1 is not known to be the context). */
static uint32_t succs(const void *arg, uint32_t pc, uint32_t *other)
{
	const struct hr_prog *prog = arg;
	const struct hr_insn *insn = &prog->insns[pc];
	uint8_t cls = HR_CLASS(insn->code), op = HR_OP(insn->code);

	*other = HR_CFG_NONE;
	if (insn->code == HR_OPC_LDDW)
		return pc + 2;
	if (cls != HR_JMP && cls != HR_JMP32)
		return pc + 1;
	if (op == HR_EXIT)
		return HR_CFG_NONE;
	if (op == HR_CALL)
		return pc + 1;
	if (op == HR_JA) {
		*other = pc + 1 +
			 (uint32_t)(cls == HR_JMP ? insn->off : insn->imm);
		return HR_CFG_NONE;
	}
	*other = pc + 1 + (uint32_t)insn->off;
	return pc + 1;
}

/* Merges @s into the state entering leader @pc (the validator reports
 * targets outside the program). */
static int flow(struct ctx_checker *c, uint32_t pc, const struct state *s)
{
	uint8_t buf[ENC_MAX];
	struct state d;
	uint32_t li;

	if (pc >= c->prog->cnt)
		return 0;
	li = hr_cfg_index(&c->cfg, pc);
	if (c->loff[li] != HR_CFG_NONE) {
		dec(hr_arena_get(&c->arena, c->loff[li]), &d);
		if (!join(&d, s))
			return 0;
		s = &d;
	}
	if (hr_arena_put(&c->arena, &c->loff[li], buf, enc(s, buf)))
		return -ENOMEM;
	hr_cfg_push(&c->cfg, li);
	return 0;
}

/* From leader @li through fall-throughs to the next leader. */
static int walk(struct ctx_checker *c, uint32_t li)
{
	uint32_t pc = c->cfg.leader_pc[li], next, other;
	struct state s;
	int ret;

	dec(hr_arena_get(&c->arena, c->loff[li]), &s);
	for (;;) {
		ret = step(c, pc, &c->prog->insns[pc], &s);
		if (ret)
			return ret;
		next = succs(c->prog, pc, &other);
		if (other != HR_CFG_NONE) {
			ret = flow(c, other, &s);
			if (ret)
				return ret;
		}
		if (next >= c->prog->cnt)
			return 0;
		if (hr_cfg_is_leader(&c->cfg, next))
			return flow(c, next, &s);
		pc = next;
	}
}

int hr_ctx_check(const struct hr_prog *prog, const struct hr_prog_type *type,
		 char *err, size_t errsz)
{
	struct ctx_checker c = { prog, type, err, errsz };
	struct state entry;
	uint32_t li, i;
	int ret;

	if (!type->ctx_access || !prog->cnt)
		return 0;
	if (hr_cfg_build(&c.cfg, prog->insns, prog->cnt, succs, prog))
		return -ENOMEM;
	c.loff = malloc((size_t)c.cfg.nleaders * sizeof(*c.loff));
	if (!c.loff) {
		ret = -ENOMEM;
		goto out;
	}
	for (i = 0; i < c.cfg.nleaders; i++)
		c.loff[i] = HR_CFG_NONE;
	memset(&entry, 0, sizeof(entry));
	set_reg(&entry, 1, true, 0);
	ret = flow(&c, 0, &entry);
	while (!ret && (li = hr_cfg_pop(&c.cfg)) != HR_CFG_NONE)
		ret = walk(&c, li);
out:
	if (ret == -ENOMEM)
		snprintf(err, errsz, "out of memory checking context accesses");
	hr_cfg_free(&c.cfg);
	free(c.loff);
	free(c.arena.p);
	return ret;
}
