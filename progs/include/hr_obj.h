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

#define bpf_obj_new(type) \
	((type *)bpf_obj_new_impl(bpf_core_type_id_local(type), NULL))
#define bpf_obj_drop(kptr) bpf_obj_drop_impl(kptr, NULL)

#endif /* HR_OBJ_H */
