/* SPDX-License-Identifier: MIT */
/* The perf event array's side of bpf_perf_event_output (helpers_perf.c). */
#ifndef HR_MAPS_PERF_EVENT_ARRAY_H
#define HR_MAPS_PERF_EVENT_ARRAY_H

#include <stdint.h>
#include <linux/bpf.h>

struct hr_map;

extern const struct hr_map_ops hr_map_ops_perf_event_array;

/*
 * Hands @size bytes to @map's reader for slot (flags & BPF_F_INDEX_MASK,
 * or @cpu for BPF_F_CURRENT_CPU): 0, -EINVAL (not a perf event array),
 * -E2BIG, -ENOENT (slot not open), -EOPNOTSUPP (another worker's slot) or
 * -ENOSPC (open slot without a reader: lost).
 */
int hr_perf_output(struct hr_map *map, uint64_t flags, unsigned int cpu,
		   const void *data, uint32_t size);

#endif /* HR_MAPS_PERF_EVENT_ARRAY_H */
