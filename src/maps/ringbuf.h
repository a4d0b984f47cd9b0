/* SPDX-License-Identifier: MIT */
/* The ring buffer's producer side, for the bpf_ringbuf_* helpers. */
#ifndef HR_MAPS_RINGBUF_H
#define HR_MAPS_RINGBUF_H

#include <stdbool.h>
#include <stdint.h>

struct hr_map;

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

#endif /* HR_MAPS_RINGBUF_H */
