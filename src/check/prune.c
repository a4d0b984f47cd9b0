// SPDX-License-Identifier: MIT
/*
 * headroom check: states met again, as the kernel's is_state_visited()
 * prunes them at its prune points, and loop heads.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/bpf.h>

#include "check/walk.h"

static uint64_t mix(uint64_t h, uint64_t v)
{
	h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
	return h * 0x100000001b3ull;
}

static uint64_t reg_hash(uint64_t h, const struct reg *r)
{
	h = mix(h, r->t | (uint64_t)r->exact << 8 |
			   (uint64_t)r->maybe_nonnull << 9 |
			   (uint64_t)r->lossy << 10 |
			   (uint64_t)r->rdonly << 11);
	h = mix(h, (uint32_t)r->off | (uint64_t)(uint32_t)r->range << 32);
	h = mix(h, r->frameno | (uint64_t)r->dyn_type << 8);
	/* Scalar copy ids are fresh each time round: left out. */
	h = mix(h, r->t == R_SCALAR ? 0 : r->id);
	h = mix(h, r->lo);
	h = mix(h, r->hi);
	h = mix(h, r->sgn ? (uint64_t)r->smin ^ (uint64_t)r->smax << 1 : 0);
	h = mix(h, r->smin_unb);
	return mix(h, (uint64_t)(uintptr_t)r->map ^ r->vsize);
}

static uint64_t frame_hash(uint64_t h, const struct reg *r,
			   const struct slot *sl)
{
	int i;

	for (i = 0; i < HR_NREGS; i++)
		h = reg_hash(h, &r[i]);
	for (i = 0; i < MAX_STACK / 8; i++) {
		h = mix(h, sl[i].spill);
		h = reg_hash(h, &sl[i].r);
	}
	return h;
}

static uint64_t state_hash(const struct state *s)
{
	uint64_t h = 0xcbf29ce484222325ull;
	int i;

	h = frame_hash(h, s->r, s->s);
	for (i = 0; i < s->curframe; i++)
		h = mix(frame_hash(h, s->fr[i].r, s->fr[i].s),
			s->fr[i].callsite);
	for (i = 0; i < s->nrefs; i++)
		h = mix(h, s->refs[i]);
	/* refsafe(): states with other section depths are not equal. */
	h = mix(h, (uint64_t)s->rcu | (uint64_t)s->preempt << 32);
	h = mix(h, s->locked | (uint64_t)s->lock_id << 32);
	h = mix(h, (uint64_t)(uintptr_t)s->lock_map);
	return mix(h, (uint64_t)s->nrefs);
}

/* Arriving at loop head s->pc from the back edge at @from. */
int ck_loop_head(struct walk *w, struct state *s, uint32_t from)
{
	uint64_t h;
	unsigned int k;
	uint32_t body = from - s->pc + 1;

	if (s->soft)
		return 0;
	h = state_hash(s);
	for (k = 0; k < s->nlh && k < LOOP_RING; k++)
		if (s->lh_pc[k] == s->pc && s->lh_hash[k] == h)
			/* The kernel names the loop head and faults the back
			 * edge that reached it. */
			return ck_fault(w, s, from,
					"infinite loop detected at insn %u",
					s->pc);
	s->lh_pc[s->nlh % LOOP_RING] = s->pc;
	s->lh_hash[s->nlh % LOOP_RING] = h;
	s->nlh++;
	/* Every time round a different exact state: none prunes another,
	 * so the kernel walks the body that often too. */
	if ((uint64_t)++w->visits[s->pc] * body > INSN_LIMIT)
		return ck_fault(w, s, from,
				"BPF program is too large. Processed %u insn",
				INSN_LIMIT + 1);
	return 0;
}

/* --- pruning ----------------------------------------------------------- */

/* Ids renamed in order of first appearance, so that two states that
 * differ only in how their ids were numbered compare equal. */
struct id_map {
	uint32_t from[2 * MAX_FRAMES * (HR_NREGS + MAX_STACK / 8) +
		      2 * MAX_REFS + 2];
	unsigned int n;
};

static uint32_t canon_id(struct id_map *m, uint32_t id)
{
	unsigned int i;

	if (!id)
		return 0;
	for (i = 0; i < m->n; i++)
		if (m->from[i] == id)
			return i + 1;
	if (m->n < sizeof(m->from) / sizeof(m->from[0]))
		m->from[m->n++] = id;
	return m->n;
}

static bool reg_same(const struct reg *a, const struct reg *b,
		     struct id_map *ma, struct id_map *mb)
{
	return a->t == b->t && a->exact == b->exact &&
	       a->maybe_nonnull == b->maybe_nonnull && a->lossy == b->lossy &&
	       a->off == b->off && a->range == b->range && a->lo == b->lo &&
	       a->hi == b->hi && a->map == b->map && a->vsize == b->vsize &&
	       a->rdonly == b->rdonly && a->frameno == b->frameno &&
	       a->dyn_type == b->dyn_type && a->sgn == b->sgn &&
	       a->smin_unb == b->smin_unb &&
	       (!a->sgn || (a->smin == b->smin && a->smax == b->smax)) &&
	       canon_id(ma, a->id) == canon_id(mb, b->id) &&
	       canon_id(ma, a->dyn_id) == canon_id(mb, b->dyn_id);
}

static bool frame_same(const struct reg *ar, const struct slot *as,
		       const struct reg *br, const struct slot *bs,
		       struct id_map *ma, struct id_map *mb)
{
	int i;

