/* SPDX-License-Identifier: MIT */
/*
 * The bpf_rb_root kfuncs of kernel/bpf/helpers.c (bpf_rbtree_add_impl,
 * _first, _remove, and 6.16's _root, _left, _right) and the selftests'
 * macro for the add (bpf_experimental.h), with the UAPI types the 6.1
 * headers lack, for the programs in progs/: a tree of struct rnode in an
 * array's value, guarded by its lock.
 */
#ifndef HR_RBTREE_H
#define HR_RBTREE_H

#include <stdbool.h>

#include "hr_obj.h"

struct bpf_rb_root {
	__u64 __opaque[2];
} __attribute__((aligned(8)));

struct bpf_rb_node {
	__u64 __opaque[4];
} __attribute__((aligned(8)));

#ifndef __contains
#define __contains(name, node) \
	__attribute__((btf_decl_tag("contains:" #name ":" #node)))
#endif

extern int bpf_rbtree_add_impl(struct bpf_rb_root *root,
			       struct bpf_rb_node *node,
			       bool (*less)(struct bpf_rb_node *a,
					    const struct bpf_rb_node *b),
			       void *meta__ign, __u64 off) __ksym;
extern struct bpf_rb_node *bpf_rbtree_first(struct bpf_rb_root *root) __ksym;
extern struct bpf_rb_node *bpf_rbtree_remove(struct bpf_rb_root *root,
					     struct bpf_rb_node *node) __ksym;
extern struct bpf_rb_node *bpf_rbtree_root(struct bpf_rb_root *root) __ksym;
extern struct bpf_rb_node *bpf_rbtree_left(struct bpf_rb_root *root,
					   struct bpf_rb_node *node) __ksym;
extern struct bpf_rb_node *bpf_rbtree_right(struct bpf_rb_root *root,
					    struct bpf_rb_node *node) __ksym;

#define bpf_rbtree_add(root, node, less) \
	bpf_rbtree_add_impl(root, node, less, NULL, 0)

#define hr_rb_entry(ptr)                  \
	((struct rnode *)((void *)(ptr) - \
			  __builtin_offsetof(struct rnode, node)))

struct rnode {
	__u64 key;
	struct bpf_rb_node node;
	__u64 seq;
	struct bpf_refcount ref;
};

struct rval {
	struct bpf_spin_lock lock;
	struct bpf_rb_root root __contains(rnode, node);
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 2);
	__type(key, __u32);
	__type(value, struct rval);
} trees SEC(".maps");

static bool rnode_less(struct bpf_rb_node *a, const struct bpf_rb_node *b)
{
	return hr_rb_entry(a)->key < hr_rb_entry(b)->key;
}

#endif /* HR_RBTREE_H */
