// SPDX-License-Identifier: MIT
/*
 * BPF_MAP_TYPE_HASH and BPF_MAP_TYPE_PERCPU_HASH, with the rules of the
 * kernel's kernel/bpf/hashtab.c.
 *
 * Layout. Elements live in one preallocated pool (also with
 * BPF_F_NO_PREALLOC), so that one strided hr_region describes every value
 * a program can be handed and value pointers always point into the pool.
 * An element is a small header, the key padded to 8 bytes and, for HASH,
 * the value padded to 8 bytes. PERCPU_HASH keeps its values out of line:
 * one block per CPU, each with one slot per pool element.
 *
 * Locking. Each bucket has a spinlock taken by every update, delete and
 * walk of that bucket, and by user space's lookups (which copy the value
 * out). A program's lookup takes no lock, as the kernel's RCU readers
 * take none (see hr_htab_find_lockless()): two workers looking up the
 * same keys then share cache lines instead of bouncing a lock between
 * them. The pool has one lock for its free list and the element count;
 * it is only ever taken inside a bucket lock or with none, never the
 * other way round.
 *
 * Reuse. The kernel replaces the element on every HASH update and frees
 * deleted ones; a program that looked a value up may still hold the
 * pointer, and nothing tells a map when a run ends. So reuse is delayed by
 * distance instead of time: freed elements enter a FIFO, and elements are
 * taken first from the never-used part of the pool, then from the FIFO's
 * head. The pool holds max_entries elements plus a reserve of as many
 * again (at least 256, at most 65536), and at most max_entries keys are
 * live, so when an element is freed at least `reserve` others are free
 * before it: it is handed out again only after that many further
 * allocations (inserts or replacements) of this map. That bounds memory,
 * keeps a full map exactly the kernel's (a new key beyond max_entries is
 * -E2BIG, replacing a present key always succeeds) and keeps a held
 * pointer on its old element far longer than any run lasts in practice.
 * Memory is never unmapped before hr_map_free(), so a stale pointer can
 * never fault, whatever happens.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "maps/map.h"
#include "maps/map_impl.h"
#include "maps/map_timer.h"

/* Limits from the kernel: KMALLOC_MAX_SIZE on x86-64 (4 MiB),
 * sizeof(struct htab_elem), sizeof(struct bucket), PCPU_MIN_UNIT_SIZE. */
#define HR_KMALLOC_MAX_SIZE (1u << 22)
#define HR_KERNEL_HTAB_ELEM_SIZE 48
#define HR_KERNEL_BUCKET_SIZE 16
#define HR_PCPU_MIN_UNIT_SIZE 32768

#define HR_HTAB_CREATE_FLAG_MASK                                  \
	(HR_F_NO_PREALLOC | HR_F_NO_COMMON_LRU | HR_F_NUMA_NODE | \
	 HR_F_ACCESS_MASK | HR_F_ZERO_SEED)

#define HR_HTAB_RESERVE_MIN 256u
#define HR_HTAB_RESERVE_MAX 65536u

/*
 * An element. Its fields change while lockless readers may read them, so
 * every access to next, hash and key is atomic (relaxed, the links
 * published with release). The key is stored as whole words, zero-padded.
 */
struct hr_htab_elem {
	uint32_t next; /* index + 1 of the next in bucket, 0: end */
	uint32_t hash;
	/* The FIFO's link, apart from next: a reader standing on an element
	 * that left its bucket still walks on along the bucket. */
	uint32_t fifo;
	uint32_t unused;
	uint64_t key[]; /* key, padded to 8; then the HASH value */
};

struct hr_htab_bucket {
	struct hr_spin lock;
	uint32_t head; /* index + 1 of the first element, 0: empty */
	/* Odd while a writer relinks the bucket, bumped twice a change: a
	 * lockless walk that found nothing checks it did not race one. */
	uint32_t seq;
};

