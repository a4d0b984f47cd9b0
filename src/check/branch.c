// SPDX-License-Identifier: MIT
/*
 * headroom check: conditional jumps as the kernel's check_cond_jmp_op()
 * takes them: branches decided by known ranges, ranges narrowed on each
 * side (reg_set_min_max), packet ranges proven against data_end
 * (find_good_pkt_pointers) and NULL tests (mark_ptr_or_null_regs).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/bpf.h>

#include "check/walk.h"

/* --- conditional jumps --------------------------------------------- */

/* Whether cmp holds for values a, b (unsigned ops only). */
static int ucmp(int op, uint64_t alo, uint64_t ahi, uint64_t blo, uint64_t bhi)
{
	/* 1: always, 0: never, -1: either. */
	switch (op) {
	case HR_JEQ:
		if (alo == ahi && blo == bhi)
			return alo == blo;
		return ahi < blo || bhi < alo ? 0 : -1;
	case HR_JNE: {
		int r = ucmp(HR_JEQ, alo, ahi, blo, bhi);

		return r < 0 ? -1 : !r;
	}
	case HR_JGT:
		return alo > bhi ? 1 : ahi <= blo ? 0 : -1;
	case HR_JGE:
		return alo >= bhi ? 1 : ahi < blo ? 0 : -1;
	case HR_JLT:
		return ahi < blo ? 1 : alo >= bhi ? 0 : -1;
	case HR_JLE:
		return ahi <= blo ? 1 : alo > bhi ? 0 : -1;
	}
	return -1;
}

/* Narrows a (vs constant k) for the branch where "a op k" is @taken. */
void ck_narrow(struct reg *a, int op, uint64_t k, bool taken)
{
	if (!taken) {
		switch (op) {
		case HR_JEQ:
			op = HR_JNE;
			break;
		case HR_JNE:
			op = HR_JEQ;
			break;
		case HR_JGT:
			op = HR_JLE;
			break;
		case HR_JGE:
			op = HR_JLT;
			break;
		case HR_JLT:
			op = HR_JGE;
			break;
		case HR_JLE:
			op = HR_JGT;
			break;
		}
	}
	switch (op) {
	case HR_JEQ:
		a->lo = a->hi = k;
		break;
	case HR_JNE:
		if (a->lo == k && a->lo < a->hi)
			a->lo++;
		else if (a->hi == k && a->lo < a->hi)
			a->hi--;
		break;
	case HR_JGT:
		if (a->lo <= k)
			a->lo = k + 1;
		break;
	case HR_JGE:
		if (a->lo < k)
			a->lo = k;
		break;
	case HR_JLT:
		if (a->hi >= k)
			a->hi = k - 1;
		break;
	case HR_JLE:
		if (a->hi > k)
			a->hi = k;
		break;
	}
}

/* Narrows every copy of scalar @id as @r was narrowed. */
static void sync_copies(struct state *s, const struct reg *r)
{
	unsigned int it = 0;
	struct reg *c;

	if (!r->id)
		return;
	while ((c = each_reg(s, &it)))
		if (c->t == R_SCALAR && c->id == r->id) {
			c->lo = r->lo;
			c->hi = r->hi;
			c->sgn = r->sgn;
			c->smin = r->smin;
			c->smax = r->smax;
		}
}

/* A packet pointer's range after a comparison found it past data_end
 * (the kernel's mark_pkt_end): at it (>=) or beyond it (>). */
enum { AT_PKT_END = -1, BEYOND_PKT_END = -2 };

/* The proven range after "pkt op end" (or "meta op data"):
 * find_good_pkt_pointers on every pointer with @p's id. A strict
 * comparison (@open) proves one byte less than the pointer's offset. */