	for (i = 0; i < HR_NREGS; i++)
		if (!reg_same(&ar[i], &br[i], ma, mb))
			return false;
	for (i = 0; i < MAX_STACK / 8; i++)
		if (as[i].spill != bs[i].spill || as[i].misc != bs[i].misc ||
		    !reg_same(&as[i].r, &bs[i].r, ma, mb))
			return false;
	return true;
}

/* Whether @a and @b lead to the same walk from here: every register,
 * spill, reference, section, lock and loop-head record the same, ids up
 * to renaming; only the path length may differ. */
static bool state_same(const struct state *a, const struct state *b)
{
	struct id_map ma = { .n = 0 }, mb = { .n = 0 };
	int i;

	if (a->pc != b->pc || a->soft != b->soft || a->nrefs != b->nrefs ||
	    a->rcu != b->rcu || a->preempt != b->preempt ||
	    a->locked != b->locked || a->lock_map != b->lock_map ||
	    a->nlh != b->nlh || memcmp(a->lh_pc, b->lh_pc, sizeof(a->lh_pc)) ||
	    memcmp(a->lh_hash, b->lh_hash, sizeof(a->lh_hash)) ||
	    a->curframe != b->curframe || a->func != b->func ||
	    a->cb != b->cb || a->cb_refs != b->cb_refs)
		return false;
	if (!frame_same(a->r, a->s, b->r, b->s, &ma, &mb))
		return false;
	for (i = 0; i < a->curframe; i++)
		if (a->fr[i].callsite != b->fr[i].callsite ||
		    a->fr[i].cb != b->fr[i].cb ||
		    a->fr[i].cb_refs != b->fr[i].cb_refs ||
		    a->fr[i].soft != b->fr[i].soft ||
		    !frame_same(a->fr[i].r, a->fr[i].s, b->fr[i].r, b->fr[i].s,
				&ma, &mb))
			return false;
	for (i = 0; i < a->nrefs; i++)
		if (a->ref_insn[i] != b->ref_insn[i] ||
		    canon_id(&ma, a->refs[i]) != canon_id(&mb, b->refs[i]))
			return false;
	return canon_id(&ma, a->lock_id) == canon_id(&mb, b->lock_id);
}

/* A hash of what state_same compares but the ids. */
static uint64_t prune_hash(const struct state *s)
{
	uint64_t h = mix(0x84222325cbf29ce4ull, s->pc);
	int i;

	for (i = 0; i < HR_NREGS; i++)
		h = mix(mix(mix(h, s->r[i].t | (uint64_t)s->r[i].off << 8),
			    s->r[i].lo),
			s->r[i].hi);
	for (i = 0; i < MAX_STACK / 8; i++)
		if (s->s[i].spill || s->s[i].r.t)
			h = mix(mix(mix(h, (uint64_t)i << 32 | s->s[i].r.t),
				    s->s[i].r.lo),
				s->s[i].r.hi);
	for (i = 0; i < s->curframe; i++)
		h = mix(h, s->fr[i].callsite);
	return mix(h, (uint64_t)s->nrefs | (uint64_t)s->nlh << 8 |
			      (uint64_t)s->soft << 40 |
			      (uint64_t)s->locked << 41 |
			      (uint64_t)s->curframe << 42);
}

/* 1 when an equal state was met here before (this path adds nothing),
 * else records this one and returns 0. */
int ck_prune(struct walk *w, const struct state *s)
{
	uint64_t h = prune_hash(s);
	struct seen **b = &w->seen[h % SEEN_BUCKETS], *e;

	for (e = *b; e; e = e->next)
		if (e->hash == h && state_same(&e->st, s)) {
			w->pruned = true;
			return 1;
		}
	if (w->nseen >= SEEN_MAX)
		return 0;
	/* Only the caller frames in use are kept (state_size). */
	e = malloc(offsetof(struct seen, st) + state_size(s));
	if (!e)
		return 0;
	e->hash = h;
	memcpy(&e->st, s, state_size(s));
	e->next = *b;
	*b = e;
	w->nseen++;
	return 0;
}

/* The prune points: jump targets and the instruction after each jump or
 * call, as the kernel marks them (mark_prune_point). */
void ck_mark_prune_points(struct walk *w)
{
	uint32_t pc;

	for (pc = 0; pc < w->cnt; pc++) {
		const struct hr_insn *in = &w->in[pc];
		int cls = HR_CLASS(in->code), op = HR_OP(in->code);
		int64_t t;

		if (hr_insn_is_lddw(in)) {
			pc++;
			continue;
		}
		if (cls != HR_JMP && cls != HR_JMP32)
			continue;
		if (op == HR_EXIT)
			continue;
		if (pc + 1 < w->cnt)
			w->prune_pt[pc + 1] = true;
		/* A callback's return comes back to its helper's call. */
		if (op == HR_CALL && !in->src &&
		    (in->imm == BPF_FUNC_loop ||
		     in->imm == BPF_FUNC_for_each_map_elem))
			w->prune_pt[pc] = true;
		if (op == HR_CALL)
			continue;
		t = (int64_t)pc + 1 +
		    (op == HR_JA && cls == HR_JMP32 ? in->imm : in->off);
		if (t >= 0 && t < w->cnt)
			w->prune_pt[t] = true;
	}
}

void ck_free_seen(struct walk *w)
{
	unsigned int i;

	for (i = 0; w->seen && i < SEEN_BUCKETS; i++)
		while (w->seen[i]) {
			struct seen *e = w->seen[i];

			w->seen[i] = e->next;
			free(e);
		}
	free(w->seen);
	free(w->prune_pt);
}
