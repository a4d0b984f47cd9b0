// SPDX-License-Identifier: MIT
/*
 * The map core: the type table, the generic creation checks of the
 * kernel's map_create() (kernel/bpf/syscall.c) and shared value copies.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <unistd.h>

#include "maps/map.h"
#include "maps/map_registry.h"
#include "maps/map_impl.h"
#include "maps/map_timer.h"
#include "maps/map_kptr.h"

/*
 * Every kernel map type, in enum bpf_map_type order: X(number, suffix).
 * The suffix gives both the kernel name and the ops symbol.
 */
#define HR_MAP_TYPES(X)                                     \
	X(0, UNSPEC, unspec)                                \
	X(1, HASH, hash)                                    \
	X(2, ARRAY, array)                                  \
	X(3, PROG_ARRAY, prog_array)                        \
	X(4, PERF_EVENT_ARRAY, perf_event_array)            \
	X(5, PERCPU_HASH, percpu_hash)                      \
	X(6, PERCPU_ARRAY, percpu_array)                    \
	X(7, STACK_TRACE, stack_trace)                      \
	X(8, CGROUP_ARRAY, cgroup_array)                    \
	X(9, LRU_HASH, lru_hash)                            \
	X(10, LRU_PERCPU_HASH, lru_percpu_hash)             \
	X(11, LPM_TRIE, lpm_trie)                           \
	X(12, ARRAY_OF_MAPS, array_of_maps)                 \
	X(13, HASH_OF_MAPS, hash_of_maps)                   \
	X(14, DEVMAP, devmap)                               \
	X(15, SOCKMAP, sockmap)                             \
	X(16, CPUMAP, cpumap)                               \
	X(17, XSKMAP, xskmap)                               \
	X(18, SOCKHASH, sockhash)                           \
	X(19, CGROUP_STORAGE, cgroup_storage)               \
	X(20, REUSEPORT_SOCKARRAY, reuseport_sockarray)     \
	X(21, PERCPU_CGROUP_STORAGE, percpu_cgroup_storage) \
	X(22, QUEUE, queue)                                 \
	X(23, STACK, stack)                                 \
	X(24, SK_STORAGE, sk_storage)                       \
	X(25, DEVMAP_HASH, devmap_hash)                     \
	X(26, STRUCT_OPS, struct_ops)                       \
	X(27, RINGBUF, ringbuf)                             \
	X(28, INODE_STORAGE, inode_storage)                 \
	X(29, TASK_STORAGE, task_storage)                   \
	X(30, BLOOM_FILTER, bloom_filter)                   \
	X(31, USER_RINGBUF, user_ringbuf)                   \
	X(32, CGRP_STORAGE, cgrp_storage)                   \
	X(33, ARENA, arena)

/*
 * Types implemented elsewhere are referenced weakly: a type whose file does
 * not exist yet is simply unsupported instead of a link error. The four
 * types of this directory's array.c and hash.c are referenced strongly so
 * that the linker always pulls them from the archive. When another type's
 * file exists and nothing else pulls its object from libheadroom.a, move
 * it to a strong reference too.
 */
#define HR_WEAK_OPS(num, upper, lower) \
	extern const struct hr_map_ops hr_map_ops_##lower __attribute__((weak));
extern const struct hr_map_ops hr_map_ops_perf_event_array;
HR_WEAK_OPS(0, BLOOM_FILTER, bloom_filter)

/* The generic types of lru_hash.c, lpm_trie.c, queue_stack.c, ringbuf.c
 * (both ring buffers),
 * prog_array.c and map_in_map.c, pulled in strongly. */
extern const struct hr_map_ops hr_map_ops_prog_array;
extern const struct hr_map_ops hr_map_ops_lru_hash;
extern const struct hr_map_ops hr_map_ops_lru_percpu_hash;
extern const struct hr_map_ops hr_map_ops_lpm_trie;
extern const struct hr_map_ops hr_map_ops_array_of_maps;
extern const struct hr_map_ops hr_map_ops_hash_of_maps;
extern const struct hr_map_ops hr_map_ops_queue;
extern const struct hr_map_ops hr_map_ops_stack;
extern const struct hr_map_ops hr_map_ops_ringbuf;
extern const struct hr_map_ops hr_map_ops_user_ringbuf;

