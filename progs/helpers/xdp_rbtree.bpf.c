// SPDX-License-Identifier: MIT
/*
 * bpf_rbtree_add, bpf_rbtree_first, bpf_rbtree_remove and
 * bpf_rbtree_root, _left, _right (kernel/bpf/helpers.c) on a tree in an
 * array's value, under the value's bpf_spin_lock, in the case the packet
 * picks; what each case read goes into the packet for test_obj to
 * compare with the kernel. Keys are the packet's; equal keys keep the
 * order they came in (seq, from the packet too).
 *
 *   0  a new node (key a, seq s) added: the add's return (x) and its key
 *      read through the reference the add leaves (y)
 *   1  the shape: the root's key and seq (x, y), its left and right
 *      children's (l, r), and the first node's (f); 0 for none
 *   2  the first node removed: its key and seq (x, y), dropped
 *   3  the root removed (an inner node: the tree rebalances)
 *   4  the root's left child removed
 *   5  drained: up to 16 first nodes removed, count (x), their keys and
 *      seqs folded in order (y)
 *   6  a new node (key a, seq s) and a second reference to it
 *      (bpf_refcount_acquire) both added: the first add's return (x),
 *      the second's (y, -EINVAL: the node is in the tree already, that
 *      reference dropped)
 *   7  a reference of the program's own to the first node taken with
 *      bpf_refcount_acquire under the lock, its key and seq read after
 *      bpf_spin_unlock (x, y), then dropped; the node stays in the tree
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#include "hr_rbtree.h"

/* After the Ethernet header: the case in, the answers out. */
struct rb_rec {
	__u32 mode;
	__u32 null;
	__u64 a, s;
	__u64 x, y, l, r, f;
};

static __u64 kv(struct bpf_rb_node *n)
{
	struct rnode *e;

	if (!n)
		return 0;
	e = hr_rb_entry(n);
	return e->key << 16 | e->seq;
}

static __noinline int add(struct rval *v, struct rb_rec *r)
{
	struct rnode *e = bpf_obj_new(typeof(*e));
	int ret;

	if (!e) {
		r->null = 3;
		return XDP_PASS;
	}
	e->key = r->a;
	e->seq = r->s;
	bpf_spin_lock(&v->lock);
	ret = bpf_rbtree_add(&v->root, &e->node, rnode_less);
	r->x = (__u64)(__s64)ret;
	if (!ret)
		r->y = e->key;
	bpf_spin_unlock(&v->lock);
	return XDP_PASS;
}

static __noinline int add_twice(struct rval *v, struct rb_rec *r)
{
	struct rnode *e = bpf_obj_new(typeof(*e)), *m;

	if (!e) {
		r->null = 3;
		return XDP_PASS;
	}
	e->key = r->a;
	e->seq = r->s;
	m = bpf_refcount_acquire(e);
	bpf_spin_lock(&v->lock);
	r->x = (__u64)(__s64)bpf_rbtree_add(&v->root, &e->node, rnode_less);
	r->y = (__u64)(__s64)bpf_rbtree_add(&v->root, &m->node, rnode_less);
	bpf_spin_unlock(&v->lock);
	return XDP_PASS;
}

static __noinline int keep_first(struct rval *v, struct rb_rec *r)
{
	struct bpf_rb_node *n;
	struct rnode *m = NULL;

	bpf_spin_lock(&v->lock);
	n = bpf_rbtree_first(&v->root);
	if (n)
		m = bpf_refcount_acquire(hr_rb_entry(n));
	bpf_spin_unlock(&v->lock);
	if (!m) {
		r->null = 1;
		return XDP_PASS;
	}
	r->x = m->key;
	r->y = m->seq;
	bpf_obj_drop(m);
	return XDP_PASS;
}

static __noinline int shape(struct rval *v, struct rb_rec *r)
{
	struct bpf_rb_node *n, *c;

	bpf_spin_lock(&v->lock);
	n = bpf_rbtree_root(&v->root);
	if (n) {
		r->x = kv(n);
		c = bpf_rbtree_left(&v->root, n);
		r->l = kv(c);
		c = bpf_rbtree_right(&v->root, n);
		r->r = kv(c);
	}
	n = bpf_rbtree_first(&v->root);
	r->f = kv(n);
	bpf_spin_unlock(&v->lock);
	return XDP_PASS;
}

static __noinline int take(struct rval *v, struct rb_rec *r, int which)
{
	struct bpf_rb_node *n;
	struct rnode *e;

	bpf_spin_lock(&v->lock);
	if (which == 2) {
		n = bpf_rbtree_first(&v->root);
	} else {
		n = bpf_rbtree_root(&v->root);
		if (n && which == 4)
			n = bpf_rbtree_left(&v->root, n);
	}
	if (!n) {
		bpf_spin_unlock(&v->lock);
		r->null = 1;
		return XDP_PASS;
	}
	n = bpf_rbtree_remove(&v->root, n);
	bpf_spin_unlock(&v->lock);
	if (!n) {
		r->null = 2;
		return XDP_PASS;
	}
	e = hr_rb_entry(n);
	r->x = e->key;
	r->y = e->seq;
	bpf_obj_drop(e);
	return XDP_TX;
}

static __noinline int drain(struct rval *v, struct rb_rec *r)
{
	struct bpf_rb_node *n;
	struct rnode *e;
	int i;

	for (i = 0; i < 16; i++) {
		bpf_spin_lock(&v->lock);
		n = bpf_rbtree_first(&v->root);
		if (!n) {
			bpf_spin_unlock(&v->lock);
			break;
		}
		n = bpf_rbtree_remove(&v->root, n);
		bpf_spin_unlock(&v->lock);
		if (!n)
			break;
		e = hr_rb_entry(n);
		r->x++;
		r->y = r->y * 31 + (e->key << 8 | e->seq);
		bpf_obj_drop(e);
	}
	return XDP_PASS;
}

SEC("xdp")
int xdp_rbtree(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *data_end = (void *)(long)ctx->data_end;
	struct rb_rec *r = data + 14;
	struct rval *v;
	__u32 zero = 0;

	if ((void *)(r + 1) > data_end)
		return XDP_DROP;
	v = bpf_map_lookup_elem(&trees, &zero);
	if (!v)
		return XDP_DROP;
	switch (r->mode) {
	case 0:
		return add(v, r);
	case 1:
		return shape(v, r);
	case 2:
	case 3:
	case 4:
		return take(v, r, r->mode);
	case 5:
		return drain(v, r);
	case 6:
		return add_twice(v, r);
	case 7:
		return keep_first(v, r);
	}
	return XDP_ABORTED;
}

char LICENSE[] SEC("license") = "GPL";
