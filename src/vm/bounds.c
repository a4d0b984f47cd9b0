// SPDX-License-Identifier: MIT
/*
 * The engines' load-time bounds analysis: a forward data-flow pass over
 * the instructions, in the manner of the kernel verifier's packet pointer
 * tracking (find_good_pkt_pointers), that finds the packet accesses a
 * data_end comparison has already proven inside the packet, and the map
 * value accesses a NULL test of a lookup's result has.
 *
 * Per register it knows one of: a scalar range, the context, ctx->data +
 * a constant range, ctx->data_end, this frame's r10 + a constant, a map
 * pointer from an ld_imm64, a map value (or NULL) + a constant from
 * bpf_map_lookup_elem on such a map. Per path it knows "range": ctx->data + range
 * <= ctx->data_end. Facts come only from: the entry (r1 is the context,
 * for program types whose layout is known here), 4-byte loads of the
 * data / data_end fields through the context, constant and range
 * arithmetic, and unsigned 64-bit comparisons of a packet pointer with
 * data_end. Every call (helper, kfunc, callx, local) forgets every packet
 * pointer and the range, since helpers may move the packet, but for the
 * helpers and kfuncs keeps_packet() knows never do. Paths join by
 * keeping only what both agree on (ranges widen to their hull, the proven
 * range to the smaller one); a join point walked too often forgets what
 * still changes, so the pass ends. Anything not understood becomes an
 * unknown scalar, which proves nothing.
 *
 * Cost. Joins happen only at leaders (pc 0, jump and call targets): the
 * pass keeps a state per leader and walks the straight line after it
 * (through conditional jumps' fall-throughs) until the next leader, so a
 * non-leader's state is its predecessor's, replaced, never joined. The
 * leaders wait in a worklist ordered by reverse post-order, so acyclic
 * code is walked once whatever its layout (a chain visiting blocks in
 * reverse address order included). A leader is walked again only when
 * its state changed; after WIDEN_AFTER walks every change widens to
 * unknown, and a widened state can change at most JB_HEIGHT more times
 * (each register to unknown, each range to 0, each variable dropped), so
 * no leader is walked more than WIDEN_AFTER + JB_HEIGHT + 1 = 26 times.
 * Each instruction belongs to one leader's walk: the worst case is 26
 * steps an instruction (a loop whose header keeps changing around a body
 * that is the whole program), O(n log n) with the heap, and STEP_CAP
 * steps an instruction end the pass with nothing proven should that
 * bound ever be wrong; that fallback only costs speed, never safety.
 * Measured (bench/load, 1M instructions, a loaded 2-core VM): 0.06 to
 * 0.7 us an instruction
 * on every generated shape, reverse chains and nested loops included.
 *
 * Memory, which on a paging-bound host is time too: states are kept
 * encoded (a few bytes for an unknown register, 3 for a state of them)
 * at leaders and at a checkpoint every SEG instructions of a long walk;
 * a query replays at most SEG steps from the checkpoint before it, a
 * segment at a time (engines ask in pc order, so each segment is replayed
 * about once a pass). About 2 bytes an instruction for straight code, 25
 * for a leader every three.
 */
#include <stdlib.h>
#include <string.h>
#include <linux/bpf.h>

#include "vm/bounds.h"
#include "vm/cfg.h"
#include "helpers/helpers.h"
#include "progs/prog.h"
#include "maps/map.h"

/* Programs up to the kernel's BPF_COMPLEXITY_LIMIT_INSNS are analyzed. */
#define MAX_ANALYZED (1u << 20)
#define PKT_LIMIT 0xffff /* packet offsets tracked: [-PKT_LIMIT, PKT_LIMIT] */
#define WIDEN_AFTER 8
/* How often a widened state can still change (see the top). */
#define JB_HEIGHT (HR_NREGS + 2 + JB_NVARS)
/* Steps an instruction, beyond the bound above, before giving up. */
#define STEP_CAP 64
#define SEG 32 /* instructions between checkpoints of a walk */
#define NONE HR_CFG_NONE

/* A variable packet offset v (added at instruction id - 1) and what is
 * proven of it: ctx->data + v + range <= ctx->data_end, v in [lo, hi]. */
#define JB_NVARS 4
struct jb_var {
	uint32_t id; /* 0: free slot */
	int32_t range;
	uint32_t lo, hi;
};

struct jb_state {
	struct jb_reg r[HR_NREGS];
	/* ctx->data + range <= ctx->data_end is proven. */
	int64_t range;
	/* ctx->data_meta + mrange <= ctx->data is proven. */
	int64_t mrange;
	struct jb_var var[JB_NVARS];
};

/* The states of one segment of SEG instructions, replayed for queries. */
struct jb_seg {
	uint32_t g; /* segment number, NONE: empty */
	bool live[SEG];
	struct jb_state st[SEG];
};

/* What the pass keeps (jb_facts.store): enough to replay any pc. */
struct jb_store {
	const struct hr_vm_prog *vm;
	bool fp_fixed, layout;
	int off_data, off_end, off_meta;
	uint32_t cnt;
	struct hr_cfg cfg; /* leaders (order and worklist during the pass) */
	uint32_t *loff; /* per leader: its state in arena, or NONE */
	uint32_t *coff; /* per segment: its checkpoint in arena, or NONE */
	uint8_t *cdelta; /* per segment: the checkpoint's pc - segment start */
	struct hr_arena arena;
	struct jb_seg seg[2];
	unsigned int lru;
};

static const struct jb_reg unknown = { JB_SCALAR, 0, 0, UINT64_MAX };

static struct jb_reg scalar(uint64_t a, uint64_t b)
{
	return (struct jb_reg){ JB_SCALAR, 0, a, b };
}

static struct jb_reg pkt_id(uint32_t id, int64_t a, int64_t b)
{
	if (a < -PKT_LIMIT || b > PKT_LIMIT || a > b)
		return unknown;
	return (struct jb_reg){ JB_PKT, id, (uint64_t)a, (uint64_t)b };
}

static struct jb_reg pkt(int64_t a, int64_t b)
{
	return pkt_id(0, a, b);
}

static bool reg_eq(const struct jb_reg *x, const struct jb_reg *y)
{
	return x->t == y->t && x->id == y->id && x->a == y->a && x->b == y->b;
}

static struct jb_var *find_var(struct jb_state *s, uint32_t id)
{
	int i;

	for (i = 0; i < JB_NVARS; i++)
		if (id && s->var[i].id == id)
			return &s->var[i];
	return NULL;
}

static const struct jb_var *find_var_c(const struct jb_state *s, uint32_t id)
{
	return find_var((struct jb_state *)s, id);
}

/* Forgets variable @id and every register offset by it. */
static void drop_var(struct jb_state *s, uint32_t id)
{
	struct jb_var *v = find_var(s, id);
	int i;

	if (v)
		memset(v, 0, sizeof(*v));
	for (i = 0; i < HR_NREGS; i++)
		if (s->r[i].t == JB_PKT && s->r[i].id == id)
			s->r[i] = unknown;
}

/* The offsets of ctx->data and ctx->data_end for the program types whose
 * context the analysis knows; false for every other. */
