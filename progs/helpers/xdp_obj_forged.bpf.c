// SPDX-License-Identifier: MIT
/*
 * Allocated objects misused on purpose, each a program the kernel's
 * verifier refuses, for test_obj to check that headroom ends each run
 * with its reason under every engine and touches nothing it should not:
 *
 *   obj_past        a load at the object's size (one byte past its end)
 *   obj_past_store  a store one byte past its end
 *   obj_uaf         a load after bpf_obj_drop
 *   obj_uaf_store   a store after bpf_obj_drop
 *   obj_double_drop bpf_obj_drop twice
 *   obj_drop_inner  bpf_obj_drop of a pointer into the object
 *   obj_leak        a run that ends holding its object
 *   kptr_not_field  bpf_kptr_xchg on a map value field that is no kptr
 *   kptr_not_owned  bpf_kptr_xchg of a map value, not an object
 *   kptr_forged     a pointer stored into the kptr field by hand, then
 *                   taken out with bpf_kptr_xchg: NULL, not the forgery
 *                   (nor is it freed with the map)
 *   ref_not_counted bpf_refcount_acquire of an object without a
 *                   struct bpf_refcount
 *   ref_uaf         a load after both references are dropped
 *   ref_forged      the bpf_refcount field written by hand to 1 before
 *                   one of two references is dropped: the object stays
 *                   for the other, which reads it
 *   list_no_lock    bpf_list_push_back without the value's lock
 *   list_unlocked   an element read after bpf_spin_unlock, through the
 *                   reference its push left
 *   list_forged     the list head's bytes written by hand, then a pop:
 *                   the element pushed before, not the forgery
 *   rb_no_lock      bpf_rbtree_add without the value's lock
 *   rb_unlocked     a node read after bpf_spin_unlock, through the
 *                   reference its add left
 *   rb_other_tree   a node of tree 0 (got under its lock) removed from
 *                   tree 1 under tree 1's lock: the reference is gone
 *   rb_not_in_tree  a node removed twice: the second gives NULL, as the
 *                   kernel's bpf_rbtree_remove for a node out of the tree
 *   rb_less_loops   an add whose less() never returns
 *   rb_less_oob     an add whose less() reads past its node
 *   rb_less_unlock  an add whose less() calls bpf_spin_unlock
 *   rb_overwrite    the tree's element overwritten (bpf_map_update_elem,
 *                   which frees its nodes under that value's lock) while
 *                   the run holds the lock: ends at the update
 *
 * The offset past the end comes from the packet (byte 14), so that the
 * compiler keeps the access; test_obj sends 24, the struct's size.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#include "hr_forged.h"
#include "hr_list.h"
#include "hr_rbtree.h"

struct thing {
	__u64 a;
	__u64 b;
	__u64 c;
};

#include "hr_kptr.h"

SEC("xdp")
int obj_past(struct xdp_md *ctx)
{
	struct thing *t = bpf_obj_new(typeof(*t));
	__u32 off = pkt_off(ctx);
	int r;

	if (!t)
		return XDP_DROP;
	r = ((volatile __u8 *)t)[off];
	bpf_obj_drop(t);
	return r ? XDP_TX : XDP_PASS;
}

SEC("xdp")
int obj_past_store(struct xdp_md *ctx)
{
	struct thing *t = bpf_obj_new(typeof(*t));
	__u32 off = pkt_off(ctx);

	if (!t)
		return XDP_DROP;
	((volatile __u8 *)t)[off] = 1;
	bpf_obj_drop(t);
	return XDP_PASS;
}

SEC("xdp")
int obj_uaf(struct xdp_md *ctx)
{
	struct thing *t = bpf_obj_new(typeof(*t));

	if (!t)
		return XDP_DROP;
	t->a = 7;
	bpf_obj_drop(t);
	return ((volatile struct thing *)t)->a == 7 ? XDP_TX : XDP_PASS;
}

SEC("xdp")
int obj_uaf_store(struct xdp_md *ctx)
{
	struct thing *t = bpf_obj_new(typeof(*t));

	if (!t)
		return XDP_DROP;
	bpf_obj_drop(t);
	((volatile struct thing *)t)->b = 7;
	return XDP_PASS;
}

SEC("xdp")
int obj_double_drop(struct xdp_md *ctx)
{
	struct thing *t = bpf_obj_new(typeof(*t));

	if (!t)
		return XDP_DROP;
	bpf_obj_drop(t);
	bpf_obj_drop(t);
	return XDP_PASS;
}

SEC("xdp")
int obj_drop_inner(struct xdp_md *ctx)
{
	struct thing *t = bpf_obj_new(typeof(*t));

	if (!t)
		return XDP_DROP;
	bpf_obj_drop(&t->b);
	return XDP_PASS;
}

SEC("xdp")
int obj_leak(struct xdp_md *ctx)
{
	struct thing *t = bpf_obj_new(typeof(*t));

	if (!t)
		return XDP_DROP;
	t->a = 1;
	return XDP_PASS;
}

SEC("xdp")
int kptr_not_field(struct xdp_md *ctx)
{
	struct thing *t = bpf_obj_new(typeof(*t));
	__u32 zero = 0;
	struct kval *v = bpf_map_lookup_elem(&kptrs, &zero);

	if (!t)
		return XDP_DROP;
	if (!v) {
		bpf_obj_drop(t);
		return XDP_DROP;
	}
	t = bpf_kptr_xchg((void *)&v->tag, t);
	if (t)
		bpf_obj_drop(t);
	return XDP_PASS;
}

SEC("xdp")
int kptr_not_owned(struct xdp_md *ctx)
{
	__u32 zero = 0;
	struct kval *v = bpf_map_lookup_elem(&kptrs, &zero);
	struct thing *t;

	if (!v)
		return XDP_DROP;
	t = bpf_kptr_xchg(&v->p, (void *)v);
	if (t)
		bpf_obj_drop(t);
	return XDP_PASS;
}

SEC("xdp")
int kptr_forged(struct xdp_md *ctx)
{
	__u32 zero = 0;
	struct kval *v = bpf_map_lookup_elem(&kptrs, &zero);
	struct thing *t;

	if (!v)
		return XDP_DROP;
	*(volatile __u64 *)&v->p = (__u64)(long)ctx;
	t = bpf_kptr_xchg(&v->p, NULL);
	if (t) {
		bpf_obj_drop(t);
		return XDP_TX;
	}
	*(volatile __u64 *)&v->p = (__u64)(long)v;
	return XDP_PASS;
}

struct rthing {
	__u64 a;
	struct bpf_refcount ref;
	__u64 b;
};

SEC("xdp")
int ref_not_counted(struct xdp_md *ctx)
{
	struct thing *t = bpf_obj_new(typeof(*t)), *u;

	if (!t)
		return XDP_DROP;
	u = bpf_refcount_acquire(t);
	if (u)
		bpf_obj_drop(u);
	bpf_obj_drop(t);
	return XDP_PASS;
}

SEC("xdp")
int ref_uaf(struct xdp_md *ctx)
{
	struct rthing *p = bpf_obj_new(typeof(*p)), *q;

	if (!p)
		return XDP_DROP;
	q = bpf_refcount_acquire(p);
	bpf_obj_drop(p);
	bpf_obj_drop(q);
	return ((volatile struct rthing *)q)->a ? XDP_TX : XDP_PASS;
}

SEC("xdp")
int ref_forged(struct xdp_md *ctx)
{
	struct rthing *p = bpf_obj_new(typeof(*p)), *q;
	int ret;

	if (!p)
		return XDP_DROP;
	q = bpf_refcount_acquire(p);
	p->a = 5;
	*(volatile __u32 *)&p->ref = 1;
	bpf_obj_drop(p);
	ret = ((volatile struct rthing *)q)->a == 5 ? XDP_PASS : XDP_TX;
	bpf_obj_drop(q);
	return ret;
}

static struct lval *lval(void)
{
	__u32 zero = 0;

	return bpf_map_lookup_elem(&lists, &zero);
}

SEC("xdp")
int list_no_lock(struct xdp_md *ctx)
{
	struct lval *v = lval();
	struct elem *e;

	if (!v)
		return XDP_DROP;
	e = bpf_obj_new(typeof(*e));
	if (!e)
		return XDP_DROP;
	bpf_list_push_back(&v->head, &e->node);
	return XDP_PASS;
}

SEC("xdp")
int list_unlocked(struct xdp_md *ctx)
{
	struct lval *v = lval();
	struct elem *e;

	if (!v)
		return XDP_DROP;
	e = bpf_obj_new(typeof(*e));
	if (!e)
		return XDP_DROP;
	e->a = 3;
	bpf_spin_lock(&v->lock);
	bpf_list_push_back(&v->head, &e->node);
	bpf_spin_unlock(&v->lock);
	return ((volatile struct elem *)e)->a == 3 ? XDP_TX : XDP_PASS;
}

SEC("xdp")
int list_forged(struct xdp_md *ctx)
{
	struct lval *v = lval();
	struct bpf_list_node *n;
	struct elem *e;

	if (!v)
		return XDP_DROP;
	e = bpf_obj_new(typeof(*e));
	if (!e)
		return XDP_DROP;
	e->a = 5;
	bpf_spin_lock(&v->lock);
	bpf_list_push_front(&v->head, &e->node);
	*(volatile __u64 *)&v->head = (__u64)(long)ctx;
	n = bpf_list_pop_front(&v->head);
	bpf_spin_unlock(&v->lock);
	if (!n)
		return XDP_DROP;
	e = hr_container_of(n, struct elem, node);
	if (e->a != 5) {
		bpf_obj_drop(e);
		return XDP_TX;
	}
	bpf_obj_drop(e);
	return XDP_PASS;
}

static struct rval *rval(__u32 k)
{
	return bpf_map_lookup_elem(&trees, &k);
}

/* A new node of key @key, or NULL. */
static struct rnode *rnew(__u64 key)
{
	struct rnode *e = bpf_obj_new(typeof(*e));

