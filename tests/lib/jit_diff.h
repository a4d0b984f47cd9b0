/* SPDX-License-Identifier: MIT */
/*
 * Differential runs for the JIT tests: one program over one memory image,
 * under the interpreter and under the JIT, from the same starting state
 * and at the same addresses, compared on r0, the abort reason, pc and
 * address, the call depth and every byte of memory afterwards.
 */
#ifndef HR_TESTS_JIT_DIFF_H
#define HR_TESTS_JIT_DIFF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "vm/vm.h"

/* Arena sections (byte offsets); the layout is fixed. */
#define JD_CTX_OFF 0
#define JD_CTX_LEN 64
#define JD_PKT_OFF 64
#define JD_PKT_LEN 256
#define JD_RW_OFF 320
#define JD_RW_LEN 128
#define JD_RO_OFF 448
#define JD_RO_LEN 64
#define JD_ARENA_LEN 512

struct jd_env {
	struct hr_vm_prog vm;
	struct hr_run *run;
	uint8_t *arena; /* JD_ARENA_LEN bytes, 64-aligned */
	uint8_t init[JD_ARENA_LEN]; /* its starting contents */
	uint8_t stack_init[HR_MAX_CALL_FRAMES * HR_STACK_SIZE];
	struct hr_region regions[2];
	unsigned int nregions;
	bool has_ctx; /* run->ctx = arena + JD_CTX_OFF */
	uintptr_t pkt_lo, pkt_hi; /* starting packet window */
	uint64_t budget;
	uint64_t r1, r2;
};

struct jd_result {
	uint64_t r0;
	int abort;
	uint32_t abort_pc;
	uint64_t abort_addr;
	unsigned int depth;
	uintptr_t pkt_lo, pkt_hi;
	uint8_t arena[JD_ARENA_LEN];
	uint8_t stack[HR_MAX_CALL_FRAMES * HR_STACK_SIZE];
};

/* Allocates the arena and run; regions rw + ro, ctx, packet = whole
 * packet section. 0 or -ENOMEM. */
int jd_env_init(struct jd_env *e);
void jd_env_free(struct jd_env *e);

/* Address of arena byte @off. */
static inline uint64_t jd_addr(const struct jd_env *e, size_t off)
{
	return (uint64_t)(uintptr_t)(e->arena + off);
}

/* Resets memory to e->init / e->stack_init and runs under @engine. */
void jd_run(struct jd_env *e, int engine, struct jd_result *res);

/* Whether both results agree; otherwise writes the first difference. */
bool jd_same(const struct jd_result *a, const struct jd_result *b, char *why,
	     size_t whysz);

/* Writes a struct xdp_md into @init (an arena image) with data_meta =
 * e->pkt_lo and the given data and data_end, for runs under the XDP
 * context rule (the JIT's bounds analysis knows that layout). */
void jd_xdp_ctx(struct jd_env *e, uint8_t *init, uintptr_t data,
		uintptr_t data_end);

/* A context rule for the tests: 4- or 8-byte aligned reads in [0, 32),
 * writes only in [16, 24). */
bool jd_ctx_access(const struct hr_prog *prog, int off, int size, bool write);

#endif /* HR_TESTS_JIT_DIFF_H */
