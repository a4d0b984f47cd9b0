// SPDX-License-Identifier: MIT
/*
 * Map handles (map_registry.h). The table is small and only touched at
 * map-in-map updates and by hr_run_map's fallback, so one mutex will do.
 */
#include <errno.h>
#include <pthread.h>
#include <stddef.h>

#include "maps/map_registry.h"
#include "maps/map.h"
#include "vm/mem.h"

#define HR_MAP_FD_MAX 4096

static pthread_mutex_t hr_map_fd_lock = PTHREAD_MUTEX_INITIALIZER;
static struct hr_map *hr_map_fds[HR_MAP_FD_MAX];

/* With the lock held: @map's slot, or -1. */
static int hr_map_slot(const struct hr_map *map)
{
	int i;

	for (i = 1; i < HR_MAP_FD_MAX; i++)
		if (hr_map_fds[i] == map)
			return i;
	return -1;
}

int hr_map_fd(struct hr_map *map)
{
	int fd, i;

	if (!map)
		return -EINVAL;
	pthread_mutex_lock(&hr_map_fd_lock);
	fd = hr_map_slot(map);
	for (i = 1; fd < 0 && i < HR_MAP_FD_MAX; i++) {
		if (!hr_map_fds[i]) {
			hr_map_fds[i] = map;
			fd = i;
		}
	}
	pthread_mutex_unlock(&hr_map_fd_lock);
	return fd < 0 ? -ENOMEM : fd;
}

struct hr_map *hr_map_from_fd(int fd)
{
	struct hr_map *map = NULL;

	if (fd <= 0 || fd >= HR_MAP_FD_MAX)
		return NULL;
	pthread_mutex_lock(&hr_map_fd_lock);
	map = hr_map_fds[fd];
	pthread_mutex_unlock(&hr_map_fd_lock);
	return map;
}

bool hr_map_registered(const struct hr_map *map)
{
	int slot;

	if (!map)
		return false;
	pthread_mutex_lock(&hr_map_fd_lock);
	slot = hr_map_slot(map);
	pthread_mutex_unlock(&hr_map_fd_lock);
	return slot > 0;
}

void hr_map_unregister(struct hr_map *map)
{
	int slot;

	if (!map)
		return;
	pthread_mutex_lock(&hr_map_fd_lock);
	slot = hr_map_slot(map);
	if (slot > 0)
		hr_map_fds[slot] = NULL;
	pthread_mutex_unlock(&hr_map_fd_lock);
}

/*
 * Values of maps a program reached through another map (the inner maps of
 * map-in-map) are not among its object's regions: the memory checker asks
 * here last, only for accesses every faster test refused.
 */
int hr_map_registry_mem_check(uintptr_t addr, uint32_t len, bool write)
{
	struct hr_region r[8];
	int ret = write ? HR_ABORT_OOB_STORE : HR_ABORT_OOB_LOAD;
	unsigned int n, j;
	int i;

	pthread_mutex_lock(&hr_map_fd_lock);
	for (i = 1; i < HR_MAP_FD_MAX && ret != HR_ABORT_NONE; i++) {
		struct hr_map *map = hr_map_fds[i];

		if (!map || !map->ops->regions)
			continue;
		n = map->ops->regions(map, r, 8);
		for (j = 0; j < n; j++) {
			if (!hr_region_ok(&r[j], addr, len))
				continue;
			if (write && !(r[j].flags & HR_REGION_WRITE)) {
				ret = HR_ABORT_RDONLY;
				continue;
			}
			if (!write && !(r[j].flags & HR_REGION_READ))
				continue;
			ret = HR_ABORT_NONE;
			break;
		}
	}
	pthread_mutex_unlock(&hr_map_fd_lock);
	return ret;
}