	if (e)
		e->key = key;
	return e;
}

SEC("xdp")
int rb_no_lock(struct xdp_md *ctx)
{
	struct rval *v = rval(0);
	struct rnode *e;

	if (!v)
		return XDP_DROP;
	e = rnew(1);
	if (!e)
		return XDP_DROP;
	bpf_rbtree_add(&v->root, &e->node, rnode_less);
	return XDP_PASS;
}

SEC("xdp")
int rb_unlocked(struct xdp_md *ctx)
{
	struct rval *v = rval(0);
	struct rnode *e;

	if (!v)
		return XDP_DROP;
	e = rnew(3);
	if (!e)
		return XDP_DROP;
	bpf_spin_lock(&v->lock);
	bpf_rbtree_add(&v->root, &e->node, rnode_less);
	bpf_spin_unlock(&v->lock);
	return ((volatile struct rnode *)e)->key == 3 ? XDP_TX : XDP_PASS;
}

SEC("xdp")
int rb_other_tree(struct xdp_md *ctx)
{
	struct rval *v = rval(0), *w = rval(1);
	struct bpf_rb_node *n;
	struct rnode *e;

	if (!v || !w)
		return XDP_DROP;
	e = rnew(4);
	if (!e)
		return XDP_DROP;
	bpf_spin_lock(&v->lock);
	bpf_rbtree_add(&v->root, &e->node, rnode_less);
	n = bpf_rbtree_first(&v->root);
	bpf_spin_unlock(&v->lock);
	bpf_spin_lock(&w->lock);
	n = n ? bpf_rbtree_remove(&w->root, n) : NULL;
	bpf_spin_unlock(&w->lock);
	if (n)
		bpf_obj_drop(hr_rb_entry(n));
	return XDP_PASS;
}

