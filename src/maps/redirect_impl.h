/* SPDX-License-Identifier: MIT */
/*
 * Shared by the redirect maps (devmap.c, cpumap.c, xskmap.c) only: the
 * kernel's __bpf_xdp_redirect_map() (include/linux/filter.h), the array
 * style get_next_key they share, and the grace period their updates wait
 * for before an old entry is freed.
 */
#ifndef HR_MAPS_REDIRECT_IMPL_H
#define HR_MAPS_REDIRECT_IMPL_H

#include <stdint.h>

#include "maps/map.h"

/* bpf_redirect_map flags (include/uapi/linux/bpf.h). */
#define HR_F_BROADCAST (1ULL << 3)
#define HR_F_EXCLUDE_INGRESS (1ULL << 4)
/* XDP_ABORTED | XDP_DROP | XDP_PASS | XDP_TX: the action on a miss. */
#define HR_REDIRECT_ACTION_MASK 3ULL

#define HR_XDP_ABORTED 0
#define HR_XDP_DROP 1
#define HR_XDP_PASS 2
#define HR_XDP_TX 3
#define HR_XDP_REDIRECT 4

/*
 * __bpf_xdp_redirect_map(): flags outside the action bits and @flag_mask
 * abort; a miss without BPF_F_BROADCAST clears the target and returns the
 * action bits; otherwise @ri names the map and entry. Unlike the kernel,
 * ri->map is set for unicast too (the datapath finds the type's
 * xdp_enqueue through it); ri->flags is non-zero only for broadcast.
 */
uint64_t hr_redirect_map_common(struct hr_map *map, uint64_t index,
				uint64_t flags, uint64_t flag_mask,
				void *(*lookup)(struct hr_map *map,
						uint32_t key),
				struct hr_redirect_info *ri);

/* Array-indexed types (DEVMAP, CPUMAP, XSKMAP): the next index, 0 for a
 * missing or out-of-range key, -ENOENT after the last. */
int hr_redirect_array_next_key(const struct hr_map *map, const void *key,
			       void *next);

/* Waits until no worker can still use an entry unpublished before the
 * call (hr_dp_synchronize on the process's datapath, if there is one). */
void hr_redirect_synchronize(void);

/* The process's datapath, or NULL while none exists. */
struct hr_datapath *hr_redirect_dp(void);

#endif /* HR_MAPS_REDIRECT_IMPL_H */
