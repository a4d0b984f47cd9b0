// SPDX-License-Identifier: MIT
/*
 * bpf_timer_init, bpf_timer_set_callback, bpf_timer_start and
 * bpf_timer_cancel (helpers 169-172, kernel/bpf/helpers.c): the argument
 * checks of their BPF_CALL bodies over the timer state of maps/map_timer.c;
 * and what the bpf_wq kfuncs (kfuncs_wq.c) share with them (async.h):
 * where a field argument lies, and whether a function may be a callback.
 *
 * The kernel's verifier makes R1 point at the struct bpf_timer of a map
 * value (process_timer_func, check_map_field_pointer), the map of
 * bpf_timer_init be that value's map, and the callback a static function
 * of the program; a run that breaks any of those (which no loaded
 * program can) is stopped with HR_ABORT_HELPER_ARG instead.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "helpers/async.h"
#include "helpers/helpers.h"
#include "maps/map.h"
#include "maps/map_impl.h"
#include "maps/map_timer.h"
#include "progs/prog.h"
#include "vm/mem.h"

/* MAX_CLOCKS: bpf_timer_init's flags are a clock id below it. */
#define HR_MAX_CLOCKS 16

static uint64_t ret_int(int v)
{
	return (uint64_t)(int64_t)v;
}

bool hr_async_arg(struct hr_run *run, uint64_t addr, bool wq,
		  struct hr_async_arg *a)
{
	unsigned int i;

	for (i = 0; i < run->nregions; i++) {
		const struct hr_region *r = &run->regions[i];
		uintptr_t rel, stride;
		int off;

		if (!r->map || !hr_region_ok(r, addr, HR_BPF_TIMER_SIZE))
			continue;
		a->map = (struct hr_map *)r->map;
		/* An array whose value_size is a multiple of 8 is one
		 * unstrided region of round_up(value_size, 8) slots. */
		stride = r->stride ? r->stride :
				     HR_ROUND8(a->map->attr.value_size);
		rel = (uintptr_t)addr - r->start;
		a->index = (uint32_t)(rel / stride);
		a->value = (uint8_t *)r->start + (uintptr_t)a->index * stride +
			   (r->stride ? r->off : 0);
		a->slot = (uint8_t *)(uintptr_t)addr;
		/* bpf_timer_cb's and bpf_wq_work's key: an array's index,
		 * a hash element's own key (round_up(key_size, 8) bytes
		 * before its value). */
		a->key = a->map->attr.type == HR_MAP_ARRAY ?
				 NULL :
				 a->value - HR_ROUND8(a->map->attr.key_size);
		off = wq ? a->map->wq_off : a->map->timer_off;
		if (off >= 0 && a->slot == a->value + off &&
		    hr_map_timer_type_ok(a->map->attr.type))
			return true;
		break;
	}
	/* "off N doesn't point to 'struct bpf_timer' that is at M". */
	hr_run_abort(run, HR_ABORT_HELPER_ARG, addr);
	return false;
}

/*
 * A timer's callback runs with no context (bpf_timer_cb passes map, key
 * and value), so the kernel's verifier refuses every call in it that
 * needs one (ARG_PTR_TO_CTX has nothing to be). Here helpers reach the
 * context through run->priv, which a callback's run has none of: the
 * callback and the functions it calls may call only what needs no
 * context. That is the base helpers but bpf_tail_call (the program it
 * enters would have no context either), bpf_redirect and
 * bpf_redirect_map of XDP (a test run's per-thread target), bpf_csum_diff,
 * and the common kfuncs but the dynptr ones (a dynptr forged on the stack
 * could name the missing packet). Anything else makes set_callback stop
 * the run, where the kernel refuses the program at load.
 */
static const struct hr_helper *const no_ctx_extra[] = {
	&hr_helper_redirect,
	&hr_helper_redirect_map,
	&hr_helper_csum_diff,
	NULL,
};

static bool in_list(const struct hr_helper *const *list, hr_helper_fn fn)
{
	for (; *list; list++)
		if ((*list)->fn == fn && *list != &hr_helper_tail_call)
			return true;
	return false;
}

static bool call_ok(const struct hr_prog *prog, uint32_t i)
{
	const struct hr_insn *in = &prog->insns[i];
	const struct hr_kfunc *k = prog->kfuncs ? prog->kfuncs[i] : NULL;
	hr_helper_fn fn = prog->calls ? prog->calls[i] : NULL;
	unsigned int j;

	if (in->src == HR_CALL_KFUNC) {
		if (!k || !strncmp(k->name, "bpf_dynptr", 10))
			return false;
		for (j = 0; hr_common_kfuncs[j]; j++)
			if (hr_common_kfuncs[j] == k)
				return true;
		return false;
	}
	return fn &&
	       (in_list(hr_base_helpers, fn) || in_list(no_ctx_extra, fn));
}

