// SPDX-License-Identifier: MIT
/*
 * Allocated objects: bpf_obj_new_impl and bpf_obj_drop_impl of
 * kernel/bpf/helpers.c (Linux 6.18), over headroom's own allocator.
 *
 * bpf_obj_new_impl(local_type_id, meta) gives an object of a struct of
 * the program's BTF (bpf_core_type_id_local()): the verifier rewrites
 * the call with the struct's size, which bpf_mem_alloc() turns into NULL
 * for 0 bytes and for more than its largest cache holds (4096 bytes with
 * its 8-byte llist node); here the size comes from the object's table
 * (loader/alloc_types.c). The kernel zeroes the special fields alone
 * (bpf_obj_init); here the whole object is zeroed, one of the contents
 * the kernel may give.
 *
 * The object is the run's reference, kept among its held records as a
 * conntrack entry is: the program reads and writes its bytes and no
 * other, until bpf_obj_drop_impl frees it; after that every access to
 * it ends the run as any access outside the run's memory does, and a
 * second drop (or a drop of anything but a held object's start, which
 * the verifier refuses) ends it as a bad argument. The verifier refuses a
 * program that can end holding one ("Unreleased reference"): such a
 * run here frees what it holds and ends with HR_ABORT_OBJ_LEAK
 * (vm/run.c), so a leak is seen and never grows.
 */
#include <stdint.h>
#include <stdlib.h>

#include "helpers/helpers.h"
#include "progs/prog.h"

/* bpf_mem_alloc's largest cache (bpf_mem_cache_idx) and the llist node
 * it keeps before each object (LLIST_NODE_SZ). */
#define OBJ_CACHE_MAX 4096
#define OBJ_LLIST_NODE 8

static void obj_free(void *p)
{
	free(p);
}

/* The struct @id of the running program's BTF, or NULL after stopping
 * the run: the verifier takes a struct of program BTF alone, and
 * headroom refuses one with fields it does not model. */
static const struct hr_local_type *local_type(struct hr_run *run, uint64_t id)
{
	const struct hr_prog *prog = run->vm ? run->vm->prog : NULL;
	const struct hr_object *obj = prog ? prog->obj : NULL;
	const struct hr_local_type *t;

	if (!obj || id >= obj->nlocal_types)
		goto bad;
	t = &obj->local_types[id];
	if (!t->alloc || t->unmodelled)
		goto bad;
	return t;
bad:
	hr_run_abort(run, HR_ABORT_HELPER_ARG, id);
	return NULL;
}

/* void *bpf_obj_new_impl(u64 local_type_id__k, void *meta__ign) */
static uint64_t obj_new_impl(uint64_t id, uint64_t meta, uint64_t r3,
			     uint64_t r4, uint64_t r5, struct hr_run *run)
{
	const struct hr_local_type *t = local_type(run, id);
	void *p;

	if (!t)
		return 0;
	if (!t->size || t->size + OBJ_LLIST_NODE > OBJ_CACHE_MAX)
		return 0;
	/* KF_RET_NULL: an allocation may fail, and the program checks. */
	if (run->nheld >= HR_MAX_HELD_RECORDS)
		return 0;
	p = calloc(1, t->size);
	if (!p)
		return 0;
	run->held[run->nheld++] = (struct hr_held_rec){
		.start = (uintptr_t)p,
		.end = (uintptr_t)p + t->size,
		.drop = obj_free,
		.obj = p,
		.leak = true,
	};
	return (uintptr_t)p;
}

HR_KFUNC(obj_new_impl, obj_new_impl);

/* void bpf_obj_drop_impl(void *p__alloc, void *meta__ign) */
static uint64_t obj_drop_impl(uint64_t ptr, uint64_t meta, uint64_t r3,
			      uint64_t r4, uint64_t r5, struct hr_run *run)
{
	unsigned int i;

	for (i = 0; i < run->nheld; i++) {
		struct hr_held_rec *h = &run->held[i];

		if (h->drop != obj_free || h->start != ptr)
			continue;
		obj_free(h->obj);
		*h = run->held[--run->nheld];
		return 0;
	}
	hr_run_abort(run, HR_ABORT_HELPER_ARG, ptr);
	return 0;
}

HR_KFUNC(obj_drop_impl, obj_drop_impl);
