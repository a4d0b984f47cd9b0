/* SPDX-License-Identifier: MIT */
/*
 * Producing into a BPF_MAP_TYPE_USER_RINGBUF from user space, as libbpf's
 * user_ring_buffer__new(), __reserve(), __reserve_blocking(), __submit()
 * and __discard(): samples a program takes with bpf_user_ringbuf_drain(),
 * in order. The ring's records are the kernel's (headroom/ringbuf.h): an
 * 8-byte header of the length, BUSY while reserved, DISCARD when thrown
 * away, in front of the sample, the whole rounded up to 8 bytes; the
 * header sits HR_RINGBUF_HDR_SZ bytes before the pointer reserve gives.
 *
 * As libbpf's, a producer is not thread-safe: one reserve at a time on a
 * map (submits and discards may come in any order, from any thread).
 */
#ifndef HEADROOM_USER_RINGBUF_H
#define HEADROOM_USER_RINGBUF_H

#include <stddef.h>
#include <stdint.h>

#include "headroom/ringbuf.h"

#ifdef __cplusplus
extern "C" {
#endif

struct hr_map;
struct hr_user_ringbuf;

struct hr_user_ringbuf_opts {
	size_t sz; /* sizeof(struct hr_user_ringbuf_opts) */
};

/* A producer for @map (@opts may be NULL); 0, -EINVAL when @map is no
 * user ring buffer or @opts is too small, -ENOMEM. */
int hr_user_ringbuf_new(struct hr_map *map,
			const struct hr_user_ringbuf_opts *opts,
			struct hr_user_ringbuf **rb);
/* Frees the producer (not the map, which must outlive it, nor what was
 * submitted). */
void hr_user_ringbuf_free(struct hr_user_ringbuf *rb);

/*
 * Room for a sample of @size bytes, in *@sample, to be submitted or
 * discarded: 0; -E2BIG when @size has a flag bit (1 << 31 or 1 << 30)
 * set or the record (header included, rounded up to 8) is larger than
 * the ring; -ENOSPC when the ring has no room for it now.
 */
int hr_user_ringbuf_reserve(struct hr_user_ringbuf *rb, uint32_t size,
			    void **sample);
/*
 * The same, waiting up to @timeout_ms (-1: for ever, 0: not at all) for a
 * drain to make room: a bpf_user_ringbuf_drain() that consumed a sample
 * (without BPF_RB_NO_WAKEUP) or was given BPF_RB_FORCE_WAKEUP wakes it,
 * as the kernel's notification wakes libbpf's. -EINVAL for a timeout
 * below -1, -ENOSPC when it ran out.
 */
int hr_user_ringbuf_reserve_blocking(struct hr_user_ringbuf *rb, uint32_t size,
				     int timeout_ms, void **sample);
/* Posts a reserved sample for drains to take. */
void hr_user_ringbuf_submit(struct hr_user_ringbuf *rb, void *sample);
/* Throws a reserved sample away: drains skip it. */
void hr_user_ringbuf_discard(struct hr_user_ringbuf *rb, void *sample);

#ifdef __cplusplus
}
#endif

#endif /* HEADROOM_USER_RINGBUF_H */
