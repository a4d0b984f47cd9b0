// SPDX-License-Identifier: MIT
/*
 * BPF_MAP_TYPE_RINGBUF and BPF_MAP_TYPE_USER_RINGBUF, after the kernel's
 * kernel/bpf/ringbuf.c (the second's two ends are user_ringbuf.c's): a
 * data area of max_entries bytes (a power of two, a multiple of the page size)
 * mapped twice back to back, so that a record that wraps is still one
 * contiguous block; 8-byte record headers {len, pg_off} with the BUSY bit
 * set while a record is reserved and the DISCARD bit when it was thrown
 * away; producer, consumer and pending positions that only grow.
 *
 * Producers serialise on a spinlock to reserve (as the kernel's
 * rb->spinlock); commits and the consumer are lock-free, ordered with
 * acquire/release on the header length and the positions.
 *
 * A program touches only the records it holds (struct hr_run's held[],
 * from bpf_ringbuf_reserve to submit or discard), never a header, as the
 * verifier holds it to its record; the consumer still bounds every
 * length it reads by the ring and by what the producer committed.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/mman.h>
#include <unistd.h>

#include "headroom/ringbuf.h"
#include "maps/map.h"
#include "maps/map_impl.h"
#include "maps/ringbuf.h"

#define HR_ENOTSUPP 524 /* kernel-internal ENOTSUPP */
#define HR_RINGBUF_CREATE_FLAG_MASK HR_F_NUMA_NODE
/* RINGBUF_MAX_RECORD_SZ: UINT_MAX / 4. */
#define HR_RINGBUF_MAX_RECORD_SZ (UINT32_MAX / 4)

static int hr_ringbuf_check(const struct hr_map_attr *attr)
{
	uint32_t n = attr->max_entries;

	if (attr->map_flags & ~HR_RINGBUF_CREATE_FLAG_MASK)
		return -EINVAL;
	if (attr->key_size || attr->value_size || !n || (n & (n - 1)) ||
	    (n & (HR_PAGE_SIZE - 1)))
		return -EINVAL;
	return 0;
}

/* Maps a memfd of @size bytes twice, back to back; NULL on failure. */
static uint8_t *hr_ringbuf_map_twice(size_t size)
{
	uint8_t *area = NULL;
	void *lo, *hi;
	int fd;

	fd = memfd_create("headroom-ringbuf", MFD_CLOEXEC);
	if (fd < 0)
		return NULL;
	if (ftruncate(fd, (off_t)size))
		goto out;
	area = mmap(NULL, 2 * size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1,
		    0);
	if (area == MAP_FAILED) {
		area = NULL;
		goto out;
	}
	lo = mmap(area, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED,
		  fd, 0);
	hi = mmap(area + size, size, PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_FIXED, fd, 0);
	if (lo == MAP_FAILED || hi == MAP_FAILED) {
		munmap(area, 2 * size);
		area = NULL;
	}
out:
	close(fd);
	return area;
}

static int hr_ringbuf_alloc(struct hr_map *map)
{
	struct hr_ringbuf *rb = calloc(1, sizeof(*rb));
	pthread_condattr_t ca;

	if (!rb)
		return -ENOMEM;
	rb->mask = (uint64_t)map->attr.max_entries - 1;
	rb->data = hr_ringbuf_map_twice(map->attr.max_entries);
	if (!rb->data) {
		free(rb);
		return -ENOMEM;
	}
	/* Producers wait with CLOCK_MONOTONIC deadlines (user_ringbuf.c). */
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_mutex_init(&rb->wait_lock, NULL);
	pthread_cond_init(&rb->waitq, &ca);
	pthread_condattr_destroy(&ca);
	map->priv = rb;
	return 0;
}

static void hr_ringbuf_free(struct hr_map *map)
{
	struct hr_ringbuf *rb = map->priv;

	if (!rb)
		return;
	munmap(rb->data, 2 * (rb->mask + 1));
	pthread_mutex_destroy(&rb->wait_lock);
	pthread_cond_destroy(&rb->waitq);
	free(rb);
	map->priv = NULL;
}

