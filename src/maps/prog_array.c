// SPDX-License-Identifier: MIT
/*
 * BPF_MAP_TYPE_PROG_ARRAY, after the kernel's fd array in
 * kernel/bpf/arraymap.c: max_entries slots, each empty or holding a
 * program, written from user space with program handles (hr_prog_fd())
 * and read by bpf_tail_call. The first program stored fixes the owner
 * type and the frags flag; a program of another kind is -EINVAL
 * (bpf_prog_map_compatible()). A user lookup returns the program's
 * handle where the kernel returns its ID. The array holds no reference:
 * a stored program must outlive its slot (unload order is the caller's).
 */
#include <errno.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "progs/prog.h"
#include "progs/prog_registry.h"
#include "maps/fd_array.h"
#include "maps/map.h"
#include "maps/map_impl.h"

#define HR_ARRAY_CREATE_FLAG_MASK                            \
	(HR_F_NUMA_NODE | HR_F_MMAPABLE | HR_F_ACCESS_MASK | \
	 HR_F_PRESERVE_ELEMS | HR_F_INNER_MAP)

struct hr_prog_array {
	struct hr_spin lock; /* owner fields */
	const struct hr_prog_type *owner_type;
	bool owner_frags;
	uint32_t owner_attach; /* expected attach type */
	struct hr_prog *_Atomic *slots;
};

/* fd_array_map_alloc_check() then array_map_alloc_check(). */
static int hr_prog_array_check(const struct hr_map_attr *attr)
{
	if (attr->value_size != sizeof(uint32_t))
		return -EINVAL;
	if (attr->map_flags & (HR_F_RDONLY_PROG | HR_F_WRONLY_PROG))
		return -EINVAL;
	if (attr->max_entries == 0 || attr->key_size != 4 ||
	    (attr->map_flags & ~HR_ARRAY_CREATE_FLAG_MASK))
		return -EINVAL;
	if (attr->map_flags &
	    (HR_F_MMAPABLE | HR_F_INNER_MAP | HR_F_PRESERVE_ELEMS))
		return -EINVAL;
	return 0;
}

static int hr_prog_array_alloc(struct hr_map *map)
{
	struct hr_prog_array *a = calloc(1, sizeof(*a));

	if (!a)
		return -ENOMEM;
	a->slots = calloc(map->attr.max_entries, sizeof(*a->slots));
	if (!a->slots) {
		free(a);
		return -ENOMEM;
	}
	map->priv = a;
	return 0;
}

static void hr_prog_array_free(struct hr_map *map)
{
	struct hr_prog_array *a = map->priv;

	if (!a)
		return;
	free(a->slots);
	free(a);
	map->priv = NULL;
}

static uint32_t hr_key_index(const void *key)
{
	uint32_t i;

	memcpy(&i, key, sizeof(i));
	return i;
}

struct hr_prog *hr_prog_array_get(struct hr_map *map, uint32_t index)
{
	struct hr_prog_array *a = map->priv;

	if (map->attr.type != HR_MAP_PROG_ARRAY ||
	    index >= map->attr.max_entries)
		return NULL;
	return atomic_load_explicit(&a->slots[index], memory_order_acquire);
}

/* bpf_prog_map_compatible(): the first program sets the owner. */
static bool hr_prog_array_compatible(struct hr_map *map, struct hr_prog *p)
{
	struct hr_prog_array *a = map->priv;
	bool ok;

	hr_spin_lock(&a->lock);
	if (!a->owner_type) {
		a->owner_type = p->type;
		a->owner_frags = p->frags;
		a->owner_attach = p->expected_attach;
		ok = true;
	} else {
		ok = a->owner_type == p->type && a->owner_frags == p->frags &&
		     a->owner_attach == p->expected_attach;
	}
	hr_spin_unlock(&a->lock);
	return ok;
}

int hr_prog_array_claim(struct hr_map *map, struct hr_prog *prog)
{
	if (map->attr.type != HR_MAP_PROG_ARRAY)
		return 0;
	return hr_prog_array_compatible(map, prog) ? 0 : -EINVAL;
}

/* bpf_fd_array_map_update_elem(): BPF_ANY only, then the slot, then the
 * program. */
static int hr_prog_array_update_user(struct hr_map *map, const void *key,
				     const void *value, uint64_t flags)
{
	struct hr_prog_array *a = map->priv;
	uint32_t index = hr_key_index(key), fd;
	struct hr_prog *p;

	if (flags != HR_ANY)
		return -EINVAL;
	if (index >= map->attr.max_entries)
		return -E2BIG;
	memcpy(&fd, value, sizeof(fd));
	p = hr_prog_from_fd((int)fd);
	if (!p)
		return -EBADF;
	if (!hr_prog_array_compatible(map, p))
		return -EINVAL;
	atomic_store_explicit(&a->slots[index], p, memory_order_release);
	return 0;
}

/* Programs cannot write a program array (the verifier says no). */
static int hr_prog_array_update(struct hr_map *map, const void *key,
				const void *value, uint64_t flags,
				unsigned int cpu)
{
	return -EINVAL;
}

static void *hr_prog_array_lookup(struct hr_map *map, const void *key,
				  unsigned int cpu)
{
	return NULL;
}

static int hr_prog_array_copy_value(struct hr_map *map, const void *key,
				    void *value)
{
	struct hr_prog *p = hr_prog_array_get(map, hr_key_index(key));
	uint32_t fd;

	if (hr_key_index(key) >= map->attr.max_entries)
		return -ENOENT;
	if (!p)
		return -ENOENT;
	fd = (uint32_t)hr_prog_fd(p);
	memcpy(value, &fd, sizeof(fd));
	return 0;
}

/* fd_array_map_delete_elem(). */
static int hr_prog_array_delete(struct hr_map *map, const void *key)
{
	struct hr_prog_array *a = map->priv;
	uint32_t index = hr_key_index(key);

	if (index >= map->attr.max_entries)
		return -E2BIG;
	if (!atomic_exchange_explicit(&a->slots[index], NULL,
				      memory_order_acq_rel))
		return -ENOENT;
	return 0;
}

int hr_fd_array_get_next_key(struct hr_map *map, const void *key, void *next)
{
	uint32_t index = key ? hr_key_index(key) : UINT32_MAX, n;

	if (index >= map->attr.max_entries)
		n = 0;
	else if (index == map->attr.max_entries - 1)
		return -ENOENT;
	else
		n = index + 1;
	memcpy(next, &n, sizeof(n));
	return 0;
}

const struct hr_map_ops hr_map_ops_prog_array = {
	.check = hr_prog_array_check,
	.alloc = hr_prog_array_alloc,
	.free = hr_prog_array_free,
	.lookup = hr_prog_array_lookup,
	.update = hr_prog_array_update,
	.delete = hr_prog_array_delete,
	.get_next_key = hr_fd_array_get_next_key,
	.copy_value = hr_prog_array_copy_value,
	.update_user = hr_prog_array_update_user,
};
