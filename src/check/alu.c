// SPDX-License-Identifier: MIT
/*
 * headroom check: ALU instructions as the kernel's check_alu_op() and
 * adjust_ptr_min_max_vals()/adjust_scalar_min_max_vals() follow them:
 * pointer arithmetic and its refusals, scalar ranges.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/bpf.h>

#include "check/walk.h"

/* --- ALU ------------------------------------------------------------ */

/* The kernel's names of ALU operations (bpf_alu_string), by op >> 4. */
static const char *const alu_op_str[16] = {
	"+=",  "-=", "*=", "/=", "|=",	 "&=",	   "<<=", ">>=",
	"neg", "%=", "^=", "=",	 "s>>=", "endian", "?",	  "?",
};

/* Whether @p's type forbids all arithmetic (adjust_ptr_min_max_vals);
 * a map pointer takes the addition of a known 0 only. */
static bool ptr_no_math(const struct reg *p)
{
	return p->t == R_PKT_END || p->t == R_SOCK || p->t == R_SOCKC ||
	       p->t == R_MAP_PTR;
}

/* The pointer ALU operations adjust_reg_min_max_vals and
 * adjust_ptr_min_max_vals refuse, in their order: two pointers (but
 * their difference), 32-bit, a maybe-NULL or untouchable pointer, then
 * any operation but add and subtract. Pointers this model does not type
 * leave it "cannot tell". A number minus a pointer is refused too. 1 when
 * refused (the path ends). */
static int ptr_alu_refused(struct walk *w, struct state *s, uint32_t pc,
			   const struct hr_insn *in, const struct reg *src,
			   bool is64)
{
	const struct reg *d = &s->r[in->dst];
	const struct reg *p = is_ptr(d) ? d : src;
	int op = HR_OP(in->code);
	const char *os = alu_op_str[(op >> 4) & 15];

	if (p->t == R_OTHER || (is_ptr(d) && is_ptr(src) &&
				(d->t == R_OTHER || src->t == R_OTHER)))
		return 0;
	if (is_ptr(d) && is_ptr(src))
		ck_fault(w, s, pc, "R%d pointer %s pointer prohibited", in->dst,
			 os);
	else if (!is64 && op == HR_SUB)
		return 0; /* a privileged 32-bit subtract: a number */
	else if (!is64)
		ck_fault(w, s, pc, "R%d 32-bit pointer arithmetic prohibited",
			 in->dst);
	else if (nonnull_type(p->t) || ptr_no_math(p))
		return 0; /* the caller words these */
	else if (op == HR_SUB && !is_ptr(d))
		ck_fault(w, s, pc, "R%d tried to subtract pointer from scalar",
			 in->dst);
	else if (op == HR_AND || op == HR_OR || op == HR_XOR)
		ck_fault(w, s, pc,
			 "R%d bitwise operator %s on pointer prohibited",
			 in->dst, os);
	else if (op != HR_ADD && op != HR_SUB)
		ck_fault(w, s, pc,
			 "R%d pointer arithmetic with %s operator prohibited",
			 in->dst, os);
	else
		return 0;
	return 1;
}

/* check_alu_op's refusals of an immediate operand, after it has read the
 * destination: a division or modulo by 0, a shift by more than the width.
 * 1 when refused. */
static int alu_imm_refused(struct walk *w, struct state *s, uint32_t pc,
			   const struct hr_insn *in)
{
	int op = HR_OP(in->code);
	int width = HR_CLASS(in->code) == HR_ALU64 ? 64 : 32;
	bool div0 = (op == HR_DIV || op == HR_MOD) && !in->imm;
	bool shift = (op == HR_LSH || op == HR_RSH || op == HR_ARSH) &&
		     (in->imm < 0 || in->imm >= width);

	if (HR_SRC(in->code) != HR_K || (!div0 && !shift))
		return 0;
	if (s->r[in->dst].t == R_NONE)
		ck_fault(w, s, pc, "R%d !read_ok", in->dst);
	else if (div0)
		ck_fault(w, s, pc, "div by zero");
	else
		ck_fault(w, s, pc, "invalid shift %d", in->imm);
	return 1;
}