void ck_good_pkt(struct state *s, const struct reg *p, bool open)
{
	unsigned int it = 0;
	struct reg *c;
	int range;

	/* find_good_pkt_pointers: no range where the variable part and
	 * the offset together may pass MAX_PACKET_OFF. */
	if (p->off < 0 || (p->off == 0 && open) || p->hi > MAX_PKT_OFF ||
	    p->hi + (uint64_t)p->off > MAX_PKT_OFF)
		return;
	range = p->off - (open ? 1 : 0);
	/* Which way the kernel rounds the strict case is not pinned down
	 * here: faults that rest on it are only "cannot tell". */
	if (open)
		s->soft = true;
	while ((c = each_reg(s, &it)))
		if (c->t == p->t && c->id == p->id && c->range < range)
			c->range = range;
}

/* A comparison of a packet pointer with its end; 0 when handled (the
 * branches' states filled, or *known the one way the kernel walks), 1
 * when it is no such comparison. As the kernel's try_match_pkt_pointers,
 * the branch where the pointer is past the end marks that register (not
 * its copies) at or beyond it; only such a mark decides a later
 * comparison (is_pkt_ptr_branch_taken), never a proven range. */
static int pkt_cmp(struct state *fall, struct state *jump, int op, int dreg,
		   int sreg, int *known)
{
	struct reg *d = &fall->r[dreg], *sr = &fall->r[sreg];
	bool end_right, with_end;
	struct reg p;
	int preg;

	*known = -1;
	if (d->t == R_PKT && sr->t == R_PKT_END)
		end_right = true;
	else if (d->t == R_PKT_END && sr->t == R_PKT)
		end_right = false;
	else if (d->t == R_META && sr->t == R_PKT && !sr->id && !sr->off)
		end_right = true;
	else if (d->t == R_PKT && !d->id && !d->off && sr->t == R_META)
		end_right = false;
	else
		return 1;
	p = end_right ? *d : *sr;
	preg = end_right ? dreg : sreg;
	with_end = p.t == R_PKT && (end_right ? sr : d)->t == R_PKT_END;
	/* Normalize to "p OP end". */
	if (!end_right) {
		switch (op) {
		case HR_JGT:
			op = HR_JLT;
			break;
		case HR_JLT:
			op = HR_JGT;
			break;
		case HR_JGE:
			op = HR_JLE;
			break;
		case HR_JLE:
			op = HR_JGE;
			break;
		}
	}
	if (with_end && p.range < 0) {
		/* is_pkt_ptr_branch_taken: a pointer known past (or at)
		 * the end decides the branch, and only that way is walked. */
		if ((op == HR_JGT || op == HR_JLE) && p.range == BEYOND_PKT_END)
			*known = op == HR_JGT;
		else if (op == HR_JGT || op == HR_JLE)
			*known = -1;
		else if (op == HR_JGE || op == HR_JLT)
			*known = op == HR_JGE;
		if (*known >= 0)
			return 0;
	}
	switch (op) {
	case HR_JGT: /* p > end: fall-through p <= end */
		ck_good_pkt(fall, &p, false);
		if (with_end) /* mark_pkt_end on the other branch */
			jump->r[preg].range = BEYOND_PKT_END;
		break;
	case HR_JLE: /* p <= end: taken */
		ck_good_pkt(jump, &p, false);
		if (with_end)
			fall->r[preg].range = BEYOND_PKT_END;
		break;
	case HR_JGE: /* p >= end: fall-through p < end */
		ck_good_pkt(fall, &p, true);
		if (with_end)
			jump->r[preg].range = AT_PKT_END;
		break;
	case HR_JLT: /* p < end: taken */
		ck_good_pkt(jump, &p, true);
		if (with_end)
			fall->r[preg].range = AT_PKT_END;
		break;
	default:
		/* == or != of packet pointers: nothing proven. */
		break;
	}
	return 0;
}

/* The NULL test of a lookup or socket result: "r == 0" / "r != 0". */
/* One register or spill after the NULL test of @id: 0 where it was NULL,
 * its not-NULL type where it was not. */
static void null_mark(struct reg *r, uint32_t id, bool isnull)
{
	if (!nonnull_type(r->t) || r->id != id)
		return;
	if (isnull)
		*r = konst(0);
	else if (nonnull_type(r->t) == R_OTHER)
		*r = (struct reg){ .t = R_OTHER };
	else
		r->t = nonnull_type(r->t);
}

