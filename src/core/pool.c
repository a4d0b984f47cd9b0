// SPDX-License-Identifier: MIT
/*
 * Frame pools. All frames of a pool come from one anonymous mapping below
 * 4 GiB, so that every packet address fits the 32-bit pointer fields of
 * the UAPI contexts. Free frames sit on a stack of indices guarded by a
 * spinlock; a state byte per frame catches double puts, and the pool
 * counts what is out at every moment.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "core/pool.h"
#include "util/print.h"

#define HR_4GIB (1ull << 32)

enum hr_frame_state {
	HR_FRAME_FREE = 0,
	HR_FRAME_OUT = 1,
};

struct hr_pool {
	uint8_t *base;
	size_t bytes;
	uint32_t nframes;
	pthread_spinlock_t lock;
	/* Indices of free frames; the top is free_stack[nfree - 1]. */
	uint32_t *free_stack;
	uint32_t nfree;
	/* One hr_frame_state per frame, under lock. */
	uint8_t *state;
	/* One content tag per frame (hr_pool_get_bulk_tags): the holder's
	 * to write, handed over with the frame under lock. */
	uint32_t *tag;
	/* Written under lock, read without: hence atomics. */
	uint32_t outstanding;
	uint64_t bad_puts;
};

/*
 * Every live pool, so that a frame can be returned knowing only its
 * address (hr_pool_of). Slots are written under registry_lock and read
 * without a lock; a pool is removed before its memory goes.
 */
#define HR_POOL_REGISTRY 64
static struct hr_pool *registry[HR_POOL_REGISTRY];
static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;

static void registry_add(struct hr_pool *pool)
{
	unsigned int i;

	pthread_mutex_lock(&registry_lock);
	for (i = 0; i < HR_POOL_REGISTRY; i++) {
		if (!__atomic_load_n(&registry[i], __ATOMIC_RELAXED)) {
			__atomic_store_n(&registry[i], pool, __ATOMIC_RELEASE);
			break;
		}
	}
	pthread_mutex_unlock(&registry_lock);
}

static void registry_del(struct hr_pool *pool)
{
	unsigned int i;

	pthread_mutex_lock(&registry_lock);
	for (i = 0; i < HR_POOL_REGISTRY; i++)
		if (__atomic_load_n(&registry[i], __ATOMIC_RELAXED) == pool)
			__atomic_store_n(&registry[i], NULL, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&registry_lock);
}

/*
 * Anonymous memory whose every byte, and the address one past the end,
 * fits in 32 bits. MAP_32BIT (x86-64) asks for the low 2 GiB; elsewhere, or
 * when that is full, hints at addresses below 4 GiB are tried and checked.
 */
void *hr_mem_low(size_t bytes)
{
	static const uintptr_t hints[] = { 0x40000000u, 0x80000000u,
					   0x10000000u, 0xc0000000u };
	const int prot = PROT_READ | PROT_WRITE;
	const int flags = MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE;
	unsigned int i;
	void *p;

	if (bytes >= HR_4GIB)
		return NULL;
#ifdef MAP_32BIT
	p = mmap(NULL, bytes, prot, flags | MAP_32BIT, -1, 0);
	if (p != MAP_FAILED && (uintptr_t)p + bytes < HR_4GIB)
		return p;
	if (p != MAP_FAILED)
		munmap(p, bytes);
#endif
	for (i = 0; i < sizeof(hints) / sizeof(hints[0]); i++) {
		p = mmap((void *)hints[i], bytes, prot, flags, -1, 0);
		if (p == MAP_FAILED)
			continue;
		if ((uintptr_t)p + bytes < HR_4GIB)
			return p;
		munmap(p, bytes);
	}
	return NULL;
}

void hr_mem_low_free(void *mem, size_t bytes)
{
	if (mem)
		munmap(mem, bytes);
}

