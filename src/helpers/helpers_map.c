// SPDX-License-Identifier: MIT
/*
 * The map helpers programs call: bpf_map_lookup_elem,
 * bpf_map_update_elem, bpf_map_delete_elem and
 * bpf_map_lookup_percpu_elem. Every pointer is checked against the run's
 * memory first; a bad one has already aborted the run, so return at once.
 */
#include <errno.h>

#include "helpers/helpers.h"
#include "maps/map.h"
#include "vm/vm.h"

/* Keys up to the stack's size are read through an aligned copy when the
 * program's pointer is not aligned: map code may read key fields. */
struct hr_key_buf {
	uint64_t w[(HR_STACK_SIZE + 8) / 8];
};

/* The map in r1 and a key in r2 the program may read; NULL on abort. */
static struct hr_map *hr_helper_map_key(struct hr_run *run, uint64_t r1,
					uint64_t r2, const void **key,
					struct hr_key_buf *kb)
{
	struct hr_map *map = hr_run_map(run, r1);
	uint32_t ks;

	if (!map)
		return NULL;
	ks = map->attr.key_size;
	*key = hr_run_mem(run, r2, ks, false);
	if (*key && (r2 & 7) && ks <= sizeof(kb->w)) {
		__builtin_memcpy(kb->w, *key, ks);
		*key = kb->w;
	}
	return *key ? map : NULL;
}

static uint64_t hr_map_lookup_elem_fn(uint64_t r1, uint64_t r2, uint64_t r3,
				      uint64_t r4, uint64_t r5,
				      struct hr_run *run)
{
	struct hr_key_buf kb;
	const void *key;
	struct hr_map *map = hr_helper_map_key(run, r1, r2, &key, &kb);

	if (!map || !map->ops->lookup)
		return 0;
	return (uintptr_t)map->ops->lookup(map, key, run->cpu);
}

/*
 * A run holding a bpf_spin_lock may not call map helpers (the verifier:
 * "function calls are not allowed while holding a lock"). Overwriting or
 * deleting an element whose values hold a list or tree takes the value's
 * lock to free them (hr_map_list_free_value, as bpf_obj_free_fields
 * does), which this run may hold: such a call ends the run, as taking
 * that lock twice would. true when it did.
 */
static bool locked_graph(struct hr_run *run, const struct hr_map *map)
{
	if (!run->lock || map->list_off < 0)
		return false;
	hr_run_abort(run, HR_ABORT_LOCK_RECURSION, 0);
	return true;
}

static uint64_t hr_map_update_elem_fn(uint64_t r1, uint64_t r2, uint64_t r3,
				      uint64_t r4, uint64_t r5,
				      struct hr_run *run)
{
	struct hr_key_buf kb;
	const void *key, *value;
	struct hr_map *map = hr_helper_map_key(run, r1, r2, &key, &kb);

	if (!map)
		return 0;
	value = hr_run_mem(run, r3, map->attr.value_size, false);
	if (!value)
		return 0;
	/* The verifier refuses this; at run time it is a permission error. */
	if (hr_map_prog_rdonly(map))
		return (uint64_t)(int64_t)-EPERM;
	if (!map->ops->update)
		return (uint64_t)(int64_t)-EOPNOTSUPP;
	if (locked_graph(run, map))
		return 0;
	return (uint64_t)(int64_t)map->ops->update(map, key, value, r4,
						   run->cpu);
}

static uint64_t hr_map_delete_elem_fn(uint64_t r1, uint64_t r2, uint64_t r3,
				      uint64_t r4, uint64_t r5,
				      struct hr_run *run)
{
	struct hr_key_buf kb;
	const void *key;
	struct hr_map *map = hr_helper_map_key(run, r1, r2, &key, &kb);

	if (!map)
		return 0;
	if (hr_map_prog_rdonly(map))
		return (uint64_t)(int64_t)-EPERM;
	if (!map->ops->delete)
		return (uint64_t)(int64_t)-EOPNOTSUPP;
	if (locked_graph(run, map))
		return 0;
	return (uint64_t)(int64_t)map->ops->delete (map, key);
}

/* Another CPU's value of a per-CPU map; NULL for any other map or CPU. */
static uint64_t hr_map_lookup_percpu_elem_fn(uint64_t r1, uint64_t r2,
					     uint64_t r3, uint64_t r4,
					     uint64_t r5, struct hr_run *run)
{
	struct hr_key_buf kb;
	const void *key;
	struct hr_map *map = hr_helper_map_key(run, r1, r2, &key, &kb);

	if (!map || !map->ops->lookup || !hr_map_is_percpu(map))
		return 0;
	if (r3 >= map->attr.ncpus)
		return 0;
	return (uintptr_t)map->ops->lookup(map, key, (unsigned int)r3);
}

const struct hr_helper hr_helper_map_lookup_elem = {
	.id = 1,
	.name = "bpf_map_lookup_elem",
	.fn = hr_map_lookup_elem_fn,
};

const struct hr_helper hr_helper_map_update_elem = {
	.id = 2,
	.name = "bpf_map_update_elem",
	.fn = hr_map_update_elem_fn,
};

const struct hr_helper hr_helper_map_delete_elem = {
	.id = 3,
	.name = "bpf_map_delete_elem",
	.fn = hr_map_delete_elem_fn,
};

const struct hr_helper hr_helper_map_lookup_percpu_elem = {
	.id = 195,
	.name = "bpf_map_lookup_percpu_elem",
	.fn = hr_map_lookup_percpu_elem_fn,
};
