// SPDX-License-Identifier: MIT
/*
 * Per-CPU objects the verifier refuses to allocate (check_kfunc_call
 * for bpf_percpu_obj_new_impl), one program each, for test_percpu_obj
 * to check that headroom's loader refuses them in the verifier's words:
 *
 *   pc_big      a struct of 513 bytes, past BPF_GLOBAL_PERCPU_MA_MAX_SIZE
 *   pc_ptr      a struct with a pointer member: not all scalars
 *   pc_special  a struct of scalars holding a struct bpf_spin_lock
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#include "hr_obj.h"

struct big {
	__u8 bytes[513];
};

struct with_ptr {
	__u64 a;
	void *p;
};

struct with_lock {
	__u64 a;
	struct bpf_spin_lock lock;
};

SEC("xdp")
int pc_big(struct xdp_md *ctx)
{
	struct big *p = bpf_percpu_obj_new(struct big);

	if (!p)
		return XDP_DROP;
	bpf_percpu_obj_drop(p);
	return XDP_PASS;
}

SEC("xdp")
int pc_ptr(struct xdp_md *ctx)
{
	struct with_ptr *p = bpf_percpu_obj_new(struct with_ptr);

	if (!p)
		return XDP_DROP;
	bpf_percpu_obj_drop(p);
	return XDP_PASS;
}

SEC("xdp")
int pc_special(struct xdp_md *ctx)
{
	struct with_lock *p = bpf_percpu_obj_new(struct with_lock);

	if (!p)
		return XDP_DROP;
	bpf_percpu_obj_drop(p);
	return XDP_PASS;
}

char LICENSE[] SEC("license") = "GPL";
