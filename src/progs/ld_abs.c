// SPDX-License-Identifier: MIT
/*
 * The legacy packet loads LD_ABS and LD_IND, for the program types the
 * kernel's may_access_skb() allows them in (tc here). Each is rewritten
 * before the engines see it into the call sequence the kernel's
 * bpf_gen_ld_abs() (net/core/filter.c) makes, so that the interpreter, the
 * JIT and the checked JIT all run plain instructions:
 *
 *	r2 = imm            (LD_IND: r2 = src; r2 += imm)
 *	r1 = r6             the skb, which the verifier wants in r6
 *	call load_{8,16,32} r0 = the value in host order, or < 0
 *	if r0 s>= 0 goto +2
 *	w0 = 0              a failed load returns 0 from the function
 *	exit
 *
 * Jumps, local calls and function addresses are moved over the inserted
 * instructions, as the kernel's bpf_patch_insn_data() does, and so are the
 * functions' bounds; prog->orig_pc keeps each instruction's number in the
 * object, the one the kernel's log and line info give, for what headroom
 * reports.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "progs/ld_abs.h"

#define SEQ_MAX 7

static bool is_ld_abs(const struct hr_insn *in)
{
	uint8_t mode = HR_MODE(in->code);

	return HR_CLASS(in->code) == HR_LD &&
	       (mode == HR_ABS || mode == HR_IND);
}

static struct hr_insn mk(uint8_t code, uint8_t dst, uint8_t src, int16_t off,
			 int32_t imm)
{
	struct hr_insn in = { .code = code, .dst = dst, .src = src };

	in.off = off;
	in.imm = imm;
	return in;
}

/* The sequence for @in into @out; returns its length. */
static uint32_t expand_one(const struct hr_insn *in, struct hr_insn *out)
{
	uint32_t n = 0;

	if (HR_MODE(in->code) == HR_ABS) {
		out[n++] = mk(HR_ALU64 | HR_MOV | HR_K, 2, 0, 0, in->imm);
	} else {
		out[n++] = mk(HR_ALU64 | HR_MOV | HR_X, 2, in->src, 0, 0);
		if (in->imm)
			out[n++] =
				mk(HR_ALU64 | HR_ADD | HR_K, 2, 0, 0, in->imm);
	}
	out[n++] = mk(HR_ALU64 | HR_MOV | HR_X, 1, 6, 0, 0);
	out[n++] = mk(HR_JMP | HR_CALL, 0, HR_CALL_KFUNC, 0, 0);
	out[n++] = mk(HR_JMP | HR_JSGE | HR_K, 0, 0, 2, 0);
	out[n++] = mk(HR_ALU | HR_MOV | HR_K, 0, 0, 0, 0);
	out[n++] = mk(HR_JMP | HR_EXIT, 0, 0, 0, 0);
	return n;
}

/* check_ld_abs(): the fields the kernel wants zero, and the sizes. */
static const char *bad_fields(const struct hr_insn *in)
{
	if (in->dst != 0 || in->off != 0 || HR_SIZE(in->code) == HR_DW ||
	    (HR_MODE(in->code) == HR_ABS && in->src != 0))
		return "BPF_LD_[ABS|IND] uses reserved fields";
	if (HR_MODE(in->code) == HR_IND && in->src >= HR_NREGS)
		return "BPF_LD_IND with an invalid source register";
	return NULL;
}

static hr_helper_fn load_fn(const hr_helper_fn fns[3], uint8_t code)
{
	switch (HR_SIZE(code)) {
	case HR_B:
		return fns[0];
	case HR_H:
		return fns[1];
	default:
		return fns[2];
	}
}

/*
 * The pc-relative field of @in (at old index @pc) that names another
 * instruction, or NULL: a jump's off (gotol's imm), a local call's imm, a
 * function address's imm.
 */
static void *rel_field(struct hr_insn *in, bool *is_imm)
{
	uint8_t cls = HR_CLASS(in->code), op = HR_OP(in->code);

	*is_imm = true;
	if (in->code == HR_OPC_LDDW)
		return in->src == HR_PSEUDO_FUNC ? &in->imm : NULL;
	if (cls != HR_JMP && cls != HR_JMP32)
		return NULL;
	if (op == HR_EXIT)
		return NULL;
	if (op == HR_CALL)
		return cls == HR_JMP && in->src == HR_CALL_LOCAL &&
				       HR_SRC(in->code) == HR_K ?
			       &in->imm :
			       NULL;
	if (cls == HR_JMP32 && op == HR_JA)
		return &in->imm;
	*is_imm = false;
	return &in->off;
}

/* Moves @in's target from old to new indexes; -E2BIG when it no longer
 * fits the field. A target outside the program stays outside. */
