/* SPDX-License-Identifier: MIT */
/*
 * The run-time memory check shared by the interpreter and the helpers:
 * which bytes a run may touch, in the order they are most often hit.
 */
#ifndef HR_VM_MEM_H
#define HR_VM_MEM_H

#include "vm/vm.h"

int hr_map_registry_mem_check(uintptr_t addr, uint32_t len, bool write);
int hr_obj_rcu_mem_check(struct hr_run *run, uintptr_t addr, uint32_t len);

/* Lowest stack byte frame @depth and its callers may touch. */
static inline uintptr_t hr_stack_lo(const struct hr_run *run,
				    unsigned int depth)
{
	return (uintptr_t)run->stack +
	       (HR_MAX_CALL_FRAMES - 1 - depth) * HR_STACK_SIZE;
}

static inline uintptr_t hr_stack_hi(const struct hr_run *run)
{
	return (uintptr_t)run->stack + sizeof(run->stack);
}

static inline bool hr_in(uintptr_t addr, uint32_t len, uintptr_t lo,
			 uintptr_t hi)
{
	return addr >= lo && addr <= hi && hi - addr >= len;
}

static inline bool hr_region_ok(const struct hr_region *r, uintptr_t addr,
				uint32_t len)
{
	uintptr_t rel;

	if (!hr_in(addr, len, r->start, r->end))
		return false;
	if (!r->stride)
		return true;
	rel = (addr - r->start) % r->stride;
	return rel >= r->off && rel - r->off + len <= r->len;
}

/*
 * HR_ABORT_NONE when [addr, addr + len) may be read (or written), else the
 * reason the access must end the run.
 */
static inline enum hr_abort
hr_mem_check(const struct hr_run *run, uintptr_t addr, uint32_t len, bool write)
{
	const struct hr_vm_prog *vm = run->vm;
	enum hr_abort why;
	unsigned int i;

	if (hr_in(addr, len, hr_stack_lo(run, run->depth), hr_stack_hi(run)))
		return HR_ABORT_NONE;
	if (hr_in(addr, len, run->pkt_lo, run->pkt_hi))
		return HR_ABORT_NONE;
	if (run->ctx && hr_in(addr, len, (uintptr_t)run->ctx,
			      (uintptr_t)run->ctx + vm->ctx_size)) {
		if (vm->ctx_access &&
		    !vm->ctx_access(vm->prog, (int)(addr - (uintptr_t)run->ctx),
				    (int)len, write))
			return HR_ABORT_CTX_ACCESS;
		return HR_ABORT_NONE;
	}
	for (i = 0; i < run->nregions; i++) {
		const struct hr_region *r = &run->regions[i];

		if (!hr_region_ok(r, addr, len))
			continue;
		if (write && !(r->flags & HR_REGION_WRITE))
			return HR_ABORT_RDONLY;
		if (!write && !(r->flags & HR_REGION_READ))
			continue;
		return HR_ABORT_NONE;
	}
	/* Ring buffer records and kernel objects the run holds: each its
	 * own bytes only, and of an object only the writable part. */
	for (i = 0; i < run->nheld; i++) {
		const struct hr_held_rec *h = &run->held[i];

		if (!hr_in(addr, len, h->start, h->end))
			continue;
		if (write && h->wr_hi && !hr_in(addr, len, h->wr_lo, h->wr_hi))
			return HR_ABORT_RDONLY;
		return HR_ABORT_NONE;
	}
	/* Inner maps of map-in-map, reached through another map; then an
	 * object a kptr field owns, reached through it (RCU), which the run
	 * records among what it holds: every run is its caller's own, const
	 * here only for the checks above. */
	why = (enum hr_abort)hr_map_registry_mem_check(addr, len, write);
	if (why != HR_ABORT_NONE &&
	    !hr_obj_rcu_mem_check((struct hr_run *)run, addr, len))
		return HR_ABORT_NONE;
	return why;
}

#endif /* HR_VM_MEM_H */
