/* SPDX-License-Identifier: MIT */
/*
 * An array and a hash whose values hold a __percpu_kptr to the including
 * program's struct val, for the programs in progs/ that keep per-CPU objects
 * (bpf_percpu_obj_new). As in hr_kptr.h, clang 14 drops the type tag:
 * the typedef __tag_percpu_kptr becomes the type tag "percpu_kptr" in
 * the object's BTF (scripts/btf_type_tags.c, run by the Makefile on
 * every program including this).
 */
#ifndef HR_PERCPU_KPTR_H
#define HR_PERCPU_KPTR_H

#include <bpf/bpf_helpers.h>

typedef struct val __tag_percpu_kptr;

struct pval {
	__u64 tag;
	__tag_percpu_kptr *pc;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 2);
	__type(key, __u32);
	__type(value, struct pval);
} pcpu SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 4);
	__type(key, __u32);
	__type(value, struct pval);
} hpcpu SEC(".maps");

#endif /* HR_PERCPU_KPTR_H */