static bool ctx_layout(const struct hr_vm_prog *vm, int *data, int *end,
		       int *meta)
{
	static const int sizes[] = { 1, 2, 4, 8 };
	int o, s;

	if (vm->ctx_access && vm->ctx_access == hr_prog_type_xdp.ctx_access &&
	    vm->ctx_size == sizeof(struct xdp_md)) {
		*data = offsetof(struct xdp_md, data);
		*end = offsetof(struct xdp_md, data_end);
		*meta = offsetof(struct xdp_md, data_meta);
	} else if (vm->ctx_access &&
		   vm->ctx_access == hr_prog_type_tc.ctx_access &&
		   vm->ctx_size == sizeof(struct __sk_buff)) {
		*data = offsetof(struct __sk_buff, data);
		*end = offsetof(struct __sk_buff, data_end);
		*meta = offsetof(struct __sk_buff, data_meta);
	} else {
		return false;
	}
	if (*end != *data + 4)
		return false;
	/* The program may never write any of the three fields. */
	for (s = 0; s < 4; s++) {
		for (o = *data - 7; o < *data + 8; o++)
			if (o >= 0 && o + sizes[s] > *data &&
			    vm->ctx_access(vm->prog, o, sizes[s], true))
				return false;
		for (o = *meta - 7; o < *meta + 4; o++)
			if (o >= 0 && o + sizes[s] > *meta &&
			    vm->ctx_access(vm->prog, o, sizes[s], true))
				*meta = -1; /* not tracked */
	}
	return true;
}

struct an {
	const struct hr_vm_prog *vm;
	struct jb_store *s;
	bool fp_fixed, layout;
	int off_data, off_end, off_meta;
	/* Replaying for a query: flow() sends nothing. */
	bool replay;
	/* Something went wrong (no memory, a flow to a non-leader, the
	 * step cap): the pass proves nothing. */
	bool broken;
	uint8_t *visits; /* per leader: walks */
	uint64_t steps, step_cap;
};

/*
 * The encoding of a state: a mask of the registers that are not unknown,
 * a flags byte (which of range and mrange are there and how wide, which
 * variables), each such register as a tag byte (its type and form) and
 * the fields its form keeps, then range, mrange and the variables. Exact:
 * decoding gives the state back bit for bit.
 */
#define TAG_CONST 0x10 /* a == b (and id 0 for packet pointers): b not kept */
#define TAG_W32 0x20 /* scalar fields as 32 bits */
#define TAG_W8 0x40 /* scalar fields as 8 bits */
#define TAG_SHORT 0x40 /* other types: the type's short form */
#define TAG_FULL 0x80 /* id, a, b in full */
#define ENC_MAX (3 + HR_NREGS * 21 + 16 + JB_NVARS * 16)

static uint8_t *put(uint8_t *p, const void *v, size_t n)
{
	memcpy(p, v, n);
	return p + n;
}

static uint8_t *put32(uint8_t *p, uint32_t v)
{
	return put(p, &v, 4);
}

static uint8_t *put64(uint8_t *p, uint64_t v)
{
	return put(p, &v, 8);
}

/* @v in @w bytes (1, 4 or 8). */
static uint8_t *put_w(uint8_t *p, uint64_t v, int w)
{
	uint8_t b = (uint8_t)v;

	return w == 1 ? put(p, &b, 1) :
	       w == 4 ? put32(p, (uint32_t)v) :
			put64(p, v);
}

static bool fits32(uint64_t v)
{
	return (int64_t)v >= INT32_MIN && (int64_t)v <= INT32_MAX;
}

static uint8_t *enc_reg(uint8_t *p, const struct jb_reg *r)
{
	uint8_t t = r->t;
	uint64_t m;
	int w;

	switch (t) {
	case JB_SCALAR:
		if (r->id)
			break;
		t |= r->a == r->b ? TAG_CONST : 0;
		m = r->a > r->b ? r->a : r->b;
		w = m <= UINT8_MAX ? 1 : m <= UINT32_MAX ? 4 : 8;
		t |= w == 1 ? TAG_W8 : w == 4 ? TAG_W32 : 0;
		*p++ = t;
		p = put_w(p, r->a, w);
		return t & TAG_CONST ? p : put_w(p, r->b, w);
	case JB_CTX:
	case JB_PKT_END:
		if (r->id || r->a || r->b)
			break;
		*p++ = t;
		return p;
	case JB_PKT:
	case JB_META:
		if (!fits32(r->a) || !fits32(r->b))
			break;
		if (!r->id && r->a == r->b) {
			*p++ = t | TAG_CONST;
			return put32(p, (uint32_t)r->a);
		}
		*p++ = t | TAG_SHORT;
		p = put32(p, r->id);
		p = put32(p, (uint32_t)r->a);
		return put32(p, (uint32_t)r->b);
	case JB_VALUE_OR_NULL:
	case JB_VALUE:
		if (!fits32(r->a) || r->b > UINT32_MAX)
			break;
		*p++ = t | TAG_SHORT;
		p = put32(p, r->id);
		p = put32(p, (uint32_t)r->a);
		return put32(p, (uint32_t)r->b);
	case JB_FP:
		if (r->id || r->a != r->b || !fits32(r->a))
			break;
		*p++ = t | TAG_SHORT;
		return put32(p, (uint32_t)r->a);
	case JB_MAP:
		if (r->id || r->b)
			break;
		*p++ = t | TAG_SHORT;
		return put64(p, r->a);
	}
	*p++ = r->t | TAG_FULL;
	p = put32(p, r->id);
	p = put64(p, r->a);
	return put64(p, r->b);
}

/* Flags: range as 32 bits (1) or 64 (2), mrange likewise (4, 8), and the
 * variables present (high nibble). */
static uint8_t *enc_range(uint8_t *p, int64_t v, uint8_t *flags, int shift)
{
	if (!v)
		return p;
	if (fits32((uint64_t)v)) {
		*flags |= 1 << shift;
		return put32(p, (uint32_t)v);
	}
	*flags |= 2 << shift;
	return put64(p, (uint64_t)v);
}

static size_t enc(const struct jb_state *s, uint8_t *out)
{
	uint8_t *p = out + 3, flags = 0;
	uint16_t mask = 0;
	int i;

	for (i = 0; i < HR_NREGS; i++) {
		const struct jb_reg *r = &s->r[i];

		if (r->t == JB_SCALAR && !r->id && !r->a && r->b == UINT64_MAX)
			continue;
		mask |= 1u << i;
		p = enc_reg(p, r);
	}
	p = enc_range(p, s->range, &flags, 0);
	p = enc_range(p, s->mrange, &flags, 2);
	for (i = 0; i < JB_NVARS; i++)
		if (s->var[i].id) {
			flags |= 1 << (4 + i);
			p = put(p, &s->var[i], sizeof(s->var[i]));
		}
	memcpy(out, &mask, 2);
	out[2] = flags;
	return (size_t)(p - out);
}

static const uint8_t *get(const uint8_t *p, void *v, size_t n)
{
	memcpy(v, p, n);
	return p + n;
}

