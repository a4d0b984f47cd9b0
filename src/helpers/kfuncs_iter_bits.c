// SPDX-License-Identifier: MIT
/*
 * The open-coded bits iterator of kernel/bpf/helpers.c (bpf_iter_bits_new,
 * _next, _destroy): the set bits of nr_words 64-bit words, lowest first,
 * copied at new() as the kernel copies them, so that later stores to the
 * words change nothing. new() gives -EINVAL for a NULL pointer or no
 * words, -E2BIG past 511 words, and the error of the kernel's
 * copy_from_kernel_nofault otherwise: one word (kept in the iterator)
 * turns every failure into -EFAULT, more words (kept in memory of the
 * kernel's allocator) return -ERANGE or -EFAULT as the copy does.
 *
 * The words are read through the run's memory check: memory the program
 * may not read is -EFAULT and is never read; a number that can be no
 * kernel address is -ERANGE (hr_nofault_allowed, with the limits
 * kfuncs_string.c states). The copy of more than one word lives on the
 * heap, held by the run (struct hr_run's held[]) until destroy() or the
 * run's end; the iterator keeps its address, and next() follows only an
 * address the run holds, so a program that overwrites its iterator (the
 * kernel's verifier forbids it) stops instead of reading elsewhere. A run
 * already holding HR_MAX_HELD_RECORDS objects gets -ENOMEM, the
 * allocator's failure.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "helpers/helpers.h"
#include "vm/mem.h"

/* kernel/bpf/helpers.c: the most words one iterator takes. */
#define BITS_ITER_NR_WORDS_MAX 511

/* struct bpf_iter_bits's 16 opaque bytes, as the kernel lays them out. */
struct iter_bits {
	union {
		uint64_t addr; /* nr_bits > 64: the held copy */
		uint64_t copy; /* nr_bits == 64: the word itself */
	};
	int32_t nr_bits; /* 0 after a failed new() */
	int32_t bit; /* the bit next() last gave, -1 before */
};

/* The held copy's drop, which also marks it among the run's objects. */
static void bits_free(void *obj)
{
	free(obj);
}

static struct iter_bits *iter_get(struct hr_run *run, uint64_t addr)
{
	/* As kfuncs_iter.c: the verifier would pass only its stack slot. */
	if (addr & 7) {
		hr_run_abort(run, HR_ABORT_HELPER_ARG, addr);
		return NULL;
	}
	return hr_run_mem(run, addr, sizeof(struct iter_bits), true);
}

/* The run's held copy at @addr, or NULL. */
static struct hr_held_rec *held_copy(struct hr_run *run, uint64_t addr)
{
	unsigned int i;

	for (i = 0; i < run->nheld; i++)
		if (run->held[i].drop == bits_free &&
		    (uintptr_t)run->held[i].obj == addr)
			return &run->held[i];
	return NULL;
}

/* copy_from_kernel_nofault of @len bytes at @src: 0, -ERANGE or -EFAULT
 * (the kernel zeroes @dst on failure; nothing reads it then). */
static int copy_nofault(const struct hr_run *run, void *dst, uint64_t src,
			uint32_t len)
{
	if (!hr_nofault_allowed(run, src))
		return -ERANGE;
	if (hr_mem_check(run, (uintptr_t)src, len, false) != HR_ABORT_NONE)
		return -EFAULT;
	memcpy(dst, (const void *)(uintptr_t)src, len);
	return 0;
}

static int bits_new(struct hr_run *run, struct iter_bits *it, uint64_t src,
		    uint32_t nr_words)
{
	uint32_t nr_bytes = nr_words * 8;
	void *copy;
	int err;

	it->copy = 0;
	it->nr_bits = 0;
	it->bit = -1;
	if (!src || !nr_words)
		return -EINVAL;
	if (nr_words > BITS_ITER_NR_WORDS_MAX)
		return -E2BIG;
	if (nr_words == 1) {
		if (copy_nofault(run, &it->copy, src, 8))
			return -EFAULT;
		it->nr_bits = 64;
		return 0;
	}
	if (run->nheld >= HR_MAX_HELD_RECORDS || !(copy = malloc(nr_bytes)))
		return -ENOMEM;
	err = copy_nofault(run, copy, src, nr_bytes);
	if (err) {
		free(copy);
		return err;
	}
	/* No bytes of it are the program's: start = end. */
	run->held[run->nheld++] =
		(struct hr_held_rec){ .start = (uintptr_t)copy,
				      .end = (uintptr_t)copy,
				      .drop = bits_free,
				      .obj = copy };
	it->addr = (uintptr_t)copy;
	it->nr_bits = (int32_t)(nr_bytes * 8);
	return 0;
}

/* The first set bit at or after @from among @nr_bits of @words; @nr_bits
 * when there is none (find_next_bit). */
static int32_t next_bit(const uint64_t *words, int32_t nr_bits, int32_t from)
{
	int32_t i = from / 64;
	uint64_t w;

	if (from >= nr_bits)
		return nr_bits;
	w = words[i] & (~0ull << (from % 64));
	while (!w) {
		if (++i >= nr_bits / 64)
			return nr_bits;
		w = words[i];
	}
	return i * 64 + __builtin_ctzll(w);
}

/* int bpf_iter_bits_new(it, unsafe_ptr__ign, nr_words) */
static uint64_t iter_bits_new(uint64_t r_it, uint64_t src, uint64_t r_words,
			      uint64_t r4, uint64_t r5, struct hr_run *run)
{
	struct iter_bits *it = iter_get(run, r_it);

	if (!it)
		return 0;
	return (uint64_t)(int64_t)bits_new(run, it, src, (uint32_t)r_words);
}

/* int *bpf_iter_bits_next(it): the next set bit's index, NULL when done
 * (and from then on). */
static uint64_t iter_bits_next(uint64_t r_it, uint64_t r2, uint64_t r3,
			       uint64_t r4, uint64_t r5, struct hr_run *run)
{
	struct iter_bits *it = iter_get(run, r_it);
	const uint64_t *words;
	struct hr_held_rec *h;

	if (!it || !it->nr_bits || it->bit >= it->nr_bits)
		return 0;
	if (it->nr_bits == 64) {
		words = &it->copy;
	} else {
		h = held_copy(run, it->addr);
		if (!h) {
			hr_run_abort(run, HR_ABORT_HELPER_ARG, r_it);
			return 0;
		}
		words = h->obj;
	}
	it->bit = next_bit(words, it->nr_bits, it->bit + 1);
	return it->bit >= it->nr_bits ? 0 : (uint64_t)(uintptr_t)&it->bit;
}

static uint64_t iter_bits_destroy(uint64_t r_it, uint64_t r2, uint64_t r3,
				  uint64_t r4, uint64_t r5, struct hr_run *run)
{
	struct iter_bits *it = iter_get(run, r_it);
	struct hr_held_rec *h;

	/* The kernel frees only a copy it allocated (nr_bits > 64); a
	 * failed new() left nr_bits 0 and nothing to free. */
	if (!it || it->nr_bits <= 64)
		return 0;
	h = held_copy(run, it->addr);
	if (!h) {
		hr_run_abort(run, HR_ABORT_HELPER_ARG, r_it);
		return 0;
	}
	free(h->obj);
	*h = run->held[--run->nheld];
	return 0;
}

HR_KFUNC(iter_bits_new, iter_bits_new);
HR_KFUNC(iter_bits_next, iter_bits_next);
HR_KFUNC(iter_bits_destroy, iter_bits_destroy);
