// SPDX-License-Identifier: MIT
/*
 * bpf_wq uses the kernel refuses at load, for test_wq:
 *
 *   xdp_wq_ctx     a callback calling a helper that needs the context it
 *                  does not have; headroom's bpf_wq_set_callback_impl
 *                  stops the run
 *   xdp_wq_percpu  a wq in a per-CPU array, whose BTF map_check_btf
 *                  refuses (-EOPNOTSUPP); libbpf creates the map again
 *                  without, and the verifier says "map 'pc_arr' has to
 *                  have BTF in order to use bpf_wq", as headroom's loader
 *                  does
 */
#include "hr_wq.h"

struct wval {
	struct bpf_wq w;
	__u64 ran;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct wval);
} ctx_arr SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct wval);
} pc_arr SEC(".maps");

static int ctx_cb(void *map, int *key, void *value)
{
	/* No context here: the map pointer stands in for one. */
	bpf_xdp_adjust_head(map, 0);
	return 0;
}

SEC("xdp")
int xdp_wq_ctx(struct xdp_md *ctx)
{
	__u32 k = 0;
	struct wval *v = bpf_map_lookup_elem(&ctx_arr, &k);

	if (!v)
		return XDP_PASS;
	bpf_wq_init(&v->w, &ctx_arr, 0);
	if (!bpf_wq_set_callback(&v->w, ctx_cb, 0))
		bpf_wq_start(&v->w, 0);
	return XDP_PASS;
}

SEC("xdp")
int xdp_wq_percpu(struct xdp_md *ctx)
{
	__u32 k = 0;
	struct wval *v = bpf_map_lookup_elem(&pc_arr, &k);

	return v ? bpf_wq_init(&v->w, &pc_arr, 0) : XDP_PASS;
}

char _license[] SEC("license") = "GPL";