SEC("xdp")
int rb_not_in_tree(struct xdp_md *ctx)
{
	struct rval *v = rval(0);
	struct bpf_rb_node *n, *m = NULL;
	struct rnode *e;

	if (!v)
		return XDP_DROP;
	e = rnew(5);
	if (!e)
		return XDP_DROP;
	bpf_spin_lock(&v->lock);
	bpf_rbtree_add(&v->root, &e->node, rnode_less);
	n = bpf_rbtree_first(&v->root);
	if (n)
		n = bpf_rbtree_remove(&v->root, n);
	if (n)
		m = bpf_rbtree_remove(&v->root, n);
	bpf_spin_unlock(&v->lock);
	if (n)
		bpf_obj_drop(hr_rb_entry(n));
	return m ? XDP_TX : XDP_PASS;
}

static bool loop_less(struct bpf_rb_node *a, const struct bpf_rb_node *b)
{
	volatile int stop = 0;

	while (!stop)
		;
	return true;
}

static bool oob_less(struct bpf_rb_node *a, const struct bpf_rb_node *b)
{
	return *(volatile __u64 *)((void *)a + 4096) != 0;
}

static bool unlock_less(struct bpf_rb_node *a, const struct bpf_rb_node *b)
{
	struct rval *v = rval(0);

	if (v)
		bpf_spin_unlock(&v->lock);
	return true;
}

/* Two nodes added with @less (the second calls it) to tree 1. */
static __always_inline int add_two(bool (*less)(struct bpf_rb_node *,
						const struct bpf_rb_node *))
{
	struct rval *v = rval(1);
	struct rnode *e, *f;

	if (!v)
		return XDP_DROP;
	e = rnew(1);
	if (!e)
		return XDP_DROP;
	f = rnew(2);
	if (!f) {
		bpf_obj_drop(e);
		return XDP_DROP;
	}
	bpf_spin_lock(&v->lock);
	bpf_rbtree_add(&v->root, &e->node, less);
	bpf_rbtree_add(&v->root, &f->node, less);
	bpf_spin_unlock(&v->lock);
	return XDP_PASS;
}

SEC("xdp")
int rb_less_loops(struct xdp_md *ctx)
{
	return add_two(loop_less);
}

SEC("xdp")
int rb_less_oob(struct xdp_md *ctx)
{
	return add_two(oob_less);
}

SEC("xdp")
int rb_less_unlock(struct xdp_md *ctx)
{
	return add_two(unlock_less);
}

SEC("xdp")
int rb_overwrite(struct xdp_md *ctx)
{
	struct rval *v = rval(0), fresh = {};
	struct rnode *e;
	__u32 zero = 0;
	__u64 key;

	if (!v)
		return XDP_DROP;
	e = rnew(6);
	if (!e)
		return XDP_DROP;
	bpf_spin_lock(&v->lock);
	bpf_rbtree_add(&v->root, &e->node, rnode_less);
	bpf_map_update_elem(&trees, &zero, &fresh, 0);
	key = ((volatile struct rnode *)e)->key;
	bpf_spin_unlock(&v->lock);
	return key == 6 ? XDP_TX : XDP_PASS;
}

char LICENSE[] SEC("license") = "GPL";
