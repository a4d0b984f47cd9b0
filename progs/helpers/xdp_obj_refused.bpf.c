// SPDX-License-Identifier: MIT
/*
 * bpf_obj_new of structs headroom refuses at load, for test_obj:
 *
 *   obj_big  a struct of 4089 bytes, past what bpf_mem_alloc serves
 *            (the kernel's verifier refuses it too)
 *   obj_wq   a struct with a struct bpf_wq, which headroom does not
 *            model in an object yet (the kernel takes it)
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#include "hr_obj.h"

struct big {
	__u8 bytes[4089];
};

/* include/uapi/linux/bpf.h's (6.10), absent from the 6.1 headers. */
struct bpf_wq {
	__u64 __opaque[2];
} __attribute__((aligned(8)));

struct wq_thing {
	__u64 a;
	struct bpf_wq wq;
};

SEC("xdp")
int obj_big(struct xdp_md *ctx)
{
	struct big *b = bpf_obj_new(typeof(*b));

	if (!b)
		return XDP_DROP;
	bpf_obj_drop(b);
	return XDP_PASS;
}

SEC("xdp")
int obj_wq(struct xdp_md *ctx)
{
	struct wq_thing *t = bpf_obj_new(typeof(*t));

	if (!t)
		return XDP_DROP;
	bpf_obj_drop(t);
	return XDP_PASS;
}

char LICENSE[] SEC("license") = "GPL";
