/* SPDX-License-Identifier: MIT */
/*
 * A process-wide table of map handles, the counterpart of the kernel's map
 * file descriptors where a value names a map (ARRAY_OF_MAPS and
 * HASH_OF_MAPS values, inner_map_fd). A map gets a small positive int the
 * first time one is asked for and keeps it until it is unregistered.
 */
#ifndef HR_MAPS_MAP_REGISTRY_H
#define HR_MAPS_MAP_REGISTRY_H

#include <stdbool.h>
#include <stdint.h>

struct hr_map;

/* The handle of @map (> 0), registering it on first use; -ENOMEM when the
 * table is full, -EINVAL for NULL. */
int hr_map_fd(struct hr_map *map);

/* The map behind @fd, or NULL (the caller says -EBADF). */
struct hr_map *hr_map_from_fd(int fd);

/* Whether @map is registered (a live map a program may be handed, through
 * a map-in-map lookup, without being one of its object's maps). */
bool hr_map_registered(const struct hr_map *map);

/* Forgets @map (before it is freed); its handle may be reused. */
void hr_map_unregister(struct hr_map *map);

/* HR_ABORT_NONE when [addr, addr + len) is value memory of a registered
 * map the program may read (or write), else the abort reason. */
int hr_map_registry_mem_check(uintptr_t addr, uint32_t len, bool write);

#endif /* HR_MAPS_MAP_REGISTRY_H */
