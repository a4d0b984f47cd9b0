/* SPDX-License-Identifier: MIT */
/* User-space access to an object's maps, as libbpf's bpf_map_* calls. */
#ifndef HEADROOM_MAP_H
#define HEADROOM_MAP_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

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
/* Frozen (BPF_MAP_FREEZE): user space may only read it; the loader
 * freezes .rodata once its --set values are in, as libbpf does. */
bool hr_map_frozen(const struct hr_map *map);

/* Each returns 0 or a negative errno as the bpf syscall would. */
int hr_map_lookup_elem(struct hr_map *map, const void *key, void *value);
int hr_map_update_elem(struct hr_map *map, const void *key, const void *value,
		       uint64_t flags);
int hr_map_delete_elem(struct hr_map *map, const void *key);
int hr_map_get_next_key(struct hr_map *map, const void *key, void *next_key);

/*
 * BPF_MAP_LOOKUP_BATCH (libbpf's bpf_map_lookup_batch): up to *@count
 * entries into @keys and @values (user value layout, see
 * hr_map_user_value_size()), resuming after the token at @in_batch (NULL:
 * from the start) and writing the next token to @out_batch. The token is
 * a key (key_size bytes) for arrays and LPM tries, a uint32_t for hash
 * maps. *@count is set to the number copied, also on -ENOENT, which marks
 * the end of the walk. -ENOSPC when the first entries to copy do not fit
 * into *@count, -EINVAL for @elem_flags other than BPF_F_LOCK (and for
 * BPF_F_LOCK itself), -EFAULT for a NULL buffer that was needed, -ENOTSUPP
 * (524) for map types without batch operations.
 */
int hr_map_lookup_batch(struct hr_map *map, void *in_batch, void *out_batch,
			void *keys, void *values, uint32_t *count,
			uint64_t elem_flags);

#ifdef __cplusplus
}
#endif

#endif /* HEADROOM_MAP_H */
