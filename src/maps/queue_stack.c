// SPDX-License-Identifier: MIT
/*
 * BPF_MAP_TYPE_QUEUE and BPF_MAP_TYPE_STACK, after the kernel's
 * kernel/bpf/queue_stack_maps.c: a ring of max_entries + 1 slots (one
 * always free, so head == tail means empty), head where values go in,
 * tail where a queue takes them out; a stack takes them back at head.
 * Values only ever leave by copy, so one lock around each operation is
 * the whole concurrency story; no program holds a pointer into the ring.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "maps/map.h"
#include "maps/map_impl.h"

#define HR_KMALLOC_MAX_SIZE (1u << 22)
#define HR_QS_CREATE_FLAG_MASK (HR_F_NUMA_NODE | HR_F_ACCESS_MASK)

struct hr_qs {
	struct hr_spin lock;
	uint32_t size; /* max_entries + 1 */
	uint32_t head, tail;
	size_t bytes;
	uint8_t *elems;
};

static bool hr_qs_access_ok(uint32_t flags)
{
	return (flags & (HR_F_RDONLY_PROG | HR_F_WRONLY_PROG)) !=
	       (HR_F_RDONLY_PROG | HR_F_WRONLY_PROG);
}

/* queue_stack_map_alloc_check(). */
static int hr_qs_check(const struct hr_map_attr *attr)
{
	if (attr->max_entries == 0 || attr->key_size != 0 ||
	    attr->value_size == 0 ||
	    (attr->map_flags & ~HR_QS_CREATE_FLAG_MASK) ||
	    !hr_qs_access_ok(attr->map_flags))
		return -EINVAL;
	if (attr->value_size > HR_KMALLOC_MAX_SIZE)
		return -E2BIG;
	return 0;
}

static int hr_qs_alloc(struct hr_map *map)
{
	struct hr_qs *qs = calloc(1, sizeof(*qs));

	if (!qs)
		return -ENOMEM;
	qs->size = map->attr.max_entries + 1;
	if (!qs->size) {
		free(qs);
		return -E2BIG;
	}
	qs->bytes = (size_t)qs->size * map->attr.value_size;
	qs->elems = hr_map_area_alloc(qs->bytes);
	if (!qs->elems) {
		free(qs);
		return -ENOMEM;
	}
	map->priv = qs;
	return 0;
}

static void hr_qs_free(struct hr_map *map)
{
	struct hr_qs *qs = map->priv;

	if (!qs)
		return;
	hr_map_area_free(qs->elems, qs->bytes);
	free(qs);
	map->priv = NULL;
}

static bool hr_qs_empty(const struct hr_qs *qs)
{
	return qs->head == qs->tail;
}

static bool hr_qs_full(const struct hr_qs *qs)
{
	uint32_t head = qs->head + 1;

	if (head >= qs->size)
		head = 0;
	return head == qs->tail;
}

static uint8_t *hr_qs_slot(const struct hr_map *map, uint32_t i)
{
	const struct hr_qs *qs = map->priv;

	return qs->elems + (size_t)i * map->attr.value_size;
}

/* queue_stack_map_push_elem(): BPF_EXIST on a full map drops the oldest. */
static int hr_qs_push(struct hr_map *map, const void *value, uint64_t flags)
{
	struct hr_qs *qs = map->priv;
	int ret = 0;

	if ((flags & HR_NOEXIST) || flags > HR_EXIST)
		return -EINVAL;
	hr_spin_lock(&qs->lock);
	if (hr_qs_full(qs)) {
		if (!(flags & HR_EXIST)) {
			ret = -E2BIG;
			goto out;
		}
		if (++qs->tail >= qs->size)
			qs->tail = 0;
	}
	memcpy(hr_qs_slot(map, qs->head), value, map->attr.value_size);
	if (++qs->head >= qs->size)
		qs->head = 0;
out:
	hr_spin_unlock(&qs->lock);
	return ret;
}

/* __queue_map_get(): the oldest value, taken out when @delete. */
static int hr_queue_get(struct hr_map *map, void *value, bool delete)
{
	struct hr_qs *qs = map->priv;
	int ret = 0;

	hr_spin_lock(&qs->lock);
	if (hr_qs_empty(qs)) {
		ret = -ENOENT;
		goto out;
	}
	memcpy(value, hr_qs_slot(map, qs->tail), map->attr.value_size);
	if (delete &&++qs->tail >= qs->size)
		qs->tail = 0;
out:
	hr_spin_unlock(&qs->lock);
	return ret;
}

/* __stack_map_get(): the newest value, taken out when @delete. */
static int hr_stack_get(struct hr_map *map, void *value, bool delete)
{
	struct hr_qs *qs = map->priv;
	uint32_t index;
	int ret = 0;

	hr_spin_lock(&qs->lock);
	if (hr_qs_empty(qs)) {
		ret = -ENOENT;
		goto out;
	}
	index = qs->head ? qs->head - 1 : qs->size - 1;
	memcpy(value, hr_qs_slot(map, index), map->attr.value_size);
	if (delete)
		qs->head = index;
out:
	hr_spin_unlock(&qs->lock);
	return ret;
}

static int hr_queue_pop(struct hr_map *map, void *value)
{
	return hr_queue_get(map, value, true);
}

static int hr_queue_peek(struct hr_map *map, void *value)
{
	return hr_queue_get(map, value, false);
}

static int hr_stack_pop(struct hr_map *map, void *value)
{
	return hr_stack_get(map, value, true);
}

static int hr_stack_peek(struct hr_map *map, void *value)
{
	return hr_stack_get(map, value, false);
}

/* Programs reach values only through push, pop and peek. */
static void *hr_qs_lookup(struct hr_map *map, const void *key, unsigned int cpu)
{
	return NULL;
}

static int hr_qs_update(struct hr_map *map, const void *key, const void *value,
			uint64_t flags, unsigned int cpu)
{
	return -EINVAL;
}

/* The syscall's update is a push (bpf_map_update_value()). */
static int hr_qs_update_user(struct hr_map *map, const void *key,
			     const void *value, uint64_t flags)
{
	return map->ops->push(map, value, flags);
}

/* The syscall's lookup is a peek (bpf_map_copy_value()). */
static int hr_qs_copy_value(struct hr_map *map, const void *key, void *value)
{
	return map->ops->peek(map, value);
}

static int hr_qs_delete(struct hr_map *map, const void *key)
{
	return -EINVAL;
}

static int hr_qs_get_next_key(struct hr_map *map, const void *key, void *next)
{
	return -EINVAL;
}

const struct hr_map_ops hr_map_ops_queue = {
	.check = hr_qs_check,
	.alloc = hr_qs_alloc,
	.free = hr_qs_free,
	.lookup = hr_qs_lookup,
	.update = hr_qs_update,
	.delete = hr_qs_delete,
	.get_next_key = hr_qs_get_next_key,
	.copy_value = hr_qs_copy_value,
	.update_user = hr_qs_update_user,
	.push = hr_qs_push,
	.pop = hr_queue_pop,
	.peek = hr_queue_peek,
};

const struct hr_map_ops hr_map_ops_stack = {
	.check = hr_qs_check,
	.alloc = hr_qs_alloc,
	.free = hr_qs_free,
	.lookup = hr_qs_lookup,
	.update = hr_qs_update,
	.delete = hr_qs_delete,
	.get_next_key = hr_qs_get_next_key,
	.copy_value = hr_qs_copy_value,
	.update_user = hr_qs_update_user,
	.push = hr_qs_push,
	.pop = hr_stack_pop,
	.peek = hr_stack_peek,
};
