/* SPDX-License-Identifier: MIT */
/*
 * Shared by the map implementations only: value copies that tolerate
 * concurrent readers and writers, a zero-initialised spinlock, and
 * page-backed allocation.
 */
#ifndef HR_MAPS_MAP_IMPL_H
#define HR_MAPS_MAP_IMPL_H

#include <stddef.h>
#include <stdint.h>

#include "map.h"

#define HR_ROUND8(x) (((uint64_t)(x) + 7) & ~(uint64_t)7)

/*
 * Copies @len bytes between a map value (8-byte aligned, @map_side) and
 * any buffer. Map memory is accessed with relaxed atomics, word by word,
 * because programs on other workers and user space touch the same values
 * without a lock, exactly as in the kernel; this keeps such tearing
 * defined behaviour (and quiet under ThreadSanitizer).
 */
void hr_map_value_load(void *dst, const void *map_side, size_t len);
void hr_map_value_store(void *map_side, const void *src, size_t len);
void hr_map_value_zero(void *map_side, size_t len);

/* Zeroed anonymous memory that is committed only when touched; NULL on
 * failure. Large maps therefore cost what they hold, not what they may. */
void *hr_map_area_alloc(size_t bytes);
void hr_map_area_free(void *area, size_t bytes);

static inline void hr_cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#endif
}

/* A spinlock whose unlocked state is all-zero bytes. */
struct hr_spin {
	int locked;
};

static inline void hr_spin_lock(struct hr_spin *s)
{
	while (__atomic_exchange_n(&s->locked, 1, __ATOMIC_ACQUIRE)) {
		while (__atomic_load_n(&s->locked, __ATOMIC_RELAXED))
			hr_cpu_relax();
	}
}

static inline void hr_spin_unlock(struct hr_spin *s)
{
	__atomic_store_n(&s->locked, 0, __ATOMIC_RELEASE);
}

/* Region access flags for a map's values as the program may use them. */
uint32_t hr_map_region_flags(const struct hr_map *map);

/* The hash and per-map seed of the hash-table map types. */
uint32_t hr_map_hash(const void *key, uint32_t len, uint32_t seed);
uint32_t hr_map_hash_seed(void);

#endif /* HR_MAPS_MAP_IMPL_H */
