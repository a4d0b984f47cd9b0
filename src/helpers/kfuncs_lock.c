// SPDX-License-Identifier: MIT
/*
 * The resilient spin lock kfuncs of kernel/bpf/rqspinlock.c
 * (bpf_res_spin_lock, _unlock, _lock_irqsave, _unlock_irqrestore) and
 * bpf_local_irq_save / _restore of kernel/bpf/helpers.c.
 *
 * A struct bpf_res_spin_lock is 4 bytes of a map value, taken here as a
 * bpf_spin_lock is (helpers_generic.c): 0 free, 1 held. Unlike that
 * one, a run may hold several, and taking one fails instead of hanging:
 * -EDEADLK for a lock this run already holds (the kernel's AA check; its
 * verifier refuses only the same lock taken twice through one pointer,
 * so two lookups of one element reach it), -ETIMEDOUT when another run
 * keeps it past the kernel's RES_DEF_TIMEOUT (a quarter second). Each
 * lock held is one of the run's held objects (struct hr_run's held[]),
 * let go of when the run ends however it ends; unlocking one the run
 * does not hold ends the run, as a forged argument does.
 *
 * Interrupts have no meaning for a run in user space: the flags word
 * the irq kfuncs save gets the value of x86's EFLAGS with interrupts on
 * (the program may not read it; the verifier forbids it), and restoring
 * changes nothing.
 *
 * Where headroom cannot agree: an ABBA deadlock between two runs ends
 * in -ETIMEDOUT for both here, where the kernel finds it sooner and
 * answers -EDEADLK; a run that already holds HR_MAX_HELD_RECORDS objects
 * cannot take another lock and ends (HR_ABORT_NOMEM); a run that ends
 * holding a lock (the verifier refuses such a program) lets go of it
 * without ending as HR_ABORT_LOCK_HELD, as bpf_spin_lock's does.
 */
#include <errno.h>
#include <stdint.h>

#include "helpers/helpers.h"
#include "maps/map_impl.h"

/* kernel/bpf/rqspinlock.c: how long a waiter waits. */
#define RES_DEF_TIMEOUT_NS (1000000000ull / 4)

/* x86 EFLAGS with IF set and its always-one bit 1. */
#define HR_IRQ_FLAGS_ON 0x202ull

static void lock_drop(void *lock)
{
	__atomic_store_n((uint32_t *)lock, 0, __ATOMIC_RELEASE);
}

/* The run's hold of @lock, or NULL. */
static struct hr_held_rec *held_lock(struct hr_run *run, uint32_t *lock)
{
	unsigned int i;

	for (i = 0; i < run->nheld; i++)
		if (run->held[i].drop == lock_drop && run->held[i].obj == lock)
			return &run->held[i];
	return NULL;
}

/* The 4 aligned bytes of a lock at @addr, or NULL after ending the run. */
static uint32_t *lock_word(struct hr_run *run, uint64_t addr)
{
	if (addr & 3) {
		hr_run_abort(run, HR_ABORT_HELPER_ARG, addr);
		return NULL;
	}
	return hr_run_mem(run, addr, sizeof(uint32_t), true);
}

/* res_spin_lock: 0, -EDEADLK or -ETIMEDOUT; 1 after ending the run. */
static int res_lock(struct hr_run *run, uint64_t addr)
{
	uint32_t *lock = lock_word(run, addr);

	if (!lock)
		return 1;
	if (held_lock(run, lock))
		return -EDEADLK;
	if (run->nheld >= HR_MAX_HELD_RECORDS) {
		hr_run_abort(run, HR_ABORT_NOMEM, addr);
		return 1;
	}
	if (!hr_spin_wait(lock, RES_DEF_TIMEOUT_NS))
		return -ETIMEDOUT;
	/* No bytes of it are the program's to touch: start = end. */
	run->held[run->nheld++] =
		(struct hr_held_rec){ .start = (uintptr_t)lock,
				      .end = (uintptr_t)lock,
				      .drop = lock_drop,
				      .obj = lock };
	return 0;
}

static void res_unlock(struct hr_run *run, uint64_t addr)
{
	uint32_t *lock = lock_word(run, addr);
	struct hr_held_rec *h;

	if (!lock)
		return;
	h = held_lock(run, lock);
	if (!h) {
		hr_run_abort(run, HR_ABORT_HELPER_ARG, addr);
		return;
	}
	*h = run->held[--run->nheld];
	lock_drop(lock);
}

/* The flags word of the irq kfuncs: 8 writable (or readable) bytes. */
static uint64_t *irq_flags(struct hr_run *run, uint64_t addr, bool write)
{
	return hr_run_mem(run, addr, sizeof(uint64_t), write);
}

static uint64_t ret_lock(int err)
{
	return err > 0 ? 0 : (uint64_t)(int64_t)err;
}

/* int bpf_res_spin_lock(struct bpf_res_spin_lock *lock) */
static uint64_t res_spin_lock(uint64_t lock, uint64_t r2, uint64_t r3,
			      uint64_t r4, uint64_t r5, struct hr_run *run)
{
	return ret_lock(res_lock(run, lock));
}

static uint64_t res_spin_unlock(uint64_t lock, uint64_t r2, uint64_t r3,
				uint64_t r4, uint64_t r5, struct hr_run *run)
{
	res_unlock(run, lock);
	return 0;
}

/* int bpf_res_spin_lock_irqsave(lock, unsigned long *flags__irq_flag):
 * the flags are written only when the lock was taken. */
static uint64_t res_spin_lock_irqsave(uint64_t lock, uint64_t flags,
				      uint64_t r3, uint64_t r4, uint64_t r5,
				      struct hr_run *run)
{
	uint64_t *f = irq_flags(run, flags, true);
	int err;

	if (!f)
		return 0;
	err = res_lock(run, lock);
	if (!err)
		*f = HR_IRQ_FLAGS_ON;
	return ret_lock(err);
}

static uint64_t res_spin_unlock_irqrestore(uint64_t lock, uint64_t flags,
					   uint64_t r3, uint64_t r4,
					   uint64_t r5, struct hr_run *run)
{
	if (irq_flags(run, flags, false))
		res_unlock(run, lock);
	return 0;
}

/* void bpf_local_irq_save(unsigned long *flags__irq_flag) */
static uint64_t local_irq_save(uint64_t flags, uint64_t r2, uint64_t r3,
			       uint64_t r4, uint64_t r5, struct hr_run *run)
{
	uint64_t *f = irq_flags(run, flags, true);

	if (f)
		*f = HR_IRQ_FLAGS_ON;
	return 0;
}

static uint64_t local_irq_restore(uint64_t flags, uint64_t r2, uint64_t r3,
				  uint64_t r4, uint64_t r5, struct hr_run *run)
{
	irq_flags(run, flags, false);
	return 0;
}

HR_KFUNC(res_spin_lock, res_spin_lock);
HR_KFUNC(res_spin_unlock, res_spin_unlock);
HR_KFUNC(res_spin_lock_irqsave, res_spin_lock_irqsave);
HR_KFUNC(res_spin_unlock_irqrestore, res_spin_unlock_irqrestore);
HR_KFUNC(local_irq_save, local_irq_save);
HR_KFUNC(local_irq_restore, local_irq_restore);