struct hr_htab {
	struct hr_htab_bucket *buckets;
	size_t buckets_bytes;
	uint32_t n_buckets; /* a power of two */
	uint32_t seed;
	uint8_t *pool;
	size_t pool_bytes;
	uint32_t pool_n;
	uint32_t elem_size;
	uint32_t val_off; /* value offset in an element (HASH only) */
	uint8_t *pcpu; /* PERCPU_HASH values: [cpu][element] */
	size_t pcpu_bytes;
	uint32_t pcpu_size; /* round_up(value_size, 8) */
	uint32_t ncopies;
	bool percpu;
	/* Under pool_lock: */
	struct hr_spin pool_lock;
	uint32_t fresh; /* elements [fresh, pool_n) were never used */
	uint32_t fifo_head, fifo_tail; /* freed elements, index + 1 */
	uint32_t count; /* live keys */
};

static bool hr_map_flags_access_ok(uint32_t flags)
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

/* htab_map_alloc_check() and the size checks of htab_map_alloc(). */
static int hr_htab_check(const struct hr_map_attr *attr)
{
	bool percpu = attr->type == HR_MAP_PERCPU_HASH;
	uint32_t flags = attr->map_flags;

	if ((flags & ~HR_HTAB_CREATE_FLAG_MASK) ||
	    !hr_map_flags_access_ok(flags))
		return -EINVAL;
	/* Per-CPU LRU lists without an LRU. */
	if (flags & HR_F_NO_COMMON_LRU)
		return -EINVAL;
	if ((flags & HR_F_NUMA_NODE) && percpu)
		return -EINVAL;
	if (attr->max_entries == 0 || attr->key_size == 0 ||
	    attr->value_size == 0)
		return -EINVAL;
	if ((uint64_t)attr->key_size + attr->value_size >=
	    HR_KMALLOC_MAX_SIZE - HR_KERNEL_HTAB_ELEM_SIZE)
		return -E2BIG;
	if (percpu && HR_ROUND8(attr->value_size) > HR_PCPU_MIN_UNIT_SIZE)
		return -E2BIG;
	if (attr->max_entries > 1u << 31)
		return -E2BIG;
	if (hr_roundup_pow2(attr->max_entries) >
	    UINT32_MAX / HR_KERNEL_BUCKET_SIZE)
		return -E2BIG;
	return 0;
}

static void hr_htab_release(struct hr_htab *h)
{
	hr_map_area_free(h->buckets, h->buckets_bytes);
	hr_map_area_free(h->pool, h->pool_bytes);
	hr_map_area_free(h->pcpu, h->pcpu_bytes);
	free(h);
}

static int hr_htab_alloc(struct hr_map *map)
{
	const struct hr_map_attr *attr = &map->attr;
	uint32_t reserve = attr->max_entries;
	struct hr_htab *h;

	h = calloc(1, sizeof(*h));
	if (!h)
		return -ENOMEM;
	h->percpu = attr->type == HR_MAP_PERCPU_HASH;
	h->ncopies = h->percpu ? attr->ncpus : 1;
	h->seed = (attr->map_flags & HR_F_ZERO_SEED) ? 0 : hr_map_hash_seed();
	h->n_buckets = hr_roundup_pow2(attr->max_entries);
	h->val_off = sizeof(struct hr_htab_elem) + HR_ROUND8(attr->key_size);
	h->elem_size = h->val_off;
	if (!h->percpu)
		h->elem_size += HR_ROUND8(attr->value_size);
	if (reserve < HR_HTAB_RESERVE_MIN)
		reserve = HR_HTAB_RESERVE_MIN;
	if (reserve > HR_HTAB_RESERVE_MAX)
		reserve = HR_HTAB_RESERVE_MAX;
	/* max_entries <= 2^27 here (hr_htab_check): no u32 overflow. */
	h->pool_n = attr->max_entries + reserve;
	h->pcpu_size = HR_ROUND8(attr->value_size);
	h->buckets_bytes = (size_t)h->n_buckets * sizeof(*h->buckets);
	h->pool_bytes = (size_t)h->pool_n * h->elem_size;
	h->buckets = hr_map_area_alloc(h->buckets_bytes);
	h->pool = hr_map_area_alloc(h->pool_bytes);
	if (h->percpu) {
		h->pcpu_bytes = (size_t)h->pool_n * h->pcpu_size * h->ncopies;
		h->pcpu = hr_map_area_alloc(h->pcpu_bytes);
	}
	if (!h->buckets || !h->pool || (h->percpu && !h->pcpu)) {
		hr_htab_release(h);
		return -ENOMEM;
	}
	map->priv = h;
	return 0;
}

