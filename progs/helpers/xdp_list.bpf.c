// SPDX-License-Identifier: MIT
/*
 * bpf_list_push_front/_back, bpf_list_pop_front/_back and
 * bpf_list_front/_back (kernel/bpf/helpers.c) on a list in an array's
 * value, under the value's bpf_spin_lock, in the case the packet picks;
 * what each case read goes into the packet for test_obj to compare with
 * the kernel.
 *
 *   0  a new element (a from the packet) pushed at the back: the push's
 *      return (x) and its a read through the reference the push leaves
 *      while the lock is held (y)
 *   1  the same at the front
 *   2  the front element popped: its a (x), dropped; null when empty
 *   3  the back one popped
 *   4  the front and back elements' a read (x, y) without taking them
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#include "hr_list.h"

/* After the Ethernet header: the case in, the answers out. */
struct list_rec {
	__u32 mode;
	__u32 null;
	__u64 a;
	__u64 x, y;
};

static __noinline int push(struct lval *v, struct list_rec *r, int back)
{
	struct elem *e = bpf_obj_new(typeof(*e));
	int ret;

	if (!e) {
		r->null = 3;
		return XDP_PASS;
	}
	e->a = r->a;
	bpf_spin_lock(&v->lock);
	if (back)
		ret = bpf_list_push_back(&v->head, &e->node);
	else
		ret = bpf_list_push_front(&v->head, &e->node);
	r->x = (__u64)(__s64)ret;
	if (!ret)
		r->y = e->a;
	bpf_spin_unlock(&v->lock);
	return XDP_PASS;
}

static __noinline int pop(struct lval *v, struct list_rec *r, int back)
{
	struct bpf_list_node *n;
	struct elem *e;

	bpf_spin_lock(&v->lock);
	if (back)
		n = bpf_list_pop_back(&v->head);
	else
		n = bpf_list_pop_front(&v->head);
	bpf_spin_unlock(&v->lock);
	if (!n) {
		r->null = 1;
		return XDP_PASS;
	}
	e = hr_container_of(n, struct elem, node);
	r->x = e->a;
	bpf_obj_drop(e);
	return XDP_TX;
}

SEC("xdp")
int xdp_list(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *data_end = (void *)(long)ctx->data_end;
	struct list_rec *r = data + 14;
	struct bpf_list_node *n;
	struct lval *v;
	__u32 zero = 0;

	if ((void *)(r + 1) > data_end)
		return XDP_DROP;
	v = bpf_map_lookup_elem(&lists, &zero);
	if (!v)
		return XDP_DROP;
	switch (r->mode) {
	case 0:
	case 1:
		return push(v, r, r->mode == 0);
	case 2:
	case 3:
		return pop(v, r, r->mode == 3);
	case 4:
		bpf_spin_lock(&v->lock);
		n = bpf_list_front(&v->head);
		if (n)
			r->x = hr_container_of(n, struct elem, node)->a;
		n = bpf_list_back(&v->head);
		if (n)
			r->y = hr_container_of(n, struct elem, node)->a;
		bpf_spin_unlock(&v->lock);
		return XDP_PASS;
	}
	return XDP_ABORTED;
}

char LICENSE[] SEC("license") = "GPL";
