// SPDX-License-Identifier: MIT
/*
 * bpf_map_sum_elem_count of kernel/bpf/map_iter.c: the sum of a map's
 * per-CPU element counters, which only the hash maps keep (hash, per-CPU
 * hash, LRU hashes, hash of maps: hashtab.c counts every element it
 * links and unlinks); every other map type has none and gives 0.
 */
#include <stdint.h>

#include "helpers/helpers.h"
#include "maps/map.h"

/* s64 bpf_map_sum_elem_count(const struct bpf_map *map) */
static uint64_t map_sum_elem_count(uint64_t r_map, uint64_t r2, uint64_t r3,
				   uint64_t r4, uint64_t r5, struct hr_run *run)
{
	/* KF_TRUSTED_ARGS: the verifier takes only a map it knows. */
	struct hr_map *map = hr_run_map(run, r_map);

	if (!map || !map->ops->elem_count)
		return 0;
	return (uint64_t)map->ops->elem_count(map);
}

HR_KFUNC(map_sum_elem_count, map_sum_elem_count);