static void hr_htab_free(struct hr_map *map)
{
	if (map->priv)
		hr_htab_release(map->priv);
	map->priv = NULL;
}

static struct hr_htab_elem *hr_htab_elem(const struct hr_htab *h, uint32_t idx1)
{
	return (struct hr_htab_elem *)(h->pool +
				       (size_t)(idx1 - 1) * h->elem_size);
}

static struct hr_htab_bucket *hr_htab_bucket(const struct hr_htab *h,
					     uint32_t hash)
{
	return &h->buckets[hash & (h->n_buckets - 1)];
}

static uint8_t *hr_htab_pcpu_value(const struct hr_htab *h, uint32_t idx1,
				   unsigned int cpu)
{
	return h->pcpu +
	       ((size_t)cpu * h->pool_n + (idx1 - 1)) * (size_t)h->pcpu_size;
}

/* This CPU's value of element @idx1 (the only one for HASH). */
static uint8_t *hr_htab_value(const struct hr_htab *h, uint32_t idx1,
			      unsigned int cpu)
{
	if (h->percpu)
		return hr_htab_pcpu_value(h, idx1, cpu);
	return (uint8_t *)hr_htab_elem(h, idx1) + h->val_off;
}

static uint32_t hr_load_idx(const uint32_t *p)
{
	return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}

/* Links are published with release: who follows one sees the element's
 * hash, key and value as they were filled. */
static void hr_store_idx(uint32_t *p, uint32_t v)
{
	__atomic_store_n(p, v, __ATOMIC_RELEASE);
}

static uint32_t hr_elem_hash(const struct hr_htab_elem *e)
{
	return __atomic_load_n(&e->hash, __ATOMIC_RELAXED);
}

static void hr_elem_set(struct hr_htab_elem *e, uint32_t hash,
			const uint8_t *key, uint32_t len)
{
	uint32_t i;
	uint64_t w;

	__atomic_store_n(&e->hash, hash, __ATOMIC_RELAXED);
	for (i = 0; i + 8 <= len; i += 8) {
		memcpy(&w, key + i, 8);
		__atomic_store_n(&e->key[i / 8], w, __ATOMIC_RELAXED);
	}
	if (i < len)
		__atomic_store_n(&e->key[i / 8], hr_key_tail(key + i, len - i),
				 __ATOMIC_RELAXED);
}

static bool hr_elem_key_eq(const struct hr_htab_elem *e, const uint8_t *key,
			   uint32_t len)
{
	uint32_t i;
	uint64_t w;

	for (i = 0; i + 8 <= len; i += 8) {
		memcpy(&w, key + i, 8);
		if (__atomic_load_n(&e->key[i / 8], __ATOMIC_RELAXED) != w)
			return false;
	}
	return i == len || __atomic_load_n(&e->key[i / 8], __ATOMIC_RELAXED) ==
				   hr_key_tail(key + i, len - i);
}

/* Copies an element's key out (whole words: the padding is zero). */
static void hr_elem_key_copy(void *dst, const struct hr_htab_elem *e,
			     uint32_t len)
{
	hr_map_value_load(dst, e->key, len);
}

/*
 * With @b locked: the link that points at @key's element (so the caller
 * can unlink it), or NULL when the key is absent.
 */
