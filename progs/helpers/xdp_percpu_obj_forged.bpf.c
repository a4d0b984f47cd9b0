// SPDX-License-Identifier: MIT
/*
 * Per-CPU objects misused on purpose, each a program the kernel's
 * verifier refuses, for test_percpu_obj to check that headroom ends
 * each run with its reason under every engine and touches nothing it
 * should not:
 *
 *   pc_double_drop  bpf_percpu_obj_drop twice
 *   pc_obj_drop     bpf_obj_drop of a per-CPU object
 *   pc_this_owned   bpf_this_cpu_ptr of the run's own object (the
 *                   verifier takes the pointer loaded from a field)
 *   pc_this_stack   bpf_this_cpu_ptr of a stack address
 *   pc_per_forged   a stack address stored into the __percpu_kptr field
 *                   by hand, then bpf_per_cpu_ptr of the field
 *   pc_deref        a load through the object's own pointer
 *   pc_past         a load one byte past this CPU's copy
 *   pc_past_store   a store one byte past it
 *   pc_xchg_plain   bpf_kptr_xchg of a bpf_obj_new object into the
 *                   __percpu_kptr field
 *   pc_leak         a run that ends holding its object
 *
 * The offset past the end comes from the packet (byte 14), so that the
 * compiler keeps the access; test_percpu_obj sends 16, the struct's
 * size.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#include "hr_forged.h"
#include "hr_obj.h"

struct val {
	__u64 a;
	__u64 b;
};

#include "hr_percpu_kptr.h"

SEC("xdp")
int pc_double_drop(struct xdp_md *ctx)
{
	struct val *p = bpf_percpu_obj_new(struct val);

	if (!p)
		return XDP_DROP;
	bpf_percpu_obj_drop(p);
	bpf_percpu_obj_drop(p);
	return XDP_PASS;
}

SEC("xdp")
int pc_obj_drop(struct xdp_md *ctx)
{
	struct val *p = bpf_percpu_obj_new(struct val);

	if (!p)
		return XDP_DROP;
	bpf_obj_drop(p);
	return XDP_PASS;
}

SEC("xdp")
int pc_this_owned(struct xdp_md *ctx)
{
	struct val *p = bpf_percpu_obj_new(struct val), *c;

	if (!p)
		return XDP_DROP;
	c = bpf_this_cpu_ptr(p);
	c->a = 1;
	bpf_percpu_obj_drop(p);
	return XDP_PASS;
}

SEC("xdp")
int pc_this_stack(struct xdp_md *ctx)
{
	struct val v = {}, *c;

	c = bpf_this_cpu_ptr(&v);
	return c->a ? XDP_TX : XDP_PASS;
}

/* Element 0 of pcpu with a fresh object in its field; NULL when none. */
static struct pval *stored(void)
{
	struct val *p = bpf_percpu_obj_new(struct val);
	struct pval *v;
	__u32 key = 0;

	v = bpf_map_lookup_elem(&pcpu, &key);
	if (!v || !p) {
		if (p)
			bpf_percpu_obj_drop(p);
		return NULL;
	}
	p = bpf_kptr_xchg(&v->pc, p);
	if (p)
		bpf_percpu_obj_drop(p);
	return v;
}

SEC("xdp")
int pc_per_forged(struct xdp_md *ctx)
{
	struct pval *v = stored();
	struct val fake = {}, *c;

	if (!v)
		return XDP_DROP;
	*(volatile __u64 *)&v->pc = (__u64)(long)&fake;
	c = bpf_per_cpu_ptr(v->pc, 0);
	return c && c->a ? XDP_TX : XDP_PASS;
}

SEC("xdp")
int pc_deref(struct xdp_md *ctx)
{
	struct val *p = bpf_percpu_obj_new(struct val);
	int r;

	if (!p)
		return XDP_DROP;
	r = ((volatile struct val *)p)->a != 0;
	bpf_percpu_obj_drop(p);
	return r ? XDP_TX : XDP_PASS;
}

SEC("xdp")
int pc_past(struct xdp_md *ctx)
{
	struct pval *v = stored();
	__u32 off = pkt_off(ctx);
	struct val *c;

	if (!v || !v->pc)
		return XDP_DROP;
	c = bpf_this_cpu_ptr(v->pc);
	return ((volatile __u8 *)c)[off] ? XDP_TX : XDP_PASS;
}

SEC("xdp")
int pc_past_store(struct xdp_md *ctx)
{
	struct pval *v = stored();
	__u32 off = pkt_off(ctx);
	struct val *c;

	if (!v || !v->pc)
		return XDP_DROP;
	c = bpf_this_cpu_ptr(v->pc);
	((volatile __u8 *)c)[off] = 1;
	return XDP_PASS;
}

SEC("xdp")
int pc_xchg_plain(struct xdp_md *ctx)
{
	struct val *p = bpf_obj_new(struct val);
	struct pval *v;
	__u32 key = 0;

	if (!p)
		return XDP_DROP;
	v = bpf_map_lookup_elem(&pcpu, &key);
	if (!v) {
		bpf_obj_drop(p);
		return XDP_DROP;
	}
	p = bpf_kptr_xchg(&v->pc, p);
	if (p)
		bpf_obj_drop(p);
	return XDP_PASS;
}

SEC("xdp")
int pc_leak(struct xdp_md *ctx)
{
	struct val *p = bpf_percpu_obj_new(struct val);

	return p ? XDP_TX : XDP_DROP;
}

char LICENSE[] SEC("license") = "GPL";