/* @w bytes into *@v, sign-extended with @sign. */
static const uint8_t *get_w(const uint8_t *p, uint64_t *v, int w, bool sign)
{
	uint32_t x;

	if (w == 1) {
		*v = *p;
		return p + 1;
	}
	if (w == 8)
		return get(p, v, 8);
	p = get(p, &x, 4);
	*v = sign ? (uint64_t)(int64_t)(int32_t)x : x;
	return p;
}

static const uint8_t *dec_reg(const uint8_t *p, struct jb_reg *r)
{
	uint8_t tag = *p++;
	uint64_t id;
	int w;

	memset(r, 0, sizeof(*r));
	r->t = tag & 0x0f;
	if (tag & TAG_FULL) {
		p = get(p, &r->id, 4);
		p = get(p, &r->a, 8);
		return get(p, &r->b, 8);
	}
	if (r->t == JB_SCALAR) {
		w = tag & TAG_W8 ? 1 : tag & TAG_W32 ? 4 : 8;
		p = get_w(p, &r->a, w, false);
		if (tag & TAG_CONST)
			r->b = r->a;
		else
			p = get_w(p, &r->b, w, false);
		return p;
	}
	if (tag & TAG_CONST) { /* JB_PKT, JB_META */
		p = get_w(p, &r->a, 4, true);
		r->b = r->a;
		return p;
	}
	if (!(tag & TAG_SHORT))
		return p; /* JB_CTX, JB_PKT_END */
	switch (r->t) {
	case JB_FP:
		p = get_w(p, &r->a, 4, true);
		r->b = r->a;
		return p;
	case JB_MAP:
		return get(p, &r->a, 8);
	}
	p = get_w(p, &id, 4, false);
	r->id = (uint32_t)id;
	p = get_w(p, &r->a, 4, true);
	return get_w(p, &r->b, 4, r->t == JB_PKT || r->t == JB_META);
}

static const uint8_t *dec_range(const uint8_t *p, int64_t *v, uint8_t flags,
				int shift)
{
	uint64_t x = 0;

	if (flags >> shift & 3)
		p = get_w(p, &x, flags >> shift & 1 ? 4 : 8, true);
	*v = (int64_t)x;
	return p;
}

static void dec(const uint8_t *p, struct jb_state *s)
{
	uint16_t mask;
	uint8_t flags;
	int i;

	memcpy(&mask, p, 2);
	flags = p[2];
	p += 3;
	for (i = 0; i < HR_NREGS; i++) {
		if (mask >> i & 1)
			p = dec_reg(p, &s->r[i]);
		else
			s->r[i] =
				(struct jb_reg){ JB_SCALAR, 0, 0, UINT64_MAX };
	}
	p = dec_range(p, &s->range, flags, 0);
	p = dec_range(p, &s->mrange, flags, 2);
	memset(s->var, 0, sizeof(s->var));
	for (i = 0; i < JB_NVARS; i++)
		if (flags >> (4 + i) & 1)
			p = get(p, &s->var[i], sizeof(s->var[i]));
}

static void load(const struct jb_store *st, uint32_t off, struct jb_state *s)
{
	dec(hr_arena_get(&st->arena, off), s);
}

/* Writes @s to the arena entry *@slot. */
static void store(struct an *an, uint32_t *slot, const struct jb_state *s)
{
	uint8_t buf[ENC_MAX];

	if (hr_arena_put(&an->s->arena, slot, buf, enc(s, buf)))
		an->broken = true;
}

static void forget_packet(struct jb_state *s)
{
	int i;

	for (i = 0; i < HR_NREGS; i++)
		if (s->r[i].t == JB_PKT || s->r[i].t == JB_PKT_END ||
		    s->r[i].t == JB_META)
			s->r[i] = unknown;
	s->range = 0;
	s->mrange = 0;
	memset(s->var, 0, sizeof(s->var));
}

/* Merges @s into the state entering the leader @pc. */
static void flow(struct an *an, uint32_t pc, const struct jb_state *s)
{
	struct jb_state dd, *d = &dd;
	uint32_t li;
	bool widen, ch = false;
	int i;

	if (an->replay || pc >= an->vm->cnt)
		return;
	if (!hr_cfg_is_leader(&an->s->cfg, pc)) {
		an->broken = true; /* a path the walks would miss */
		return;
	}
	li = hr_cfg_index(&an->s->cfg, pc);
	if (an->s->loff[li] == NONE) {
		store(an, &an->s->loff[li], s);
		hr_cfg_push(&an->s->cfg, li);
		return;
	}
	load(an->s, an->s->loff[li], d);
	widen = an->visits[li] >= WIDEN_AFTER;
	for (i = 0; i < HR_NREGS; i++) {
		struct jb_reg *x = &d->r[i];
		const struct jb_reg *y = &s->r[i];
		struct jb_reg m;

		if (reg_eq(x, y))
			continue;
		if (widen || x->t != y->t || x->id != y->id) {
			m = unknown;
		} else if (x->t == JB_SCALAR) {
			m = scalar(x->a < y->a ? x->a : y->a,
				   x->b > y->b ? x->b : y->b);
		} else if (x->t == JB_META) {
			m = (struct jb_reg){
				JB_META, 0,
				(int64_t)x->a < (int64_t)y->a ? x->a : y->a,
				(int64_t)x->b > (int64_t)y->b ? x->b : y->b
			};
		} else if (x->t == JB_PKT) {
			m = pkt_id(
				x->id,
				(int64_t)x->a < (int64_t)y->a ? (int64_t)x->a :
								(int64_t)y->a,
				(int64_t)x->b > (int64_t)y->b ? (int64_t)x->b :
								(int64_t)y->b);
		} else {
			m = unknown;
		}
		if (!reg_eq(x, &m)) {
			*x = m;
			ch = true;
		}
	}
	if (s->range < d->range) {
		d->range = widen ? 0 : s->range;
		ch = true;
	}
	if (s->mrange < d->mrange) {
		d->mrange = widen ? 0 : s->mrange;
		ch = true;
	}
	for (i = 0; i < JB_NVARS; i++) {
		struct jb_var *x = &d->var[i];
		const struct jb_var *y;

		if (!x->id)
			continue;
		y = find_var_c(s, x->id);
		if (!y || (widen && memcmp(x, y, sizeof(*x)))) {
			drop_var(d, x->id);
			ch = true;
			continue;
		}
		if (y->range < x->range) {
			x->range = y->range;
			ch = true;
		}
		if (y->lo < x->lo) {
			x->lo = y->lo;
			ch = true;
		}
		if (y->hi > x->hi) {
			x->hi = y->hi;
			ch = true;
		}
	}
	/* A register offset by a variable the join dropped knows nothing. */
	for (i = 0; i < HR_NREGS; i++)
		if (d->r[i].t == JB_PKT && d->r[i].id &&
		    !find_var(d, d->r[i].id)) {
			d->r[i] = unknown;
			ch = true;
		}
	if (ch) {
		store(an, &an->s->loff[li], d);
		hr_cfg_push(&an->s->cfg, li);
	}
}

static uint64_t mask_bits(uint64_t v)
{
	return v ? (~0ull >> __builtin_clzll(v)) : 0;
}