static uint32_t *hr_htab_find_link(const struct hr_map *map,
				   struct hr_htab_bucket *b, const void *key,
				   uint32_t hash)
{
	const struct hr_htab *h = map->priv;
	uint32_t *link = &b->head;
	uint32_t idx1;

	while ((idx1 = hr_load_idx(link)) != 0) {
		struct hr_htab_elem *e = hr_htab_elem(h, idx1);

		if (hr_elem_hash(e) == hash &&
		    hr_elem_key_eq(e, key, map->attr.key_size))
			return link;
		link = &e->next;
	}
	return NULL;
}

/*
 * Takes an element for a new key (@new_key: counted against max_entries)
 * or for the replacement of a present one. Returns its index + 1 or
 * -errno.
 */
static int64_t hr_htab_get_elem(struct hr_map *map, bool new_key)
{
	struct hr_htab *h = map->priv;
	int64_t ret;

	hr_spin_lock(&h->pool_lock);
	if (new_key && h->count >= map->attr.max_entries) {
		ret = -E2BIG;
	} else if (h->fresh < h->pool_n) {
		ret = ++h->fresh;
	} else if (h->fifo_head) {
		ret = h->fifo_head;
		h->fifo_head = hr_htab_elem(h, (uint32_t)ret)->fifo;
		if (!h->fifo_head)
			h->fifo_tail = 0;
	} else {
		/* Only when more updates run at once than the reserve. */
		ret = -ENOMEM;
	}
	if (ret > 0 && new_key)
		h->count++;
	hr_spin_unlock(&h->pool_lock);
	return ret;
}

/* Returns an unlinked element to the FIFO; @was_key: it held a key. */
static void hr_htab_put_elem(struct hr_map *map, uint32_t idx1, bool was_key)
{
	struct hr_htab *h = map->priv;

	hr_spin_lock(&h->pool_lock);
	hr_htab_elem(h, idx1)->fifo = 0;
	if (h->fifo_tail)
		hr_htab_elem(h, h->fifo_tail)->fifo = idx1;
	else
		h->fifo_head = idx1;
	h->fifo_tail = idx1;
	if (was_key)
		h->count--;
	hr_spin_unlock(&h->pool_lock);
}

/* Fills the values of a new element: all CPUs' from user space, or the
 * program's CPU with the others zeroed (pcpu_init_value()). */
static void hr_htab_init_values(struct hr_map *map, uint32_t idx1,
				const void *value, unsigned int cpu,
				bool all_cpus)
{
	const struct hr_htab *h = map->priv;
	const uint8_t *src = value;
	unsigned int c;

	if (!h->percpu) {
		hr_map_value_store(hr_htab_value(h, idx1, 0), value,
				   map->attr.value_size);
		return;
	}
	for (c = 0; c < h->ncopies; c++) {
		uint8_t *dst = hr_htab_pcpu_value(h, idx1, c);

		if (all_cpus) {
			hr_map_value_store(dst, src + (size_t)c * h->pcpu_size,
					   h->pcpu_size);
			continue;
		}
		hr_map_value_zero(dst, h->pcpu_size);
		if (c == cpu)
			hr_map_value_store(dst, value, map->attr.value_size);
	}
}

/* A PERCPU_HASH update of a present key writes its values in place. */
static void hr_htab_pcpu_overwrite(struct hr_map *map, uint32_t idx1,
				   const void *value, unsigned int cpu,
				   bool all_cpus)
{
	const struct hr_htab *h = map->priv;
	const uint8_t *src = value;
	unsigned int c;

	if (!all_cpus) {
		hr_map_value_store(hr_htab_pcpu_value(h, idx1, cpu), value,
				   map->attr.value_size);
		return;
	}
	for (c = 0; c < h->ncopies; c++)
		hr_map_value_store(hr_htab_pcpu_value(h, idx1, c),
				   src + (size_t)c * h->pcpu_size,
				   h->pcpu_size);
}

