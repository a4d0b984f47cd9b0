/* SPDX-License-Identifier: MIT */
/*
 * A lock-free bounded ring of pointers: many producers, one consumer
 * (veth's per-queue ptr_ring, cpumap's per-entry ring).
 *
 * Producers reserve positions with one compare-and-swap on head, write
 * the pointer into the slot and publish it by storing the position + 1 in
 * the slot's sequence number; the consumer takes a slot once its sequence
 * says it is filled, in order, and publishes its progress in tail.
 * Producers never overrun the consumer because they check head - tail
 * against the limit before reserving, and tail only grows.
 *
 * The slot array is a power of two (cheap indexing); the limit on top of
 * it may be any number up to that (the kernel's cpumap qsize is exact).
 */
#ifndef HR_DEV_RING_H
#define HR_DEV_RING_H

#include <errno.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

struct hr_ring_slot {
	_Atomic size_t seq; /* position + 1 once filled for that position */
	void *ptr;
};

struct hr_ring {
	_Atomic size_t head __attribute__((aligned(64))); /* next to fill */
	_Atomic size_t tail __attribute__((aligned(64))); /* next to take */
	size_t mask __attribute__((aligned(64)));
	size_t limit; /* at most this many entries at once */
	struct hr_ring_slot slots[];
};

/* A ring holding at most @limit pointers (1 .. 1 << 30); 0 or -errno. */
static inline int hr_ring_create(size_t limit, struct hr_ring **out)
{
	struct hr_ring *r;
	size_t cap = 1, i;

	if (!limit || limit > (1u << 30))
		return -EINVAL;
	while (cap < limit)
		cap <<= 1;
	r = aligned_alloc(64, (sizeof(*r) + cap * sizeof(r->slots[0]) + 63) &
				      ~(size_t)63);
	if (!r)
		return -ENOMEM;
	atomic_init(&r->head, 0);
	atomic_init(&r->tail, 0);
	r->mask = cap - 1;
	r->limit = limit;
	/* No position is filled yet: seq 0 never equals position + 1. */
	for (i = 0; i < cap; i++) {
		atomic_init(&r->slots[i].seq, 0);
		r->slots[i].ptr = NULL;
	}
	*out = r;
	return 0;
}

static inline void hr_ring_destroy(struct hr_ring *r)
{
	free(r);
}

/*
 * Producers: puts the first of @n pointers that fit, in order; returns
 * how many (the rest did not fit: the ring is full).
 */
static inline unsigned int
hr_ring_produce_bulk(struct hr_ring *r, void *const *ptrs, unsigned int n)
{
	size_t pos, tail, room, i;

	pos = atomic_load_explicit(&r->head, memory_order_relaxed);
	for (;;) {
		tail = atomic_load_explicit(&r->tail, memory_order_acquire);
		room = r->limit - (pos - tail);
		if (!room || !n)
			return 0;
		if (room > n)
			room = n;
		if (atomic_compare_exchange_weak_explicit(
			    &r->head, &pos, pos + room, memory_order_relaxed,
			    memory_order_relaxed))
			break;
	}
	for (i = 0; i < room; i++) {
		struct hr_ring_slot *s = &r->slots[(pos + i) & r->mask];

		s->ptr = ptrs[i];
		atomic_store_explicit(&s->seq, pos + i + 1,
				      memory_order_release);
	}
	return (unsigned int)room;
}

/* One pointer: 0, or -ENOSPC when the ring is full (ptr_ring_produce). */
static inline int hr_ring_produce(struct hr_ring *r, void *ptr)
{
	return hr_ring_produce_bulk(r, &ptr, 1) ? 0 : -ENOSPC;
}

/*
 * The consumer: takes up to @n pointers in order; returns how many. A slot
 * reserved but not yet written stops the batch there (taken next time).
 */
static inline unsigned int hr_ring_consume_bulk(struct hr_ring *r, void **ptrs,
						unsigned int n)
{
	size_t pos = atomic_load_explicit(&r->tail, memory_order_relaxed);
	unsigned int i;

	for (i = 0; i < n; i++) {
		struct hr_ring_slot *s = &r->slots[(pos + i) & r->mask];

		if (atomic_load_explicit(&s->seq, memory_order_acquire) !=
		    pos + i + 1)
			break;
		ptrs[i] = s->ptr;
	}
	if (i)
		atomic_store_explicit(&r->tail, pos + i, memory_order_release);
	return i;
}

static inline void *hr_ring_consume(struct hr_ring *r)
{
	void *ptr;

	return hr_ring_consume_bulk(r, &ptr, 1) ? ptr : NULL;
}

/* Entries reserved and not yet consumed (a snapshot). */
static inline size_t hr_ring_count(struct hr_ring *r)
{
	size_t tail = atomic_load_explicit(&r->tail, memory_order_acquire);
	size_t head = atomic_load_explicit(&r->head, memory_order_acquire);

	return head - tail;
}

static inline bool hr_ring_empty(struct hr_ring *r)
{
	return hr_ring_count(r) == 0;
}

static inline size_t hr_ring_limit(const struct hr_ring *r)
{
	return r->limit;
}

#endif /* HR_DEV_RING_H */
