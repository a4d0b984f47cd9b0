// SPDX-License-Identifier: MIT
/*
 * Leaders, reverse post-order, worklist and state arena for the load-time
 * data-flow passes (cfg.h). Everything here is linear in the program:
 * one pass marks leaders, an iterative depth-first search (no recursion,
 * so no host stack depth to exhaust) numbers them, and the worklist is a
 * binary heap on that number. Memory is a bit per instruction plus a few
 * words per leader, since on a host where page faults are dear the bytes
 * a pass touches are most of its time.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "vm/cfg.h"

static void mark(uint64_t *bits, uint32_t pc, uint32_t cnt)
{
	if (pc < cnt)
		bits[pc / 64] |= 1ull << (pc % 64);
}

static int find_leaders(struct hr_cfg *c, const struct hr_insn *insns,
			hr_cfg_succ_fn succ, const void *arg)
{
	uint32_t cnt = c->cnt, words = (cnt + 63) / 64, pc, other, n = 0, w;

	c->leader = calloc(words, sizeof(*c->leader));
	c->rank = calloc(words, sizeof(*c->rank));
	if (!c->leader || !c->rank)
		return -ENOMEM;
	mark(c->leader, 0, cnt);
	for (pc = 0; pc < cnt; pc++) {
		succ(arg, pc, &other);
		mark(c->leader, other, cnt);
	}
	for (pc = 0; pc + 2 < cnt; pc++)
		if (insns[pc].code == HR_OPC_LDDW &&
		    hr_cfg_is_leader(c, pc + 1))
			mark(c->leader, pc + 2, cnt);
	for (w = 0; w < words; w++) {
		c->rank[w] = n;
		n += (uint32_t)__builtin_popcountll(c->leader[w]);
	}
	c->nleaders = n;
	c->leader_pc = malloc((size_t)n * sizeof(*c->leader_pc));
	if (!c->leader_pc)
		return -ENOMEM;
	for (w = 0, n = 0; w < words; w++) {
		uint64_t bits = c->leader[w];

		for (; bits; bits &= bits - 1)
			c->leader_pc[n++] =
				w * 64 + (uint32_t)__builtin_ctzll(bits);
	}
	return 0;
}

/* Reverse post-order of the leaders reachable from pc 0, along the walks'
 * edges: a leader's walk goes through fall-throughs to the next leader. */
static int order_leaders(struct hr_cfg *c, hr_cfg_succ_fn succ, const void *arg)
{
	struct frame {
		uint32_t li, pc;
		uint8_t k; /* 0: other target next, 1: fall-through, 2: done */
	} * stack;
	const uint32_t seen = HR_CFG_NONE - 1;
	uint32_t n = c->nleaders, sp = 0, post = 0, i, fall, other;

	c->rpo = malloc((size_t)n * sizeof(*c->rpo));
	stack = malloc((size_t)n * sizeof(*stack));
	if (!c->rpo || !stack) {
		free(stack);
		return -ENOMEM;
	}
	for (i = 0; i < n; i++)
		c->rpo[i] = HR_CFG_NONE;
	c->rpo[0] = seen;
	stack[sp++] = (struct frame){ 0, 0, 0 };
	while (sp) {
		struct frame *fr = &stack[sp - 1];
		uint32_t t;

		fall = succ(arg, fr->pc, &other);
		if (fr->k == 0) {
			fr->k = 1;
			t = other;
		} else if (fr->k == 1) {
			fr->k = 2;
			if (fall < c->cnt && !hr_cfg_is_leader(c, fall)) {
				fr->pc = fall;
				fr->k = 0;
				continue;
			}
			t = fall;
		} else {
			c->rpo[fr->li] = post++;
			sp--;
			continue;
		}
		if (t < c->cnt) {
			uint32_t li = hr_cfg_index(c, t);

			/* Each leader is pushed once: the stack holds n. */
			if (c->rpo[li] == HR_CFG_NONE) {
				c->rpo[li] = seen;
				stack[sp++] = (struct frame){ li, t, 0 };
			}
		}
	}
	free(stack);
	for (i = 0; i < n; i++)
		if (c->rpo[i] != HR_CFG_NONE)
			c->rpo[i] = post - 1 - c->rpo[i];
	return 0;
}

int hr_cfg_build(struct hr_cfg *c, const struct hr_insn *insns, uint32_t cnt,
		 hr_cfg_succ_fn succ, const void *arg)
{
	memset(c, 0, sizeof(*c));
	c->cnt = cnt;
	if (!cnt)
		return -EINVAL;
	if (find_leaders(c, insns, succ, arg) || order_leaders(c, succ, arg))
		goto fail;
	c->heap = malloc((size_t)c->nleaders * sizeof(*c->heap));
	c->inq = calloc(c->nleaders, 1);
	if (!c->heap || !c->inq)
		goto fail;
	return 0;
fail:
	hr_cfg_free(c);
	return -ENOMEM;
}

void hr_cfg_trim(struct hr_cfg *c)
{
	free(c->leader_pc);
	free(c->rpo);
	free(c->heap);
	free(c->inq);
	c->leader_pc = c->rpo = c->heap = NULL;
	c->inq = NULL;
	c->nheap = 0;
}

void hr_cfg_free(struct hr_cfg *c)
{
	hr_cfg_trim(c);
	free(c->leader);
	free(c->rank);
	c->leader = NULL;
	c->rank = NULL;
}

static bool before(const struct hr_cfg *c, uint32_t x, uint32_t y)
{
	return c->rpo[x] < c->rpo[y];
}

void hr_cfg_push(struct hr_cfg *c, uint32_t li)
{
	uint32_t i, up;

	if (c->inq[li])
		return;
	c->inq[li] = 1;
	for (i = c->nheap++; i && before(c, li, c->heap[up = (i - 1) / 2]);
	     i = up)
		c->heap[i] = c->heap[up];
	c->heap[i] = li;
}

uint32_t hr_cfg_pop(struct hr_cfg *c)
{
	uint32_t top, last, i = 0, k;

	if (!c->nheap)
		return HR_CFG_NONE;
	top = c->heap[0];
	last = c->heap[--c->nheap];
	while ((k = 2 * i + 1) < c->nheap) {
		if (k + 1 < c->nheap && before(c, c->heap[k + 1], c->heap[k]))
			k++;
		if (!before(c, c->heap[k], last))
			break;
		c->heap[i] = c->heap[k];
		i = k;
	}
	c->heap[i] = last;
	c->inq[top] = 0;
	return top;
}

int hr_arena_put(struct hr_arena *a, uint32_t *slot, const void *buf,
		 size_t len)
{
	uint16_t cap;
	size_t need;

	if (len > UINT16_MAX - 8)
		return -ENOMEM;
	if (*slot != HR_CFG_NONE) {
		memcpy(&cap, a->p + *slot, 2);
		if (len <= cap) {
			memcpy(a->p + *slot + 2, buf, len);
			return 0;
		}
	}
	cap = (uint16_t)((len + 7) & ~(size_t)7);
	need = a->len + 2 + cap;
	if (need >= HR_CFG_NONE)
		return -ENOMEM;
	if (need > a->cap) {
		size_t ncap = a->cap ? a->cap : 65536;
		uint8_t *p;

		while (ncap < need)
			ncap *= 2;
		p = realloc(a->p, ncap);
		if (!p)
			return -ENOMEM;
		a->p = p;
		a->cap = ncap;
	}
	memcpy(a->p + a->len, &cap, 2);
	memcpy(a->p + a->len + 2, buf, len);
	*slot = (uint32_t)a->len;
	a->len = need;
	return 0;
}
