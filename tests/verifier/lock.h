/* SPDX-License-Identifier: MIT */
/*
 * The map the bpf_spin_lock pairs of the labelled corpus share: one
 * array slot whose value holds a counter and its lock.
 */
#ifndef HR_VERIFIER_LOCK_H
#define HR_VERIFIER_LOCK_H

struct val {
	__u64 n;
	struct bpf_spin_lock lock;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct val);
} vals SEC(".maps");

#endif
