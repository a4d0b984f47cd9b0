/* SPDX-License-Identifier: MIT */
/*
 * The control-flow skeleton the load-time data-flow passes share
 * (bounds.c, ctx_check.c): leaders (where paths join), their reverse
 * post-order, a worklist that hands out leaders in that order, and an
 * arena for encoded states. The kernel's verifier walks paths instead
 * (do_check); a data-flow pass that joins at leaders and visits them in
 * reverse post-order walks acyclic code once, whatever its layout.
 */
#ifndef HR_VM_CFG_H
#define HR_VM_CFG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "vm/isa.h"

#define HR_CFG_NONE UINT32_MAX

/*
 * A pass's control flow from @pc: returns the fall-through (HR_CFG_NONE
 * for none) and sets *@other to the one other target (HR_CFG_NONE for
 * none). The pass must send states to exactly these.
 */
typedef uint32_t (*hr_cfg_succ_fn)(const void *arg, uint32_t pc,
				   uint32_t *other);

struct hr_cfg {
	uint32_t cnt;
	uint32_t nleaders;
	uint64_t *leader; /* bit per pc */
	uint32_t *rank; /* leaders before each 64-pc word */
	uint32_t *leader_pc; /* per leader (NULL after hr_cfg_trim) */
	uint32_t *rpo; /* per leader; HR_CFG_NONE: unreachable from pc 0 */
	/* The worklist: a heap of leaders by rpo. */
	uint32_t *heap, nheap;
	uint8_t *inq;
};

/*
 * Finds the leaders of @insns: pc 0, every "other" target of @succ, and
 * the pc after an ld_imm64 whose second slot is one (two fall-throughs
 * reach it); then orders those reachable from pc 0. 0 or -ENOMEM.
 */
int hr_cfg_build(struct hr_cfg *c, const struct hr_insn *insns, uint32_t cnt,
		 hr_cfg_succ_fn succ, const void *arg);

/* Frees what only the pass needs (order, worklist, leader pcs). */
void hr_cfg_trim(struct hr_cfg *c);
void hr_cfg_free(struct hr_cfg *c);

static inline bool hr_cfg_is_leader(const struct hr_cfg *c, uint32_t pc)
{
	return c->leader[pc / 64] >> (pc % 64) & 1;
}

/* The index of leader @pc. */
static inline uint32_t hr_cfg_index(const struct hr_cfg *c, uint32_t pc)
{
	uint64_t v = c->leader[pc / 64] & ((1ull << (pc % 64)) - 1);

	/* A population count without a libgcc call (no -mpopcnt). */
	v = v - ((v >> 1) & 0x5555555555555555ull);
	v = (v & 0x3333333333333333ull) + ((v >> 2) & 0x3333333333333333ull);
	v = (v + (v >> 4)) & 0x0f0f0f0f0f0f0f0full;
	return c->rank[pc / 64] + (uint32_t)((v * 0x0101010101010101ull) >> 56);
}

/* Queues leader @li unless it waits already. */
void hr_cfg_push(struct hr_cfg *c, uint32_t li);
/* The waiting leader first in reverse post-order, or HR_CFG_NONE. */
uint32_t hr_cfg_pop(struct hr_cfg *c);

/*
 * Encoded states: each entry has a capacity, and a rewrite that fits
 * stays in place (a state changes a bounded number of times).
 */
struct hr_arena {
	uint8_t *p;
	size_t len, cap;
};

/* Writes @len bytes to the entry *@slot (HR_CFG_NONE: a new one).
 * 0 or -ENOMEM (then *@slot is unchanged). */
int hr_arena_put(struct hr_arena *a, uint32_t *slot, const void *buf,
		 size_t len);

static inline const uint8_t *hr_arena_get(const struct hr_arena *a,
					  uint32_t slot)
{
	return a->p + slot + 2;
}

#endif /* HR_VM_CFG_H */
