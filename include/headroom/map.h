/* SPDX-License-Identifier: MIT */
/* User-space access to an object's maps, as libbpf's bpf_map_* calls. */
#ifndef HEADROOM_MAP_H
#define HEADROOM_MAP_H

#include <stdbool.h>
#include <stdint.h>

struct hr_map;

const char *hr_map_name(const struct hr_map *map);
uint32_t hr_map_type(const struct hr_map *map);
uint32_t hr_map_key_size(const struct hr_map *map);
uint32_t hr_map_value_size(const struct hr_map *map);
uint32_t hr_map_max_entries(const struct hr_map *map);
uint32_t hr_map_flags(const struct hr_map *map);
/* Bytes a user value buffer needs: value_size, or for per-CPU maps
 * round_up(value_size, 8) * ncpus. */
uint32_t hr_map_user_value_size(const struct hr_map *map);

/* "BPF_MAP_TYPE_HASH" ..., or NULL for a number the kernel lacks. */
const char *hr_map_type_name(uint32_t type);
/* Per-CPU maps keep one value a worker (user values hold them all). */
bool hr_map_is_percpu(const struct hr_map *map);

/* Each returns 0 or a negative errno as the bpf syscall would. */
int hr_map_lookup_elem(struct hr_map *map, const void *key, void *value);
int hr_map_update_elem(struct hr_map *map, const void *key, const void *value,
		       uint64_t flags);
int hr_map_delete_elem(struct hr_map *map, const void *key);
int hr_map_get_next_key(struct hr_map *map, const void *key, void *next_key);

#endif /* HEADROOM_MAP_H */
