/* SPDX-License-Identifier: MIT */
/*
 * A map value holding a struct bpf_timer before a counter, and the array
 * of such values the timer programs (progs/helpers/xdp_timer_bad.bpf.c)
 * and the labelled pairs (tests/verifier/timer_*.bpf.c) declare.
 */
#ifndef HR_PROGS_TIMER_H
#define HR_PROGS_TIMER_H

#define CLOCK_MONOTONIC 1

struct tval {
	struct bpf_timer t;
	__u64 n;
};

/* A map @name of type @mtype with @n struct tval values. */
#define HR_TIMER_MAP(name, mtype, n)        \
	struct {                            \
		__uint(type, mtype);        \
		__uint(max_entries, n);     \
		__type(key, __u32);         \
		__type(value, struct tval); \
	} name SEC(".maps")

#endif /* HR_PROGS_TIMER_H */
