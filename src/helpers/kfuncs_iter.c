// SPDX-License-Identifier: MIT
/*
 * The open-coded numeric iterator behind bpf_for() and bpf_repeat()
 * (kernel/bpf/bpf_iter.c: bpf_iter_num_new, _next, _destroy), and the
 * RCU and preemption section markers of kernel/bpf/helpers.c, which the
 * kernel's verifier pairs and which order nothing for a program that
 * runs on one thread with no kernel state to protect.
 */
#include <errno.h>
#include <stdint.h>

#include "helpers/helpers.h"

/* include/linux/bpf.h: the most iterations a numeric iterator gives. */
#define BPF_MAX_LOOPS (8 * 1024 * 1024)

/* struct bpf_iter_num's 8 opaque bytes, as the kernel lays them out. */
struct iter_num {
	int32_t cur; /* the value next() last gave */
	int32_t end; /* exclusive */
};

static struct iter_num *iter_get(struct hr_run *run, uint64_t addr)
{
	/* The kernel's verifier only lets a stack slot of its own through;
	 * here any pointer may come, so it must be 8 writable bytes. */
	if (addr & 7) {
		hr_run_abort(run, HR_ABORT_HELPER_ARG, addr);
		return NULL;
	}
	return hr_run_mem(run, addr, sizeof(struct iter_num), true);
}

/* int bpf_iter_num_new(it, start, end): [start, end), at most
 * BPF_MAX_LOOPS values; -EINVAL for start > end, -E2BIG for more. */
static uint64_t iter_num_new(uint64_t it, uint64_t r_start, uint64_t r_end,
			     uint64_t r4, uint64_t r5, struct hr_run *run)
{
	struct iter_num *s = iter_get(run, it);
	int32_t start = (int32_t)r_start, end = (int32_t)r_end;

	if (!s)
		return 0;
	if (start > end) {
		s->cur = s->end = 0;
		return (uint64_t)(int64_t)-EINVAL;
	}
	if ((int64_t)end - start > BPF_MAX_LOOPS) {
		s->cur = s->end = 0;
		return (uint64_t)(int64_t)-E2BIG;
	}
	/* next() steps first; start - 1 wraps for INT32_MIN as the
	 * kernel's int does (it builds with -fno-strict-overflow). */
	s->cur = (int32_t)((uint32_t)start - 1);
	s->end = end;
	return 0;
}

/* int *bpf_iter_num_next(it): the next value's address, NULL when done
 * (and from then on). */
static uint64_t iter_num_next(uint64_t it, uint64_t r2, uint64_t r3,
			      uint64_t r4, uint64_t r5, struct hr_run *run)
{
	struct iter_num *s = iter_get(run, it);
	int32_t next;

	if (!s)
		return 0;
	next = (int32_t)((uint32_t)s->cur + 1);
	if (next >= s->end) {
		s->cur = s->end = 0;
		return 0;
	}
	s->cur = next;
	return (uint64_t)(uintptr_t)&s->cur;
}

static uint64_t iter_num_destroy(uint64_t it, uint64_t r2, uint64_t r3,
				 uint64_t r4, uint64_t r5, struct hr_run *run)
{
	struct iter_num *s = iter_get(run, it);

	if (s)
		s->cur = s->end = 0;
	return 0;
}

/* bpf_rcu_read_lock and friends: void, and nothing to do. */
static uint64_t section_marker(uint64_t r1, uint64_t r2, uint64_t r3,
			       uint64_t r4, uint64_t r5, struct hr_run *run)
{
	return 0;
}

HR_KFUNC(iter_num_new, iter_num_new);
HR_KFUNC(iter_num_next, iter_num_next);
HR_KFUNC(iter_num_destroy, iter_num_destroy);
HR_KFUNC(rcu_read_lock, section_marker);
HR_KFUNC(rcu_read_unlock, section_marker);
HR_KFUNC(preempt_disable, section_marker);
HR_KFUNC(preempt_enable, section_marker);
