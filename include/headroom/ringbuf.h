/* SPDX-License-Identifier: MIT */
/*
 * Consuming a BPF_MAP_TYPE_RINGBUF from user space, as libbpf's
 * ring_buffer__consume(): every committed record in order, discarded ones
 * skipped, stopping at the first one still being written.
 */
#ifndef HEADROOM_RINGBUF_H
#define HEADROOM_RINGBUF_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

struct hr_map;

/* Called once a record; a negative return stops consumption and is
 * returned by hr_ringbuf_consume() (the record counts as consumed). */
typedef int (*hr_ringbuf_sample_fn)(void *ctx, void *data, size_t size);

/* Number of records handed to @fn, or -errno (-EINVAL: not a ring
 * buffer; -EBADMSG: a record's length runs past what was committed, so
 * the ring was damaged, and consumption stops before it). */
int hr_ringbuf_consume(struct hr_map *map, hr_ringbuf_sample_fn fn, void *ctx);

/* Bytes committed or reserved but not yet consumed (BPF_RB_AVAIL_DATA). */
unsigned long hr_ringbuf_avail(struct hr_map *map);

#ifdef __cplusplus
}
#endif

#endif /* HEADROOM_RINGBUF_H */
