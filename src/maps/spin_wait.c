// SPDX-License-Identifier: MIT
/*
 * The bpf_spin_lock word of a map value, taken with a bound: by the
 * bpf_spin_lock helper and bpf_res_spin_lock (helpers), and by the
 * freeing of a value's list or tree (map_kptr.c), which the kernel does
 * under the value's lock (bpf_list_head_free, bpf_rb_root_free).
 */
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "maps/map_impl.h"

static uint64_t monotonic_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

bool hr_spin_wait(uint32_t *lock, uint64_t timeout_ns)
{
	uint64_t deadline = 0;
	unsigned int spins = 0;

	while (__atomic_exchange_n(lock, 1, __ATOMIC_ACQUIRE)) {
		while (__atomic_load_n(lock, __ATOMIC_RELAXED)) {
			hr_cpu_relax();
			if (++spins % 1024)
				continue;
			if (!deadline)
				deadline = monotonic_ns() + timeout_ns;
			else if (monotonic_ns() > deadline)
				return false;
		}
	}
	return true;
}
