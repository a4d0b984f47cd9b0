// SPDX-License-Identifier: MIT
/*
 * bpf_obj_new and bpf_obj_drop (kernel/bpf/helpers.c) in the case the
 * packet picks; what each case read back goes into the packet for
 * test_obj to compare with the kernel.
 *
 *   0  a new object, every field written from the packet, read back and
 *      summed, dropped
 *   1  two objects at once, each written, read back crossed, dropped in
 *      the order they came
 *   3  a struct of 4088 bytes, the largest bpf_mem_alloc serves (with
 *      its 8-byte node, its 4096-byte cache; the verifier refuses a
 *      larger one): its first and last bytes written and read back
 *   4  eight objects in a loop, each dropped before the next
 *
 * xdp_obj_ref (its own program: the verifier takes one call of
 * bpf_obj_drop for one type): a refcounted object, a second reference
 * taken with bpf_refcount_acquire, each written, the first dropped, the
 * object read through the second, dropped.
 */
#include <linux/bpf.h>
#include <linux/pkt_cls.h>
#include <bpf/bpf_helpers.h>

#include "hr_obj.h"

struct thing {
	__u64 a;
	__u32 b;
	__u16 c;
	__u8 d[10];
};

struct fits {
	__u8 bytes[4088];
};

struct rthing {
	__u64 a;
	struct bpf_refcount ref;
	__u64 b;
};

/* After the Ethernet header: the case in, the answers out. */
struct obj_rec {
	__u32 mode;
	__u32 null;
	__u64 a;
	__u32 b;
	__u16 c;
	__u8 d[10];
	__u64 sum, x, y;
};

static __u64 fill(struct thing *t, const struct obj_rec *r, __u64 salt)
{
	__u64 s;
	int i;

	t->a = r->a + salt;
	t->b = r->b;
	t->c = r->c;
	for (i = 0; i < 10; i++)
		t->d[i] = r->d[i] + i;
	s = t->a + t->b + t->c;
	for (i = 0; i < 10; i++)
		s += (__u64)t->d[i] << i;
	return s;
}

SEC("xdp")
int xdp_obj(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *data_end = (void *)(long)ctx->data_end;
	struct obj_rec *r = data + 14;
	struct thing *t, *u;
	struct fits *f;
	int i;

	if ((void *)(r + 1) > data_end)
		return XDP_DROP;
	switch (r->mode) {
	case 0:
		t = bpf_obj_new(typeof(*t));
		if (!t) {
			r->null = 1;
			return XDP_PASS;
		}
		r->sum = fill(t, r, 0);
		r->x = t->a ^ t->b;
		bpf_obj_drop(t);
		return XDP_PASS;
	case 1:
		t = bpf_obj_new(typeof(*t));
		if (!t) {
			r->null = 1;
			return XDP_PASS;
		}
		u = bpf_obj_new(typeof(*u));
		if (!u) {
			bpf_obj_drop(t);
			r->null = 2;
			return XDP_PASS;
		}
		r->sum = fill(t, r, 1) + fill(u, r, 2);
		r->x = u->a;
		r->y = t->a;
		bpf_obj_drop(t);
		bpf_obj_drop(u);
		return XDP_TX;
	case 3:
		f = bpf_obj_new(typeof(*f));
		r->null = !f;
		if (!f)
			return XDP_PASS;
		f->bytes[4087] = (__u8)r->b;
		f->bytes[0] = (__u8)r->c;
		r->x = f->bytes[4087] + (f->bytes[0] << 8);
		bpf_obj_drop(f);
		return XDP_PASS;
	case 4:
		for (i = 0; i < 8; i++) {
			t = bpf_obj_new(typeof(*t));
			if (!t) {
				r->null++;
				continue;
			}
			r->sum += fill(t, r, i);
			bpf_obj_drop(t);
		}
		return XDP_PASS;
	}
	return XDP_ABORTED;
}

SEC("xdp")
int xdp_obj_ref(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *data_end = (void *)(long)ctx->data_end;
	struct obj_rec *r = data + 14;
	struct rthing *p, *q;

	if ((void *)(r + 1) > data_end)
		return XDP_DROP;
	p = bpf_obj_new(typeof(*p));
	if (!p) {
		r->null = 1;
		return XDP_PASS;
	}
	q = bpf_refcount_acquire(p);
	p->a = r->a;
	q->b = r->b;
	r->x = p->a + p->b;
	bpf_obj_drop(p);
	r->y = q->a ^ q->b;
	bpf_obj_drop(q);
	return XDP_PASS;
}

/* tc: a new object holding cb[0..2], summed, dropped. */
SEC("tc")
int tc_obj(struct __sk_buff *skb)
{
	struct thing *t = bpf_obj_new(typeof(*t));
	__u64 s;

	if (!t)
		return 1000;
	t->a = skb->cb[0];
	t->b = skb->cb[1];
	t->c = (__u16)skb->cb[2];
	s = t->a * 3 + t->b * 5 + t->c;
	bpf_obj_drop(t);
	return (int)(s & 0x7fffffff);
}

char LICENSE[] SEC("license") = "GPL";
