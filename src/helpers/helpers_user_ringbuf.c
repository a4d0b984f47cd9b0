// SPDX-License-Identifier: MIT
/*
 * bpf_user_ringbuf_drain (helper 209, kernel/bpf/ringbuf.c): the samples
 * user space submitted to a BPF_MAP_TYPE_USER_RINGBUF, each handed to the
 * program's callback (const struct bpf_dynptr *dynptr, void *ctx) as a
 * local dynptr over the sample (bpf_dynptr_init(..., BPF_DYNPTR_TYPE_LOCAL,
 * 0, size): not read-only), until the ring is empty, the callback returns
 * 1, or BPF_MAX_USER_RINGBUF_SAMPLES were taken (discarded ones count
 * towards it but not in the result). One drain at a time on a ring
 * (-EBUSY for the others); an error of __bpf_user_ringbuf_peek (a sample
 * user space wrote wrong) ends it with that error, what was consumed
 * staying consumed.
 *
 * The kernel's callback gets a pointer to a dynptr on the kernel's stack,
 * which the verifier lets it read but not write, and the sample's bytes
 * through it: here, while the drain runs, the run's regions are this
 * helper's copy with two more, the dynptr (read-only) and the sample.
 * Each callback costs one unit of the run's budget, as bpf_loop's.
 */
#include <errno.h>

#include "helpers/dynptr.h"
#include "helpers/helpers.h"
#include "maps/map.h"
#include "maps/ringbuf.h"
#include "vm/vm.h"

static uint64_t ret_int(long v)
{
	return (uint64_t)(int64_t)v;
}

struct drain {
	struct hr_run *run;
	struct hr_map *map;
	uint32_t pc;
	uint64_t ctx;
	struct hr_region *extra; /* the two regions past the run's own */
	long samples, discarded;
};

/* One sample to the callback; its return (check run->abort after). */
static uint64_t drain_one(struct drain *d, void *sample, uint32_t size)
{
	struct hr_dynptr dp = {
		.data = (uintptr_t)sample,
		.size = size | (uint32_t)HR_DYNPTR_TYPE_LOCAL
				       << HR_DYNPTR_TYPE_SHIFT,
	};
	uint64_t args[5] = { (uintptr_t)&dp, d->ctx, 0, 0, 0 };
	uint64_t ret;

	d->extra[0] = (struct hr_region){ .start = (uintptr_t)&dp,
					  .end = (uintptr_t)(&dp + 1),
					  .flags = HR_REGION_READ };
	d->extra[1] = (struct hr_region){
		.start = (uintptr_t)sample,
		.end = (uintptr_t)sample + size,
		.flags = HR_REGION_READ | HR_REGION_WRITE,
	};
	if (!hr_run_charge_callback(d->run, d->pc))
		return 0;
	ret = d->run->callback(d->run, d->pc, args);
	hr_user_ringbuf_release(d->map, size);
	/* Neither is reachable once the callback returned. */
	d->extra[0].end = d->extra[0].start;
	d->extra[1].end = d->extra[1].start;
	return ret;
}

/* The loop of the kernel's bpf_user_ringbuf_drain, the ring held. */
static long drain_all(struct drain *d)
{
	uint64_t ret = 0;
	uint32_t size;
	void *sample;
	int err;

	for (d->samples = 0;
	     d->samples < HR_MAX_USER_RINGBUF_SAMPLES && ret == 0;
	     d->samples++) {
		err = hr_user_ringbuf_peek(d->map, &sample, &size);
		if (err == -ENODATA)
			break;
		if (err == -EAGAIN) {
			d->discarded++;
			continue;
		}
		if (err)
			return err;
		ret = drain_one(d, sample, size);
		if (d->run->abort)
			return 0;
	}
	return d->samples - d->discarded;
}

static uint64_t user_ringbuf_drain_fn(uint64_t r1, uint64_t r2, uint64_t r3,
				      uint64_t r4, uint64_t r5,
				      struct hr_run *run)
{
	struct hr_map *map = hr_run_map(run, r1);
	struct drain d = {
		.run = run, .map = map, .pc = (uint32_t)r2, .ctx = r3
	};
	struct hr_run_regions save;
	long ret;

	if (!map)
		return 0;
	/* The verifier takes no other map, and a static function. */
	if (map->attr.type != HR_MAP_USER_RINGBUF || !run->callback ||
	    r2 >= run->vm->cnt) {
		hr_run_abort(run, HR_ABORT_HELPER_ARG,
			     map->attr.type != HR_MAP_USER_RINGBUF ? r1 : r2);
		return 0;
	}
	if (r4 & ~(HR_RB_NO_WAKEUP | HR_RB_FORCE_WAKEUP))
		return ret_int(-EINVAL);
	if (!hr_user_ringbuf_try_busy(map))
		return ret_int(-EBUSY);
	d.extra = hr_run_regions_push(run, 2, &save);
	ret = d.extra ? drain_all(&d) : -ENOMEM;
	if (d.extra)
		hr_run_regions_pop(run, &save);
	hr_user_ringbuf_unbusy(map, (r4 & HR_RB_FORCE_WAKEUP) ||
					    (!(r4 & HR_RB_NO_WAKEUP) &&
					     d.samples > 0));
	return ret_int(ret);
}

const struct hr_helper hr_helper_user_ringbuf_drain = {
	209, "bpf_user_ringbuf_drain", user_ringbuf_drain_fn
};
