// SPDX-License-Identifier: MIT
/*
 * An object read through its kptr field after user space freed it from
 * the field, for test_obj_race: the run puts a new object into kptrs[0],
 * loads the field as it is (the verifier's MEM_RCU load), writes 42 into
 * the object, says so (held = 1), spins while user space overwrites the
 * element (which lets go of the field's object), then reads it back. The
 * kernel frees the object after an RCU grace period, which the run is
 * inside of; headroom's run holds a reference to the object from its
 * first access through the field (maps/map_kptr.c), so it reads 42 every
 * time.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#include "hr_obj.h"

struct thing {
	__u64 a;
	__u64 b;
};

#include "hr_kptr.h"

volatile __u64 held; /* 1 once the object is written, 2 after the read */
volatile __u64 spins;

SEC("xdp")
int kptr_race(struct xdp_md *ctx)
{
	struct thing *t = bpf_obj_new(typeof(*t));
	struct kval *v;
	__u32 zero = 0;
	__u64 a;
	int i;

	if (!t)
		return XDP_ABORTED;
	v = bpf_map_lookup_elem(&kptrs, &zero);
	if (!v) {
		bpf_obj_drop(t);
		return XDP_ABORTED;
	}
	t = bpf_kptr_xchg(&v->p, t);
	if (t)
		bpf_obj_drop(t);
	t = v->p;
	if (!t)
		return XDP_ABORTED;
	t->a = 42;
	held = 1;
	for (i = 0; i < 100000; i++)
		spins++;
	a = t->a;
	held = 2;
	return a == 42 ? XDP_PASS : XDP_DROP;
}

char _license[] SEC("license") = "GPL";