void *hr_ringbuf_reserve(struct hr_map *map, uint64_t size)
{
	struct hr_ringbuf *rb = map->priv;
	uint64_t len, cons_pos, pend_pos, prod_pos, new_prod_pos;
	struct hr_ringbuf_hdr *hdr;

	if (size > HR_RINGBUF_MAX_RECORD_SZ)
		return NULL;
	len = (size + HR_RINGBUF_HDR_SZ + 7) & ~7ull;
	if (len > rb->mask + 1)
		return NULL;
	cons_pos = hr_load_pos(&rb->consumer_pos);
	hr_spin_lock(&rb->lock);
	pend_pos = rb->pending_pos;
	prod_pos = rb->producer_pos;
	new_prod_pos = prod_pos + len;
	/* Skip past records committed since the last reservation. */
	while (pend_pos < prod_pos) {
		hdr = (void *)(rb->data + (pend_pos & rb->mask));
		uint32_t hlen = __atomic_load_n(&hdr->len, __ATOMIC_ACQUIRE);

		if ((hlen & HR_RINGBUF_BUSY_BIT) ||
		    hr_rec_len(hlen) > prod_pos - pend_pos)
			break;
		pend_pos += hr_rec_len(hlen);
	}
	rb->pending_pos = pend_pos;
	/* Neither ahead of the consumer nor of the oldest uncommitted
	 * record by a whole ring. */
	if (new_prod_pos - cons_pos > rb->mask ||
	    new_prod_pos - pend_pos > rb->mask) {
		hr_spin_unlock(&rb->lock);
		return NULL;
	}
	hdr = (void *)(rb->data + (prod_pos & rb->mask));
	hdr->pg_off = (uint32_t)((prod_pos & rb->mask) / HR_PAGE_SIZE);
	__atomic_store_n(&hdr->len, (uint32_t)size | HR_RINGBUF_BUSY_BIT,
			 __ATOMIC_RELAXED);
	__atomic_store_n(&rb->producer_pos, new_prod_pos, __ATOMIC_RELEASE);
	hr_spin_unlock(&rb->lock);
	return (uint8_t *)hdr + HR_RINGBUF_HDR_SZ;
}

bool hr_ringbuf_owns(const struct hr_map *map, const void *sample)
{
	const struct hr_ringbuf *rb = map->priv;
	const uint8_t *p = sample;

	return map->attr.type == HR_MAP_RINGBUF && rb &&
	       p >= rb->data + HR_RINGBUF_HDR_SZ &&
	       p < rb->data + 2 * (rb->mask + 1);
}

bool hr_ringbuf_commit(struct hr_map *map, void *sample, bool discard)
{
	struct hr_ringbuf *rb = map->priv;
	struct hr_ringbuf_hdr *hdr;
	uintptr_t off;
	uint32_t len;

	if (!hr_ringbuf_owns(map, sample))
		return false;
	off = (uintptr_t)((uint8_t *)sample - rb->data) - HR_RINGBUF_HDR_SZ;
	if (off & 7)
		return false;
	hdr = (void *)(rb->data + (off & rb->mask));
	len = __atomic_load_n(&hdr->len, __ATOMIC_RELAXED);
	if (!(len & HR_RINGBUF_BUSY_BIT))
		return false;
	len ^= HR_RINGBUF_BUSY_BIT;
	if (discard)
		len |= HR_RINGBUF_DISCARD_BIT;
	__atomic_exchange_n(&hdr->len, len, __ATOMIC_ACQ_REL);
	return true;
}

uint64_t hr_ringbuf_query(struct hr_map *map, uint64_t flags)
{
	struct hr_ringbuf *rb = map->priv;

	switch (flags) {
	case HR_RB_AVAIL_DATA:
		return hr_load_pos(&rb->producer_pos) -
		       hr_load_pos(&rb->consumer_pos);
	case HR_RB_RING_SIZE:
		return rb->mask + 1;
	case HR_RB_CONS_POS:
		return hr_load_pos(&rb->consumer_pos);
	case HR_RB_PROD_POS:
		return hr_load_pos(&rb->producer_pos);
	default:
		return 0;
	}
}

