// SPDX-License-Identifier: MIT
/*
 * BPF_MAP_TYPE_LRU_HASH and BPF_MAP_TYPE_LRU_PERCPU_HASH, with the creation
 * rules and the guarantees of the kernel's kernel/bpf/hashtab.c and
 * bpf_lru_list.c, not its victims:
 *
 *  - never more than max_entries keys: an update that needs a new element
 *    when all are in use evicts one instead of failing;
 *  - a key a program looked up since the last eviction sweep passed it
 *    survives that sweep (the kernel's "ref" bit, set by program lookups
 *    only, not by the syscall's).
 *
 * Eviction is a second-chance clock over the preallocated elements: the
 * hand clears ref bits as it passes and takes the first element without
 * one. BPF_F_NO_COMMON_LRU (one LRU list a CPU in the kernel) rounds
 * max_entries to a multiple of the CPU count as the kernel does and then
 * shares the one clock, which keeps both guarantees.
 *
 * Locking: one spinlock a map covers the buckets, the free list and the
 * clock; the ref bit is a relaxed atomic byte. A present key's value is
 * updated in place, so a value pointer a program holds stays on its key
 * until that key is evicted or deleted (as in the kernel, a preallocated
 * element may then be reused at once; the memory stays mapped).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "maps/map.h"
#include "maps/map_impl.h"
#include "maps/map_kptr.h"
#include "maps/map_timer.h"

#define HR_KMALLOC_MAX_SIZE (1u << 22)
#define HR_KERNEL_HTAB_ELEM_SIZE 48
#define HR_KERNEL_BUCKET_SIZE 16
#define HR_PCPU_MIN_UNIT_SIZE 32768
#define HR_ENOTSUPP 524 /* kernel-internal ENOTSUPP */

#define HR_LRU_CREATE_FLAG_MASK                                   \
	(HR_F_NO_PREALLOC | HR_F_NO_COMMON_LRU | HR_F_NUMA_NODE | \
	 HR_F_ACCESS_MASK | HR_F_ZERO_SEED)

struct hr_lru_elem {
	uint32_t next; /* index + 1 in bucket or free list, 0: end */
	uint32_t hash;
	uint8_t ref; /* looked up by a program since the hand passed */
	uint8_t in_use;
	uint8_t pad[6];
	uint8_t key[]; /* key padded to 8, then the LRU_HASH value */
};

struct hr_lru {
	struct hr_spin lock;
	uint32_t *buckets; /* index + 1 of the first element */
	size_t buckets_bytes;
	uint32_t n_buckets;
	uint32_t seed;
	uint8_t *pool;
	size_t pool_bytes;
	uint32_t n; /* elements: max_entries */
	uint32_t elem_size;
	uint32_t val_off;
	bool percpu;
	uint32_t ncopies;
	uint32_t pcpu_size;
	uint8_t *pcpu; /* [cpu][element] */
	size_t pcpu_bytes;
	uint32_t free_head; /* index + 1 */
	uint32_t fresh; /* [fresh, n) never used */
	uint32_t hand;
	uint32_t count; /* keys present */
};

static bool hr_lru_access_ok(uint32_t flags)
{
	return (flags & (HR_F_RDONLY_PROG | HR_F_WRONLY_PROG)) !=
	       (HR_F_RDONLY_PROG | HR_F_WRONLY_PROG);
}

static uint64_t hr_roundup_pow2(uint64_t n)
{
	uint64_t p = 1;

	while (p < n)
		p <<= 1;
	return p;
}

/* max_entries after BPF_F_NO_COMMON_LRU's rounding (htab_map_alloc()). */
static uint64_t hr_lru_entries(const struct hr_map_attr *attr)
{
	uint64_t n = attr->max_entries, c = attr->ncpus ? attr->ncpus : 1;

	if (!(attr->map_flags & HR_F_NO_COMMON_LRU))
		return n;
	n = (n + c - 1) / c * c;
	if (n > UINT32_MAX)
		n = attr->max_entries / c * c;
	return n;
}