/* dst op= src on scalars, 64-bit; unknown when it may wrap. */
static struct jb_reg scalar_alu(uint8_t op, struct jb_reg d, struct jb_reg s)
{
	if (d.t != JB_SCALAR || s.t != JB_SCALAR)
		return unknown;
	switch (op) {
	case HR_ADD:
		if (d.b + s.b < d.b)
			return unknown;
		return scalar(d.a + s.a, d.b + s.b);
	case HR_SUB:
		if (d.a < s.b)
			return unknown;
		return scalar(d.a - s.b, d.b - s.a);
	case HR_MUL:
		if (d.b && s.b > UINT32_MAX / d.b)
			return unknown;
		if (d.b > UINT32_MAX || s.b > UINT32_MAX)
			return unknown;
		return scalar(d.a * s.a, d.b * s.b);
	case HR_AND:
		return scalar(0, d.b < s.b ? d.b : s.b);
	case HR_OR:
	case HR_XOR:
		return scalar(0, mask_bits(d.b | s.b));
	case HR_LSH:
		if (s.a != s.b || s.a > 63 || (d.b << s.a) >> s.a != d.b)
			return unknown;
		return scalar(d.a << s.a, d.b << s.a);
	case HR_RSH:
		if (s.a != s.b || s.a > 63)
			return scalar(0, d.b);
		return scalar(d.a >> s.a, d.b >> s.a);
	case HR_DIV:
		if (s.a == 0)
			return scalar(0, d.b);
		return scalar(d.a / s.b, d.b / s.a);
	case HR_MOD:
		return scalar(0, d.b);
	}
	return unknown;
}

/* Packet pointer @p plus scalar @v: a constant moves the offset, a
 * range becomes a new variable named after this instruction. */
static struct jb_reg pkt_add(struct jb_state *s, uint32_t pc, struct jb_reg p,
			     struct jb_reg v)
{
	uint32_t id = pc + 1;
	int i;

	if (v.b > PKT_LIMIT)
		return unknown;
	if (v.a == v.b)
		return pkt_id(p.id, (int64_t)p.a + (int64_t)v.a,
			      (int64_t)p.b + (int64_t)v.a);
	if (p.id)
		return pkt_id(p.id, (int64_t)p.a + (int64_t)v.a,
			      (int64_t)p.b + (int64_t)v.b);
	/* The variable of an earlier run of this instruction is another. */
	drop_var(s, id);
	for (i = 0; i < JB_NVARS; i++) {
		if (s->var[i].id)
			continue;
		s->var[i] =
			(struct jb_var){ id, 0, (uint32_t)v.a, (uint32_t)v.b };
		return pkt_id(id, (int64_t)p.a, (int64_t)p.b);
	}
	return pkt((int64_t)p.a + (int64_t)v.a, (int64_t)p.b + (int64_t)v.b);
}

static void do_alu(struct an *an, uint32_t pc, const struct hr_insn *insn,
		   struct jb_state *s)
{
	bool w = HR_CLASS(insn->code) == HR_ALU64;
	bool x = HR_SRC(insn->code) == HR_X;
	uint8_t op = HR_OP(insn->code);
	struct jb_reg *d = &s->r[insn->dst];
	struct jb_reg src, r;
	int64_t imm = insn->imm;

	if (op == HR_END) {
		if (insn->imm == 16)
			*d = scalar(0, 0xffff);
		else if (insn->imm == 32)
			*d = scalar(0, UINT32_MAX);
		else
			*d = unknown;
		return;
	}
	if (x)
		src = s->r[insn->src];
	else
		src = scalar(w ? (uint64_t)imm : (uint32_t)imm,
			     w ? (uint64_t)imm : (uint32_t)imm);
	/* Shift counts are taken modulo the width, as both engines do. */
	if ((op == HR_LSH || op == HR_RSH) && src.t == JB_SCALAR &&
	    src.a == src.b) {
		src.a &= w ? 63 : 31;
		src.b = src.a;
	}
	if (op == HR_MOV) {
		if (insn->off)
			r = unknown;
		else
			r = src;
	} else if (w && op == HR_ADD && x &&
		   ((d->t == JB_PKT && src.t == JB_SCALAR) ||
		    (d->t == JB_SCALAR && src.t == JB_PKT))) {
		r = pkt_add(s, pc, d->t == JB_PKT ? *d : src,
			    d->t == JB_PKT ? src : *d);
	} else if (w && (op == HR_ADD || op == HR_SUB) && !x &&
		   d->t == JB_PKT) {
		int64_t k = op == HR_ADD ? imm : -imm;

		r = pkt_id(d->id, (int64_t)d->a + k, (int64_t)d->b + k);
	} else if (w && (op == HR_ADD || op == HR_SUB) && d->t == JB_META &&
		   src.t == JB_SCALAR && src.a == src.b &&
		   (int64_t)src.a >= -PKT_LIMIT &&
		   (int64_t)src.a <= PKT_LIMIT) {
		int64_t k = op == HR_ADD ? (int64_t)src.a : -(int64_t)src.a;

		r = (int64_t)d->a + k < -PKT_LIMIT ||
				    (int64_t)d->b + k > PKT_LIMIT ?
			    unknown :
			    (struct jb_reg){ JB_META, 0,
					     (uint64_t)((int64_t)d->a + k),
					     (uint64_t)((int64_t)d->b + k) };
	} else if (w && (op == HR_ADD || op == HR_SUB) && !x && d->t == JB_FP) {
		int64_t k = (int64_t)d->a + (op == HR_ADD ? imm : -imm);

		r = k >= -HR_STACK_SIZE && k <= 0 ?
			    (struct jb_reg){ JB_FP, 0, (uint64_t)k,
					     (uint64_t)k } :
			    unknown;
	} else if (w && (op == HR_ADD || op == HR_SUB) && d->t == JB_VALUE &&
		   src.t == JB_SCALAR && src.a == src.b &&
		   (int64_t)src.a >= -PKT_LIMIT &&
		   (int64_t)src.a <= PKT_LIMIT) {
		int64_t k = (int64_t)d->a +
			    (op == HR_ADD ? (int64_t)src.a : -(int64_t)src.a);

		r = k >= -PKT_LIMIT && k <= PKT_LIMIT ?
			    (struct jb_reg){ JB_VALUE, d->id, (uint64_t)k,
					     d->b } :
			    unknown;
	} else if (op == HR_NEG || op == HR_ARSH) {
		r = unknown;
	} else if (!w && (op == HR_DIV || op == HR_MOD) && insn->off) {
		r = unknown;
	} else if (w && (op == HR_DIV || op == HR_MOD) && insn->off) {
		r = unknown;
	} else {
		r = scalar_alu(op, *d, src);
	}
	if (!w) {
		/* 32-bit: exact only while everything fits in 32 bits. */
		if (r.t != JB_SCALAR || r.b > UINT32_MAX ||
		    (d->t == JB_SCALAR && d->b > UINT32_MAX && op != HR_MOV) ||
		    (src.t == JB_SCALAR && src.b > UINT32_MAX))
			r = scalar(0, UINT32_MAX);
	}
	*d = r;
}

