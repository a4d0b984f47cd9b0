// SPDX-License-Identifier: MIT
/*
 * bpf_percpu_obj_new and bpf_percpu_obj_drop (kernel/bpf/helpers.c)
 * with a __percpu_kptr field of an array's values, whose object's copies
 * the program reaches with bpf_per_cpu_ptr and bpf_this_cpu_ptr after
 * loading the field (the verifier takes the pointer loaded from the
 * field, MEM_RCU in a program that is not sleepable, and not the one
 * bpf_percpu_obj_new gave). The case the packet picks; what each read
 * goes into the packet for test_percpu_obj to compare with the kernel.
 *
 *   0  a new object swapped into pcpu[0].pc, then each copy written
 *      through the field: copy i of cpu i < 4 (NULL past the last CPU:
 *      bit i of y says which were), a = a from the packet + i, b = ~a;
 *      this CPU's b then a * 3. The object the field held comes back
 *      and is dropped (XDP_TX)
 *   1  pcpu[0].pc read: c[i] the a of copy i (~0 when NULL), x this
 *      CPU's a, y the b of the copy of bpf_get_smp_processor_id()
 *   2  pcpu[0].pc swapped with NULL, the object dropped (XDP_TX), or
 *      null = 1 when there was none
 *   3  as 0, into pcpu[1]: test_percpu_obj then overwrites that
 *      element from user space, which frees the object
 *   4  as 0, into the element of hpcpu of key 1, made first when it is
 *      not there: test_percpu_obj then deletes it from user space, which
 *      frees the object
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#include "hr_obj.h"

struct val {
	__u64 a;
	__u64 b;
};

#include "hr_percpu_kptr.h"

/* After the Ethernet header: the case in, the answers out. */
struct pc_rec {
	__u32 mode;
	__u32 null;
	__u64 a;
	__u64 x, y;
	__u64 c[4];
};

/* Every copy of @v's object written from @a, this CPU's b last. */
static void write_copies(struct pval *v, struct pc_rec *r)
{
	struct val *p = v->pc, *c;
	__u64 a = r->a, missing = 0;
	__u32 i;

	if (!p) {
		r->null = 4;
		return;
	}
	for (i = 0; i < 4; i++) {
		c = bpf_per_cpu_ptr(p, i);
		if (!c) {
			missing |= 1ull << i;
			continue;
		}
		c->a = a + i;
		c->b = ~(a + i);
	}
	c = bpf_this_cpu_ptr(p);
	c->b = a * 3;
	r->y = missing;
}

static void read_copies(struct pval *v, struct pc_rec *r)
{
	struct val *p = v->pc, *c;
	__u32 i;

	if (!p) {
		r->null = 1;
		return;
	}
	for (i = 0; i < 4; i++) {
		c = bpf_per_cpu_ptr(p, i);
		r->c[i] = c ? c->a : ~0ull;
	}
	c = bpf_this_cpu_ptr(p);
	r->x = c->a;
	c = bpf_per_cpu_ptr(p, bpf_get_smp_processor_id());
	if (c)
		r->y = c->b;
}

static __always_inline int percpu_obj(void *data, void *data_end)
{
	struct pc_rec *r = data + 14;
	struct val *p;
	struct pval *v;
	__u32 key;

	if ((void *)(r + 1) > data_end)
		return XDP_DROP;
	if (r->mode > 4)
		return XDP_ABORTED;
	key = r->mode >= 3;
	if (r->mode == 4) {
		struct pval init = {};

		bpf_map_update_elem(&hpcpu, &key, &init, BPF_NOEXIST);
		v = bpf_map_lookup_elem(&hpcpu, &key);
	} else {
		v = bpf_map_lookup_elem(&pcpu, &key);
	}
	if (!v)
		return XDP_DROP;
	if (r->mode == 1) {
		read_copies(v, r);
		return XDP_PASS;
	}
	if (r->mode == 2) {
		p = bpf_kptr_xchg(&v->pc, NULL);
		if (!p) {
			r->null = 1;
			return XDP_PASS;
		}
		bpf_percpu_obj_drop(p);
		return XDP_TX;
	}
	p = bpf_percpu_obj_new(struct val);
	if (!p) {
		r->null = 3;
		return XDP_PASS;
	}
	v->tag += r->a;
	p = bpf_kptr_xchg(&v->pc, p);
	write_copies(v, r);
	if (!p)
		return XDP_PASS;
	bpf_percpu_obj_drop(p);
	return XDP_TX;
}

SEC("xdp")
int xdp_percpu_obj(struct xdp_md *ctx)
{
	return percpu_obj((void *)(long)ctx->data, (void *)(long)ctx->data_end);
}

/* The same cases in a tc program, which the kernel offers the same
 * kfuncs and helpers; its returns are the same numbers (a test run
 * hands them back as they are). */
SEC("tc")
int tc_percpu_obj(struct __sk_buff *skb)
{
	return percpu_obj((void *)(long)skb->data, (void *)(long)skb->data_end);
}

char LICENSE[] SEC("license") = "GPL";
