// SPDX-License-Identifier: MIT
/*
 * BPF_MAP_TYPE_PERF_EVENT_ARRAY (kernel/bpf/arraymap.c fd arrays): an
 * array of 4-byte slots naming perf events. Here a slot is open when user
 * space stored anything in it or when a reader is registered
 * (include/headroom/perf.h); bpf_perf_event_output (helpers_perf.c) hands
 * samples to the reader.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "headroom/perf.h"
#include "maps/map.h"
#include "maps/perf_event_array.h"

#define HR_PERF_FLAG_MASK \
	(HR_F_NUMA_NODE | HR_F_ACCESS_MASK | HR_F_PRESERVE_ELEMS)

struct hr_perf_array {
	hr_perf_sample_fn fn;
	void *ctx;
	uint64_t samples;
	uint64_t lost;
	uint8_t open[]; /* per slot: set by user space */
};

/* fd_array_map_alloc_check on top of array_map_alloc_check. */
static int perf_check(const struct hr_map_attr *attr)
{
	if (attr->max_entries == 0 || attr->key_size != 4 ||
	    attr->value_size != 4 || (attr->map_flags & ~HR_PERF_FLAG_MASK))
		return -EINVAL;
	return 0;
}

static int perf_alloc(struct hr_map *map)
{
	struct hr_perf_array *a = calloc(1, sizeof(*a) + map->attr.max_entries);

	if (!a)
		return -ENOMEM;
	map->priv = a;
	return 0;
}

static void perf_free(struct hr_map *map)
{
	free(map->priv);
	map->priv = NULL;
}

/* Programs cannot look slots up (the verifier refuses it). */
static void *perf_lookup(struct hr_map *map, const void *key, unsigned int cpu)
{
	return NULL;
}

static int perf_index(const struct hr_map *map, const void *key,
		      uint32_t *index)
{
	memcpy(index, key, sizeof(*index));
	return *index < map->attr.max_entries ? 0 : -E2BIG;
}

static int perf_update_user(struct hr_map *map, const void *key,
			    const void *value, uint64_t flags)
{
	struct hr_perf_array *a = map->priv;
	uint32_t index;
	int err;

	if (flags > HR_EXIST)
		return -EINVAL;
	err = perf_index(map, key, &index);
	if (err)
		return err;
	if (flags == HR_NOEXIST)
		return -EEXIST;
	__atomic_store_n(&a->open[index], 1, __ATOMIC_RELEASE);
	return 0;
}

static int perf_update(struct hr_map *map, const void *key, const void *value,
		       uint64_t flags, unsigned int cpu)
{
	return -EINVAL; /* not from programs */
}

static int perf_delete(struct hr_map *map, const void *key)
{
	struct hr_perf_array *a = map->priv;
	uint32_t index;

	memcpy(&index, key, sizeof(index));
	if (index >= map->attr.max_entries)
		return -EINVAL;
	if (!__atomic_exchange_n(&a->open[index], 0, __ATOMIC_ACQ_REL))
		return -ENOENT;
	return 0;
}

static int perf_get_next_key(struct hr_map *map, const void *key, void *next)
{
	uint32_t index = UINT32_MAX, n;

	if (key)
		memcpy(&index, key, sizeof(index));
	if (index >= map->attr.max_entries)
		n = 0;
	else if (index == map->attr.max_entries - 1)
		return -ENOENT;
	else
		n = index + 1;
	memcpy(next, &n, sizeof(n));
	return 0;
}

/* map_fd_sys_lookup_elem is not defined for perf event arrays. */
static int perf_copy_value(struct hr_map *map, const void *key, void *value)
{
	return -524; /* ENOTSUPP */
}

const struct hr_map_ops hr_map_ops_perf_event_array = {
	.check = perf_check,
	.alloc = perf_alloc,
	.free = perf_free,
	.lookup = perf_lookup,
	.update = perf_update,
	.delete = perf_delete,
	.get_next_key = perf_get_next_key,
	.copy_value = perf_copy_value,
	.update_user = perf_update_user,
};

static uint32_t hr_workers(const struct hr_map *map)
{
	return map->attr.ncpus ? map->attr.ncpus : 1;
}

static bool is_perf(const struct hr_map *map)
{
	return map && map->ops == &hr_map_ops_perf_event_array;
}

int hr_perf_set_reader(struct hr_map *map, hr_perf_sample_fn fn, void *ctx)
{
	struct hr_perf_array *a;

	if (!is_perf(map))
		return -EINVAL;
	a = map->priv;
	a->ctx = ctx;
	__atomic_store_n(&a->fn, fn, __ATOMIC_RELEASE);
	return 0;
}

uint64_t hr_perf_samples(const struct hr_map *map)
{
	const struct hr_perf_array *a = is_perf(map) ? map->priv : NULL;

	return a ? __atomic_load_n(&a->samples, __ATOMIC_RELAXED) : 0;
}

uint64_t hr_perf_lost(const struct hr_map *map)
{
	const struct hr_perf_array *a = is_perf(map) ? map->priv : NULL;

	return a ? __atomic_load_n(&a->lost, __ATOMIC_RELAXED) : 0;
}

/* __bpf_perf_event_output after the flags were checked. */
int hr_perf_output(struct hr_map *map, uint64_t flags, unsigned int cpu,
		   const void *data, uint32_t size)
{
	struct hr_perf_array *a;
	uint64_t index = flags & BPF_F_INDEX_MASK;
	hr_perf_sample_fn fn;

	if (!is_perf(map))
		return -EINVAL;
	a = map->priv;
	if (index == BPF_F_CURRENT_CPU)
		index = cpu;
	if (index >= map->attr.max_entries)
		return -E2BIG;
	fn = __atomic_load_n(&a->fn, __ATOMIC_ACQUIRE);
	/* A reader opens one slot a worker, as perf_buffer one a CPU. */
	if (!(fn && index < hr_workers(map)) &&
	    !__atomic_load_n(&a->open[index], __ATOMIC_ACQUIRE))
		return -ENOENT;
	if (index != cpu)
		return -EOPNOTSUPP;
	if (!fn) {
		/* An open slot nobody reads: the sample is lost, as with a
		 * full perf ring. */
		__atomic_fetch_add(&a->lost, 1, __ATOMIC_RELAXED);
		return -ENOSPC;
	}
	fn(a->ctx, cpu, data, size);
	__atomic_fetch_add(&a->samples, 1, __ATOMIC_RELAXED);
	return 0;
}