/* What a load of @size bytes at @b + @off reads, when @b points into a
 * frozen read-only global (check_mem_access's bpf_map_direct_read):
 * true with *@v, little-endian as the host. */
bool jb_const_value(const struct jb_reg *b, int off, int size, uint64_t *v)
{
	int64_t at;

	if (b->t != JB_VALUE || !(b->id & JB_VALUE_CONST) ||
	    (size != 1 && size != 2 && size != 4 && size != 8))
		return false;
	at = (int64_t)b->a + off;
	if (at < 0 || at + size > (int64_t)JB_VALUE_SIZE(b->id))
		return false;
	*v = 0;
	memcpy(v, (const uint8_t *)(uintptr_t)b->b + at, (size_t)size);
	return true;
}

static void do_ldx(struct an *an, const struct hr_insn *insn,
		   struct jb_state *s)
{
	int size = hr_size_bytes(insn->code);
	const struct jb_reg *b = &s->r[insn->src];
	struct jb_reg r;
	uint64_t v;

	if (HR_MODE(insn->code) == HR_MEMSX)
		r = unknown;
	else if (!jb_const_value(b, insn->off, size, &v))
		r = scalar(0,
			   size == 8 ? UINT64_MAX : (1ull << (8 * size)) - 1);
	else
		r = scalar(v, v);
	if (an->layout && b->t == JB_CTX && size == 4 &&
	    HR_MODE(insn->code) == HR_MEM) {
		if (insn->off == an->off_data)
			r = pkt(0, 0);
		else if (insn->off == an->off_end)
			r = (struct jb_reg){ JB_PKT_END, 0, 0, 0 };
		else if (insn->off == an->off_meta)
			r = (struct jb_reg){ JB_META, 0, 0, 0 };
	}
	s->r[insn->dst] = r;
}

/* Every copy of the lookup result @lookup is now known NULL or not. */
static void null_test(struct jb_state *s, uint64_t lookup, bool not_null)
{
	int i;

	for (i = 0; i < HR_NREGS; i++) {
		struct jb_reg *r = &s->r[i];

		if (r->t != JB_VALUE_OR_NULL || r->b != lookup)
			continue;
		if (not_null)
			r->t = JB_VALUE;
		else
			*r = scalar(0, 0);
	}
}

/* Refines @s for a comparison @op of @d and @src known to hold. */
static bool refine(uint8_t op, struct jb_state *s, int dreg,
		   const struct jb_reg *src, int sreg, bool x)
{
	struct jb_reg *d = &s->r[dreg];
	const struct jb_reg *p = NULL;
	int64_t need = -1;
	uint64_t k, lo, hi;

	if (!x && d->t == JB_VALUE_OR_NULL && src->a == 0 && src->b == 0 &&
	    (op == HR_JEQ || op == HR_JNE)) {
		null_test(s, d->b, op == HR_JNE);
		return true;
	}

	if (x && d->t == JB_PKT && src->t == JB_PKT_END) {
		p = d;
		if (op == HR_JLE) /* p <= end */
			need = (int64_t)p->a;
		else if (op == HR_JLT) /* p < end */
			need = (int64_t)p->a + 1;
	} else if (x && d->t == JB_PKT_END && src->t == JB_PKT) {
		p = src;
		if (op == HR_JGE) /* end >= p */
			need = (int64_t)p->a;
		else if (op == HR_JGT) /* end > p */
			need = (int64_t)p->a + 1;
	}
	/* data_meta + k against data itself. */
	if (x && d->t == JB_META && src->t == JB_PKT && !src->id && !src->a &&
	    !src->b) {
		int64_t m = -1;

		if (op == HR_JLE)
			m = (int64_t)d->a;
		else if (op == HR_JLT)
			m = (int64_t)d->a + 1;
		if (m > s->mrange)
			s->mrange = m > PKT_LIMIT ? PKT_LIMIT : m;
	} else if (x && d->t == JB_PKT && !d->id && !d->a && !d->b &&
		   src->t == JB_META) {
		int64_t m = -1;

		if (op == HR_JGE)
			m = (int64_t)src->a;
		else if (op == HR_JGT)
			m = (int64_t)src->a + 1;
		if (m > s->mrange)
			s->mrange = m > PKT_LIMIT ? PKT_LIMIT : m;
	}
	if (need > PKT_LIMIT)
		need = PKT_LIMIT;
	if (p && p->id) {
		struct jb_var *v = find_var(s, p->id);

		if (v && need > v->range)
			v->range = (int32_t)need;
	} else if (need > s->range) {
		s->range = need;
	}
	if (x || d->t != JB_SCALAR)
		return true;
	/* dst op K on a scalar: narrow its range; false when impossible. */
	k = src->a;
	lo = d->a;
	hi = d->b;
	switch (op) {
	case HR_JEQ:
		if (k < lo || k > hi)
			return false;
		lo = hi = k;
		break;
	case HR_JGT:
		if (k == UINT64_MAX)
			return false;
		lo = lo > k + 1 ? lo : k + 1;
		break;
	case HR_JGE:
		lo = lo > k ? lo : k;
		break;
	case HR_JLT:
		if (k == 0)
			return false;
		hi = hi < k - 1 ? hi : k - 1;
		break;
	case HR_JLE:
		hi = hi < k ? hi : k;
		break;
	default:
		return true;
	}
	if (lo > hi)
		return false;
	d->a = lo;
	d->b = hi;
	return true;
}

static uint8_t negate(uint8_t op)
{
	switch (op) {
	case HR_JEQ:
		return HR_JNE;
	case HR_JNE:
		return HR_JEQ;
	case HR_JGT:
		return HR_JLE;
	case HR_JLE:
		return HR_JGT;
	case HR_JGE:
		return HR_JLT;
	case HR_JLT:
		return HR_JGE;
	}
	return 0xff; /* no refinement */
}

/*
 * Helpers and kfuncs that never move the packet nor run program code
 * (callbacks could): packet facts survive calls to them, as the kernel
 * verifier keeps packet pointers across helpers that do not change
 * packet data. Known by their function, not their id, so that a program
 * whose calls resolve elsewhere (tests' own helpers) proves nothing.
 */
static bool keeps_packet(const struct hr_vm_prog *vm, uint32_t pc)
{
	static const struct hr_helper *const pure[] = {
		&hr_helper_map_lookup_elem,
		&hr_helper_map_update_elem,
		&hr_helper_map_delete_elem,
		&hr_helper_map_lookup_percpu_elem,
		&hr_helper_ktime_get_ns,
		&hr_helper_ktime_get_boot_ns,
		&hr_helper_ktime_get_coarse_ns,
		&hr_helper_jiffies64,
		&hr_helper_get_prandom_u32,
		&hr_helper_get_smp_processor_id,
		&hr_helper_get_numa_node_id,
		&hr_helper_csum_diff,
		&hr_helper_redirect,
		&hr_helper_redirect_map,
		&hr_helper_map_push_elem,
		&hr_helper_map_pop_elem,
		&hr_helper_map_peek_elem,
		&hr_helper_ringbuf_output,
		&hr_helper_xdp_get_buff_len,
		&hr_helper_xdp_load_bytes,
	};
	hr_helper_fn fn = vm->calls ? vm->calls[pc] : NULL;
	const struct hr_insn *insn = &vm->insns[pc];
	size_t i;

	if (!fn || HR_SRC(insn->code) == HR_X)
		return false;
	if (fn == hr_kfunc_xdp_metadata_rx_hash.fn ||
	    fn == hr_kfunc_xdp_metadata_rx_timestamp.fn ||
	    fn == hr_kfunc_xdp_metadata_rx_vlan_tag.fn)
		return true;
	for (i = 0; i < sizeof(pure) / sizeof(pure[0]); i++)
		if (fn == pure[i]->fn)
			return true;
	return false;
}

