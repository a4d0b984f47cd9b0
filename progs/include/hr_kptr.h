/* SPDX-License-Identifier: MIT */
/*
 * A map whose values hold a __kptr to the including program's struct
 * thing, for the programs in progs/ that use bpf_kptr_xchg. clang 14
 * drops btf_type_tag from BTF, so the field's type is a typedef named
 * __tag_kptr, which scripts/btf_type_tags.c (built and run by the
 * Makefile on every program including this) turns into the type tag
 * "kptr" clang 15 emits for `struct thing __kptr *`.
 */
#ifndef HR_KPTR_H
#define HR_KPTR_H

#include <bpf/bpf_helpers.h>

typedef struct thing __tag_kptr;

struct kval {
	__u64 tag;
	__tag_kptr *p;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 2);
	__type(key, __u32);
	__type(value, struct kval);
} kptrs SEC(".maps");

#endif /* HR_KPTR_H */