int hr_pool_create(uint32_t nframes, struct hr_pool **pool)
{
	struct hr_pool *p;
	uint32_t i;

	*pool = NULL;
	if (!nframes || nframes > (1u << 20))
		return -EINVAL;
	p = calloc(1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	p->nframes = nframes;
	p->bytes = (size_t)nframes * HR_FRAME_SIZE;
	p->free_stack = calloc(nframes, sizeof(*p->free_stack));
	p->state = calloc(nframes, sizeof(*p->state));
	p->tag = calloc(nframes, sizeof(*p->tag));
	if (!p->free_stack || !p->state || !p->tag)
		goto err;
	p->base = hr_mem_low(p->bytes);
	if (!p->base) {
		hr_pr_warn("pool: no room for %u frames below 4 GiB\n",
			   nframes);
		goto err;
	}
	if (pthread_spin_init(&p->lock, PTHREAD_PROCESS_PRIVATE)) {
		munmap(p->base, p->bytes);
		goto err;
	}
	/* Frame 0 on top, so that a fresh pool hands out frames in order. */
	for (i = 0; i < nframes; i++)
		p->free_stack[i] = nframes - 1 - i;
	p->nfree = nframes;
	registry_add(p);
	*pool = p;
	return 0;
err:
	free(p->free_stack);
	free(p->state);
	free(p->tag);
	free(p);
	return -ENOMEM;
}

void hr_pool_destroy(struct hr_pool *pool)
{
	uint32_t out;

	if (!pool)
		return;
	out = hr_pool_outstanding(pool);
	if (out)
		hr_pr_warn("pool: destroyed with %u frames out\n", out);
	registry_del(pool);
	pthread_spin_destroy(&pool->lock);
	munmap(pool->base, pool->bytes);
	free(pool->free_stack);
	free(pool->state);
	free(pool->tag);
	free(pool);
}

/* Index of the frame holding @addr, or -1 when @addr is not in the pool. */
static int64_t frame_index(const struct hr_pool *pool, const void *addr)
{
	uintptr_t a = (uintptr_t)addr, lo = (uintptr_t)pool->base;

	if (a < lo || a - lo >= pool->bytes)
		return -1;
	return (int64_t)((a - lo) / HR_FRAME_SIZE);
}

void *hr_pool_base(const struct hr_pool *pool)
{
	return pool->base;
}

static void *frame_addr(const struct hr_pool *pool, uint32_t idx)
{
	return pool->base + (size_t)idx * HR_FRAME_SIZE;
}

static void set_outstanding(struct hr_pool *pool)
{
	__atomic_store_n(&pool->outstanding, pool->nframes - pool->nfree,
			 __ATOMIC_RELAXED);
}

static unsigned int get_bulk(struct hr_pool *pool, void **frames,
			     uint32_t *tags, unsigned int n)
{
	unsigned int i;

	pthread_spin_lock(&pool->lock);
	for (i = 0; i < n && pool->nfree; i++) {
		uint32_t idx = pool->free_stack[--pool->nfree];

		pool->state[idx] = HR_FRAME_OUT;
		frames[i] = frame_addr(pool, idx);
		if (tags)
			tags[i] = pool->tag[idx];
		else
			pool->tag[idx] = 0;
	}
	set_outstanding(pool);
	pthread_spin_unlock(&pool->lock);
	return i;
}

/* A getter that does not ask for tags may write anything into the
 * frame without knowing of them: its frames come back untagged. */
unsigned int hr_pool_get_bulk(struct hr_pool *pool, void **frames,
			      unsigned int n)
{
	return get_bulk(pool, frames, NULL, n);
}

unsigned int hr_pool_get_bulk_tags(struct hr_pool *pool, void **frames,
				   uint32_t *tags, unsigned int n)
{
	return get_bulk(pool, frames, tags, n);
}

void hr_pool_set_tag(struct hr_pool *pool, const void *frame, uint32_t tag)
{
	int64_t idx = frame_index(pool, frame);

	if (idx >= 0)
		pool->tag[idx] = tag;
}

void *hr_pool_get(struct hr_pool *pool)
{
	void *frame;

	return hr_pool_get_bulk(pool, &frame, 1) ? frame : NULL;
}

static void bad_put(struct hr_pool *pool, const void *frame, const char *why)
{
	__atomic_add_fetch(&pool->bad_puts, 1, __ATOMIC_RELAXED);
	hr_pr_warn("pool: bad put of %p: %s (ignored)\n", frame, why);
}

/* Under lock: returns one frame; a pointer anywhere inside it will do.
 * Its tag stays only when it comes back @clean. */
static void put_locked(struct hr_pool *pool, void *frame, bool clean)
{
	int64_t idx = frame_index(pool, frame);

	if (idx < 0) {
		bad_put(pool, frame, "not from this pool");
		return;
	}
	if (pool->state[idx] != HR_FRAME_OUT) {
		bad_put(pool, frame, "frame already free (double put)");
		return;
	}
	pool->state[idx] = HR_FRAME_FREE;
	if (!clean)
		pool->tag[idx] = 0;
	pool->free_stack[pool->nfree++] = (uint32_t)idx;
}

/*
 * Pushed last first, so that the next get hands the batch out in the
 * order it came back: a device that got and returned a batch gets the
 * same frames at the same places again (a generator then finds each
 * frame holding the flow it would write, gen.c).
 */
void hr_pool_put_bulk_clean(struct hr_pool *pool, void *const *frames,
			    unsigned int n, uint64_t clean)
{
	unsigned int i;

	pthread_spin_lock(&pool->lock);
	for (i = n; i-- > 0;)
		put_locked(pool, frames[i], i < 64 && (clean >> i & 1));
	set_outstanding(pool);
	pthread_spin_unlock(&pool->lock);
}

void hr_pool_put_bulk(struct hr_pool *pool, void *const *frames, unsigned int n)
{
	hr_pool_put_bulk_clean(pool, frames, n, 0);
}

void hr_pool_put(struct hr_pool *pool, void *frame)
{
	hr_pool_put_bulk(pool, &frame, 1);
}

bool hr_pool_owns(const struct hr_pool *pool, const void *frame)
{
	return frame_index(pool, frame) >= 0;
}

uint32_t hr_pool_size(const struct hr_pool *pool)
{
	return pool->nframes;
}

uint32_t hr_pool_outstanding(const struct hr_pool *pool)
{
	return __atomic_load_n(&pool->outstanding, __ATOMIC_RELAXED);
}

uint64_t hr_pool_bad_puts(const struct hr_pool *pool)
{
	return __atomic_load_n(&pool->bad_puts, __ATOMIC_RELAXED);
}

struct hr_pool *hr_pool_of(const void *addr)
{
	unsigned int i;

	for (i = 0; i < HR_POOL_REGISTRY; i++) {
		struct hr_pool *p =
			__atomic_load_n(&registry[i], __ATOMIC_ACQUIRE);

		if (p && frame_index(p, addr) >= 0)
			return p;
	}
	return NULL;
}