/* A 64-bit add or subtract of @n to map pointer @p: the kernel lets
 * through only the addition of a number it knows is 0 (@p unchanged). */
static int map_ptr_add(struct walk *w, struct state *s, uint32_t pc,
		       const struct hr_insn *in, const struct reg *p,
		       const struct reg *n)
{
	bool add = HR_OP(in->code) == HR_ADD;

	if (add && is_const(n) && n->lo == 0) {
		s->r[in->dst] = *p;
		return 0;
	}
	/* An inexact number that may be 0: the kernel may know it is. */
	if (add && n->lo == 0 && !n->exact) {
		ck_set_unknown(w, pc, "arithmetic on a map pointer");
		return -1;
	}
	return ck_fault(w, s, pc, "R%d pointer arithmetic on %s prohibited",
			in->dst, ck_reg_str(p));
}

/* Whether @d is the first half of the sign extension idiom "r <<= k;
 * r s>>= k" (k = @sh) over a number the kernel knows as any k-bit-short
 * value: [0, 2^(64-k) - 1] shifted up, its tnum those top bits unknown
 * (the left shift's case in alu marks such a range lossy). */
bool ck_sign_extended(const struct reg *d, int sh)
{
	return sh > 0 && sh < 64 && d->t == R_SCALAR && d->exact && d->lossy &&
	       !d->lo && d->hi == (UINT64_MAX >> sh) << sh;
}

/* The idiom's result as scalar_min_max_arsh leaves it: the signed range
 * of a (64 - @sh)-bit number, e.g. [-128, 127] for a byte, and any
 * unsigned one (its tnum knows no bit). */
static struct reg sign_extension(int sh)
{
	struct reg r = scalar(0, UINT64_MAX, true);

	r.sgn = true;
	r.smin = -(int64_t)(1ull << (63 - sh));
	r.smax = (int64_t)((1ull << (63 - sh)) - 1);
	return r;
}