/* The function of @prog holding instruction @pc: [*start, end). */
static uint32_t func_of(const struct hr_prog *prog, uint32_t pc,
			uint32_t *start)
{
	uint32_t f;

	for (f = 0; prog->funcs && f < prog->nfuncs; f++) {
		const struct hr_prog_func *fn = &prog->funcs[f];

		if (pc >= fn->start && pc - fn->start < fn->cnt) {
			*start = fn->start;
			return fn->start + fn->cnt;
		}
	}
	*start = 0;
	return prog->cnt;
}

/* The function holding @pc and every function it calls or hands out as a
 * callback, each looked at once (@seen, a bit a function start). */
static bool func_ok(const struct hr_prog *prog, uint32_t pc, uint8_t *seen)
{
	uint32_t i, start, end = func_of(prog, pc, &start);

	if (seen[start / 8] & (1u << (start % 8)))
		return true;
	seen[start / 8] |= 1u << (start % 8);
	for (i = start; i < end; i++) {
		const struct hr_insn *in = &prog->insns[i];
		int64_t to = (int64_t)i + 1 + in->imm;

		if (in->code == (HR_JMP | HR_CALL | HR_X))
			return false; /* callx: any helper */
		if (in->code == (HR_LD | HR_IMM | HR_DW) &&
		    in->src == HR_PSEUDO_FUNC) {
			if (to < 0 || to >= prog->cnt ||
			    !func_ok(prog, (uint32_t)to, seen))
				return false;
			i++;
			continue;
		}
		if (in->code != (HR_JMP | HR_CALL))
			continue;
		if (in->src == HR_CALL_LOCAL) {
			if (to < 0 || to >= prog->cnt ||
			    !func_ok(prog, (uint32_t)to, seen))
				return false;
		} else if (!call_ok(prog, i)) {
			return false;
		}
	}
	return true;
}

static bool callback_ok(const struct hr_prog *prog, uint32_t pc)
{
	uint8_t *seen = calloc(prog->cnt / 8 + 1, 1);
	bool ok = seen && func_ok(prog, pc, seen);

	free(seen);
	return ok;
}

bool hr_async_callback(struct hr_run *run, uint64_t pc)
{
	/* The callback is an instruction of the running program (the
	 * kernel's callback_fn with the program's aux). */
	if (!run->vm->prog || pc >= run->vm->cnt ||
	    !callback_ok(run->vm->prog, (uint32_t)pc)) {
		hr_run_abort(run, HR_ABORT_HELPER_ARG, pc);
		return false;
	}
	return true;
}

static uint64_t timer_init_fn(uint64_t r1, uint64_t r2, uint64_t flags,
			      uint64_t r4, uint64_t r5, struct hr_run *run)
{
	uint64_t clock = flags & (HR_MAX_CLOCKS - 1);
	struct hr_async_arg a;

	if (!hr_async_arg(run, r1, false, &a))
		return 0;
	if (hr_run_map(run, r2) != a.map) {
		/* "timer pointer in R1 map_uid=.. doesn't match map
		 * pointer in R2 map_uid=..". */
		if (!run->abort)
			hr_run_abort(run, HR_ABORT_HELPER_ARG, r2);
		return 0;
	}
	/* Like timerfd, but without the _ALARM clocks. */
	if (flags >= HR_MAX_CLOCKS ||
	    (clock != CLOCK_MONOTONIC && clock != CLOCK_REALTIME &&
	     clock != CLOCK_BOOTTIME))
		return ret_int(-EINVAL);
	return ret_int(
		hr_map_timer_init(a.map, a.slot, (int)clock, a.key, a.index));
}

static uint64_t timer_set_callback_fn(uint64_t r1, uint64_t pc, uint64_t r3,
				      uint64_t r4, uint64_t r5,
				      struct hr_run *run)
{
	struct hr_async_arg a;

	if (!hr_async_arg(run, r1, false, &a) || !hr_async_callback(run, pc))
		return 0;
	return ret_int(hr_map_timer_set_callback(a.map, a.slot, run->vm->prog,
						 (uint32_t)pc));
}

static uint64_t timer_start_fn(uint64_t r1, uint64_t nsecs, uint64_t flags,
			       uint64_t r4, uint64_t r5, struct hr_run *run)
{
	struct hr_async_arg a;

	if (!hr_async_arg(run, r1, false, &a))
		return 0;
	return ret_int(
		hr_map_timer_start(a.map, a.slot, nsecs, flags, run->cpu));
}

static uint64_t timer_cancel_fn(uint64_t r1, uint64_t r2, uint64_t r3,
				uint64_t r4, uint64_t r5, struct hr_run *run)
{
	struct hr_async_arg a;

	if (!hr_async_arg(run, r1, false, &a))
		return 0;
	return ret_int(hr_map_timer_cancel(a.map, a.slot));
}

const struct hr_helper hr_helper_timer_init = { 169, "bpf_timer_init",
						timer_init_fn };
const struct hr_helper hr_helper_timer_set_callback = {
	170, "bpf_timer_set_callback", timer_set_callback_fn
};
const struct hr_helper hr_helper_timer_start = { 171, "bpf_timer_start",
						 timer_start_fn };
const struct hr_helper hr_helper_timer_cancel = { 172, "bpf_timer_cancel",
						  timer_cancel_fn };