/* check_flags() of hashtab.c. */
static int hr_htab_check_flags(bool present, uint64_t flags)
{
	uint64_t f = flags & ~(uint64_t)HR_F_LOCK;

	if (present && f == HR_NOEXIST)
		return -EEXIST;
	if (!present && f == HR_EXIST)
		return -ENOENT;
	return 0;
}

static int hr_htab_do_update(struct hr_map *map, const void *key,
			     const void *value, uint64_t flags,
			     unsigned int cpu, bool all_cpus)
{
	struct hr_htab *h = map->priv;
	struct hr_htab_bucket *b;
	uint32_t hash, *link, old = 0, idx1;
	int64_t got;
	int ret;

	if ((flags & ~(uint64_t)HR_F_LOCK) > HR_EXIST)
		return -EINVAL;
	/* BPF_F_LOCK needs a bpf_spin_lock in the value: never here. */
	if (flags & HR_F_LOCK)
		return -EINVAL;
	if (h->percpu && !all_cpus && cpu >= h->ncopies)
		return -EINVAL;
	hash = hr_map_hash(key, map->attr.key_size, h->seed);
	b = hr_htab_bucket(h, hash);
	hr_spin_lock(&b->lock);
	link = hr_htab_find_link(map, b, key, hash);
	ret = hr_htab_check_flags(link != NULL, flags);
	if (ret)
		goto out;
	if (link) {
		old = hr_load_idx(link);
		if (h->percpu) {
			hr_htab_pcpu_overwrite(map, old, value, cpu, all_cpus);
			goto out;
		}
	}
	got = hr_htab_get_elem(map, !link);
	if (got < 0) {
		ret = (int)got;
		goto out;
	}
	idx1 = (uint32_t)got;
	hr_elem_set(hr_htab_elem(h, idx1), hash, key, map->attr.key_size);
	hr_htab_init_values(map, idx1, value, cpu, all_cpus);
	if (!h->percpu)
		hr_map_timer_stored(map, hr_htab_value(h, idx1, 0));
	/* As the kernel: the new element goes in first, then the old one
	 * leaves, so that a lockless walk meets the key in one or the other. */
	hr_seq_write_begin(&b->seq);
	hr_store_idx(&hr_htab_elem(h, idx1)->next, hr_load_idx(&b->head));
	hr_store_idx(&b->head, idx1);
	if (link == &b->head)
		link = &hr_htab_elem(h, idx1)->next;
	if (link)
		hr_store_idx(link, hr_load_idx(&hr_htab_elem(h, old)->next));
	hr_seq_write_end(&b->seq);
out:
	hr_spin_unlock(&b->lock);
	if (!ret && old && !h->percpu) {
		/* free_htab_elem's bpf_obj_free_fields: the replaced
		 * element's timer is cancelled and freed. */
		hr_map_timer_free_value(map, hr_htab_value(h, old, 0));
		hr_htab_put_elem(map, old, false);
	}
	return ret;
}

static int hr_htab_update(struct hr_map *map, const void *key,
			  const void *value, uint64_t flags, unsigned int cpu)
{
	return hr_htab_do_update(map, key, value, flags, cpu, false);
}

static int hr_htab_update_user(struct hr_map *map, const void *key,
			       const void *value, uint64_t flags)
{
	return hr_htab_do_update(map, key, value, flags, 0,
				 ((struct hr_htab *)map->priv)->percpu);
}

/*
 * @key's element in @b without the lock: its index + 1, 0 when absent, or
 * -1 when the walk cannot tell. Sound because the pool's memory is never
 * given back before the map is freed, links are published after the
 * element is filled, and an element that leaves a bucket keeps its next
 * link (the FIFO has its own), so a walk standing on it goes on along the
 * bucket, as an RCU walk of the kernel's does. An element found was the
 * key's while the walk read it. "Absent" needs more: a walk that raced a
 * change of the bucket can miss a key present throughout (standing past
 * the head while a replacement goes in there and the old element leaves
 * behind it), so it counts only when the bucket's seqcount did not move.
 * An element reused for a key of another bucket while the walk stands on
 * it could take the walk elsewhere: its hash then names that bucket
 * (hashtab.c's nulls markers catch the same), or the steps outnumber the
 * pool.
 */
