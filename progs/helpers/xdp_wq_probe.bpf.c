// SPDX-License-Identifier: MIT
/*
 * The host probe for bpf_wq callbacks (tests/lib/kernel_side.c): this
 * host's kernel refuses bpf_wq_set_callback_impl in a program that is
 * not sleepable ("sleepable callback in a program that is not
 * sleepable"), where mainline 6.18 takes it. wq_probe sets a callback;
 * wq_control, the same without it, must load for the probe to count.
 */
#include "hr_wq.h"

struct wval {
	struct bpf_wq w;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct wval);
} probe_arr SEC(".maps");

static int probe_cb(void *map, int *key, void *value)
{
	return 0;
}

SEC("xdp")
int wq_control(struct xdp_md *ctx)
{
	__u32 k = 0;
	struct wval *v = bpf_map_lookup_elem(&probe_arr, &k);

	return v ? bpf_wq_init(&v->w, &probe_arr, 0) : XDP_PASS;
}

SEC("xdp")
int wq_probe(struct xdp_md *ctx)
{
	__u32 k = 0;
	struct wval *v = bpf_map_lookup_elem(&probe_arr, &k);

	return v ? bpf_wq_set_callback(&v->w, probe_cb, 0) : XDP_PASS;
}

char _license[] SEC("license") = "GPL";
