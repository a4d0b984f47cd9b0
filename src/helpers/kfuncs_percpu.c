// SPDX-License-Identifier: MIT
/*
 * Per-CPU objects: bpf_percpu_obj_new_impl and bpf_percpu_obj_drop_impl
 * of kernel/bpf/helpers.c (Linux 6.18), and the helpers that reach
 * their copies, bpf_per_cpu_ptr (153) and bpf_this_cpu_ptr (154) of
 * kernel/bpf/helpers.c, under the verifier's rules for them
 * (check_kfunc_call, check_helper_call's returns_cpu_specific_alloc_ptr),
 * over maps/map_kptr.c's objects.
 *
 * bpf_percpu_obj_new_impl(local_type_id, meta) gives an object with one
 * zeroed copy per possible CPU, the object's number of CPUs being its
 * program's object's (hr_object.ncpus, the per-CPU maps' too), NULL
 * when it cannot be had. The verifier takes a struct of scalars of at
 * most 512 bytes without special fields (loader/alloc_types.c refuses
 * any other at load in its words; here a run given one ends).
 *
 * The object is the run's reference (a held record as bpf_obj_new's,
 * of no bytes: the program cannot read it), until
 * bpf_percpu_obj_drop_impl frees it or bpf_kptr_xchg moves it into a
 * __percpu_kptr field (kfuncs_obj.c). The verifier refuses
 * bpf_per_cpu_ptr and bpf_this_cpu_ptr on that reference ("R1
 * type=percpu_ptr_ expected=percpu_ptr_, percpu_rcu_ptr_,
 * percpu_trusted_ptr_"): they take the pointer a program loads from
 * the field, MEM_RCU in a program that is not sleepable, and give a
 * copy the program reads and writes (MEM_ALLOC | MEM_RCU), its own
 * until the run ends as RCU keeps it in the kernel. So here they take
 * an object a kptr field owns, or one the run reached so already, and
 * the run holds a reference to the object with each copy it reached
 * (freed with the last, at the run's end at the latest); given anything
 * else (a kernel per-CPU variable's address included, which headroom
 * has none of) the run ends. bpf_per_cpu_ptr gives NULL for a cpu at
 * or past the number of copies (nr_cpu_ids); bpf_this_cpu_ptr the copy
 * of the run's CPU (hr_run.cpu, bpf_get_smp_processor_id's).
 */
#include <stdint.h>

#include "helpers/helpers.h"
#include "maps/map_kptr.h"
#include "progs/prog.h"

/* BPF_GLOBAL_PERCPU_MA_MAX_SIZE. */
#define PERCPU_MAX_SIZE 512

/* The run's reference to a per-CPU object, and to one it reached a
 * copy of: each lets go of a reference of the object's. */
static void percpu_drop(void *obj)
{
	hr_obj_free(obj);
}

static void copy_put(void *obj)
{
	hr_obj_free(obj);
}

struct hr_held_rec *hr_percpu_held(struct hr_run *run, uint64_t ptr)
{
	unsigned int i;

	for (i = 0; i < run->nheld; i++)
		if (run->held[i].drop == percpu_drop &&
		    run->held[i].start == ptr)
			return &run->held[i];
	return NULL;
}

uint64_t hr_percpu_hold(struct hr_run *run, void *obj)
{
	if (run->nheld >= HR_MAX_HELD_RECORDS) {
		hr_obj_free(obj);
		return 0;
	}
	/* No bytes: the program reaches its copies through the helpers. */
	run->held[run->nheld++] = (struct hr_held_rec){
		.start = (uintptr_t)obj,
		.end = (uintptr_t)obj,
		.drop = percpu_drop,
		.obj = obj,
		.leak = true,
	};
	return (uintptr_t)obj;
}

/* void *bpf_percpu_obj_new_impl(u64 local_type_id__k, void *meta__ign) */
static uint64_t percpu_obj_new_impl(uint64_t id, uint64_t meta, uint64_t r3,
				    uint64_t r4, uint64_t r5,
				    struct hr_run *run)
{
	const struct hr_prog *prog = run->vm ? run->vm->prog : NULL;
	const struct hr_object *o = prog ? prog->obj : NULL;
	const struct hr_local_type *t;
	void *p;