/* htab_map_alloc_check() and the size checks of htab_map_alloc(). */
static int hr_lru_check(const struct hr_map_attr *attr)
{
	bool percpu = attr->type == HR_MAP_LRU_PERCPU_HASH;
	uint32_t flags = attr->map_flags;
	uint64_t n;

	if ((flags & ~HR_LRU_CREATE_FLAG_MASK) || !hr_lru_access_ok(flags))
		return -EINVAL;
	if (flags & HR_F_NO_PREALLOC)
		return -HR_ENOTSUPP;
	if ((flags & HR_F_NUMA_NODE) &&
	    (percpu || (flags & HR_F_NO_COMMON_LRU)))
		return -EINVAL;
	if (attr->max_entries == 0 || attr->key_size == 0 ||
	    attr->value_size == 0)
		return -EINVAL;
	if ((uint64_t)attr->key_size + attr->value_size >=
	    HR_KMALLOC_MAX_SIZE - HR_KERNEL_HTAB_ELEM_SIZE)
		return -E2BIG;
	if (percpu && HR_ROUND8(attr->value_size) > HR_PCPU_MIN_UNIT_SIZE)
		return -E2BIG;
	n = hr_lru_entries(attr);
	if (n > 1u << 31)
		return -E2BIG;
	if (hr_roundup_pow2(n) > UINT32_MAX / HR_KERNEL_BUCKET_SIZE)
		return -E2BIG;
	return 0;
}

static void hr_lru_release(struct hr_lru *l)
{
	hr_map_area_free(l->buckets, l->buckets_bytes);
	hr_map_area_free(l->pool, l->pool_bytes);
	hr_map_area_free(l->pcpu, l->pcpu_bytes);
	free(l);
}

static int hr_lru_alloc(struct hr_map *map)
{
	struct hr_map_attr *attr = &map->attr;
	struct hr_lru *l = calloc(1, sizeof(*l));

	if (!l)
		return -ENOMEM;
	/* As the kernel, the map reports the rounded size. */
	attr->max_entries = (uint32_t)hr_lru_entries(attr);
	l->percpu = attr->type == HR_MAP_LRU_PERCPU_HASH;
	l->ncopies = l->percpu ? attr->ncpus : 1;
	l->seed = (attr->map_flags & HR_F_ZERO_SEED) ? 0 : hr_map_hash_seed();
	l->n = attr->max_entries;
	l->n_buckets = (uint32_t)hr_roundup_pow2(l->n);
	l->val_off = sizeof(struct hr_lru_elem) + HR_ROUND8(attr->key_size);
	l->elem_size = l->val_off;
	if (!l->percpu)
		l->elem_size += HR_ROUND8(attr->value_size);
	l->pcpu_size = HR_ROUND8(attr->value_size);
	l->buckets_bytes = (size_t)l->n_buckets * sizeof(*l->buckets);
	l->pool_bytes = (size_t)l->n * l->elem_size;
	l->buckets = hr_map_area_alloc(l->buckets_bytes);
	l->pool = hr_map_area_alloc(l->pool_bytes);
	if (l->percpu) {
		l->pcpu_bytes = (size_t)l->n * l->pcpu_size * l->ncopies;
		l->pcpu = hr_map_area_alloc(l->pcpu_bytes);
	}
	if (!l->buckets || !l->pool || (l->percpu && !l->pcpu)) {
		hr_lru_release(l);
		return -ENOMEM;
	}
	map->priv = l;
	return 0;
}

static void hr_lru_free(struct hr_map *map)
{
	if (map->priv)
		hr_lru_release(map->priv);
	map->priv = NULL;
}

static struct hr_lru_elem *hr_lru_elem(const struct hr_lru *l, uint32_t idx1)
{
	return (struct hr_lru_elem *)(l->pool +
				      (size_t)(idx1 - 1) * l->elem_size);
}

