/* SPDX-License-Identifier: MIT */
/*
 * Shared by the map implementations only: value copies that tolerate
 * concurrent readers and writers, a zero-initialised spinlock, page-backed
 * allocation, the hash tables' key hash and compare, and the seqcount
 * of the lookups that take no lock.
 */
#ifndef HR_MAPS_MAP_IMPL_H
#define HR_MAPS_MAP_IMPL_H

#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "maps/map.h"

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

/* How long a bpf_spin_lock of a map value is waited for: its holder's
 * budget bounds how long a run keeps it, and a word a program wrote by
 * hand has no holder to wait for. */
#define HR_SPIN_LOCK_TIMEOUT_NS 1000000000ull

/* Takes the bpf_spin_lock word @lock (0 free, 1 held), spinning for at
 * most about @timeout_ns once it is found taken; false when it was not
 * got (spin_wait.c). */
bool hr_spin_wait(uint32_t *lock, uint64_t timeout_ns);

/* A counter @s guards, read under it. */
static inline uint32_t hr_spin_read(struct hr_spin *s, const uint32_t *v)
{
	uint32_t n;

	hr_spin_lock(s);
	n = *v;
	hr_spin_unlock(s);
	return n;
}

/* Region access flags for a map's values as the program may use them. */
uint32_t hr_map_region_flags(const struct hr_map *map);

/* Where a hash-table map keeps its values: elements in one pool (value at
 * val_off of each), or per-CPU blocks of pcpu_size slots. */
struct hr_elem_layout {
	uint8_t *pool;
	size_t pool_bytes;
	uint32_t elem_size;
	uint32_t val_off;
	uint8_t *pcpu;
	size_t pcpu_bytes;
	uint32_t pcpu_size;
	bool percpu;
};

/* The one region (ops->regions) of such a map: only value_size bytes of
 * each slot are reachable. */
unsigned int hr_map_elem_regions(const struct hr_map *map,
				 const struct hr_elem_layout *lay,
				 struct hr_region *out, unsigned int max);

/* The hash and per-map seed of the hash-table map types. */
uint32_t hr_map_hash(const void *key, uint32_t len, uint32_t seed);
uint32_t hr_map_hash_seed(void);

/* The last @len (< 8) bytes at @p as one word, the rest zero. */
uint64_t hr_key_tail(const uint8_t *p, uint32_t len);

/* Whether two keys of @len bytes are equal: the common 4- and 8-byte keys
 * compared without a call. */
static inline bool hr_key_eq(const void *a, const void *b, uint32_t len)
{
	uint64_t a8, b8;
	uint32_t a4, b4;

	if (len == 4) {
		memcpy(&a4, a, 4);
		memcpy(&b4, b, 4);
		return a4 == b4;
	}
	if (len == 8) {
		memcpy(&a8, a, 8);
		memcpy(&b8, b, 8);
		return a8 == b8;
	}
	return memcmp(a, b, len) == 0;
}

/*
 * A seqcount for lookups that take no lock: odd while a writer (holding
 * the structure's lock) changes links. A lookup whose answer depends on
 * having seen no change (a miss, or any answer where reused memory could
 * mislead it) checks the count did not move, else takes the lock.
 */
static inline void hr_seq_write_begin(uint32_t *seq)
{
	__atomic_store_n(seq, *seq + 1, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_RELEASE);
}

static inline void hr_seq_write_end(uint32_t *seq)
{
	__atomic_store_n(seq, *seq + 1, __ATOMIC_RELEASE);
}

static inline uint32_t hr_seq_read_begin(const uint32_t *seq)
{
	return __atomic_load_n(seq, __ATOMIC_ACQUIRE);
}

/* Whether a read that began at @start raced a writer. */
static inline bool hr_seq_read_retry(const uint32_t *seq, uint32_t start)
{
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	return (start & 1) || __atomic_load_n(seq, __ATOMIC_RELAXED) != start;
}

#endif /* HR_MAPS_MAP_IMPL_H */
