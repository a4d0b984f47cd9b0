/* SPDX-License-Identifier: MIT */
/* The map conv_pin_a and conv_pin_b share, pinned by name. */
#ifndef HR_PROGS_PIN_MAP_H
#define HR_PROGS_PIN_MAP_H

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, 1);
	__uint(pinning, LIBBPF_PIN_BY_NAME);
} hr_shared_cnt SEC(".maps");

#endif /* HR_PROGS_PIN_MAP_H */