static uint8_t *hr_lru_value(const struct hr_lru *l, uint32_t idx1,
			     unsigned int cpu)
{
	if (l->percpu)
		return l->pcpu +
		       ((size_t)cpu * l->n + (idx1 - 1)) * (size_t)l->pcpu_size;
	return (uint8_t *)hr_lru_elem(l, idx1) + l->val_off;
}

static uint32_t *hr_lru_bucket(const struct hr_lru *l, uint32_t hash)
{
	return &l->buckets[hash & (l->n_buckets - 1)];
}

/* With the lock: the link pointing at @key's element, or NULL. */
static uint32_t *hr_lru_find(const struct hr_map *map, const void *key,
			     uint32_t hash)
{
	const struct hr_lru *l = map->priv;
	uint32_t *link = hr_lru_bucket(l, hash), idx1;

	while ((idx1 = *link) != 0) {
		struct hr_lru_elem *e = hr_lru_elem(l, idx1);

		if (e->hash == hash &&
		    hr_key_eq(e->key, key, map->attr.key_size))
			return link;
		link = &e->next;
	}
	return NULL;
}

/* With the lock: unlinks element @idx1 from its bucket. */
static void hr_lru_unlink(struct hr_lru *l, uint32_t idx1)
{
	struct hr_lru_elem *e = hr_lru_elem(l, idx1);
	uint32_t *link = hr_lru_bucket(l, e->hash);

	while (*link && *link != idx1)
		link = &hr_lru_elem(l, *link)->next;
	if (*link)
		*link = e->next;
	e->in_use = 0;
	l->count--;
}

/* With the lock: the clock's victim, unlinked (the map is full). */
static uint32_t hr_lru_evict(struct hr_lru *l)
{
	uint64_t steps;

	for (steps = 0; steps <= 2ull * l->n; steps++) {
		uint32_t idx1 = l->hand + 1;
		struct hr_lru_elem *e = hr_lru_elem(l, idx1);

		l->hand = l->hand + 1 == l->n ? 0 : l->hand + 1;
		if (!e->in_use)
			continue;
		if (__atomic_load_n(&e->ref, __ATOMIC_RELAXED)) {
			__atomic_store_n(&e->ref, 0, __ATOMIC_RELAXED);
			continue;
		}
		hr_lru_unlink(l, idx1);
		return idx1;
	}
	return 0;
}

/* With the lock: an element for a new key, evicting when none is free. */
static uint32_t hr_lru_get_elem(struct hr_lru *l)
{
	uint32_t idx1;

	if (l->fresh < l->n)
		return ++l->fresh;
	if (l->free_head) {
		idx1 = l->free_head;
		l->free_head = hr_lru_elem(l, idx1)->next;
		return idx1;
	}
	return hr_lru_evict(l);
}

static void hr_lru_store(struct hr_map *map, uint32_t idx1, const void *value,
			 unsigned int cpu, bool all_cpus, bool fresh)
{
	const struct hr_lru *l = map->priv;
	const uint8_t *src = value;
	unsigned int c;

	if (!l->percpu) {
		hr_map_value_store_list(map, hr_lru_value(l, idx1, 0), value);
		/* htab_lru_push_free of the element replaced (the kernel
		 * replaces it; here it is written in place) or evicted: its
		 * timer goes. */
		hr_map_timer_stored(map, hr_lru_value(l, idx1, 0));
		return;
	}
	for (c = 0; c < l->ncopies; c++) {
		uint8_t *dst = hr_lru_value(l, idx1, c);

		if (all_cpus)
			hr_map_value_store(dst, src + (size_t)c * l->pcpu_size,
					   l->pcpu_size);
		else if (c == cpu)
			hr_map_value_store(dst, value, map->attr.value_size);
		else if (fresh)
			hr_map_value_zero(dst, l->pcpu_size);
	}
}

