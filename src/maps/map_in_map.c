// SPDX-License-Identifier: MIT
/*
 * BPF_MAP_TYPE_ARRAY_OF_MAPS and BPF_MAP_TYPE_HASH_OF_MAPS, after the
 * kernel's kernel/bpf/map_in_map.c and the fd parts of arraymap.c and
 * hashtab.c. Creation takes an inner map template (attr->inner_map, the
 * kernel's inner_map_fd); a map stored later must match it
 * (bpf_map_meta_equal(), plus max_entries for arrays unless the template
 * has BPF_F_INNER_MAP). User space stores and reads map handles
 * (hr_map_fd()); a program's lookup returns the inner map itself.
 *
 * HASH_OF_MAPS keeps its entries in a BPF_MAP_TYPE_HASH of the same key
 * size, max_entries and flags whose values are the inner map pointers, so
 * it has the hash map's update flags, limits and walk order. Neither type
 * holds a reference: stored maps must outlive their slots.
 */
#include <errno.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "maps/fd_array.h"
#include "maps/map.h"
#include "maps/map_impl.h"
#include "maps/map_registry.h"

#define HR_ENOTSUPP 524 /* kernel-internal ENOTSUPP */

/* The template: what bpf_map_meta_alloc() copies from the inner map. */
struct hr_mim_meta {
	uint32_t type, key_size, value_size, map_flags, max_entries;
};

struct hr_mim {
	struct hr_mim_meta meta;
	struct hr_map *_Atomic *slots; /* ARRAY_OF_MAPS */
	struct hr_map *htab; /* HASH_OF_MAPS: key -> struct hr_map * */
};

static bool hr_is_map_in_map(uint32_t type)
{
	return type == HR_MAP_ARRAY_OF_MAPS || type == HR_MAP_HASH_OF_MAPS;
}

int hr_map_inner_ok(const struct hr_map *inner)
{
	if (!inner)
		return -EBADF;
	/* One level of nesting only. */
	if (hr_is_map_in_map(inner->attr.type))
		return -EINVAL;
	/* Types without map_meta_equal. */
	switch (inner->attr.type) {
	case HR_MAP_PROG_ARRAY:
	case HR_MAP_CGROUP_STORAGE:
	case HR_MAP_PERCPU_CGROUP_STORAGE:
	case HR_MAP_STRUCT_OPS:
		return -HR_ENOTSUPP;
	default:
		return 0;
	}
}

/* The file-mode flags do not stay with a map (retain_permanent). */
static uint32_t hr_meta_flags(uint32_t flags)
{
	return flags & ~(HR_F_RDONLY | HR_F_WRONLY);
}

static bool hr_meta_equal(const struct hr_mim_meta *m, const struct hr_map *in)
{
	if (m->type != in->attr.type || m->key_size != in->attr.key_size ||
	    m->value_size != in->attr.value_size ||
	    m->map_flags != hr_meta_flags(in->attr.map_flags))
		return false;
	if (m->type == HR_MAP_ARRAY || m->type == HR_MAP_PERCPU_ARRAY)
		return (m->map_flags & HR_F_INNER_MAP) ||
		       m->max_entries == in->attr.max_entries;
	return true;
}

bool hr_map_inner_same(const struct hr_map *outer, const struct hr_map *in)
{
	const struct hr_mim *m;

	if (!hr_is_map_in_map(outer->attr.type) || !outer->priv ||
	    hr_is_map_in_map(in->attr.type))
		return false;
	m = outer->priv;
	return hr_meta_equal(&m->meta, in) &&
	       m->meta.max_entries == in->attr.max_entries;
}

/*
 * fd_array_map_alloc_check() / fd_htab_map_alloc_check(): the value is
 * a 4-byte handle; then the outer type's own checks, run by creating the
 * backing map (HASH) or by the array rules; the template last, as the
 * kernel's map_alloc does it.
 */
static int hr_mim_check(const struct hr_map_attr *attr)
{
	struct hr_map_attr outer = *attr;
	int ret;

	if (attr->value_size != sizeof(uint32_t))
		return -EINVAL;
	if (attr->type == HR_MAP_ARRAY_OF_MAPS) {
		if (attr->map_flags & (HR_F_RDONLY_PROG | HR_F_WRONLY_PROG))
			return -EINVAL;
		if (attr->map_flags & (HR_F_MMAPABLE | HR_F_INNER_MAP))
			return -EINVAL;
		outer.type = HR_MAP_ARRAY;
	} else {
		outer.type = HR_MAP_HASH;
	}
	ret = hr_map_ops_for(outer.type)->check(&outer);
	if (ret)
		return ret;
	return hr_map_inner_ok(attr->inner_map);
}

static int hr_mim_alloc(struct hr_map *map)
{
	const struct hr_map *in = map->attr.inner_map;
	struct hr_mim *m = calloc(1, sizeof(*m));
	struct hr_map_attr hattr;
	int ret = -ENOMEM;

	if (!m)
		return -ENOMEM;
	m->meta.type = in->attr.type;
	m->meta.key_size = in->attr.key_size;
	m->meta.value_size = in->attr.value_size;
	m->meta.map_flags = hr_meta_flags(in->attr.map_flags);
	m->meta.max_entries = in->attr.max_entries;
	if (map->attr.type == HR_MAP_ARRAY_OF_MAPS) {
		m->slots = calloc(map->attr.max_entries, sizeof(*m->slots));
		if (!m->slots)
			goto fail;
	} else {
		hattr = map->attr;
		hattr.type = HR_MAP_HASH;
		hattr.value_size = sizeof(struct hr_map *);
		hattr.inner_map = NULL;
		hattr.name = "inner-htab";
		ret = hr_map_create(&hattr, &m->htab);
		if (ret)
			goto fail;
	}
	/* The template is not kept: only its attributes matter. */
	map->attr.inner_map = NULL;
	map->priv = m;
	return 0;
fail:
	free(m->slots);
	free(m);
	return ret;
}