static int null_test(struct walk *w, struct state *fall, struct state *jump,
		     const struct hr_insn *in, int op, int *known)
{
	struct reg *d = &fall->r[in->dst], *r;
	uint32_t id = d->id;
	unsigned int it;
	struct state *isnull, *notnull;

	*known = -1;
	if (!nonnull_type(d->t) || HR_SRC(in->code) != HR_K || in->imm != 0 ||
	    (op != HR_JEQ && op != HR_JNE))
		return 1;
	isnull = op == HR_JEQ ? jump : fall;
	notnull = op == HR_JEQ ? fall : jump;
	for (it = 0; (r = each_reg(isnull, &it));)
		null_mark(r, id, true);
	for (it = 0; (r = each_reg(notnull, &it));)
		null_mark(r, id, false);
	/* A NULL socket or record holds no reference. */
	ck_drop_ref(isnull, id);
	return 0;
}

/* Whether @r is a packet, metadata or packet end pointer. */
static bool pkt_family(const struct reg *r)
{
	return r->t == R_PKT || r->t == R_META || r->t == R_PKT_END;
}

/* @r with the signed bounds [@smin, @smax] the kernel narrowed it to,
 * its unsigned ones deduced as reg_bounds_sync deduces them: the same
 * when they do not straddle 0, else any. */
static void set_srange(struct reg *r, int64_t smin, int64_t smax)
{
	uint32_t id = r->id;

	if (smin >= 0 || smax < 0) {
		*r = scalar((uint64_t)smin, (uint64_t)smax, true);
	} else {
		*r = scalar(0, UINT64_MAX, true);
		r->sgn = true;
		r->smin = smin;
		r->smax = smax;
	}
	r->id = id;
}

/* Forget the signed bounds of @r and its copies: what the kernel learns
 * from this jump is not followed. */
static void drop_srange(struct state *s, struct reg *r)
{
	unsigned int it = 0;
	struct reg *c;

	if (r->id)
		while ((c = each_reg(s, &it)))
			if (c != r && c->t == R_SCALAR && c->id == r->id)
				*c = scalar(0, UINT64_MAX, false);
	*r = scalar(0, UINT64_MAX, false);
}

/* An unsigned compare of a register with signed bounds (its unsigned
 * ones any) against constant @k: on the way it is at most a constant
 * below 2^63, the kernel's bounds sync gives [0, min(that, smax)]; the
 * other way is not followed (soft). 0 when not this case. */
static int unsigned_bound(struct state *fall, struct state *jump, int op,
			  uint64_t k, const struct hr_insn *in)
{
	bool le_jump = op == HR_JLE || op == HR_JLT;
	struct state *le = le_jump ? jump : fall, *gt = le_jump ? fall : jump;
	struct reg *r = &le->r[in->dst];
	uint64_t max;

	if (op != HR_JGT && op != HR_JGE && op != HR_JLT && op != HR_JLE)
		return 0;
	if ((op == HR_JGE || op == HR_JLT) && !k)
		return 0;
	max = op == HR_JGE || op == HR_JLT ? k - 1 : k;
	if (max > INT64_MAX || r->smax < 0)
		return 0;
	set_srange(r, 0, (int64_t)max < r->smax ? (int64_t)max : r->smax);
	sync_copies(le, r);
	drop_srange(gt, &gt->r[in->dst]);
	gt->soft = true;
	return 1;
}

/* @r in @s, and its copies, as a 32-bit compare leaves a number the
 * kernel knew nothing of: some low half, any high half, so no signed
 * lower bound (its tnum's sign bit unknown); the range kept loose. */
static void low_half_known(struct state *s, struct reg *r)
{
	unsigned int it = 0;
	uint32_t id = r->id;
	struct reg *c;

	*r = scalar(0, UINT64_MAX, false);
	r->smin_unb = true;
	r->id = id;
	if (id)
		while ((c = each_reg(s, &it)))
			if (c != r && c->t == R_SCALAR && c->id == id)
				*c = *r;
}