static int64_t hr_htab_find_lockless(const struct hr_map *map,
				     const struct hr_htab_bucket *b,
				     const void *key, uint32_t hash)
{
	const struct hr_htab *h = map->priv;
	uint32_t mask = h->n_buckets - 1, idx1, steps = 0, seq;

	seq = hr_seq_read_begin(&b->seq);
	if (seq & 1)
		return -1;
	for (idx1 = hr_load_idx(&b->head); idx1;
	     idx1 = hr_load_idx(&hr_htab_elem(h, idx1)->next)) {
		const struct hr_htab_elem *e = hr_htab_elem(h, idx1);
		uint32_t eh = hr_elem_hash(e);

		if (eh == hash && hr_elem_key_eq(e, key, map->attr.key_size))
			return idx1;
		if ((eh & mask) != (hash & mask) || ++steps > h->pool_n)
			return -1;
	}
	return hr_seq_read_retry(&b->seq, seq) ? -1 : 0;
}

static void *hr_htab_lookup(struct hr_map *map, const void *key,
			    unsigned int cpu)
{
	struct hr_htab *h = map->priv;
	struct hr_htab_bucket *b;
	uint32_t hash, *link;
	int64_t idx1;

	if (cpu >= h->ncopies) {
		if (h->percpu)
			return NULL;
		cpu = 0;
	}
	hash = hr_map_hash(key, map->attr.key_size, h->seed);
	b = hr_htab_bucket(h, hash);
	idx1 = hr_htab_find_lockless(map, b, key, hash);
	if (idx1 < 0) {
		/* Raced a writer: the locked walk decides. */
		hr_spin_lock(&b->lock);
		link = hr_htab_find_link(map, b, key, hash);
		idx1 = link ? hr_load_idx(link) : 0;
		hr_spin_unlock(&b->lock);
	}
	return idx1 ? hr_htab_value(h, (uint32_t)idx1, cpu) : NULL;
}

static int hr_htab_copy_value(struct hr_map *map, const void *key, void *value)
{
	struct hr_htab *h = map->priv;
	struct hr_htab_bucket *b;
	uint32_t hash, *link, idx1;
	uint8_t *dst = value;
	unsigned int c;

	hash = hr_map_hash(key, map->attr.key_size, h->seed);
	b = hr_htab_bucket(h, hash);
	hr_spin_lock(&b->lock);
	link = hr_htab_find_link(map, b, key, hash);
	if (!link) {
		hr_spin_unlock(&b->lock);
		return -ENOENT;
	}
	idx1 = hr_load_idx(link);
	if (!h->percpu)
		hr_map_value_load(dst, hr_htab_value(h, idx1, 0),
				  map->attr.value_size);
	for (c = 0; h->percpu && c < h->ncopies; c++)
		hr_map_value_load(dst + (size_t)c * h->pcpu_size,
				  hr_htab_pcpu_value(h, idx1, c), h->pcpu_size);
	hr_spin_unlock(&b->lock);
	return 0;
}

static int hr_htab_delete(struct hr_map *map, const void *key)
{
	struct hr_htab *h = map->priv;
	struct hr_htab_bucket *b;
	uint32_t hash, *link, idx1;

	hash = hr_map_hash(key, map->attr.key_size, h->seed);
	b = hr_htab_bucket(h, hash);
	hr_spin_lock(&b->lock);
	link = hr_htab_find_link(map, b, key, hash);
	if (!link) {
		hr_spin_unlock(&b->lock);
		return -ENOENT;
	}
	idx1 = hr_load_idx(link);
	hr_seq_write_begin(&b->seq);
	hr_store_idx(link, hr_load_idx(&hr_htab_elem(h, idx1)->next));
	hr_seq_write_end(&b->seq);
	hr_spin_unlock(&b->lock);
	if (!h->percpu)
		hr_map_timer_free_value(map, hr_htab_value(h, idx1, 0));
	hr_htab_put_elem(map, idx1, true);
	return 0;
}

