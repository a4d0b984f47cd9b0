/* SPDX-License-Identifier: MIT */
/*
 * The maps the bpf_timer pairs of the labelled corpus share: array slots
 * whose value holds a counter after its timer, and a second such map.
 */
#ifndef HR_VERIFIER_TIMER_H
#define HR_VERIFIER_TIMER_H

#include "hr_timer.h"

HR_TIMER_MAP(timers, BPF_MAP_TYPE_ARRAY, 1);
HR_TIMER_MAP(other, BPF_MAP_TYPE_ARRAY, 1);

/* The first slot of @map, or the end of the program. */
#define TIMER_VAL(map)                                            \
	({                                                        \
		__u32 k_ = 0;                                     \
		struct tval *v_ = bpf_map_lookup_elem(&map, &k_); \
		if (!v_)                                          \
			return XDP_PASS;                          \
		v_;                                               \
	})

#endif
