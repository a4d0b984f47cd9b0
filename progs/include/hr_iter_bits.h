/* SPDX-License-Identifier: MIT */
/*
 * The bits iterator of Linux 6.11+ (kernel/bpf/helpers.c), absent from
 * the 6.1 headers the programs build against: the verifier knows the
 * iterator by this name and size.
 */
#ifndef HR_PROGS_ITER_BITS_H
#define HR_PROGS_ITER_BITS_H

#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct bpf_iter_bits {
	__u64 __opaque[2];
} __attribute__((aligned(8)));

extern int bpf_iter_bits_new(struct bpf_iter_bits *it,
			     const __u64 *unsafe_ptr__ign,
			     __u32 nr_words) __ksym;
extern int *bpf_iter_bits_next(struct bpf_iter_bits *it) __ksym;
extern void bpf_iter_bits_destroy(struct bpf_iter_bits *it) __ksym;

#endif /* HR_PROGS_ITER_BITS_H */
