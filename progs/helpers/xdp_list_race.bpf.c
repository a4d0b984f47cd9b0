// SPDX-License-Identifier: MIT
/*
 * A run holding a list's lock while another thread overwrites the
 * list's element (tests/helpers/test_obj_race.c): the program pushes an
 * element, takes a reference to the front one, says in .bss that it
 * holds the lock, spins a while, then reads the element through that
 * reference and unlocks. The element's list is freed under the lock
 * (map_kptr.c), so the read sees 42 however the threads meet; freed
 * without it, the read would be of freed memory (AddressSanitizer).
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#include "hr_list.h"

volatile __u64 held; /* 1 while the lock is held, 2 after the read */
volatile __u64 spins;

SEC("xdp")
int list_race(struct xdp_md *ctx)
{
	struct bpf_list_node *n;
	struct lval *v;
	struct elem *e;
	__u32 zero = 0;
	__u64 a = 0;
	int i;

	v = bpf_map_lookup_elem(&lists, &zero);
	if (!v)
		return XDP_ABORTED;
	e = bpf_obj_new(typeof(*e));
	if (!e)
		return XDP_ABORTED;
	e->a = 42;
	bpf_spin_lock(&v->lock);
	bpf_list_push_back(&v->head, &e->node);
	n = bpf_list_front(&v->head);
	held = 1;
	for (i = 0; i < 100000; i++)
		spins++;
	if (n)
		a = hr_container_of(n, struct elem, node)->a;
	held = 2;
	bpf_spin_unlock(&v->lock);
	return a == 42 ? XDP_PASS : XDP_DROP;
}

char _license[] SEC("license") = "GPL";