/* The redirect maps of devmap.c, cpumap.c and xskmap.c. */
extern const struct hr_map_ops hr_map_ops_devmap;
extern const struct hr_map_ops hr_map_ops_devmap_hash;
extern const struct hr_map_ops hr_map_ops_cpumap;
extern const struct hr_map_ops hr_map_ops_xskmap;

/* NULL for a type headroom has no ops symbol for at all. */
#define HR_OPS_ENTRY(num, upper, lower) [num] = HR_OPS_##upper,
#define HR_OPS_UNSPEC NULL
#define HR_OPS_HASH &hr_map_ops_hash
#define HR_OPS_ARRAY &hr_map_ops_array
#define HR_OPS_PROG_ARRAY &hr_map_ops_prog_array
#define HR_OPS_PERF_EVENT_ARRAY &hr_map_ops_perf_event_array
#define HR_OPS_PERCPU_HASH &hr_map_ops_percpu_hash
#define HR_OPS_PERCPU_ARRAY &hr_map_ops_percpu_array
#define HR_OPS_STACK_TRACE NULL
#define HR_OPS_CGROUP_ARRAY NULL
#define HR_OPS_LRU_HASH &hr_map_ops_lru_hash
#define HR_OPS_LRU_PERCPU_HASH &hr_map_ops_lru_percpu_hash
#define HR_OPS_LPM_TRIE &hr_map_ops_lpm_trie
#define HR_OPS_ARRAY_OF_MAPS &hr_map_ops_array_of_maps
#define HR_OPS_HASH_OF_MAPS &hr_map_ops_hash_of_maps
#define HR_OPS_DEVMAP &hr_map_ops_devmap
#define HR_OPS_SOCKMAP NULL
#define HR_OPS_CPUMAP &hr_map_ops_cpumap
#define HR_OPS_XSKMAP &hr_map_ops_xskmap
#define HR_OPS_SOCKHASH NULL
#define HR_OPS_CGROUP_STORAGE NULL
#define HR_OPS_REUSEPORT_SOCKARRAY NULL
#define HR_OPS_PERCPU_CGROUP_STORAGE NULL
#define HR_OPS_QUEUE &hr_map_ops_queue
#define HR_OPS_STACK &hr_map_ops_stack
#define HR_OPS_SK_STORAGE NULL
#define HR_OPS_DEVMAP_HASH &hr_map_ops_devmap_hash
#define HR_OPS_STRUCT_OPS NULL
#define HR_OPS_RINGBUF &hr_map_ops_ringbuf
#define HR_OPS_INODE_STORAGE NULL
#define HR_OPS_TASK_STORAGE NULL
#define HR_OPS_BLOOM_FILTER &hr_map_ops_bloom_filter
#define HR_OPS_USER_RINGBUF &hr_map_ops_user_ringbuf
#define HR_OPS_CGRP_STORAGE NULL
#define HR_OPS_ARENA NULL

static const struct hr_map_ops *const hr_map_types[HR_MAP_TYPE__MAX] = {
	HR_MAP_TYPES(HR_OPS_ENTRY)
};

#define HR_NAME_ENTRY(num, upper, lower) [num] = "BPF_MAP_TYPE_" #upper,

static const char *const hr_map_type_names[HR_MAP_TYPE__MAX] = { HR_MAP_TYPES(
	HR_NAME_ENTRY) };

const struct hr_map_ops *hr_map_ops_for(uint32_t type)
{
	if (type >= HR_MAP_TYPE__MAX)
		return NULL;
	return hr_map_types[type];
}

const char *hr_map_type_name(uint32_t type)
{
	if (type >= HR_MAP_TYPE__MAX)
		return NULL;
	return hr_map_type_names[type];
}

bool hr_map_is_percpu(const struct hr_map *map)
{
	switch (map->attr.type) {
	case HR_MAP_PERCPU_HASH:
	case HR_MAP_PERCPU_ARRAY:
	case HR_MAP_LRU_PERCPU_HASH:
	case HR_MAP_PERCPU_CGROUP_STORAGE:
		return true;
	default:
		return false;
	}
}

/*
 * The checks map_create() makes before the type's own: conflicting access
 * flags (bpf_get_file_flag), then an unknown type. A type the kernel knows
 * but headroom does not implement is -EOPNOTSUPP, so a loader can say so.
 */
static int hr_map_generic_check(const struct hr_map_attr *attr,
				const struct hr_map_ops **ops)
{
	if ((attr->map_flags & HR_F_RDONLY) && (attr->map_flags & HR_F_WRONLY))
		return -EINVAL;
	if (attr->type == HR_MAP_UNSPEC || attr->type >= HR_MAP_TYPE__MAX)
		return -EINVAL;
	*ops = hr_map_types[attr->type];
	if (!*ops)
		return -EOPNOTSUPP;
	return 0;
}