unsigned long hr_ringbuf_avail(struct hr_map *map)
{
	if (!map || map->attr.type != HR_MAP_RINGBUF)
		return 0;
	return hr_ringbuf_query(map, HR_RB_AVAIL_DATA);
}

int hr_ringbuf_consume(struct hr_map *map, hr_ringbuf_sample_fn fn, void *ctx)
{
	struct hr_ringbuf *rb;
	uint64_t cons_pos, prod_pos;
	int cnt = 0, err;

	if (!map || map->attr.type != HR_MAP_RINGBUF || !fn)
		return -EINVAL;
	rb = map->priv;
	cons_pos = hr_load_pos(&rb->consumer_pos);
	for (;;) {
		bool got = false;

		prod_pos = hr_load_pos(&rb->producer_pos);
		while (cons_pos < prod_pos) {
			struct hr_ringbuf_hdr *hdr =
				(void *)(rb->data + (cons_pos & rb->mask));
			uint32_t len =
				__atomic_load_n(&hdr->len, __ATOMIC_ACQUIRE);

			if (len & HR_RINGBUF_BUSY_BIT)
				goto done;
			/* Never past what the producer committed. */
			if (hr_rec_len(len) > prod_pos - cons_pos)
				return -EBADMSG;
			got = true;
			cons_pos += hr_rec_len(len);
			if (!(len & HR_RINGBUF_DISCARD_BIT)) {
				err = fn(ctx,
					 (uint8_t *)hdr + HR_RINGBUF_HDR_SZ,
					 len);
				if (err < 0) {
					__atomic_store_n(&rb->consumer_pos,
							 cons_pos,
							 __ATOMIC_RELEASE);
					return err;
				}
				if (cnt < INT32_MAX)
					cnt++;
			}
			__atomic_store_n(&rb->consumer_pos, cons_pos,
					 __ATOMIC_RELEASE);
		}
		if (!got)
			break;
	}
done:
	return cnt;
}

/* Records are reached only through the ringbuf helpers. */
static void *hr_ringbuf_lookup(struct hr_map *map, const void *key,
			       unsigned int cpu)
{
	return NULL;
}

static int hr_ringbuf_update(struct hr_map *map, const void *key,
			     const void *value, uint64_t flags,
			     unsigned int cpu)
{
	return -HR_ENOTSUPP;
}

static int hr_ringbuf_update_user(struct hr_map *map, const void *key,
				  const void *value, uint64_t flags)
{
	return -HR_ENOTSUPP;
}

static int hr_ringbuf_delete(struct hr_map *map, const void *key)
{
	return -HR_ENOTSUPP;
}

static int hr_ringbuf_get_next_key(struct hr_map *map, const void *key,
				   void *next)
{
	return -HR_ENOTSUPP;
}

static int hr_ringbuf_copy_value(struct hr_map *map, const void *key,
				 void *value)
{
	return -HR_ENOTSUPP;
}

/* The ops both ring buffer types share (the kernel's ringbuf_map_ops and
 * user_ringbuf_map_ops differ in mmap and poll, which are user_ringbuf.c's
 * producer here). */
#define HR_RINGBUF_OPS                                                    \
	{                                                                 \
		.check = hr_ringbuf_check, .alloc = hr_ringbuf_alloc,     \
		.free = hr_ringbuf_free, .lookup = hr_ringbuf_lookup,     \
		.update = hr_ringbuf_update, .delete = hr_ringbuf_delete, \
		.get_next_key = hr_ringbuf_get_next_key,                  \
		.copy_value = hr_ringbuf_copy_value,                      \
		.update_user = hr_ringbuf_update_user,                    \
	}

const struct hr_map_ops hr_map_ops_ringbuf = HR_RINGBUF_OPS;
/* The same ring, which user space produces into (user_ringbuf.c) and
 * bpf_user_ringbuf_drain consumes. */
const struct hr_map_ops hr_map_ops_user_ringbuf = HR_RINGBUF_OPS;
