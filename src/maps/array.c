// SPDX-License-Identifier: MIT
/*
 * BPF_MAP_TYPE_ARRAY and BPF_MAP_TYPE_PERCPU_ARRAY, after the kernel's
 * kernel/bpf/arraymap.c: max_entries values, preallocated and zeroed,
 * each in a slot of round_up(value_size, 8) bytes. Per-CPU values live in
 * one block per CPU, one after the other, so a single strided region
 * describes them all.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "maps/map.h"
#include "maps/map_impl.h"
#include "maps/map_kptr.h"
#include "maps/map_timer.h"

/* The kernel's PCPU_MIN_UNIT_SIZE: the largest per-CPU value. */
#define HR_PCPU_MIN_UNIT_SIZE 32768

#define HR_ARRAY_CREATE_FLAG_MASK                            \
	(HR_F_NUMA_NODE | HR_F_MMAPABLE | HR_F_ACCESS_MASK | \
	 HR_F_PRESERVE_ELEMS | HR_F_INNER_MAP)

struct hr_array {
	uint8_t *values;
	size_t bytes;
	uint32_t elem_size; /* round_up(value_size, 8) */
	uint32_t ncopies; /* 1, or the CPU count for per-CPU arrays */
};

static bool hr_array_is_percpu(const struct hr_map *map)
{
	return map->attr.type == HR_MAP_PERCPU_ARRAY;
}

/* Both read-only and write-only for programs is a contradiction. */
static bool hr_map_flags_access_ok(uint32_t flags)
{
	return (flags & (HR_F_RDONLY_PROG | HR_F_WRONLY_PROG)) !=
	       (HR_F_RDONLY_PROG | HR_F_WRONLY_PROG);
}

/* array_map_alloc_check(), in the kernel's order. */
static int hr_array_check(const struct hr_map_attr *attr)
{
	bool percpu = attr->type == HR_MAP_PERCPU_ARRAY;
	bool numa = attr->map_flags & HR_F_NUMA_NODE;

	if (attr->max_entries == 0 || attr->key_size != 4 ||
	    attr->value_size == 0 ||
	    (attr->map_flags & ~HR_ARRAY_CREATE_FLAG_MASK) ||
	    !hr_map_flags_access_ok(attr->map_flags) || (percpu && numa))
		return -EINVAL;
	if (attr->type != HR_MAP_ARRAY &&
	    (attr->map_flags & (HR_F_MMAPABLE | HR_F_INNER_MAP)))
		return -EINVAL;
	/* Only BPF_MAP_TYPE_PERF_EVENT_ARRAY takes PRESERVE_ELEMS. */
	if (attr->map_flags & HR_F_PRESERVE_ELEMS)
		return -EINVAL;
	if (attr->value_size > INT_MAX)
		return -E2BIG;
	if (percpu && HR_ROUND8(attr->value_size) > HR_PCPU_MIN_UNIT_SIZE)
		return -E2BIG;
	return 0;
}

static int hr_array_alloc(struct hr_map *map)
{
	struct hr_array *a;
	uint64_t bytes;

	a = calloc(1, sizeof(*a));
	if (!a)
		return -ENOMEM;
	a->elem_size = HR_ROUND8(map->attr.value_size);
	a->ncopies = hr_array_is_percpu(map) ? map->attr.ncpus : 1;
	/* At most 2^32 slots of at most 2^31 bytes: no 64-bit overflow. */
	bytes = (uint64_t)map->attr.max_entries * a->elem_size * a->ncopies;
	if (bytes > SIZE_MAX)
		goto nomem;
	a->bytes = bytes;
	a->values = hr_map_area_alloc(a->bytes);
	if (!a->values)
		goto nomem;
	map->priv = a;
	return 0;
nomem:
	free(a);
	return -ENOMEM;
}

static void hr_array_free(struct hr_map *map)
{
	struct hr_array *a = map->priv;

	if (!a)
		return;
	hr_map_area_free(a->values, a->bytes);
	free(a);
	map->priv = NULL;
}

static uint32_t hr_array_index(const void *key)
{
	uint32_t index;

	/* Keys from user space need not be aligned. */
	memcpy(&index, key, sizeof(index));
	return index;
}

static uint8_t *hr_array_slot(const struct hr_map *map, uint32_t index,
			      unsigned int cpu)
{
	const struct hr_array *a = map->priv;
	size_t block = (size_t)map->attr.max_entries * a->elem_size;

	return a->values + block * cpu + (size_t)index * a->elem_size;
}

static void *hr_array_lookup(struct hr_map *map, const void *key,
			     unsigned int cpu)
{
	const struct hr_array *a = map->priv;
	uint32_t index = hr_array_index(key);

	if (index >= map->attr.max_entries)
		return NULL;
	if (!hr_array_is_percpu(map))
		cpu = 0;
	else if (cpu >= a->ncopies)
		return NULL;
	return hr_array_slot(map, index, cpu);
}