	if (!o || id >= o->nlocal_types || !o->local_types[id].alloc ||
	    !o->local_types[id].percpu) {
		hr_run_abort(run, HR_ABORT_HELPER_ARG, id);
		return 0;
	}
	t = &o->local_types[id];
	/* bpf_mem_alloc: nothing for 0 bytes; KF_RET_NULL, the program
	 * checks. */
	if (!t->size || t->size > PERCPU_MAX_SIZE ||
	    run->nheld >= HR_MAX_HELD_RECORDS)
		return 0;
	p = hr_obj_alloc_percpu(t->size, o->ncpus ? o->ncpus : 1);
	return p ? hr_percpu_hold(run, p) : 0;
}

HR_KFUNC(percpu_obj_new_impl, percpu_obj_new_impl);

/* void bpf_percpu_obj_drop_impl(void *p__alloc, void *meta__ign) */
static uint64_t percpu_obj_drop_impl(uint64_t ptr, uint64_t meta, uint64_t r3,
				     uint64_t r4, uint64_t r5,
				     struct hr_run *run)
{
	struct hr_held_rec *h = hr_percpu_held(run, ptr);

	if (!h) {
		hr_run_abort(run, HR_ABORT_HELPER_ARG, ptr);
		return 0;
	}
	hr_obj_free(h->obj);
	*h = run->held[--run->nheld];
	return 0;
}

HR_KFUNC(percpu_obj_drop_impl, percpu_obj_drop_impl);

/* Copy @cpu of the per-CPU object at @ptr, the run's until it ends;
 * NULL past its copies, or after stopping the run when @ptr is no
 * object a kptr field owns or the run reached through one. */
static uint64_t copy_of(struct hr_run *run, uint64_t ptr, uint32_t cpu)
{
	bool reached = false;
	unsigned int i;
	uint8_t *copy;
	void *obj;

	for (i = 0; i < run->nheld && !reached; i++)
		reached = run->held[i].drop == copy_put &&
			  (uintptr_t)run->held[i].obj == ptr;
	obj = hr_obj_percpu_get(ptr, reached);
	if (!obj) {
		hr_run_abort(run, HR_ABORT_HELPER_ARG, ptr);
		return 0;
	}
	copy = hr_obj_percpu_copy(obj, cpu);
	for (i = 0; copy && i < run->nheld; i++)
		if (run->held[i].drop == copy_put &&
		    run->held[i].start == (uintptr_t)copy)
			break;
	if (!copy || i < run->nheld) {
		hr_obj_free(obj);
		return (uintptr_t)copy;
	}
	if (run->nheld >= HR_MAX_HELD_RECORDS) {
		/* The kernel's cannot fail: nowhere to keep it here. */
		hr_obj_free(obj);
		hr_run_abort(run, HR_ABORT_NOMEM, ptr);
		return 0;
	}
	run->held[run->nheld++] = (struct hr_held_rec){
		.start = (uintptr_t)copy,
		.end = (uintptr_t)copy + hr_obj_size(obj),
		.drop = copy_put,
		.obj = obj,
	};
	return (uintptr_t)copy;
}

/* void *bpf_per_cpu_ptr(const void *percpu_ptr, u32 cpu) */
static uint64_t per_cpu_ptr(uint64_t ptr, uint64_t cpu, uint64_t r3,
			    uint64_t r4, uint64_t r5, struct hr_run *run)
{
	return copy_of(run, ptr, (uint32_t)cpu);
}

const struct hr_helper hr_helper_per_cpu_ptr = {
	.id = 153,
	.name = "bpf_per_cpu_ptr",
	.fn = per_cpu_ptr,
};

/* void *bpf_this_cpu_ptr(const void *percpu_ptr) */
static uint64_t this_cpu_ptr(uint64_t ptr, uint64_t r2, uint64_t r3,
			     uint64_t r4, uint64_t r5, struct hr_run *run)
{
	uint64_t copy = copy_of(run, ptr, run->cpu);

	/* The verifier knows it is no NULL: a run on a CPU the object has
	 * no copy for ends. */
	if (!copy && !run->abort)
		hr_run_abort(run, HR_ABORT_HELPER_ARG, ptr);
	return copy;
}

const struct hr_helper hr_helper_this_cpu_ptr = {
	.id = 154,
	.name = "bpf_this_cpu_ptr",
	.fn = this_cpu_ptr,
};
