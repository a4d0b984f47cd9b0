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

/*
 * A record's layout in both kinds of ring (kernel/bpf/ringbuf.c): an
 * 8-byte header (a u32 length whose two top bits are flags, a u32 page
 * offset) in front of the bytes, the whole rounded up to 8 bytes.
 */
#define HR_RINGBUF_BUSY_BIT (1u << 31) /* BPF_RINGBUF_BUSY_BIT */
#define HR_RINGBUF_DISCARD_BIT (1u << 30) /* BPF_RINGBUF_DISCARD_BIT */
#define HR_RINGBUF_HDR_SZ 8u /* BPF_RINGBUF_HDR_SZ */

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