/* The map types whose lookup gives a pointer to value_size bytes inside
 * the map's own regions (ops->regions), so that the run-time check of an
 * access there always passes. */
static bool plain_values(const struct hr_map *map)
{
	switch (map->attr.type) {
	case HR_MAP_ARRAY:
	case HR_MAP_PERCPU_ARRAY:
	case HR_MAP_HASH:
	case HR_MAP_PERCPU_HASH:
	case HR_MAP_LRU_HASH:
	case HR_MAP_LRU_PERCPU_HASH:
		return map->ops && map->ops->regions;
	}
	return false;
}

struct hr_map *jb_own_map(const struct hr_vm_prog *vm, uint64_t ptr)
{
	const struct hr_object *obj = vm->prog ? vm->prog->obj : NULL;
	unsigned int i;

	for (i = 0; obj && i < obj->nmaps; i++)
		if ((uint64_t)(uintptr_t)obj->maps[i] == ptr)
			return obj->maps[i];
	return NULL;
}

/*
 * The register an ld_imm64 of global data (.data, .rodata, .bss: the
 * loader's src 2, the address of the section's one array value + an
 * offset) loads: a map value that is never NULL, as the kernel's
 * PTR_TO_MAP_VALUE from BPF_PSEUDO_MAP_VALUE. The value memory is the
 * array's own, allocated with the map and kept while the object is, so
 * the address the loader wrote stays inside it; .rodata is read-only to
 * programs (HR_F_RDONLY_PROG), as the region rules say.
 */
static struct jb_reg global_value(const struct hr_vm_prog *vm, uint64_t addr)
{
	const struct hr_object *obj = vm->prog ? vm->prog->obj : NULL;
	uint32_t zero = 0, size;
	unsigned int i;
	uintptr_t v;

	for (i = 0; obj && i < obj->nmaps; i++) {
		struct hr_map *map = obj->maps[i];

		if (map->attr.type != HR_MAP_ARRAY ||
		    map->attr.max_entries != 1 || !map->ops->lookup)
			continue;
		v = (uintptr_t)map->ops->lookup(map, &zero, 0);
		size = map->attr.value_size;
		if (!v || addr < v || addr - v >= size)
			continue;
		if (size > PKT_LIMIT)
			return unknown;
		if (!hr_map_prog_rdonly(map))
			return (struct jb_reg){ JB_VALUE, size | JB_VALUE_RW,
						addr - v, 0 };
		if (map->frozen)
			return (struct jb_reg){ JB_VALUE, size | JB_VALUE_CONST,
						addr - v, v };
		return (struct jb_reg){ JB_VALUE, size, addr - v, 0 };
	}
	return unknown;
}

/* r0 after the call at @pc: a map value or NULL for bpf_map_lookup_elem
 * on a map of the program's own object (so the helper accepts it), else
 * unknown. */
static struct jb_reg lookup_result(const struct an *an, uint32_t pc,
				   const struct jb_state *s)
{
	const struct hr_vm_prog *vm = an->vm;
	const struct hr_insn *insn = &vm->insns[pc];
	const struct hr_map *map;

	if (!vm->calls || vm->calls[pc] != hr_helper_map_lookup_elem.fn ||
	    HR_SRC(insn->code) == HR_X || s->r[1].t != JB_MAP)
		return unknown;
	map = jb_own_map(vm, s->r[1].a);
	if (!map || !plain_values(map) || !map->attr.value_size ||
	    map->attr.value_size > PKT_LIMIT)
		return unknown;
	return (struct jb_reg){ JB_VALUE_OR_NULL,
				map->attr.value_size |
					(map->rdonly_prog ? 0 : JB_VALUE_RW),
				0, pc + 1 };
}

/* Where a jump at @pc goes (conditional, ja, gotol): pc-relative. */
static uint32_t jump_dest(const struct hr_insn *insn, uint32_t pc)
{
	int64_t delta = HR_CLASS(insn->code) == HR_JMP32 &&
					HR_OP(insn->code) == HR_JA ?
				insn->imm :
				insn->off;

	return (uint32_t)((int64_t)pc + 1 + delta);
}

static bool is_local_call(const struct hr_insn *insn)
{
	return HR_CLASS(insn->code) == HR_JMP && HR_OP(insn->code) == HR_CALL &&
	       insn->src == HR_CALL_LOCAL && HR_SRC(insn->code) == HR_K;
}

/*
 * The control flow step() follows from @pc: the fall-through (NONE for
 * none) and the one other target (a jump's or a local call's, NONE for
 * none). step() flows to exactly these, so the leaders and the order
 * built from them cover every flow.
 */
static uint32_t succs(const void *arg, uint32_t pc, uint32_t *other)
{
	const struct hr_vm_prog *vm = arg;
	const struct hr_insn *insn = &vm->insns[pc];
	uint8_t cls = HR_CLASS(insn->code), op = HR_OP(insn->code);

	*other = NONE;
	switch (cls) {
	case HR_LD:
		return insn->code == HR_OPC_LDDW && pc + 1 < vm->cnt ? pc + 2 :
								       NONE;
	case HR_JMP:
	case HR_JMP32:
		break;
	default:
		return pc + 1;
	}
	if (op == HR_EXIT)
		return NONE;
	if (op == HR_CALL) {
		if (is_local_call(insn))
			*other = pc + 1 + (uint32_t)insn->imm;
		return pc + 1;
	}
	*other = jump_dest(insn, pc);
	return op == HR_JA ? NONE : pc + 1;
}

/* Applies the instruction at @pc to @s, flows what leaves elsewhere, and
 * returns where it falls through with @s (NONE: it does not). */
