// SPDX-License-Identifier: MIT
/*
 * Timer uses the kernel refuses at load, for test_timer:
 *
 *   xdp_timer_ctx     a callback calling a helper that needs the context
 *                     it does not have ("R1 type=map_ptr expected=ctx");
 *                     headroom's bpf_timer_set_callback stops the run
 *   xdp_timer_percpu  a timer in a per-CPU array, whose BTF map_check_btf
 *                     refuses (-EOPNOTSUPP); libbpf creates the map again
 *                     without, and the verifier says "map 'pc_arr' has to
 *                     have BTF in order to use bpf_timer", as headroom's
 *                     loader does
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#include "hr_timer.h"

HR_TIMER_MAP(ctx_arr, BPF_MAP_TYPE_ARRAY, 1);
HR_TIMER_MAP(pc_arr, BPF_MAP_TYPE_PERCPU_ARRAY, 1);

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
	if (!bpf_timer_set_callback(&v->t, ctx_cb))
		bpf_timer_start(&v->t, 0, 0);
	return XDP_PASS;
}

SEC("xdp")
int xdp_timer_percpu(struct xdp_md *ctx)
{
	__u32 k = 0;
	struct tval *v = bpf_map_lookup_elem(&pc_arr, &k);

	return v ? bpf_timer_init(&v->t, &pc_arr, 1) : XDP_PASS;
}

char _license[] SEC("license") = "GPL";
