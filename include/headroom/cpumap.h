/* SPDX-License-Identifier: MIT */
/*
 * CPUMAP counters of a cpumap (hr_object_find_map()), as the kernel's tracepoints report them:
 * xdp_cpumap_enqueue per (source worker, target entry) and
 * xdp_cpumap_kthread per target entry. Cumulative over the map's life,
 * across entry replacements; each counter has one writer (the source
 * worker, or the target's worker), read with relaxed loads.
 */
#ifndef HEADROOM_CPUMAP_H
#define HEADROOM_CPUMAP_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct hr_map;

struct hr_cpumap_enq_stats {
	uint64_t processed; /* frames flushed towards the ring */
	uint64_t drops; /* of those, the ring was full */
	uint64_t bulks; /* flushes (average bulk = processed / bulks) */
};

struct hr_cpumap_kthread_stats {
	uint64_t processed; /* frames taken from the ring */
	uint64_t drops; /* dropped outside the program (entry teardown) */
	uint64_t sched; /* times the consumer went idle and woke again */
	uint64_t xdp_pass;
	uint64_t xdp_drop; /* program DROP, invalid verdicts, failures */
	uint64_t xdp_redirect;
	uint64_t exceptions; /* invalid verdicts (part of xdp_drop) */
	uint64_t delivered; /* skbs handed to hr_skb_receive */
};

/* Counters of source worker @src towards key @key; 0 or -EINVAL. */
int hr_cpumap_enqueue_stats(struct hr_map *map, unsigned int src, uint32_t key,
			    struct hr_cpumap_enq_stats *out);
/* Counters of the remote side of key @key; 0 or -EINVAL. */
int hr_cpumap_kthread_stats(struct hr_map *map, uint32_t key,
			    struct hr_cpumap_kthread_stats *out);

#ifdef __cplusplus
}
#endif

#endif /* HEADROOM_CPUMAP_H */