/*
 * Whether @attr's entries could fit in this machine's memory at all: the
 * least they take (key and value, each rounded to 8 bytes, a pointer's
 * worth of bookkeeping, a copy per CPU for per-CPU types), multiplied in
 * 64 bits, against physical memory. A map past it is -ENOMEM at create,
 * as the kernel's bpf_map_area_alloc() fails, rather than a huge
 * allocation that aborts (sanitizers) or succeeds and faults later.
 */
static bool map_fits_memory(const struct hr_map_attr *attr)
{
	uint64_t per = ((uint64_t)attr->key_size + 7) / 8 * 8 +
		       ((uint64_t)attr->value_size + 7) / 8 * 8 + 8;
	uint64_t copies = 1, need;
	long pages = sysconf(_SC_PHYS_PAGES), psz = sysconf(_SC_PAGESIZE);

	switch (attr->type) {
	case HR_MAP_PERCPU_HASH:
	case HR_MAP_PERCPU_ARRAY:
	case HR_MAP_LRU_PERCPU_HASH:
		copies = attr->ncpus ? attr->ncpus : 1;
		break;
	case HR_MAP_RINGBUF:
	case HR_MAP_USER_RINGBUF:
		per = 1; /* max_entries is the ring's size in bytes */
		break;
	}
	need = (uint64_t)attr->max_entries * per; /* < 2^32 * 2^34 */
	if (pages <= 0 || psz <= 0)
		return true;
	/* need * copies <= memory, without the product. */
	return need <= (uint64_t)pages * (uint64_t)psz / copies;
}

int hr_map_create(const struct hr_map_attr *attr, struct hr_map **out)
{
	const struct hr_map_ops *ops;
	struct hr_map *map;
	int ret;

	*out = NULL;
	ret = hr_map_generic_check(attr, &ops);
	if (ret)
		return ret;
	if (ops->check) {
		ret = ops->check(attr);
		if (ret)
			return ret;
	}
	if (!map_fits_memory(attr))
		return -ENOMEM;
	map = calloc(1, sizeof(*map));
	if (!map)
		return -ENOMEM;
	map->attr = *attr;
	if (!map->attr.ncpus)
		map->attr.ncpus = 1;
	if (attr->name)
		snprintf(map->name, sizeof(map->name), "%s", attr->name);
	/* The caller's string need not outlive the call. */
	map->attr.name = map->name;
	map->ops = ops;
	map->rdonly_prog = attr->map_flags & HR_F_RDONLY_PROG;
	map->index = -1;
	map->timer_off = -1;
	map->wq_off = -1;
	map->list_off = -1;
	if (ops->alloc) {
		ret = ops->alloc(map);
		if (ret) {
			free(map);
			return ret;
		}
	}
	*out = map;
	return 0;
}

void hr_map_free(struct hr_map *map)
{
	if (!map)
		return;
	hr_map_unregister(map);
	/* bpf_map_free_timers (and their wqs): no callback may run on
	 * freed values. */
	hr_map_timers_free(map);
	/* bpf_map_free_record: the objects its kptr fields own. */
	hr_map_kptrs_free(map);
	hr_map_lists_free(map);
	if (map->ops && map->ops->free)
		map->ops->free(map);
	free(map);
}

uint32_t hr_map_region_flags(const struct hr_map *map)
{
	uint32_t flags = HR_REGION_READ | HR_REGION_WRITE;

	if (hr_map_prog_rdonly(map))
		flags &= ~HR_REGION_WRITE;
	if (map->attr.map_flags & HR_F_WRONLY_PROG)
		flags &= ~HR_REGION_READ;
	return flags;
}

void hr_map_value_load(void *dst, const void *map_side, size_t len)
{
	const uint64_t *src = map_side;
	uint8_t *out = dst;
	size_t i;

	for (i = 0; i + 8 <= len; i += 8) {
		uint64_t w = __atomic_load_n(&src[i / 8], __ATOMIC_RELAXED);

		memcpy(out + i, &w, 8);
	}
	for (; i < len; i++)
		out[i] = __atomic_load_n((const uint8_t *)map_side + i,
					 __ATOMIC_RELAXED);
}