static uint32_t step(struct an *an, uint32_t pc, struct jb_state *s)
{
	const struct hr_vm_prog *vm = an->vm;
	const struct hr_insn *insn = &vm->insns[pc];
	uint8_t cls = HR_CLASS(insn->code), op = HR_OP(insn->code);
	struct jb_reg r0;
	int i;

	switch (cls) {
	case HR_ALU:
	case HR_ALU64:
		do_alu(an, pc, insn, s);
		return pc + 1;
	case HR_LDX:
		do_ldx(an, insn, s);
		return pc + 1;
	case HR_ST:
	case HR_STX:
		if (HR_MODE(insn->code) == HR_ATOMIC) {
			if (insn->imm == HR_CMPXCHG)
				s->r[0] = unknown;
			else if (insn->imm & HR_FETCH)
				s->r[insn->src] = unknown;
		}
		return pc + 1;
	case HR_LD:
		if (insn->code != HR_OPC_LDDW || pc + 1 >= vm->cnt)
			return NONE; /* aborts */
		if (insn->src == HR_PSEUDO_MAP_FD)
			s->r[insn->dst] =
				(struct jb_reg){ JB_MAP, 0,
						 hr_insn_lddw_value(insn), 0 };
		else if (insn->src == 0)
			s->r[insn->dst] = scalar(hr_insn_lddw_value(insn),
						 hr_insn_lddw_value(insn));
		else if (insn->src == HR_PSEUDO_MAP_VALUE)
			s->r[insn->dst] =
				global_value(vm, hr_insn_lddw_value(insn));
		else
			s->r[insn->dst] = unknown;
		return pc + 2;
	}
	/* HR_JMP, HR_JMP32 */
	if (op == HR_EXIT)
		return NONE;
	if (op == HR_CALL) {
		if (is_local_call(insn)) {
			struct jb_state c;

			memset(&c, 0, sizeof(c));
			for (i = 0; i < HR_NREGS; i++)
				c.r[i] = unknown;
			if (an->fp_fixed)
				c.r[10] = (struct jb_reg){ JB_FP, 0, 0, 0 };
			flow(an, pc + 1 + (uint32_t)insn->imm, &c);
		}
		r0 = lookup_result(an, pc, s);
		for (i = 0; i <= 5; i++)
			s->r[i] = unknown;
		s->r[0] = r0;
		if (!keeps_packet(vm, pc))
			forget_packet(s);
		return pc + 1;
	}
	if (op == HR_JA) {
		flow(an, jump_dest(insn, pc), s);
		return NONE;
	}
	{
		uint32_t t = jump_dest(insn, pc);
		bool x = HR_SRC(insn->code) == HR_X;
		struct jb_reg src = x ? s->r[insn->src] :
					scalar((uint64_t)(int64_t)insn->imm,
					       (uint64_t)(int64_t)insn->imm);
		struct jb_state taken = *s;

		if (cls == HR_JMP &&
		    (op == HR_JEQ || op == HR_JGT || op == HR_JGE ||
		     op == HR_JLT || op == HR_JLE || op == HR_JNE)) {
			if (refine(op, &taken, insn->dst, &src, insn->src, x))
				flow(an, t, &taken);
			if (refine(negate(op), s, insn->dst, &src, insn->src,
				   x))
				return pc + 1;
			return NONE;
		}
		flow(an, t, &taken);
		return pc + 1;
	}
}

/* Walks from leader @li to the next leader, keeping checkpoints. */
static void walk(struct an *an, uint32_t li)
{
	struct jb_store *st = an->s;
	uint32_t pc = st->cfg.leader_pc[li], next;
	struct jb_state s;

	load(st, st->loff[li], &s);
	if (an->visits[li] < 255)
		an->visits[li]++;
	for (;;) {
		if (++an->steps > an->step_cap) {
			an->broken = true;
			return;
		}
		next = step(an, pc, &s);
		if (next == NONE || next >= an->vm->cnt)
			return;
		if (hr_cfg_is_leader(&st->cfg, next)) {
			flow(an, next, &s);
			return;
		}
		if (next / SEG != pc / SEG) {
			store(an, &st->coff[next / SEG], &s);
			st->cdelta[next / SEG] = (uint8_t)(next % SEG);
		}
		pc = next;
	}
}

static void store_free(struct jb_store *st)
{
	if (!st)
		return;
	hr_cfg_free(&st->cfg);
	free(st->loff);
	free(st->coff);
	free(st->cdelta);
	free(st->arena.p);
	free(st);
}

void jb_analyze(const struct hr_vm_prog *vm, bool fp_fixed, struct jb_facts *f)
{
	struct an an = { .vm = vm, .fp_fixed = fp_fixed };
	struct jb_store *st;
	struct jb_state s;
	uint32_t nseg, i, li;

	memset(f, 0, sizeof(*f));
	if (!vm->cnt || vm->cnt > MAX_ANALYZED)
		return;
	st = calloc(1, sizeof(*st));
	if (!st)
		return;
	an.s = st;
	nseg = (vm->cnt + SEG - 1) / SEG;
	if (hr_cfg_build(&st->cfg, vm->insns, vm->cnt, succs, vm))
		goto fail;
	st->loff = malloc((size_t)st->cfg.nleaders * sizeof(*st->loff));
	st->coff = malloc((size_t)nseg * sizeof(*st->coff));
	st->cdelta = calloc(nseg, 1);
	an.visits = calloc(st->cfg.nleaders, 1);
	if (!st->loff || !st->coff || !st->cdelta || !an.visits)
		goto fail;
	for (i = 0; i < st->cfg.nleaders; i++)
		st->loff[i] = NONE;
	for (i = 0; i < nseg; i++)
		st->coff[i] = NONE;
	an.step_cap =
		(uint64_t)(WIDEN_AFTER + JB_HEIGHT + 1 + STEP_CAP) * vm->cnt;
	an.layout = ctx_layout(vm, &an.off_data, &an.off_end, &an.off_meta);
	memset(&s, 0, sizeof(s));
	for (i = 0; i < HR_NREGS; i++)
		s.r[i] = unknown;
	/* The engines zero r0, r3..r9. */
	s.r[0] = scalar(0, 0);
	for (i = 3; i < 10; i++)
		s.r[i] = scalar(0, 0);
	if (an.layout)
		s.r[1] = (struct jb_reg){ JB_CTX, 0, 0, 0 };
	if (fp_fixed)
		s.r[10] = (struct jb_reg){ JB_FP, 0, 0, 0 };
	flow(&an, 0, &s);
	while (!an.broken && (li = hr_cfg_pop(&st->cfg)) != NONE)
		walk(&an, li);
	if (an.broken)
		goto fail;
	hr_cfg_trim(&st->cfg);
	st->vm = vm;
	st->fp_fixed = fp_fixed;
	st->layout = an.layout;
	st->off_data = an.off_data;
	st->off_end = an.off_end;
	st->off_meta = an.off_meta;
	st->cnt = vm->cnt;
	st->seg[0].g = st->seg[1].g = NONE;
	f->store = st;
	f->cnt = vm->cnt;
	st = NULL;
fail:
	store_free(st);
	free(an.visits);
}

void jb_free(struct jb_facts *f)
{
	store_free(f->store);
	f->store = NULL;
}

/* Replays segment @g into @sg: from each leader in it and from its
 * checkpoint, along fall-throughs. */
static void replay_seg(struct jb_store *st, uint32_t g, struct jb_seg *sg)
{
	struct an an = {
		.vm = st->vm,
		.s = st,
		.fp_fixed = st->fp_fixed,
		.layout = st->layout,
		.off_data = st->off_data,
		.off_end = st->off_end,
		.off_meta = st->off_meta,
		.replay = true,
	};
	uint32_t lo = g * SEG, pc, expect = NONE;
	struct jb_state cur;
	bool have = false;

	sg->g = g;
	for (pc = lo; pc < lo + SEG; pc++) {
		struct jb_state *out = &sg->st[pc - lo];

		sg->live[pc - lo] = false;
		if (pc >= st->cnt)
			continue;
		if (hr_cfg_is_leader(&st->cfg, pc)) {
			uint32_t off = st->loff[hr_cfg_index(&st->cfg, pc)];

			have = off != NONE;
			if (have)
				load(st, off, &cur);
		} else if (st->coff[g] != NONE && pc == lo + st->cdelta[g]) {
			load(st, st->coff[g], &cur);
			have = true;
		} else if (!have || expect != pc) {
			continue;
		}
		if (!have)
			continue;
		*out = cur;
		sg->live[pc - lo] = true;
		expect = step(&an, pc, &cur);
		if (expect == NONE)
			have = false;
	}
}

