// SPDX-License-Identifier: MIT
/*
 * BPF_MAP_TYPE_USER_RINGBUF's two ends. The map is the ring of ringbuf.c
 * (user_ringbuf_map_ops there, as in kernel/bpf/ringbuf.c). User space
 * produces, as libbpf's user_ring_buffer__reserve(), _reserve_blocking(),
 * _submit() and _discard() (tools/lib/bpf/ringbuf.c) do through their
 * mapping of the ring: a record's header written BUSY, the producer
 * position moved past it with a release store, the header's BUSY bit
 * cleared (DISCARD set) with an exchange at commit. The program consumes
 * with bpf_user_ringbuf_drain, one sample at a time, as the kernel's
 * __bpf_user_ringbuf_peek() and __bpf_user_ringbuf_sample_release():
 * nothing is trusted of what user space wrote, every length is checked
 * against the producer position and the ring.
 */
#include <errno.h>
#include <stdlib.h>
#include <time.h>

#include "headroom/user_ringbuf.h"
#include "maps/map.h"
#include "maps/ringbuf.h"

/* DYNPTR_MAX_SIZE, which bpf_dynptr_check_size() holds a sample to. */
#define HR_DYNPTR_MAX 0xffffffu

struct hr_user_ringbuf {
	struct hr_map *map;
	struct hr_ringbuf *rb;
};

static struct hr_ringbuf *user_rb(struct hr_map *map)
{
	return map && map->attr.type == HR_MAP_USER_RINGBUF ? map->priv : NULL;
}

/* The consumer: bpf_user_ringbuf_drain's side. */

