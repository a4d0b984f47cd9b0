/* SPDX-License-Identifier: MIT */
/*
 * bpf_dynptr_slice_rdwr emulated for kernels that refuse the kfunc at
 * load (tests/lib/kernel_side.h says which): include before a program that
 * slices through SLICE_RDWR and stores through SLICE_STORE.
 *
 * In kernel/bpf/helpers.c the rdwr slice of a writable dynptr is the
 * read-only slice (NULL for a read-only dynptr, none of the dynptrs the
 * tests use is one), and a store through it reaches the dynptr's data
 * only when the slice is not the caller's buffer. So: the read-only
 * slice, and a store into the buffer when the slice is the buffer, else
 * one byte of bpf_dynptr_write at the same offset.
 */
#ifndef HR_PROGS_RDWR_EMUL_H
#define HR_PROGS_RDWR_EMUL_H

#include "hr_dynptr.h"

#define SLICE_RDWR(d, off, buf, len) bpf_dynptr_slice(d, off, buf, len)
#define SLICE_STORE(d, off, p, buf, i, v)                            \
	do {                                                         \
		__u8 v_ = (v), *b_ = (__u8 *)(buf);                  \
                                                                     \
		if (b_ && (void *)(p) == (void *)b_)                 \
			b_[i] = v_;                                  \
		else                                                 \
			bpf_dynptr_write(d, (off) + (i), &v_, 1, 0); \
	} while (0)

#endif /* HR_PROGS_RDWR_EMUL_H */