/* The state entering @pc, or NULL: valid until the next query. */
static const struct jb_state *state_at(const struct jb_facts *f, uint32_t pc)
{
	struct jb_store *st = f->store;
	uint32_t g;
	struct jb_seg *sg;

	if (!st || pc >= st->cnt)
		return NULL;
	g = pc / SEG;
	if (st->seg[0].g == g) {
		sg = &st->seg[0];
		st->lru = 1;
	} else if (st->seg[1].g == g) {
		sg = &st->seg[1];
		st->lru = 0;
	} else {
		sg = &st->seg[st->lru];
		st->lru ^= 1;
		replay_seg(st, g, sg);
	}
	return sg->live[pc % SEG] ? &sg->st[pc % SEG] : NULL;
}

const struct jb_reg *jb_reg_at(const struct jb_facts *f, uint32_t pc, int reg)
{
	const struct jb_state *s;

	if (reg < 0 || reg >= HR_NREGS)
		return NULL;
	s = state_at(f, pc);
	return s ? &s->r[reg] : NULL;
}

bool jb_pkt_safe(const struct jb_facts *f, uint32_t pc, int breg, int off,
		 int size)
{
	const struct jb_state *s = state_at(f, pc);
	const struct jb_reg *r;
	const struct jb_var *v;

	if (!s || breg < 0 || breg >= HR_NREGS)
		return false;
	r = &s->r[breg];
	if (r->t == JB_META)
		return (int64_t)r->a + off >= 0 &&
		       (int64_t)r->b + off + size <= s->mrange;
	if (r->t != JB_PKT || (int64_t)r->a + off < 0)
		return false;
	if (!r->id)
		return (int64_t)r->b + off + size <= s->range;
	v = find_var_c(s, r->id);
	return v && ((int64_t)r->b + off + size <= v->range ||
		     (int64_t)v->hi + (int64_t)r->b + off + size <= s->range);
}

bool jb_value_safe(const struct jb_facts *f, uint32_t pc, int breg, int off,
		   int size, bool write)
{
	const struct jb_reg *r = jb_reg_at(f, pc, breg);
	int64_t lo;

	if (!r || r->t != JB_VALUE || (write && !(r->id & JB_VALUE_RW)))
		return false;
	lo = (int64_t)r->a + off;
	return lo >= 0 && lo + size <= (int64_t)JB_VALUE_SIZE(r->id);
}

/*
 * Any other helper may write the packet: bpf_xdp_store_bytes, the adjust
 * helpers (whose memmove of the metadata lands on packet bytes), a tail
 * call into a program that writes, one filling an out-argument that
 * points into the packet; so may every kfunc and callx.
 */
static bool helper_pkt_ro(int32_t id)
{
	switch (id) {
	case BPF_FUNC_map_lookup_elem:
	case BPF_FUNC_map_update_elem:
	case BPF_FUNC_map_delete_elem:
	case BPF_FUNC_ktime_get_ns:
	case BPF_FUNC_get_prandom_u32:
	case BPF_FUNC_get_smp_processor_id:
	case BPF_FUNC_redirect:
	case BPF_FUNC_redirect_map:
		return true;
	default:
		return false;
	}
}

/* The stack: the bounds of this frame, never a packet's memory. */
static bool store_in_frame(const struct jb_facts *f, uint32_t pc, int breg,
			   int off, int size)
{
	const struct jb_reg *r = jb_reg_at(f, pc, breg);
	int64_t lo;

	if (!r || r->t != JB_FP)
		return false;
	lo = (int64_t)r->a + off;
	return lo >= -(int64_t)HR_STACK_SIZE && lo + size <= 0;
}

bool jb_insn_pkt_ro(const struct jb_facts *f, const struct hr_insn *insn,
		    uint32_t pc)
{
	uint8_t cls = HR_CLASS(insn->code);
	int size = hr_size_bytes(insn->code);

	if (cls == HR_ST || cls == HR_STX)
		return f->store &&
		       (jb_value_safe(f, pc, insn->dst, insn->off, size,
				      true) ||
			store_in_frame(f, pc, insn->dst, insn->off, size));
	if ((cls != HR_JMP && cls != HR_JMP32) || HR_OP(insn->code) != HR_CALL)
		return true;
	if (insn->code != (HR_JMP | HR_CALL))
		return false;
	return insn->src == HR_CALL_LOCAL ||
	       (insn->src == HR_CALL_HELPER && helper_pkt_ro(insn->imm));
}

bool jb_ctx_field_ok(const struct hr_vm_prog *vm, int off, int size, bool write)
{
	if (off < 0 || (size_t)off + (size_t)size > vm->ctx_size)
		return false;
	return !vm->ctx_access || vm->ctx_access(vm->prog, off, size, write);
}

bool jb_access_proven(const struct jb_facts *f, const struct hr_vm_prog *vm,
		      uint32_t pc, int breg, int off, int size, bool write)
{
	return jb_pkt_safe(f, pc, breg, off, size) ||
	       jb_value_safe(f, pc, breg, off, size, write) ||
	       (jb_is_ctx(f, pc, breg) &&
		jb_ctx_field_ok(vm, off, size, write));
}

bool jb_is_ctx(const struct jb_facts *f, uint32_t pc, int breg)
{
	const struct jb_reg *r = jb_reg_at(f, pc, breg);

	return r && r->t == JB_CTX;
}

bool jb_fp_arg(const struct jb_facts *f, uint32_t pc, int reg, int len,
	       int32_t *off)
{
	const struct jb_reg *r = jb_reg_at(f, pc, reg);

	if (!r || r->t != JB_FP)
		return false;
	if ((int64_t)r->a < -HR_STACK_SIZE || (int64_t)r->a + len > 0)
		return false;
	*off = (int32_t)(int64_t)r->a;
	return true;
}

/* Whether an instruction may write r10 (the stack elisions need none). */
static bool writes_fp(const struct hr_insn *insn)
{
	switch (HR_CLASS(insn->code)) {
	case HR_ALU:
	case HR_ALU64:
	case HR_LDX:
	case HR_LD:
		return insn->dst == 10;
	case HR_ST:
	case HR_STX:
		return HR_MODE(insn->code) == HR_ATOMIC && insn->src == 10 &&
		       (insn->imm & HR_FETCH);
	}
	return false;
}

bool jb_fp_fixed(const struct hr_vm_prog *vm)
{
	uint32_t pc;

	for (pc = 0; pc < vm->cnt; pc++)
		if (writes_fp(&vm->insns[pc]))
			return false;
	return true;
}
