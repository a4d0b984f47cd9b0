// SPDX-License-Identifier: MIT
/*
 * A timer callback calling a helper that needs the context it does not
 * have, for test_timer: the kernel refuses it at load ("R1 type=map_ptr
 * expected=ctx"); headroom's bpf_timer_set_callback stops the run.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct tval {
	struct bpf_timer t;
	__u64 n;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct tval);
} ctx_arr SEC(".maps");

static int ctx_cb(void *map, __u32 *key, struct tval *v)
{
	/* No context here: the map pointer stands in for one. */
	bpf_xdp_adjust_head(map, 0);
	return 0;
}

SEC("xdp")
int xdp_timer_ctx(struct xdp_md *ctx)
{
	__u32 k = 0;
	struct tval *v = bpf_map_lookup_elem(&ctx_arr, &k);

	if (!v)
		return XDP_PASS;
	bpf_timer_init(&v->t, &ctx_arr, 1);
	bpf_timer_set_callback(&v->t, ctx_cb);
	bpf_timer_start(&v->t, 0, 0);
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