bool hr_user_ringbuf_try_busy(struct hr_map *map)
{
	struct hr_ringbuf *rb = map->priv;
	int idle = 0;

	return __atomic_compare_exchange_n(&rb->busy, &idle, 1, false,
					   __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
}

void hr_user_ringbuf_unbusy(struct hr_map *map, bool wakeup)
{
	struct hr_ringbuf *rb = map->priv;

	__atomic_store_n(&rb->busy, 0, __ATOMIC_RELEASE);
	if (!wakeup)
		return;
	/* Counted before waiters is read, as a waiter counts itself before
	 * it reads the count: one of the two sees the other. */
	__atomic_add_fetch(&rb->wakeups, 1, __ATOMIC_SEQ_CST);
	if (!__atomic_load_n(&rb->waiters, __ATOMIC_SEQ_CST))
		return;
	pthread_mutex_lock(&rb->wait_lock);
	pthread_cond_broadcast(&rb->waitq);
	pthread_mutex_unlock(&rb->wait_lock);
}

int hr_user_ringbuf_peek(struct hr_map *map, void **sample, uint32_t *size)
{
	struct hr_ringbuf *rb = map->priv;
	uint64_t cons_pos, prod_pos;
	uint32_t hdr_len, flags, len, total;
	struct hr_ringbuf_hdr *hdr;

	prod_pos = hr_load_pos(&rb->producer_pos);
	if (prod_pos & 7)
		return -EINVAL;
	cons_pos = hr_load_pos(&rb->consumer_pos);
	if (cons_pos >= prod_pos)
		return -ENODATA;
	hdr = (void *)(rb->data + (cons_pos & rb->mask));
	hdr_len = __atomic_load_n(&hdr->len, __ATOMIC_ACQUIRE);
	flags = hdr_len & (HR_RINGBUF_BUSY_BIT | HR_RINGBUF_DISCARD_BIT);
	len = hdr_len & ~flags;
	total = hr_rec_len(len);
	if (total > prod_pos - cons_pos)
		return -EINVAL;
	if (total > rb->mask + 1 || len > HR_DYNPTR_MAX)
		return -E2BIG;
	if (flags & HR_RINGBUF_DISCARD_BIT) {
		__atomic_store_n(&rb->consumer_pos, cons_pos + total,
				 __ATOMIC_RELEASE);
		return -EAGAIN;
	}
	if (flags & HR_RINGBUF_BUSY_BIT)
		return -ENODATA;
	/* The ring is mapped twice: a sample that wraps is contiguous. */
	*sample = rb->data + ((cons_pos + HR_RINGBUF_HDR_SZ) & rb->mask);
	*size = len;
	return 0;
}

void hr_user_ringbuf_release(struct hr_map *map, uint32_t size)
{
	struct hr_ringbuf *rb = map->priv;

	/* Only the drain that is busy moves it: no other writer. */
	__atomic_store_n(&rb->consumer_pos, rb->consumer_pos + hr_rec_len(size),
			 __ATOMIC_RELEASE);
}

/* The producer: user space's side. */

int hr_user_ringbuf_new(struct hr_map *map,
			const struct hr_user_ringbuf_opts *opts,
			struct hr_user_ringbuf **out)
{
	struct hr_user_ringbuf *p;

	*out = NULL;
	if (!user_rb(map) || (opts && opts->sz < sizeof(opts->sz)))
		return -EINVAL;
	p = calloc(1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	p->map = map;
	p->rb = map->priv;
	*out = p;
	return 0;
}

void hr_user_ringbuf_free(struct hr_user_ringbuf *p)
{
	free(p);
}

int hr_user_ringbuf_reserve(struct hr_user_ringbuf *p, uint32_t size,
			    void **sample)
{
	struct hr_ringbuf *rb = p->rb;
	uint64_t cons_pos, prod_pos, ring = rb->mask + 1, total;
	struct hr_ringbuf_hdr *hdr;

	*sample = NULL;
	if (size & (HR_RINGBUF_BUSY_BIT | HR_RINGBUF_DISCARD_BIT))
		return -E2BIG;
	cons_pos = hr_load_pos(&rb->consumer_pos);
	prod_pos = hr_load_pos(&rb->producer_pos);
	total = hr_rec_len(size);
	if (total > ring)
		return -E2BIG;
	if (ring - (prod_pos - cons_pos) < total)
		return -ENOSPC;
	hdr = (void *)(rb->data + (prod_pos & rb->mask));
	hdr->pg_off = 0;
	__atomic_store_n(&hdr->len, size | HR_RINGBUF_BUSY_BIT,
			 __ATOMIC_RELAXED);
	__atomic_store_n(&rb->producer_pos, prod_pos + total, __ATOMIC_RELEASE);
	*sample = (uint8_t *)hdr + HR_RINGBUF_HDR_SZ;
	return 0;
}

static int64_t ms_since(const struct timespec *t0)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (int64_t)(now.tv_sec - t0->tv_sec) * 1000 +
	       (now.tv_nsec - t0->tv_nsec) / 1000000;
}

/* Waits for a wakeup after @seen, up to @ms (-1: no limit). */
static void wait_wakeup(struct hr_ringbuf *rb, uint64_t seen, int64_t ms)
{
	struct timespec until;

	clock_gettime(CLOCK_MONOTONIC, &until);
	until.tv_sec += ms / 1000;
	until.tv_nsec += (ms % 1000) * 1000000;
	if (until.tv_nsec >= 1000000000) {
		until.tv_sec++;
		until.tv_nsec -= 1000000000;
	}
	pthread_mutex_lock(&rb->wait_lock);
	__atomic_add_fetch(&rb->waiters, 1, __ATOMIC_SEQ_CST);
	while (__atomic_load_n(&rb->wakeups, __ATOMIC_SEQ_CST) == seen) {
		if (ms < 0)
			pthread_cond_wait(&rb->waitq, &rb->wait_lock);
		else if (pthread_cond_timedwait(&rb->waitq, &rb->wait_lock,
						&until) == ETIMEDOUT)
			break;
	}
	__atomic_sub_fetch(&rb->waiters, 1, __ATOMIC_SEQ_CST);
	pthread_mutex_unlock(&rb->wait_lock);
}

int hr_user_ringbuf_reserve_blocking(struct hr_user_ringbuf *p, uint32_t size,
				     int timeout_ms, void **sample)
{
	struct hr_ringbuf *rb = p->rb;
	struct timespec t0;
	int64_t left = timeout_ms;
	uint64_t seen;
	int err;

	*sample = NULL;
	if (timeout_ms < -1)
		return -EINVAL;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (left) {
		seen = __atomic_load_n(&rb->wakeups, __ATOMIC_SEQ_CST);
		err = hr_user_ringbuf_reserve(p, size, sample);
		if (err != -ENOSPC)
			return err;
		wait_wakeup(rb, seen, left);
		if (timeout_ms < 0)
			continue;
		left = timeout_ms - ms_since(&t0);
		if (left < 0)
			left = 0;
	}
	/* Once more when the time is up, as libbpf tries. */
	return hr_user_ringbuf_reserve(p, size, sample);
}

/* user_ringbuf_commit(): the header of a reserved sample of this ring. */
static void commit(struct hr_user_ringbuf *p, void *sample, bool discard)
{
	struct hr_ringbuf *rb = p->rb;
	uint8_t *s = sample;
	struct hr_ringbuf_hdr *hdr;
	uint32_t len;

	/* A pointer reserve did not give is let be. */
	if (!s || s < rb->data + HR_RINGBUF_HDR_SZ ||
	    s >= rb->data + 2 * (rb->mask + 1) ||
	    ((uintptr_t)(s - rb->data) & 7))
		return;
	hdr = (void *)(s - HR_RINGBUF_HDR_SZ);
	len = __atomic_load_n(&hdr->len, __ATOMIC_RELAXED);
	len &= ~HR_RINGBUF_BUSY_BIT;
	if (discard)
		len |= HR_RINGBUF_DISCARD_BIT;
	__atomic_exchange_n(&hdr->len, len, __ATOMIC_ACQ_REL);
}

void hr_user_ringbuf_submit(struct hr_user_ringbuf *p, void *sample)
{
	commit(p, sample, false);
}

void hr_user_ringbuf_discard(struct hr_user_ringbuf *p, void *sample)
{
	commit(p, sample, true);
}