static int hr_lru_do_update(struct hr_map *map, const void *key,
			    const void *value, uint64_t flags, unsigned int cpu,
			    bool all_cpus)
{
	struct hr_lru *l = map->priv;
	struct hr_lru_elem *e;
	uint32_t hash, *link, idx1, *head;
	int ret = 0;

	if (flags > HR_EXIST)
		return -EINVAL;
	if (l->percpu && !all_cpus && cpu >= l->ncopies)
		return -EINVAL;
	hash = hr_map_hash(key, map->attr.key_size, l->seed);
	hr_spin_lock(&l->lock);
	link = hr_lru_find(map, key, hash);
	if (link && flags == HR_NOEXIST) {
		ret = -EEXIST;
	} else if (!link && flags == HR_EXIST) {
		ret = -ENOENT;
	} else if (link) {
		idx1 = *link;
		hr_lru_store(map, idx1, value, cpu, all_cpus, false);
		__atomic_store_n(&hr_lru_elem(l, idx1)->ref, 1,
				 __ATOMIC_RELAXED);
	} else {
		idx1 = hr_lru_get_elem(l);
		if (!idx1) {
			ret = -ENOMEM;
			goto out;
		}
		e = hr_lru_elem(l, idx1);
		e->hash = hash;
		e->in_use = 1;
		l->count++;
		__atomic_store_n(&e->ref, 0, __ATOMIC_RELAXED);
		memcpy(e->key, key, map->attr.key_size);
		hr_lru_store(map, idx1, value, cpu, all_cpus, true);
		head = hr_lru_bucket(l, hash);
		e->next = *head;
		*head = idx1;
	}
out:
	hr_spin_unlock(&l->lock);
	return ret;
}

static int hr_lru_update(struct hr_map *map, const void *key, const void *value,
			 uint64_t flags, unsigned int cpu)
{
	return hr_lru_do_update(map, key, value, flags, cpu, false);
}

static int hr_lru_update_user(struct hr_map *map, const void *key,
			      const void *value, uint64_t flags)
{
	return hr_lru_do_update(map, key, value, flags, 0,
				((struct hr_lru *)map->priv)->percpu);
}

/* A program's lookup marks the key as recently used. */
static void *hr_lru_lookup(struct hr_map *map, const void *key,
			   unsigned int cpu)
{
	struct hr_lru *l = map->priv;
	uint32_t hash, *link;
	void *value = NULL;

	if (cpu >= l->ncopies) {
		if (l->percpu)
			return NULL;
		cpu = 0;
	}
	hash = hr_map_hash(key, map->attr.key_size, l->seed);
	hr_spin_lock(&l->lock);
	link = hr_lru_find(map, key, hash);
	if (link) {
		struct hr_lru_elem *e = hr_lru_elem(l, *link);

		if (!__atomic_load_n(&e->ref, __ATOMIC_RELAXED))
			__atomic_store_n(&e->ref, 1, __ATOMIC_RELAXED);
		value = hr_lru_value(l, *link, cpu);
	}
	hr_spin_unlock(&l->lock);
	return value;
}

/* The syscall's lookup does not mark (htab_lru_map_lookup_elem_sys). */
static int hr_lru_copy_value(struct hr_map *map, const void *key, void *value)
{
	struct hr_lru *l = map->priv;
	uint32_t hash, *link;
	uint8_t *dst = value;
	unsigned int c;

	hash = hr_map_hash(key, map->attr.key_size, l->seed);
	hr_spin_lock(&l->lock);
	link = hr_lru_find(map, key, hash);
	if (!link) {
		hr_spin_unlock(&l->lock);
		return -ENOENT;
	}
	if (!l->percpu)
		hr_map_value_load(dst, hr_lru_value(l, *link, 0),
				  map->attr.value_size);
	for (c = 0; l->percpu && c < l->ncopies; c++)
		hr_map_value_load(dst + (size_t)c * l->pcpu_size,
				  hr_lru_value(l, *link, c), l->pcpu_size);
	hr_spin_unlock(&l->lock);
	return 0;
}

