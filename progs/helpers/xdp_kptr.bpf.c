// SPDX-License-Identifier: MIT
/*
 * bpf_kptr_xchg (kernel/bpf/helpers.c) with a __kptr field of an array's
 * values, in the case the packet picks; what each case read goes into
 * the packet for test_obj to compare with the kernel.
 *
 *   0  a new object (a from the packet) swapped into kptrs[0].p: the
 *      object it held comes back, its a read (y) and dropped
 *   1  kptrs[0].p swapped with NULL: the object it held, its a read (x)
 *      and dropped
 *   2  as 0, into kptrs[1]: test_obj then overwrites that element from
 *      user space, which frees the object (bpf_obj_free_fields)
 *   3  as 0, into the element of hkptrs of key 1, made first when it is
 *      not there: test_obj then deletes it from user space, which frees
 *      the object
 *   4  kptrs[0].p loaded as it is (the verifier's MEM_RCU load), its
 *      object read (x = a) and written (b += the packet's a, y = b)
 *      where the field keeps it; null = 4 when the field is empty
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#include "hr_obj.h"

struct thing {
	__u64 a;
	__u64 b;
};

#include "hr_kptr.h"

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 4);
	__type(key, __u32);
	__type(value, struct kval);
} hkptrs SEC(".maps");

/* After the Ethernet header: the case in, the answers out. */
struct kptr_rec {
	__u32 mode;
	__u32 null;
	__u64 a;
	__u64 x, y;
};

SEC("xdp")
int xdp_kptr(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *data_end = (void *)(long)ctx->data_end;
	struct kptr_rec *r = data + 14;
	struct thing *t;
	struct kval *v;
	__u32 key;

	if ((void *)(r + 1) > data_end)
		return XDP_DROP;
	if (r->mode > 4)
		return XDP_ABORTED;
	key = r->mode == 2 || r->mode == 3;
	if (r->mode == 3) {
		struct kval init = {};

		bpf_map_update_elem(&hkptrs, &key, &init, BPF_NOEXIST);
		v = bpf_map_lookup_elem(&hkptrs, &key);
	} else {
		v = bpf_map_lookup_elem(&kptrs, &key);
	}
	if (!v)
		return XDP_DROP;
	if (r->mode == 4) {
		t = v->p;
		if (!t) {
			r->null = 4;
			return XDP_PASS;
		}
		r->x = t->a;
		t->b += r->a;
		r->y = t->b;
		return XDP_PASS;
	}
	if (r->mode == 1) {
		t = bpf_kptr_xchg(&v->p, NULL);
		if (!t) {
			r->null = 1;
			return XDP_PASS;
		}
		r->x = t->a;
		bpf_obj_drop(t);
		return XDP_PASS;
	}
	t = bpf_obj_new(typeof(*t));
	if (!t) {
		r->null = 3;
		return XDP_PASS;
	}
	t->a = r->a;
	t->b = r->a + 1;
	v->tag += r->a;
	t = bpf_kptr_xchg(&v->p, t);
	if (!t) {
		r->null = 2;
		return XDP_PASS;
	}
	r->y = t->a + t->b;
	bpf_obj_drop(t);
	return XDP_TX;
}

char LICENSE[] SEC("license") = "GPL";