void hr_map_value_store(void *map_side, const void *src, size_t len)
{
	const uint8_t *in = src;
	uint64_t *dst = map_side;
	size_t i;

	for (i = 0; i + 8 <= len; i += 8) {
		uint64_t w;

		memcpy(&w, in + i, 8);
		__atomic_store_n(&dst[i / 8], w, __ATOMIC_RELAXED);
	}
	for (; i < len; i++)
		__atomic_store_n((uint8_t *)map_side + i, in[i],
				 __ATOMIC_RELAXED);
}

void hr_map_value_zero(void *map_side, size_t len)
{
	uint64_t *dst = map_side;
	size_t i;

	for (i = 0; i + 8 <= len; i += 8)
		__atomic_store_n(&dst[i / 8], 0, __ATOMIC_RELAXED);
	for (; i < len; i++)
		__atomic_store_n((uint8_t *)map_side + i, 0, __ATOMIC_RELAXED);
}

void *hr_map_area_alloc(size_t bytes)
{
	void *p;

	if (!bytes)
		bytes = 1;
	/* No MAP_NORESERVE: like the kernel's vmalloc, an area larger than
	 * the machine can ever back fails at creation with -ENOMEM. */
	p = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	return p == MAP_FAILED ? NULL : p;
}

void hr_map_area_free(void *area, size_t bytes)
{
	if (area)
		munmap(area, bytes ? bytes : 1);
}

/* A per-map hash seed (BPF_F_ZERO_SEED aside): random, else the clock. */
uint32_t hr_map_hash_seed(void)
{
	struct timespec ts;
	uint32_t seed;

	if (getrandom(&seed, sizeof(seed), GRND_NONBLOCK) == sizeof(seed))
		return seed;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint32_t)(ts.tv_nsec ^ ts.tv_sec ^ (uintptr_t)&ts);
}

static uint64_t hr_rotl64(uint64_t x, int r)
{
	return (x << r) | (x >> (64 - r));
}

/*
 * The last @len (< 8) bytes of a key as one word, by loads of 4, 2 and 1
 * bytes: copying them into a zeroed word on the stack and loading that
 * back stalls on the bytewise stores (no store forwarding into a wider
 * load), which cost more than the rest of a 4-byte key's hash and lookup
 * together.
 */
uint64_t hr_key_tail(const uint8_t *p, uint32_t len)
{
	uint64_t w = 0;
	unsigned int shift = 0;
	uint32_t v4;
	uint16_t v2;

	if (len & 4) {
		memcpy(&v4, p, 4);
		w = v4;
		p += 4;
		shift = 32;
	}
	if (len & 2) {
		memcpy(&v2, p, 2);
		w |= (uint64_t)v2 << shift;
		p += 2;
		shift += 16;
	}
	if (len & 1)
		w |= (uint64_t)*p << shift;
	return w;
}

/* A seeded 64-bit multiply-rotate hash of the key, folded to 32 bits. */
uint32_t hr_map_hash(const void *key, uint32_t len, uint32_t seed)
{
	const uint64_t m1 = 0x9e3779b97f4a7c15ull, m2 = 0xc2b2ae3d27d4eb4full;
	const uint8_t *p = key;
	uint64_t h = seed ^ (len * m1), w;

	for (; len >= 8; len -= 8, p += 8) {
		memcpy(&w, p, 8);
		h = hr_rotl64(h ^ (w * m2), 31) * m1;
	}
	if (len) {
		w = hr_key_tail(p, len);
		h = hr_rotl64(h ^ (w * m2), 31) * m1;
	}
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdull;
	h ^= h >> 33;
	return (uint32_t)(h ^ (h >> 32));
}

unsigned int hr_map_elem_regions(const struct hr_map *map,
				 const struct hr_elem_layout *lay,
				 struct hr_region *out, unsigned int max)
{
	if (!max)
		return 0;
	memset(out, 0, sizeof(*out));
	if (lay->percpu) {
		out->start = (uintptr_t)lay->pcpu;
		out->end = out->start + lay->pcpu_bytes;
		if (lay->pcpu_size != map->attr.value_size) {
			out->stride = lay->pcpu_size;
			out->len = map->attr.value_size;
		}
	} else {
		out->start = (uintptr_t)lay->pool;
		out->end = out->start + lay->pool_bytes;
		out->stride = lay->elem_size;
		out->off = lay->val_off;
		out->len = map->attr.value_size;
	}
	out->flags = hr_map_region_flags(map);
	return 1;
}
