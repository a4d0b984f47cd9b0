/* SPDX-License-Identifier: MIT */
/*
 * The ring both BPF_MAP_TYPE_RINGBUF and BPF_MAP_TYPE_USER_RINGBUF keep
 * (the kernel's struct bpf_ringbuf): the producer side of the first for
 * the bpf_ringbuf_* helpers, and the consumer side of the second for
 * bpf_user_ringbuf_drain (user_ringbuf.c).
 */
#ifndef HR_MAPS_RINGBUF_H
#define HR_MAPS_RINGBUF_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "headroom/ringbuf.h"
#include "maps/map_impl.h"

#define HR_PAGE_SIZE 4096u

struct hr_map;

struct hr_ringbuf_hdr {
	uint32_t len;
	uint32_t pg_off;
};

struct hr_ringbuf {
	struct hr_spin lock;
	uint64_t mask;
	/* Positions, in bytes since creation. */
	uint64_t consumer_pos;
	uint64_t producer_pos;
	uint64_t pending_pos; /* oldest record not yet committed */
	uint8_t *data; /* 2 * (mask + 1) bytes: the same pages twice */
	/* User ring buffer: 1 while a bpf_user_ringbuf_drain consumes
	 * (rb->busy), and where user space producers wait for room: each
	 * wakeup (rb->work's wake_up_all) counts @wakeups up, and takes
	 * @wait_lock only when @waiters says someone waits. */
	int busy;
	uint64_t wakeups;
	unsigned int waiters;
	pthread_mutex_t wait_lock;
	pthread_cond_t waitq;
};

static inline uint64_t hr_load_pos(const uint64_t *pos)
{
	return __atomic_load_n(pos, __ATOMIC_ACQUIRE);
}

/* A record's whole length: header and bytes, rounded up to 8. */
static inline uint32_t hr_rec_len(uint32_t len)
{
	return ((len & ~(HR_RINGBUF_BUSY_BIT | HR_RINGBUF_DISCARD_BIT)) +
		HR_RINGBUF_HDR_SZ + 7) &
	       ~7u;
}

/* BPF_RB_* flags and query selectors (include/uapi/linux/bpf.h). */
#define HR_RB_NO_WAKEUP (1ULL << 0)
#define HR_RB_FORCE_WAKEUP (1ULL << 1)
#define HR_RB_AVAIL_DATA 0
#define HR_RB_RING_SIZE 1
#define HR_RB_CONS_POS 2
#define HR_RB_PROD_POS 3

/* __bpf_ringbuf_reserve(): a record of @size bytes, or NULL when it does
 * not fit. */
void *hr_ringbuf_reserve(struct hr_map *map, uint64_t size);
/* Whether @sample is inside @map's data area. */
bool hr_ringbuf_owns(const struct hr_map *map, const void *sample);
/* bpf_ringbuf_commit(): false when @sample is not a reserved record. */
bool hr_ringbuf_commit(struct hr_map *map, void *sample, bool discard);
uint64_t hr_ringbuf_query(struct hr_map *map, uint64_t flags);

/* BPF_MAX_USER_RINGBUF_SAMPLES (include/linux/bpf.h). */
#define HR_MAX_USER_RINGBUF_SAMPLES (128 * 1024)

/* bpf_user_ringbuf_drain's hold on the ring (rb->busy): false when
 * another drain has it (-EBUSY). */
bool hr_user_ringbuf_try_busy(struct hr_map *map);
/* Lets go of it; wakes user space producers as irq_work_queue(&rb->work)
 * would when @wakeup. */
void hr_user_ringbuf_unbusy(struct hr_map *map, bool wakeup);
/*
 * __bpf_user_ringbuf_peek(): the next sample's bytes and size (0), or
 * -ENODATA (none, or one still being written), -EAGAIN (a discarded one,
 * now consumed), -EINVAL (a producer position not a multiple of 8, or a
 * sample running past it), -E2BIG (a sample larger than the ring or a
 * dynptr).
 */
int hr_user_ringbuf_peek(struct hr_map *map, void **sample, uint32_t *size);
/* __bpf_user_ringbuf_sample_release(): consumes the sample of @size
 * bytes peek gave. */
void hr_user_ringbuf_release(struct hr_map *map, uint32_t size);

#endif /* HR_MAPS_RINGBUF_H */
