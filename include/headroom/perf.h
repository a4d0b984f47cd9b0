/* SPDX-License-Identifier: MIT */
/*
 * Reading BPF_MAP_TYPE_PERF_EVENT_ARRAY samples: what a program sends
 * with bpf_perf_event_output() goes to the reader registered for its map,
 * as libbpf's perf_buffer hands out samples.
 *
 * In the kernel each array slot holds a perf event of one CPU, opened by
 * the reader; here registering a reader opens one slot a worker (the
 * object's worker count, slot N for worker N), as libbpf's perf_buffer
 * opens one a CPU, and a slot user space stored a value in counts as
 * open too (its samples are lost without a reader). As in the kernel a program
 * may only write to the slot of the worker it runs on (BPF_F_CURRENT_CPU
 * picks it), a slot without an event gives -ENOENT, one past max_entries
 * -E2BIG and another worker's -EOPNOTSUPP.
 */
#ifndef HEADROOM_PERF_H
#define HEADROOM_PERF_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct hr_map;

/*
 * One sample: the program's bytes followed by the packet bytes it asked
 * for (the upper 32 bits of the flags), @size bytes in all, unpadded (the
 * kernel pads the raw record to 8 bytes; the padding is not passed on).
 * Called on the worker that ran the program, during the run: it must be
 * quick, and safe to call from several workers at once.
 */
typedef void (*hr_perf_sample_fn)(void *ctx, unsigned int cpu, const void *data,
				  uint32_t size);

/* Registers @fn (NULL: closes every slot); 0 or -EINVAL when @map is not
 * a perf event array. */
int hr_perf_set_reader(struct hr_map *map, hr_perf_sample_fn fn, void *ctx);

/* Samples delivered and samples refused (no reader, wrong slot ...). */
uint64_t hr_perf_samples(const struct hr_map *map);
uint64_t hr_perf_lost(const struct hr_map *map);

#ifdef __cplusplus
}
#endif

#endif /* HEADROOM_PERF_H */