static void hr_mim_free(struct hr_map *map)
{
	struct hr_mim *m = map->priv;

	if (!m)
		return;
	free(m->slots);
	hr_map_free(m->htab);
	free(m);
	map->priv = NULL;
}

static uint32_t hr_key_index(const void *key)
{
	uint32_t i;

	memcpy(&i, key, sizeof(i));
	return i;
}

/* The program's lookup: the inner map, or NULL. */
static void *hr_mim_lookup(struct hr_map *map, const void *key,
			   unsigned int cpu)
{
	struct hr_mim *m = map->priv;
	uint64_t *v;

	if (m->slots) {
		uint32_t i = hr_key_index(key);

		if (i >= map->attr.max_entries)
			return NULL;
		return atomic_load_explicit(&m->slots[i], memory_order_acquire);
	}
	v = m->htab->ops->lookup(m->htab, key, 0);
	return v ? (void *)(uintptr_t)__atomic_load_n(v, __ATOMIC_ACQUIRE) :
		   NULL;
}

/* bpf_map_fd_get_ptr(): the handle's map, checked against the template. */
static int hr_mim_inner_from(struct hr_map *map, const void *value,
			     struct hr_map **out)
{
	struct hr_mim *m = map->priv;
	struct hr_map *in;
	uint32_t fd;

	memcpy(&fd, value, sizeof(fd));
	in = hr_map_from_fd((int)fd);
	if (!in)
		return -EBADF;
	if (hr_is_map_in_map(in->attr.type) || !hr_meta_equal(&m->meta, in))
		return -EINVAL;
	*out = in;
	return 0;
}

static int hr_mim_update_user(struct hr_map *map, const void *key,
			      const void *value, uint64_t flags)
{
	struct hr_mim *m = map->priv;
	struct hr_map *in;
	uint64_t ptr;
	uint32_t i;
	int ret;

	if (m->slots) {
		i = hr_key_index(key);
		if (flags != HR_ANY)
			return -EINVAL;
		if (i >= map->attr.max_entries)
			return -E2BIG;
		ret = hr_mim_inner_from(map, value, &in);
		if (ret)
			return ret;
		atomic_store_explicit(&m->slots[i], in, memory_order_release);
		return 0;
	}
	ret = hr_mim_inner_from(map, value, &in);
	if (ret)
		return ret;
	ptr = (uintptr_t)in;
	return m->htab->ops->update_user(m->htab, key, &ptr, flags);
}

/* Programs cannot store maps (the verifier refuses the update). */
static int hr_mim_update(struct hr_map *map, const void *key, const void *value,
			 uint64_t flags, unsigned int cpu)
{
	return -EINVAL;
}

/* The user lookup: the inner map's handle (the kernel gives its ID). */
static int hr_mim_copy_value(struct hr_map *map, const void *key, void *value)
{
	struct hr_map *in = hr_mim_lookup(map, key, 0);
	int fd;

	if (!in)
		return -ENOENT;
	fd = hr_map_fd(in);
	if (fd < 0)
		return fd;
	memcpy(value, &fd, sizeof(uint32_t));
	return 0;
}

static int hr_mim_delete(struct hr_map *map, const void *key)
{
	struct hr_mim *m = map->priv;
	uint32_t i;

	if (!m->slots)
		return m->htab->ops->delete (m->htab, key);
	i = hr_key_index(key);
	if (i >= map->attr.max_entries)
		return -E2BIG;
	if (!atomic_exchange_explicit(&m->slots[i], NULL, memory_order_acq_rel))
		return -ENOENT;
	return 0;
}

static int hr_mim_get_next_key(struct hr_map *map, const void *key, void *next)
{
	struct hr_mim *m = map->priv;

	if (!m->slots)
		return m->htab->ops->get_next_key(m->htab, key, next);
	return hr_fd_array_get_next_key(map, key, next);
}

/* HASH_OF_MAPS counts its keys as a hash map does; ARRAY_OF_MAPS keeps
 * no count. */
static int64_t hr_mim_elem_count(struct hr_map *map)
{
	struct hr_mim *m = map->priv;

	if (map->attr.type != HR_MAP_HASH_OF_MAPS || !m->htab->ops->elem_count)
		return 0;
	return m->htab->ops->elem_count(m->htab);
}

const struct hr_map_ops hr_map_ops_array_of_maps = {
	.check = hr_mim_check,
	.alloc = hr_mim_alloc,
	.free = hr_mim_free,
	.lookup = hr_mim_lookup,
	.update = hr_mim_update,
	.delete = hr_mim_delete,
	.get_next_key = hr_mim_get_next_key,
	.copy_value = hr_mim_copy_value,
	.update_user = hr_mim_update_user,
	.elem_count = hr_mim_elem_count,
};

extern const struct hr_map_ops hr_map_ops_hash_of_maps
	__attribute__((alias("hr_map_ops_array_of_maps")));
