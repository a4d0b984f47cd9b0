/* SPDX-License-Identifier: MIT */
/*
 * What the bpf_timer helpers (helpers_timer.c) and the bpf_wq kfuncs
 * (kfuncs_wq.c) share, as kernel/bpf/helpers.c's bpf_async_* code and the
 * verifier's process_timer_func / process_wq_func share it: the map
 * value a struct bpf_timer or bpf_wq argument lies in, and whether a
 * function of the program may be an async callback.
 */
#ifndef HR_HELPERS_ASYNC_H
#define HR_HELPERS_ASYNC_H

#include <stdbool.h>
#include <stdint.h>

struct hr_map;
struct hr_run;

/* Where a timer or wq argument lies. */
struct hr_async_arg {
	struct hr_map *map;
	uint8_t *slot;
	uint8_t *value;
	/* The key its callback gets: the element's own (hash, LRU hash);
	 * NULL for an array, whose callbacks get @index. */
	const void *key;
	uint32_t index; /* the element's index in the value region */
};

/* The map value holding a struct bpf_timer (a struct bpf_wq when @wq) at
 * @addr, found among the run's regions; false after ending the run when
 * @addr is no such field (the verifier's check_map_field_pointer). */
bool hr_async_arg(struct hr_run *run, uint64_t addr, bool wq,
		  struct hr_async_arg *a);

/* Whether instruction @pc of the running program may be a timer's or a
 * wq's callback (a static function calling nothing that needs the
 * context); false after ending the run when it may not. */
bool hr_async_callback(struct hr_run *run, uint64_t pc);

#endif /* HR_HELPERS_ASYNC_H */
