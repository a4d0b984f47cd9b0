// SPDX-License-Identifier: MIT
/* Run state: initialisation, the memory checker helpers use, aborts and
 * the access an abort stopped. */
#include <stdlib.h>
#include <string.h>

#include "vm/vm.h"
#include "vm/mem.h"
#include "maps/map_registry.h"
#include "maps/ringbuf.h"

static const char *const abort_names[HR_ABORT__MAX] = {
	[HR_ABORT_NONE] = "none",
	[HR_ABORT_OOB_LOAD] = "out-of-bounds load",
	[HR_ABORT_OOB_STORE] = "out-of-bounds store",
	[HR_ABORT_CTX_ACCESS] = "invalid context access",
	[HR_ABORT_RDONLY] = "store to read-only memory",
	[HR_ABORT_JUMP] = "jump out of program",
	[HR_ABORT_CALL_DEPTH] = "call depth over 8 frames",
	[HR_ABORT_BUDGET] = "instruction budget exhausted",
	[HR_ABORT_BAD_INSN] = "invalid instruction",
	[HR_ABORT_HELPER_ARG] = "bad helper argument",
	[HR_ABORT_UNKNOWN_CALL] = "call to unresolved function",
	[HR_ABORT_TAIL_CALL] = "tail call fault",
	[HR_ABORT_CORE_POISON] = "unresolved CO-RE relocation",
	[HR_ABORT_NOMEM] = "out of memory",
	[HR_ABORT_LOCK_RECURSION] = "bpf_spin_lock on a lock already held",
	[HR_ABORT_LOCK_HELD] = "program exited holding a bpf_spin_lock",
	[HR_ABORT_LOCK_CONTENDED] = "bpf_spin_lock not acquired in time",
	[HR_ABORT_MAP_WALK] = "map walk did not end",
	[HR_ABORT_JIT_CHECK] = "checked JIT: an elided access failed its check",
	[HR_ABORT_INVARIANT] = "engine invariant broken after the run",
	[HR_ABORT_OBJ_LEAK] =
		"program exited holding an allocated object (bpf_obj_new)",
};

const char *hr_abort_str(int reason)
{
	if (reason < 0 || reason >= HR_ABORT__MAX || !abort_names[reason])
		return "unknown abort reason";
	return abort_names[reason];
}

void hr_run_init(struct hr_run *run, const struct hr_vm_prog *vm, void *ctx)
{
	run->vm = vm;
	run->ctx = ctx;
	run->pkt_lo = 0;
	run->pkt_hi = 0;
	run->regions = NULL;
	run->nregions = 0;
	run->maps = NULL;
	run->nmaps = 0;
	run->budget = HR_DEFAULT_BUDGET;
	run->cpu = 0;
	run->abort = HR_ABORT_NONE;
	run->abort_pc = 0;
	run->abort_addr = 0;
	run->unwind = false;
	run->in_callback = 0;
	run->in_rb_less = 0;
	run->priv = NULL;
	run->rx_hints = NULL;
	run->rx_hints_ok = 0;
	run->pkt_dirty = 1;
	run->depth = 0;
	run->pc = 0;
	run->tail_call = NULL;
	run->tail_call_cnt = 0;
	run->lock = NULL;
	run->nheld = 0;
	run->callback = NULL;
}

struct hr_region *hr_run_regions_push(struct hr_run *run, unsigned int n,
				      struct hr_run_regions *save)
{
	struct hr_region *copy = calloc(run->nregions + n, sizeof(*copy));

	if (!copy)
		return NULL;
	if (run->nregions)
		memcpy(copy, run->regions, run->nregions * sizeof(*copy));
	*save = (struct hr_run_regions){ .regions = run->regions,
					 .nregions = run->nregions,
					 .copy = copy };
	run->regions = copy;
	run->nregions += n;
	return copy + save->nregions;
}

void hr_run_regions_pop(struct hr_run *run, struct hr_run_regions *save)
{
	run->regions = save->regions;
	run->nregions = save->nregions;
	free(save->copy);
	save->copy = NULL;
}

/* The reasons a memory instruction at abort_pc ends a run with. */
static bool mem_reason(enum hr_abort reason)
{
	return reason == HR_ABORT_OOB_LOAD || reason == HR_ABORT_OOB_STORE ||
	       reason == HR_ABORT_CTX_ACCESS || reason == HR_ABORT_RDONLY ||
	       reason == HR_ABORT_JIT_CHECK;
}

