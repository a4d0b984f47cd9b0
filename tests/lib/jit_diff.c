// SPDX-License-Identifier: MIT
/* Differential interpreter/JIT runs (jit_diff.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <linux/bpf.h>

#include "vm/engine.h"
#include "jit_diff.h"

bool jd_ctx_access(const struct hr_prog *prog, int off, int size, bool write)
{
	if (size != 4 && size != 8)
		return false;
	if (off % size)
		return false;
	if (write)
		return off >= 16 && off + size <= 24;
	return off >= 0 && off + size <= 32;
}

int jd_env_init(struct jd_env *e)
{
	memset(e, 0, sizeof(*e));
	/* Below 4 GiB, so that struct xdp_md's 32-bit data fields can hold
	 * arena addresses (jd_xdp_ctx). */
	e->arena = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS | MAP_32BIT, -1, 0);
	if (e->arena == MAP_FAILED)
		e->arena = NULL;
	e->run = aligned_alloc(64, (sizeof(*e->run) + 63) & ~(size_t)63);
	if (!e->arena || !e->run) {
		jd_env_free(e);
		return -ENOMEM;
	}
	e->regions[0] = (struct hr_region){
		.start = jd_addr(e, JD_RW_OFF),
		.end = jd_addr(e, JD_RW_OFF + JD_RW_LEN),
		.flags = HR_REGION_READ | HR_REGION_WRITE,
	};
	e->regions[1] = (struct hr_region){
		.start = jd_addr(e, JD_RO_OFF),
		.end = jd_addr(e, JD_RO_OFF + JD_RO_LEN),
		.flags = HR_REGION_READ,
	};
	e->nregions = 2;
	e->has_ctx = true;
	e->pkt_lo = jd_addr(e, JD_PKT_OFF);
	e->pkt_hi = jd_addr(e, JD_PKT_OFF + JD_PKT_LEN);
	e->budget = HR_DEFAULT_BUDGET;
	e->vm.ctx_size = JD_CTX_LEN;
	e->vm.ctx_access = jd_ctx_access;
	e->vm.abort_ret = 0xabad1dea;
	return 0;
}

void jd_env_free(struct jd_env *e)
{
	if (e->arena)
		munmap(e->arena, 4096);
	free(e->run);
	e->arena = NULL;
	e->run = NULL;
}

void jd_run(struct jd_env *e, int engine, struct jd_result *res)
{
	struct hr_run *run = e->run;

	memcpy(e->arena, e->init, JD_ARENA_LEN);
	hr_run_init(run, &e->vm, e->has_ctx ? e->arena + JD_CTX_OFF : NULL);
	memcpy(run->stack, e->stack_init, sizeof(run->stack));
	run->regions = e->regions;
	run->nregions = e->nregions;
	run->pkt_lo = e->pkt_lo;
	run->pkt_hi = e->pkt_hi;
	run->budget = e->budget;
	res->r0 = hr_engine_run2((enum hr_engine)engine, run, e->r1, e->r2);
	res->abort = run->abort;
	res->abort_pc = run->abort_pc;
	res->abort_addr = run->abort_addr;
	res->depth = run->depth;
	res->pkt_lo = run->pkt_lo;
	res->pkt_hi = run->pkt_hi;
	memcpy(res->arena, e->arena, JD_ARENA_LEN);
	memcpy(res->stack, run->stack, sizeof(run->stack));
}

static int first_diff(const uint8_t *a, const uint8_t *b, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (a[i] != b[i])
			return (int)i;
	return -1;
}

bool jd_same(const struct jd_result *a, const struct jd_result *b, char *why,
	     size_t whysz)
{
	int at;

	if (a->abort != b->abort || a->abort_pc != b->abort_pc ||
	    a->abort_addr != b->abort_addr) {
		snprintf(why, whysz,
			 "abort %d (%s) pc %u addr %#llx vs %d (%s) pc %u "
			 "addr %#llx",
			 a->abort, hr_abort_str(a->abort), a->abort_pc,
			 (unsigned long long)a->abort_addr, b->abort,
			 hr_abort_str(b->abort), b->abort_pc,
			 (unsigned long long)b->abort_addr);
		return false;
	}
	if (a->r0 != b->r0) {
		snprintf(why, whysz, "r0 %#llx vs %#llx",
			 (unsigned long long)a->r0, (unsigned long long)b->r0);
		return false;
	}
	if (a->depth != b->depth || a->pkt_lo != b->pkt_lo ||
	    a->pkt_hi != b->pkt_hi) {
		snprintf(why, whysz, "depth %u vs %u or packet window differs",
			 a->depth, b->depth);
		return false;
	}
	at = first_diff(a->arena, b->arena, JD_ARENA_LEN);
	if (at >= 0) {
		snprintf(why, whysz, "arena byte %d: %#x vs %#x", at,
			 a->arena[at], b->arena[at]);
		return false;
	}
	at = first_diff(a->stack, b->stack, sizeof(a->stack));
	if (at >= 0) {
		snprintf(why, whysz, "stack byte %d: %#x vs %#x", at,
			 a->stack[at], b->stack[at]);
		return false;
	}
	return true;
}

void jd_xdp_ctx(struct jd_env *e, uint8_t *init, uintptr_t data,
		uintptr_t data_end)
{
	struct xdp_md md = { 0 };

	md.data = (uint32_t)data;
	md.data_end = (uint32_t)data_end;
	md.data_meta = (uint32_t)e->pkt_lo;
	memcpy(init + JD_CTX_OFF, &md, sizeof(md));
}