int ck_alu(struct walk *w, struct state *s, uint32_t pc,
	   const struct hr_insn *in)
{
	bool is64 = HR_CLASS(in->code) == HR_ALU64;
	int op = HR_OP(in->code);
	struct reg *d = &s->r[in->dst];
	struct reg src;

	if (alu_imm_refused(w, s, pc, in))
		return -1;
	if (in->dst == 10)
		return ck_fault(w, s, pc, "frame pointer is read only");
	if (HR_SRC(in->code) == HR_X && op != HR_END && op != HR_NEG) {
		if (s->r[in->src].t == R_NONE)
			return ck_fault(w, s, pc, "R%d !read_ok", in->src);
		src = s->r[in->src];
	} else {
		src = konst(is64 ? (uint64_t)(int64_t)in->imm :
				   (uint64_t)(uint32_t)in->imm);
	}
	if (op == HR_MOV) {
		if (in->off) { /* movsx */
			*d = scalar(0, UINT64_MAX, false);
			return 0;
		}
		if (!is64 && src.t == R_SCALAR && src.hi > UINT32_MAX)
			src = scalar(0, UINT32_MAX, false);
		else if (!is64 && is_ptr(&src))
			src = scalar(0, UINT32_MAX, false);
		if (src.t == R_SCALAR && HR_SRC(in->code) == HR_X && !src.id) {
			src.id = ++w->next_id;
			s->r[in->src].id = src.id;
		}
		*d = src;
		return 0;
	}
	if (d->t == R_NONE)
		return ck_fault(w, s, pc, "R%d !read_ok", in->dst);
	/* Pointer arithmetic. */
	if (d->t == R_FUNC || src.t == R_FUNC) {
		ck_set_unknown(w, pc, "arithmetic on a callback's address");
		return -1;
	}
	if (is_ptr(d) || is_ptr(&src)) {
		struct reg p, n;

		/* Two pointers the kernel types too: their difference is a
		 * number it knows nothing of (mark_reg_unknown). */
		if (op == HR_SUB && is_ptr(d) && is_ptr(&src)) {
			*d = scalar(0, UINT64_MAX,
				    d->t != R_OTHER && src.t != R_OTHER);
			return 0;
		}
		if (op != HR_NEG && op != HR_END &&
		    ptr_alu_refused(w, s, pc, in, &src, is64))
			return -1;
		if (!is64 || (op != HR_ADD && op != HR_SUB) ||
		    (op == HR_SUB && is_ptr(&src))) {
			*d = (struct reg){ .t = R_OTHER };
			return 0;
		}
		p = is_ptr(d) ? *d : src;
		n = is_ptr(d) ? src : *d;
		if (p.t == R_MAP_PTR)
			return map_ptr_add(w, s, pc, in, &p, &n);
		/* check_reg_sane_offset on the number, before any bound
		 * of the pointer's own. */
		if (n.smin_unb &&
		    (p.t == R_VAL || p.t == R_PKT || p.t == R_META))
			return ck_fault(
				w, s, pc,
				"math between %s pointer and register "
				"with unbounded min value is not allowed",
				ck_reg_str(&p));
		if (nonnull_type(p.t) || ptr_no_math(&p)) {
			if (p.t == R_VAL_OR_NULL && p.maybe_nonnull) {
				ck_set_unknown(w, pc,
					       "arithmetic on an array "
					       "lookup before its NULL "
					       "test");
				return -1;
			}
			return ck_fault(
				w, s, pc,
				"R%d pointer arithmetic on %s prohibited%s",
				in->dst, ck_reg_str(&p),
				nonnull_type(p.t) ? ", null-check it first" :
						    "");
		}
		if (is_const(&n)) {
			int64_t k = op == HR_SUB ? -(int64_t)n.lo :
						   (int64_t)n.lo;

			if (k > (1 << 29) || k < -(1 << 29)) {
				*d = (struct reg){ .t = R_OTHER };
				return 0;
			}
			p.off += (int32_t)k;
			*d = p;
			return 0;
		}
		if (op == HR_SUB || p.t == R_CTX || p.t == R_STACK ||
		    p.t == R_MAP_PTR || p.t == R_OTHER) {
			*d = (struct reg){ .t = R_OTHER };
			return 0;
		}
		if ((p.t == R_PKT || p.t == R_META) && n.sgn && op == HR_ADD &&
		    p.exact && !p.id && !p.lo && !p.hi) {
			/* check_reg_sane_offset looks at the number's smin;
			 * the pointer then takes its bounds: unsigned any,
			 * signed below 0 (check_packet_access refuses). */
			if (n.smin <= -(1 << 29))
				return ck_fault(
					w, s, pc,
					"value %lld makes %s pointer be "
					"out of bounds",
					(long long)n.smin, ck_reg_str(&p));
			p.hi = UINT64_MAX;
			p.id = ++w->next_id;
			p.range = 0;
			*d = p;
			return 0;
		}
		if (p.t == R_PKT || p.t == R_META) {
			if (n.exact && n.lo > INT64_MAX / 2 &&
			    n.hi > INT64_MAX) {
				return ck_fault(w, s, pc,
						"math between pkt pointer and "
						"register with unbounded min "
						"value is not allowed");
			}
			if (!n.exact || n.hi > INT64_MAX) {
				p.exact = false;
			}
			p.lo += n.lo;
			p.hi = p.hi + n.hi < p.hi ? UINT64_MAX : p.hi + n.hi;
			p.exact = p.exact && n.exact;
			p.id = ++w->next_id;
			p.range = 0;
			*d = p;
			return 0;
		}
		/* Map values: the offset's range joins the variable part;
		 * a negative signed bound the kernel keeps is not followed
		 * (check_mem_region_access words it). */
		p.lo += n.lo;
		p.hi = p.hi + n.hi < p.hi ? UINT64_MAX : p.hi + n.hi;
		p.exact = p.exact && n.exact && !n.sgn;
		*d = p;
		return 0;
	}
	/* Scalars. */
	{
		struct reg r = *d;
		bool ex = d->exact && src.exact;
		bool lossy = d->lossy || src.lossy;

		if ((op == HR_ADD || op == HR_SUB) && is_const(&src) &&
		    (is64 ? (int64_t)src.lo < 0 : (int32_t)src.lo < 0)) {
			uint64_t k = is64 ? -src.lo :
					    (uint32_t) - (uint32_t)src.lo;

			op = op == HR_ADD ? HR_SUB : HR_ADD;
			src = konst(k);
		}
		uint64_t lo = r.lo, hi = r.hi;
		int sh = (int)(src.lo & (is64 ? 63 : 31));

		switch (op) {
		case HR_ADD:
			if (hi + src.hi < hi || lo + src.lo < lo) {
				lo = 0;
				hi = UINT64_MAX;
				ex = false;
			} else {
				lo += src.lo;
				hi += src.hi;
			}
			if (ck_id_shared(s, in->dst, d->id) && lo != hi)
				ex = false;
			break;
		case HR_SUB:
			if (lo >= src.hi) {
				lo -= src.hi;
				hi -= src.lo;
			} else {
				lo = 0;
				hi = UINT64_MAX;
				ex = false;
			}
			if (ck_id_shared(s, in->dst, d->id) && lo != hi)
				ex = false;
			break;
		case HR_AND:
			if (is_const(&src) && (src.lo & (src.lo + 1)) == 0) {
				hi = hi < src.lo ? hi : src.lo;
				lo = (lo == r.hi) ? (lo & src.lo) : 0;
				if (r.lo == r.hi)
					hi = lo;
			} else {
				lo = 0;
				hi = hi < src.hi ? hi : src.hi;
				ex = false;
			}
			break;
		case HR_RSH:
			if (!is_const(&src)) {
				lo = 0;
				ex = false;
				break;
			}
			lo >>= sh;
			hi >>= sh;
			break;
		case HR_ARSH:
			if (is64 && is_const(&src) && ck_sign_extended(d, sh)) {
				*d = sign_extension(sh);
				return 0;
			}
			lo = 0;
			hi = UINT64_MAX;
			ex = false;
			break;
		case HR_LSH:
			/* A number the kernel knows nothing of: its tnum
			 * learns the low bits are zero, and bounds sync
			 * takes them off the top of the range. */
			if (is64 && is_const(&src) && sh && ex && !lossy &&
			    !lo && hi == UINT64_MAX) {
				/* __scalar64_min_max_lsh keeps a signed
				 * bound only for a shift by 32 of a number
				 * whose low half it knows non-negative; a
				 * sign-extended one is not. */
				bool unb = sh != 32 || d->sgn;

				*d = scalar(0, UINT64_MAX << sh, true);
				d->lossy = true;
				d->smin_unb = unb;
				return 0;
			}
			if (!is_const(&src) || (sh && hi >> (64 - sh))) {
				lo = 0;
				hi = UINT64_MAX;
				ex = false;
				break;
			}
			lo <<= sh;
			hi <<= sh;
			/* The kernel's tnum knows the low bits are zero. */
			if (lo != hi)
				lossy = true;
			break;
		default:
			if (op == HR_MUL && r.lo == r.hi && is_const(&src) &&
			    (!r.lo || (r.lo * src.lo) / r.lo == src.lo)) {
				lo = hi = r.lo * src.lo;
				break;
			}
			lo = 0;
			hi = UINT64_MAX;
			ex = false;
			break;
		}
		if (!is64) {
			if (hi > UINT32_MAX) {
				lo = 0;
				hi = UINT32_MAX;
				ex = false;
			}
		}
		/* Bit operations on a number whose tnum knows more than its
		 * range (known zero low bits) may leave the kernel a range
		 * tighter than this one. */
		if (lossy && op != HR_ADD && op != HR_SUB && op != HR_LSH &&
		    op != HR_RSH)
			ex = false;
		*d = scalar(lo, hi, ex);
		d->lossy = lossy && ex;
		return 0;
	}
}