/*
 * The common flag and index checks of array_map_update_elem(): unknown
 * flags, then a slot that cannot exist, then NOEXIST (every slot exists),
 * then BPF_F_LOCK, which needs a bpf_spin_lock in the value (never here).
 */
static int hr_array_update_check(const struct hr_map *map, uint32_t index,
				 uint64_t flags)
{
	if ((flags & ~(uint64_t)HR_F_LOCK) > HR_EXIST)
		return -EINVAL;
	if (index >= map->attr.max_entries)
		return -E2BIG;
	if (flags & HR_NOEXIST)
		return -EEXIST;
	if (flags & HR_F_LOCK)
		return -EINVAL;
	return 0;
}

/* The program's update: its own CPU's copy, value_size bytes. */
static int hr_array_update(struct hr_map *map, const void *key,
			   const void *value, uint64_t flags, unsigned int cpu)
{
	const struct hr_array *a = map->priv;
	uint32_t index = hr_array_index(key);
	int ret;

	ret = hr_array_update_check(map, index, flags);
	if (ret)
		return ret;
	if (!hr_array_is_percpu(map))
		cpu = 0;
	else if (cpu >= a->ncopies)
		return -EINVAL;
	hr_map_value_store_list(map, hr_array_slot(map, index, cpu), value);
	/* bpf_obj_free_fields after the copy: the element's timer goes. */
	hr_map_timer_stored(map, hr_array_slot(map, index, cpu));
	return 0;
}

/*
 * The syscall's update. Per-CPU arrays take every CPU's value, each
 * round_up(value_size, 8) bytes (bpf_percpu_array_update(), which also
 * knows no BPF_F_LOCK).
 */
static int hr_array_update_user(struct hr_map *map, const void *key,
				const void *value, uint64_t flags)
{
	const struct hr_array *a = map->priv;
	uint32_t index = hr_array_index(key);
	const uint8_t *src = value;
	unsigned int cpu;
	int ret;

	if (!hr_array_is_percpu(map))
		return hr_array_update(map, key, value, flags, 0);
	if (flags > HR_EXIST)
		return -EINVAL;
	ret = hr_array_update_check(map, index, flags);
	if (ret)
		return ret;
	for (cpu = 0; cpu < a->ncopies; cpu++)
		hr_map_value_store(hr_array_slot(map, index, cpu),
				   src + (size_t)cpu * a->elem_size,
				   a->elem_size);
	return 0;
}

/* Array slots always exist: they cannot be deleted. */
static int hr_array_delete(struct hr_map *map, const void *key)
{
	return -EINVAL;
}

/* 0 .. max_entries - 1; an absent or out-of-range key restarts at 0. */
static int hr_array_get_next_key(struct hr_map *map, const void *key,
				 void *next)
{
	uint32_t index = key ? hr_array_index(key) : UINT32_MAX;
	uint32_t n;

	if (index >= map->attr.max_entries) {
		n = 0;
	} else if (index == map->attr.max_entries - 1) {
		return -ENOENT;
	} else {
		n = index + 1;
	}
	memcpy(next, &n, sizeof(n));
	return 0;
}

static int hr_array_copy_value(struct hr_map *map, const void *key, void *value)
{
	const struct hr_array *a = map->priv;
	uint32_t index = hr_array_index(key);
	uint8_t *dst = value;
	unsigned int cpu;

	if (index >= map->attr.max_entries)
		return -ENOENT;
	if (!hr_array_is_percpu(map)) {
		hr_map_value_load(dst, hr_array_slot(map, index, 0),
				  map->attr.value_size);
		return 0;
	}
	for (cpu = 0; cpu < a->ncopies; cpu++)
		hr_map_value_load(dst + (size_t)cpu * a->elem_size,
				  hr_array_slot(map, index, cpu), a->elem_size);
	return 0;
}

/*
 * One region for all values (all CPUs' blocks for per-CPU arrays). When
 * value_size is not a multiple of 8, the stride keeps programs out of the
 * padding, as the verifier would.
 */
static unsigned int hr_array_regions(struct hr_map *map, struct hr_region *out,
				     unsigned int max)
{
	const struct hr_array *a = map->priv;

	if (!max)
		return 0;
	memset(out, 0, sizeof(*out));
	out->start = (uintptr_t)a->values;
	out->end = out->start + a->bytes;
	if (a->elem_size != map->attr.value_size) {
		out->stride = a->elem_size;
		out->off = 0;
		out->len = map->attr.value_size;
	}
	out->flags = hr_map_region_flags(map);
	return 1;
}

const struct hr_map_ops hr_map_ops_array = {
	.check = hr_array_check,
	.alloc = hr_array_alloc,
	.free = hr_array_free,
	.lookup = hr_array_lookup,
	.update = hr_array_update,
	.delete = hr_array_delete,
	.get_next_key = hr_array_get_next_key,
	.copy_value = hr_array_copy_value,
	.update_user = hr_array_update_user,
	.regions = hr_array_regions,
};

/* The same operations: hr_array_is_percpu() tells the types apart. */
extern const struct hr_map_ops hr_map_ops_percpu_array
	__attribute__((alias("hr_map_ops_array")));