/*
 * What the instruction at abort_pc accessed, decoded from the running
 * program: both engines stop a memory access exactly at its instruction
 * with its address, so this is the same for both and costs the fast path
 * nothing.
 */
static void abort_access(struct hr_run *run)
{
	const struct hr_vm_prog *vm = run->vm;
	const struct hr_insn *insn;
	uint8_t cls;

	run->abort_op = HR_MEM_OP_NONE;
	run->abort_size = 0;
	run->abort_depth = (uint8_t)run->depth;
	if (!mem_reason(run->abort) || !vm || !vm->insns ||
	    run->abort_pc >= vm->cnt)
		return;
	insn = &vm->insns[run->abort_pc];
	cls = HR_CLASS(insn->code);
	if (cls == HR_LDX)
		run->abort_op = HR_MEM_OP_LOAD;
	else if (cls == HR_STX && HR_MODE(insn->code) == HR_ATOMIC)
		run->abort_op = HR_MEM_OP_ATOMIC;
	else if (cls == HR_ST || cls == HR_STX)
		run->abort_op = HR_MEM_OP_STORE;
	else
		return;
	run->abort_size = (uint32_t)hr_size_bytes(insn->code);
}

void hr_run_abort(struct hr_run *run, enum hr_abort reason, uint64_t addr)
{
	if (run->abort != HR_ABORT_NONE)
		return;
	run->abort = reason;
	run->abort_addr = addr;
	run->abort_pc = run->pc;
	abort_access(run);
}

static uint8_t zero_len;

void *hr_run_mem(struct hr_run *run, uint64_t addr, uint64_t len, bool write)
{
	/* Helpers see the whole stack of the calling frames, as a pointer
	 * to a caller's stack may be passed down. */
	/* Zero bytes touch nothing; a NULL would still be undefined as a
	 * memcpy argument, so those get a harmless stand-in. */
	if (len == 0)
		return addr ? (void *)(uintptr_t)addr : (void *)&zero_len;
	if (len > UINT32_MAX || addr + len < addr)
		goto bad;
	if (hr_mem_check(run, addr, (uint32_t)len, write) == HR_ABORT_NONE)
		return (void *)(uintptr_t)addr;
bad:
	if (run->abort == HR_ABORT_NONE) {
		hr_run_abort(run, HR_ABORT_HELPER_ARG, addr);
		/* The helper's own access: the instruction is its call. */
		run->abort_op = write ? HR_MEM_OP_HELPER_WRITE :
					HR_MEM_OP_HELPER_READ;
		run->abort_size = len > UINT32_MAX ? UINT32_MAX : (uint32_t)len;
	}
	return NULL;
}

struct hr_map *hr_run_map(struct hr_run *run, uint64_t ptr)
{
	unsigned int i;

	for (i = 0; i < run->nmaps; i++)
		if ((uint64_t)(uintptr_t)run->maps[i] == ptr)
			return run->maps[i];
	/* An inner map handed out by a map-in-map lookup. */
	if (hr_map_registered((const struct hr_map *)(uintptr_t)ptr))
		return (struct hr_map *)(uintptr_t)ptr;
	hr_run_abort(run, HR_ABORT_HELPER_ARG, ptr);
	return NULL;
}

uint64_t hr_run_release_locks(struct hr_run *run, uint64_t r0)
{
	bool lock = run->lock != NULL, leak = false;

	if (run->lock)
		__atomic_store_n(run->lock, 0, __ATOMIC_RELEASE);
	run->lock = NULL;
	while (run->nheld) {
		struct hr_held_rec *h = &run->held[--run->nheld];

		leak |= h->leak;
		if (h->drop)
			h->drop(h->obj);
		else
			hr_ringbuf_commit(h->map, (void *)h->start, true);
	}
	if (run->abort || !(lock || leak))
		return r0;
	/* The verifier refuses such a program ("bpf_spin_unlock is
	 * missing", "Unreleased reference"); here the run is stopped and
	 * neither the lock nor the object is lost. */
	hr_run_abort(run, lock ? HR_ABORT_LOCK_HELD : HR_ABORT_OBJ_LEAK,
		     run->pc);
	return run->vm->abort_ret;
}