/* A 32-bit unsigned compare of a number the kernel knows nothing of with
 * a constant that decides neither way: the kernel walks both and bounds
 * the low half only. 1 when this case (both ways set). */
static int low_half_cond(struct state *fall, struct state *jump,
			 const struct hr_insn *in, const struct reg *src)
{
	struct reg *d = &fall->r[in->dst];
	int op = HR_OP(in->code);

	if (d->t != R_SCALAR || !d->exact || d->lossy || d->sgn || d->lo ||
	    d->hi != UINT64_MAX || !is_const(src) || !src->lo ||
	    src->lo >= UINT32_MAX ||
	    (op != HR_JGT && op != HR_JGE && op != HR_JLT && op != HR_JLE))
		return 0;
	low_half_known(fall, d);
	low_half_known(jump, &jump->r[in->dst]);
	return 1;
}

/* A 64-bit signed compare of the register in @in with its signed bounds
 * (@fall: both states on entry, @jump the target's) against a constant:
 * each way narrows them as reg_set_min_max does, and a way they rule
 * out is not taken (is_branch_taken). Anything else on such a register
 * is not followed: the path goes soft. Returns the known outcome or -1. */
static int signed_cond(struct state *fall, struct state *jump,
		       const struct hr_insn *in, const struct reg *src)
{
	struct reg *d = &fall->r[in->dst], *dj = &jump->r[in->dst];
	int op = HR_OP(in->code);
	int64_t k = (int64_t)src->lo, tmin, tmax, fmin, fmax;

	if (HR_CLASS(in->code) == HR_JMP && d->sgn && is_const(src) &&
	    unsigned_bound(fall, jump, op, src->lo, in))
		return -1;
	if (HR_CLASS(in->code) != HR_JMP || !d->sgn || !is_const(src) ||
	    (op != HR_JSGT && op != HR_JSGE && op != HR_JSLT &&
	     op != HR_JSLE) ||
	    k == INT64_MIN || k == INT64_MAX) {
		drop_srange(fall, d);
		drop_srange(jump, dj);
		if (HR_SRC(in->code) == HR_X) {
			drop_srange(fall, &fall->r[in->src]);
			drop_srange(jump, &jump->r[in->src]);
		}
		fall->soft = true;
		jump->soft = true;
		return -1;
	}
	tmin = fmin = d->smin;
	tmax = fmax = d->smax;
	if (op == HR_JSGT || op == HR_JSGE) {
		tmin = op == HR_JSGT ? k + 1 : k;
		fmax = op == HR_JSGT ? k : k - 1;
		tmin = tmin > d->smin ? tmin : d->smin;
		fmax = fmax < d->smax ? fmax : d->smax;
	} else {
		tmax = op == HR_JSLT ? k - 1 : k;
		fmin = op == HR_JSLT ? k : k + 1;
		tmax = tmax < d->smax ? tmax : d->smax;
		fmin = fmin > d->smin ? fmin : d->smin;
	}
	if (tmin > tmax)
		return 0;
	if (fmin > fmax)
		return 1;
	set_srange(d, fmin, fmax);
	sync_copies(fall, d);
	set_srange(dj, tmin, tmax);
	sync_copies(jump, dj);
	return -1;
}

/* A conditional jump: fills *jump and returns which way(s) to go: bit 0
 * fall-through, bit 1 the target. */