static int relocate(struct hr_insn *in, uint32_t pc, const uint32_t *newpos,
		    uint32_t cnt, uint32_t newcnt)
{
	bool is_imm;
	void *f = rel_field(in, &is_imm);
	int64_t rel, dst, nrel;

	if (!f)
		return 0;
	rel = is_imm ? *(int32_t *)f : *(int16_t *)f;
	dst = (int64_t)pc + 1 + rel;
	if (dst < 0 || dst > cnt)
		nrel = rel < 0 ? rel : rel + (int64_t)(newcnt - cnt);
	else
		nrel = (int64_t)newpos[dst] - ((int64_t)newpos[pc] + 1);
	if (is_imm) {
		if (nrel < INT32_MIN || nrel > INT32_MAX)
			return -E2BIG;
		*(int32_t *)f = (int32_t)nrel;
	} else {
		if (nrel < INT16_MIN || nrel > INT16_MAX)
			return -E2BIG;
		*(int16_t *)f = (int16_t)nrel;
	}
	return 0;
}

/* Each function's bounds from old to new indexes (@newpos has one entry
 * past the last instruction), before the program's count changes. */
static void move_funcs(struct hr_prog *prog, const uint32_t *newpos)
{
	for (uint32_t i = 0; prog->funcs && i < prog->nfuncs; i++) {
		struct hr_prog_func *f = &prog->funcs[i];
		uint64_t end = (uint64_t)f->start + f->cnt;

		if (f->start > prog->cnt || end > prog->cnt)
			continue;
		f->cnt = newpos[end] - newpos[f->start];
		f->start = newpos[f->start];
	}
}

int hr_ld_abs_expand(struct hr_prog *prog, const hr_helper_fn fns[3], char *err,
		     size_t errsz)
{
	struct hr_insn *ni = NULL, seq[SEQ_MAX];
	hr_helper_fn *nc = NULL;
	const struct hr_kfunc **nk = NULL;
	uint32_t *newpos = NULL, *no = NULL, pc, n, k, newcnt = 0, found = 0;
	const char *why;
	int ret = 0;

	for (pc = 0; pc < prog->cnt; pc++) {
		const struct hr_insn *in = &prog->insns[pc];

		if (!is_ld_abs(in))
			continue;
		if (!fns) {
			snprintf(err, errsz,
				 "section '%s' insn %u: BPF_LD_[ABS|IND] "
				 "instructions not allowed for this program "
				 "type (the kernel's may_access_skb: socket "
				 "filters, tc)",
				 prog->sec, pc);
			return -EINVAL;
		}
		why = bad_fields(in);
		if (why) {
			snprintf(err, errsz, "section '%s' insn %u: %s",
				 prog->sec, pc, why);
			return -EINVAL;
		}
		found++;
	}
	if (!found)
		return 0;
	newpos = calloc(prog->cnt + 1, sizeof(*newpos));
	if (!newpos)
		return -ENOMEM;
	for (pc = 0; pc < prog->cnt; pc++) {
		newpos[pc] = newcnt;
		newcnt += is_ld_abs(&prog->insns[pc]) ?
				  expand_one(&prog->insns[pc], seq) :
				  1;
	}
	newpos[prog->cnt] = newcnt;
	ni = calloc(newcnt, sizeof(*ni));
	nc = calloc(newcnt, sizeof(*nc));
	nk = calloc(newcnt, sizeof(*nk));
	no = calloc(newcnt, sizeof(*no));
	if (!ni || !nc || !nk || !no) {
		ret = -ENOMEM;
		goto out;
	}
	for (pc = 0; pc < prog->cnt; pc++) {
		struct hr_insn in = prog->insns[pc];
		uint32_t at = newpos[pc];

		if (!is_ld_abs(&in)) {
			ret = relocate(&in, pc, newpos, prog->cnt, newcnt);
			if (ret) {
				snprintf(err, errsz,
					 "section '%s' insn %u: jump too far "
					 "once BPF_LD_[ABS|IND] is expanded",
					 prog->sec, pc);
				goto out;
			}
			ni[at] = in;
			no[at] = pc;
			if (prog->calls)
				nc[at] = prog->calls[pc];
			if (prog->kfuncs)
				nk[at] = prog->kfuncs[pc];
			continue;
		}
		n = expand_one(&in, seq);
		for (k = 0; k < n; k++) {
			ni[at + k] = seq[k];
			no[at + k] = pc;
			if (seq[k].code == (HR_JMP | HR_CALL))
				nc[at + k] = load_fn(fns, in.code);
		}
	}
	move_funcs(prog, newpos);
	free(prog->insns);
	free(prog->calls);
	free(prog->kfuncs);
	free(prog->orig_pc);
	prog->insns = ni;
	prog->calls = nc;
	prog->kfuncs = nk;
	prog->orig_pc = no;
	prog->orig_cnt = prog->cnt;
	prog->cnt = newcnt;
	ni = NULL;
	nc = NULL;
	nk = NULL;
	no = NULL;
out:
	free(ni);
	free(nc);
	free(nk);
	free(no);
	free(newpos);
	return ret;
}