static int hr_lru_delete(struct hr_map *map, const void *key)
{
	struct hr_lru *l = map->priv;
	uint32_t hash, *link, idx1;

	hash = hr_map_hash(key, map->attr.key_size, l->seed);
	hr_spin_lock(&l->lock);
	link = hr_lru_find(map, key, hash);
	if (!link) {
		hr_spin_unlock(&l->lock);
		return -ENOENT;
	}
	idx1 = *link;
	*link = hr_lru_elem(l, idx1)->next;
	if (!l->percpu)
		hr_map_timer_free_value(map, hr_lru_value(l, idx1, 0));
	hr_lru_elem(l, idx1)->in_use = 0;
	l->count--;
	hr_lru_elem(l, idx1)->next = l->free_head;
	l->free_head = idx1;
	hr_spin_unlock(&l->lock);
	return 0;
}

/* With the lock: the first key of buckets [from, n_buckets). */
static int hr_lru_first_from(struct hr_map *map, uint32_t from, void *next)
{
	struct hr_lru *l = map->priv;
	uint32_t i;

	for (i = from; i < l->n_buckets; i++) {
		if (l->buckets[i]) {
			memcpy(next, hr_lru_elem(l, l->buckets[i])->key,
			       map->attr.key_size);
			return 0;
		}
	}
	return -ENOENT;
}

/* htab_map_get_next_key()'s walk: the rest of the bucket, then on. */
static int hr_lru_get_next_key(struct hr_map *map, const void *key, void *next)
{
	struct hr_lru *l = map->priv;
	uint32_t hash, *link, after;
	int ret;

	hr_spin_lock(&l->lock);
	if (!key) {
		ret = hr_lru_first_from(map, 0, next);
		goto out;
	}
	hash = hr_map_hash(key, map->attr.key_size, l->seed);
	link = hr_lru_find(map, key, hash);
	if (!link) {
		ret = hr_lru_first_from(map, 0, next);
		goto out;
	}
	after = hr_lru_elem(l, *link)->next;
	if (after) {
		memcpy(next, hr_lru_elem(l, after)->key, map->attr.key_size);
		ret = 0;
		goto out;
	}
	ret = hr_lru_first_from(map, (hash & (l->n_buckets - 1)) + 1, next);
out:
	hr_spin_unlock(&l->lock);
	return ret;
}

static unsigned int hr_lru_regions(struct hr_map *map, struct hr_region *out,
				   unsigned int max)
{
	const struct hr_lru *l = map->priv;
	const struct hr_elem_layout lay = {
		.pool = l->pool,
		.pool_bytes = l->pool_bytes,
		.elem_size = l->elem_size,
		.val_off = l->val_off,
		.pcpu = l->pcpu,
		.pcpu_bytes = l->pcpu_bytes,
		.pcpu_size = l->pcpu_size,
		.percpu = l->percpu,
	};

	return hr_map_elem_regions(map, &lay, out, max);
}

static int64_t hr_lru_elem_count(struct hr_map *map)
{
	struct hr_lru *l = map->priv;

	return hr_spin_read(&l->lock, &l->count);
}

const struct hr_map_ops hr_map_ops_lru_hash = {
	.check = hr_lru_check,
	.alloc = hr_lru_alloc,
	.free = hr_lru_free,
	.lookup = hr_lru_lookup,
	.update = hr_lru_update,
	.delete = hr_lru_delete,
	.get_next_key = hr_lru_get_next_key,
	.copy_value = hr_lru_copy_value,
	.update_user = hr_lru_update_user,
	.regions = hr_lru_regions,
	.elem_count = hr_lru_elem_count,
};

/* The same operations: l->percpu tells the two types apart. */
extern const struct hr_map_ops hr_map_ops_lru_percpu_hash
	__attribute__((alias("hr_map_ops_lru_hash")));