int ck_cond(struct walk *w, struct state *s, struct state *jump, uint32_t pc,
	    const struct hr_insn *in)
{
	int op = HR_OP(in->code), known = -1;
	bool is32 = HR_CLASS(in->code) == HR_JMP32;
	struct reg *d = &s->r[in->dst], src;

	if (d->t == R_NONE) {
		ck_fault(w, s, pc, "R%d !read_ok", in->dst);
		return 0;
	}
	if (HR_SRC(in->code) == HR_X) {
		if (s->r[in->src].t == R_NONE) {
			ck_fault(w, s, pc, "R%d !read_ok", in->src);
			return 0;
		}
		src = s->r[in->src];
	} else {
		src = konst(is32 ? (uint64_t)(uint32_t)in->imm :
				   (uint64_t)(int64_t)in->imm);
	}
	memcpy(jump, s, state_size(s));
	if (!is32 && HR_SRC(in->code) == HR_X &&
	    !pkt_cmp(s, jump, op, in->dst, in->src, &known))
		goto out;
	if (!is32 && !null_test(w, s, jump, in, op, &known))
		goto out;
	if (d->t == R_SCALAR && src.t == R_SCALAR && (d->sgn || src.sgn)) {
		known = signed_cond(s, jump, in, &src);
		goto out;
	}
	if (is32 && low_half_cond(s, jump, in, &src))
		goto out;
	if (d->t == R_SCALAR && src.t == R_SCALAR) {
		bool ex = d->exact && src.exact && !d->lossy && !src.lossy;
		bool signed_op = op == HR_JSGT || op == HR_JSGE ||
				 op == HR_JSLT || op == HR_JSLE;

		if (signed_op) {
			/* Both non-negative: the same as unsigned. */
			if (d->hi <= INT64_MAX && src.hi <= INT64_MAX &&
			    (!is32 ||
			     (d->hi <= INT32_MAX && src.hi <= INT32_MAX))) {
				op = op == HR_JSGT ? HR_JGT :
				     op == HR_JSGE ? HR_JGE :
				     op == HR_JSLT ? HR_JLT :
						     HR_JLE;
				signed_op = false;
			}
		}
		if (signed_op || op == HR_JSET) {
			if (op == HR_JSET && is_const(d) && is_const(&src))
				known = (d->lo & src.lo) != 0;
			else
				ex = false;
		} else if (!is32 ||
			   (d->hi <= UINT32_MAX && src.hi <= UINT32_MAX)) {
			known = ucmp(op, d->lo, d->hi, src.lo, src.hi);
			if (known < 0 && is_const(&src)) {
				ck_narrow(&s->r[in->dst], op, src.lo, false);
				sync_copies(s, &s->r[in->dst]);
				ck_narrow(&jump->r[in->dst], op, src.lo, true);
				sync_copies(jump, &jump->r[in->dst]);
			} else if (known < 0 && is_const(d) &&
				   HR_SRC(in->code) == HR_X) {
				/* k op r: narrow r by the mirrored op. */
				int m = op == HR_JGT ? HR_JLT :
					op == HR_JLT ? HR_JGT :
					op == HR_JGE ? HR_JLE :
					op == HR_JLE ? HR_JGE :
						       op;

				ck_narrow(&s->r[in->src], m, d->lo, false);
				sync_copies(s, &s->r[in->src]);
				ck_narrow(&jump->r[in->src], m, d->lo, true);
				sync_copies(jump, &jump->r[in->src]);
			} else if (known < 0) {
				/* Two ranges: the kernel narrows both. */
				ex = false;
			}
		} else {
			ex = false;
		}
		if (!ex && known < 0) {
			s->soft = true;
			jump->soft = true;
		}
		goto out;
	}
	/* A 32-bit compare of two packet pointers: the kernel matches
	 * packet pointers on 64-bit jumps only (try_match_pkt_pointers)
	 * and decides no branch between pointers, so both are walked and
	 * nothing is learnt. */
	if (is32 && pkt_family(d) && pkt_family(&src))
		goto out;
	/* Pointer against number or pointer: null tests done above. */
	if (is_ptr(d) && src.t == R_SCALAR && is_const(&src) && !src.lo &&
	    d->t != R_OTHER && (op == HR_JEQ || op == HR_JNE) &&
	    !nonnull_type(d->t)) {
		known = op == HR_JNE;
		goto out;
	}
	s->soft = true;
	jump->soft = true;
out:
	jump->pc = (uint32_t)((int64_t)pc + 1 + in->off);
	if (known == 1)
		return 2;
	if (known == 0)
		return 1;
	return 3;
}
