// SPDX-License-Identifier: MIT
/*
 * The user-space map API (include/headroom/map.h) with the bpf syscall's
 * semantics: the access checks of map_lookup_elem(), map_update_elem(),
 * map_delete_elem() and map_get_next_key() in kernel/bpf/syscall.c, then
 * the type's operation.
 */
#include <errno.h>
#include <string.h>

#include "headroom/map.h"
#include "maps/map.h"
#include "maps/map_timer.h"

const char *hr_map_name(const struct hr_map *map)
{
	return map->name;
}

uint32_t hr_map_type(const struct hr_map *map)
{
	return map->attr.type;
}

uint32_t hr_map_key_size(const struct hr_map *map)
{
	return map->attr.key_size;
}

uint32_t hr_map_value_size(const struct hr_map *map)
{
	return map->attr.value_size;
}

uint32_t hr_map_max_entries(const struct hr_map *map)
{
	return map->attr.max_entries;
}

uint32_t hr_map_flags(const struct hr_map *map)
{
	return map->attr.map_flags;
}

uint32_t hr_map_user_value_size(const struct hr_map *map)
{
	if (hr_map_is_percpu(map))
		return hr_map_percpu_value_size(map) * map->attr.ncpus;
	return map->attr.value_size;
}

bool hr_map_frozen(const struct hr_map *map)
{
	return map->frozen;
}

/* BPF_F_WRONLY maps cannot be read from user space, BPF_F_RDONLY and
 * frozen ones cannot be written (the file mode of the map's fd, which
 * map_get_sys_perms makes read-only once frozen, in the kernel). */
static bool hr_map_user_can_read(const struct hr_map *map)
{
	return !(map->attr.map_flags & HR_F_WRONLY);
}

static bool hr_map_user_can_write(const struct hr_map *map)
{
	return !(map->attr.map_flags & HR_F_RDONLY) && !map->frozen;
}

/* __bpf_copy_key: a map of key_size 0 (queue, stack, ring buffers) takes
 * no key. */
static bool hr_key_given(const struct hr_map *map, const void *key)
{
	return key || !map->attr.key_size;
}

int hr_map_lookup_elem(struct hr_map *map, const void *key, void *value)
{
	unsigned int i;
	int ret;

	if (!map)
		return -EBADF;
	if (!hr_map_user_can_read(map))
		return -EPERM;
	if (!hr_key_given(map, key) || !value)
		return -EFAULT;
	if (!map->ops->copy_value)
		return -EOPNOTSUPP;
	ret = map->ops->copy_value(map, key, value);
	/* check_and_init_map_value: user space reads a bpf_timer and a
	 * bpf_wq as 0. */
	if (!ret && map->timer_off >= 0)
		memset((uint8_t *)value + map->timer_off, 0, HR_BPF_TIMER_SIZE);
	if (!ret && map->wq_off >= 0)
		memset((uint8_t *)value + map->wq_off, 0, HR_BPF_WQ_SIZE);
	/* ... and a kptr as 0 (NULL). */
	for (i = 0; !ret && i < map->nkptrs; i++)
		memset((uint8_t *)value + map->kptr_off[i], 0, 8);
	if (!ret && map->list_off >= 0)
		memset((uint8_t *)value + map->list_off, 0, 16);
	return ret;
}

int hr_map_update_elem(struct hr_map *map, const void *key, const void *value,
		       uint64_t flags)
{
	if (!map)
		return -EBADF;
	if (!hr_map_user_can_write(map))
		return -EPERM;
	/* No headroom map value holds a bpf_spin_lock. */
	if (flags & HR_F_LOCK)
		return -EINVAL;
	if (!hr_key_given(map, key) || !value)
		return -EFAULT;
	if (!map->ops->update_user)
		return -EOPNOTSUPP;
	return map->ops->update_user(map, key, value, flags);
}

int hr_map_delete_elem(struct hr_map *map, const void *key)
{
	if (!map)
		return -EBADF;
	if (!hr_map_user_can_write(map))
		return -EPERM;
	if (!hr_key_given(map, key))
		return -EFAULT;
	if (!map->ops->delete)
		return -EOPNOTSUPP;
	return map->ops->delete (map, key);
}

int hr_map_get_next_key(struct hr_map *map, const void *key, void *next_key)
{
	if (!map)
		return -EBADF;
	if (!hr_map_user_can_read(map))
		return -EPERM;
	if (!next_key)
		return -EFAULT;
	if (!map->ops->get_next_key)
		return -EOPNOTSUPP;
	return map->ops->get_next_key(map, key, next_key);
}
