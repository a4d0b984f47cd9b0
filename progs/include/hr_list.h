/* SPDX-License-Identifier: MIT */
/*
 * The bpf_list_head kfuncs of kernel/bpf/helpers.c and the selftests'
 * macros for them (bpf_experimental.h), with the UAPI types the 6.1
 * headers lack, for the programs in progs/.
 */
#ifndef HR_LIST_H
#define HR_LIST_H

#include "hr_obj.h"

struct bpf_list_head {
	__u64 __opaque[2];
} __attribute__((aligned(8)));

struct bpf_list_node {
	__u64 __opaque[3];
} __attribute__((aligned(8)));

#define __contains(name, node) \
	__attribute__((btf_decl_tag("contains:" #name ":" #node)))

extern int bpf_list_push_front_impl(struct bpf_list_head *head,
				    struct bpf_list_node *node, void *meta__ign,
				    __u64 off) __ksym;
extern int bpf_list_push_back_impl(struct bpf_list_head *head,
				   struct bpf_list_node *node, void *meta__ign,
				   __u64 off) __ksym;
extern struct bpf_list_node *
bpf_list_pop_front(struct bpf_list_head *head) __ksym;
extern struct bpf_list_node *
bpf_list_pop_back(struct bpf_list_head *head) __ksym;
extern struct bpf_list_node *bpf_list_front(struct bpf_list_head *head) __ksym;
extern struct bpf_list_node *bpf_list_back(struct bpf_list_head *head) __ksym;

#define bpf_list_push_front(head, node) \
	bpf_list_push_front_impl(head, node, NULL, 0)
#define bpf_list_push_back(head, node) \
	bpf_list_push_back_impl(head, node, NULL, 0)

#define hr_container_of(ptr, type, member) \
	((type *)((void *)(ptr) - __builtin_offsetof(type, member)))

/* The list the programs use: elements of struct elem in an array's
 * value, guarded by its lock. */
struct elem {
	__u64 a;
	struct bpf_list_node node;
};

struct lval {
	struct bpf_spin_lock lock;
	struct bpf_list_head head __contains(elem, node);
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct lval);
} lists SEC(".maps");

#endif /* HR_LIST_H */
