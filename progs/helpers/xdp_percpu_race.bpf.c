// SPDX-License-Identifier: MIT
/*
 * A per-CPU object's copy read after user space freed the object from
 * its field, for test_obj_race: the run puts a new object into pcpu[0],
 * reaches this CPU's copy through the field (bpf_this_cpu_ptr), writes
 * 42 there, says so (held = 1), spins while user space overwrites the
 * element (which lets go of the field's object), then reads the copy
 * back. The kernel frees the object after an RCU grace period, which
 * the run is inside of; headroom's run holds a reference to the object
 * with its copy (helpers/kfuncs_percpu.c), so it reads 42 every time.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#include "hr_obj.h"

struct val {
	__u64 a;
	__u64 b;
};

#include "hr_percpu_kptr.h"

volatile __u64 held; /* 1 once the copy is written, 2 after the read */
volatile __u64 spins;

SEC("xdp")
int pc_race(struct xdp_md *ctx)
{
	struct val *p = bpf_percpu_obj_new(struct val), *c;
	struct pval *v;
	__u32 zero = 0;
	__u64 a;
	int i;

	if (!p)
		return XDP_ABORTED;
	v = bpf_map_lookup_elem(&pcpu, &zero);
	if (!v) {
		bpf_percpu_obj_drop(p);
		return XDP_ABORTED;
	}
	p = bpf_kptr_xchg(&v->pc, p);
	if (p)
		bpf_percpu_obj_drop(p);
	p = v->pc;
	if (!p)
		return XDP_ABORTED;
	c = bpf_this_cpu_ptr(p);
	c->a = 42;
	held = 1;
	for (i = 0; i < 100000; i++)
		spins++;
	a = c->a;
	held = 2;
	return a == 42 ? XDP_PASS : XDP_DROP;
}

char _license[] SEC("license") = "GPL";
