// SPDX-License-Identifier: MIT
/*
 * bpf_wq_init, bpf_wq_set_callback_impl and bpf_wq_start
 * (kernel/bpf/helpers.c, Linux 6.10): the flag checks of their kfunc
 * bodies over the wq state of maps/map_timer.c, which runs a started
 * wq's callback as soon as it can, once however often it was started
 * before it ran (schedule_work), with the element's map, key and value.
 *
 * The verifier makes R1 point at the struct bpf_wq of a map value
 * (process_wq_func, check_map_field_pointer), bpf_wq_init's map be that
 * value's map, and the callback a static function of the program; a run
 * that breaks any of those (no loaded program can) is stopped with
 * HR_ABORT_HELPER_ARG instead. There is no kfunc to cancel a wq: only
 * deleting or overwriting its element, or freeing its map, does.
 *
 * A started wq waits for the run that started it to end: schedule_work
 * queues on this CPU's pool, whose worker runs once the program (which
 * does not sleep and, on a kernel without preemption, is not preempted)
 * has returned. The run holds the wq (one of its held records, let go
 * of however the run ends); a run holding HR_MAX_HELD_RECORDS already
 * lets its wq run at once.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "helpers/async.h"
#include "helpers/helpers.h"
#include "maps/map_timer.h"

static uint64_t ret_int(int v)
{
	return (uint64_t)(int64_t)v;
}

/* int bpf_wq_init(struct bpf_wq *wq, void *p__map, unsigned int flags) */
static uint64_t wq_init(uint64_t wq, uint64_t map, uint64_t flags, uint64_t r4,
			uint64_t r5, struct hr_run *run)
{
	struct hr_async_arg a;

	if (!hr_async_arg(run, wq, true, &a))
		return 0;
	if (hr_run_map(run, map) != a.map) {
		/* "workqueue pointer in R1 map_uid=.. doesn't match map
		 * pointer in R2 map_uid=..". */
		if (!run->abort)
			hr_run_abort(run, HR_ABORT_HELPER_ARG, map);
		return 0;
	}
	if ((uint32_t)flags)
		return ret_int(-EINVAL);
	return ret_int(hr_map_wq_init(a.map, a.slot, a.key, a.index));
}

/* int bpf_wq_set_callback_impl(struct bpf_wq *wq,
 *	int (callback_fn)(void *map, int *key, void *value),
 *	unsigned int flags, void *aux__prog) */
static uint64_t wq_set_callback_impl(uint64_t wq, uint64_t pc, uint64_t flags,
				     uint64_t aux, uint64_t r5,
				     struct hr_run *run)
{
	struct hr_async_arg a;

	if (!hr_async_arg(run, wq, true, &a) || !hr_async_callback(run, pc))
		return 0;
	if ((uint32_t)flags)
		return ret_int(-EINVAL);
	return ret_int(hr_map_timer_set_callback(a.map, a.slot, run->vm->prog,
						 (uint32_t)pc));
}

/* A run's hold on the wq at @slot of @map. */
struct wq_hold {
	struct hr_map *map;
	void *slot;
};

static void wq_hold_drop(void *obj)
{
	struct wq_hold *h = obj;

	hr_map_wq_release(h->map, h->slot);
	free(h);
}

static bool wq_held(const struct hr_run *run, const void *slot)
{
	unsigned int i;

	for (i = 0; i < run->nheld; i++)
		if (run->held[i].drop == wq_hold_drop &&
		    ((const struct wq_hold *)run->held[i].obj)->slot == slot)
			return true;
	return false;
}

/* int bpf_wq_start(struct bpf_wq *wq, unsigned int flags) */
static uint64_t wq_start(uint64_t wq, uint64_t flags, uint64_t r3, uint64_t r4,
			 uint64_t r5, struct hr_run *run)
{
	struct wq_hold *h = NULL;
	struct hr_async_arg a;
	int ret;

	if (!hr_async_arg(run, wq, true, &a))
		return 0;
	if ((uint32_t)flags)
		return ret_int(-EINVAL);
	if (run->nheld < HR_MAX_HELD_RECORDS && !wq_held(run, a.slot))
		h = malloc(sizeof(*h));
	ret = hr_map_wq_start(a.map, a.slot, run->cpu, h != NULL);
	if (ret || !h) {
		free(h);
		return ret_int(ret);
	}
	*h = (struct wq_hold){ .map = a.map, .slot = a.slot };
	/* No bytes of it are the program's to touch: start = end. */
	run->held[run->nheld++] =
		(struct hr_held_rec){ .drop = wq_hold_drop, .obj = h };
	return 0;
}

HR_KFUNC(wq_init, wq_init);
HR_KFUNC(wq_set_callback_impl, wq_set_callback_impl);
HR_KFUNC(wq_start, wq_start);