/* The first key of buckets [from, n_buckets) into @next; -ENOENT if none. */
static int hr_htab_first_from(struct hr_map *map, uint32_t from, void *next)
{
	struct hr_htab *h = map->priv;
	uint32_t i, idx1;

	for (i = from; i < h->n_buckets; i++) {
		struct hr_htab_bucket *b = &h->buckets[i];

		if (!hr_load_idx(&b->head))
			continue;
		hr_spin_lock(&b->lock);
		idx1 = hr_load_idx(&b->head);
		if (idx1)
			hr_elem_key_copy(next, hr_htab_elem(h, idx1),
					 map->attr.key_size);
		hr_spin_unlock(&b->lock);
		if (idx1)
			return 0;
	}
	return -ENOENT;
}

/*
 * htab_map_get_next_key(): the element after @key in its bucket, else the
 * first of a later bucket; an absent (or NULL) key starts from the first.
 */
static int hr_htab_get_next_key(struct hr_map *map, const void *key, void *next)
{
	struct hr_htab *h = map->priv;
	struct hr_htab_bucket *b;
	uint32_t hash, *link, idx1, after;

	if (!key)
		return hr_htab_first_from(map, 0, next);
	hash = hr_map_hash(key, map->attr.key_size, h->seed);
	b = hr_htab_bucket(h, hash);
	hr_spin_lock(&b->lock);
	link = hr_htab_find_link(map, b, key, hash);
	if (!link) {
		hr_spin_unlock(&b->lock);
		return hr_htab_first_from(map, 0, next);
	}
	idx1 = hr_load_idx(link);
	after = hr_load_idx(&hr_htab_elem(h, idx1)->next);
	if (after)
		hr_elem_key_copy(next, hr_htab_elem(h, after),
				 map->attr.key_size);
	hr_spin_unlock(&b->lock);
	if (after)
		return 0;
	return hr_htab_first_from(map, (hash & (h->n_buckets - 1)) + 1, next);
}

/*
 * HASH: the pool, each element's value at val_off. PERCPU_HASH: every
 * CPU's value block. Only value_size bytes of each slot are reachable.
 */
static unsigned int hr_htab_regions(struct hr_map *map, struct hr_region *out,
				    unsigned int max)
{
	const struct hr_htab *h = map->priv;
	const struct hr_elem_layout lay = {
		.pool = h->pool,
		.pool_bytes = h->pool_bytes,
		.elem_size = h->elem_size,
		.val_off = h->val_off,
		.pcpu = h->pcpu,
		.pcpu_bytes = h->pcpu_bytes,
		.pcpu_size = h->pcpu_size,
		.percpu = h->percpu,
	};

	return hr_map_elem_regions(map, &lay, out, max);
}

static int64_t hr_htab_elem_count(struct hr_map *map)
{
	struct hr_htab *h = map->priv;

	return hr_spin_read(&h->pool_lock, &h->count);
}

const struct hr_map_ops hr_map_ops_hash = {
	.check = hr_htab_check,
	.alloc = hr_htab_alloc,
	.free = hr_htab_free,
	.lookup = hr_htab_lookup,
	.update = hr_htab_update,
	.delete = hr_htab_delete,
	.get_next_key = hr_htab_get_next_key,
	.copy_value = hr_htab_copy_value,
	.update_user = hr_htab_update_user,
	.regions = hr_htab_regions,
	.elem_count = hr_htab_elem_count,
};

/* The same operations: each tells the two types apart by h->percpu. */
extern const struct hr_map_ops hr_map_ops_percpu_hash
	__attribute__((alias("hr_map_ops_hash")));
