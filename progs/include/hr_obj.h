/* SPDX-License-Identifier: MIT */
/*
 * The allocated-object kfuncs of kernel/bpf/helpers.c and the macros the
 * kernel's selftests give them (bpf_experimental.h), for the programs in
 * progs/: the verifier fills in each call's meta argument.
 */
#ifndef HR_OBJ_H
#define HR_OBJ_H

#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>

extern void *bpf_obj_new_impl(__u64 local_type_id__k, void *meta__ign) __ksym;
extern void bpf_obj_drop_impl(void *kptr, void *meta__ign) __ksym;
extern void *bpf_refcount_acquire_impl(void *kptr, void *meta__ign) __ksym;
extern void *bpf_percpu_obj_new_impl(__u64 local_type_id__k,
				     void *meta__ign) __ksym;
extern void bpf_percpu_obj_drop_impl(void *kptr, void *meta__ign) __ksym;

/* include/linux/bpf.h's, absent from the 6.1 UAPI headers. */
struct bpf_refcount {
	__u32 __opaque[1];
} __attribute__((aligned(4)));

#define bpf_obj_new(type) \
	((type *)bpf_obj_new_impl(bpf_core_type_id_local(type), NULL))
#define bpf_obj_drop(kptr) bpf_obj_drop_impl(kptr, NULL)
#define bpf_refcount_acquire(kptr) \
	((typeof(kptr))bpf_refcount_acquire_impl(kptr, NULL))
/* A per-CPU object: its copies reached by bpf_per_cpu_ptr and
 * bpf_this_cpu_ptr alone. */
#define bpf_percpu_obj_new(type) \
	((type *)bpf_percpu_obj_new_impl(bpf_core_type_id_local(type), NULL))
#define bpf_percpu_obj_drop(kptr) bpf_percpu_obj_drop_impl(kptr, NULL)

#endif /* HR_OBJ_H */
