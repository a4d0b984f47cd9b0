// SPDX-License-Identifier: MIT
/*
 * A bpf_timer in a per-CPU array's value, for test_timer: map_check_btf
 * refuses the map's BTF (-EOPNOTSUPP), libbpf creates the map again
 * without, and the verifier refuses the timer helper: "map 'pc_arr' has
 * to have BTF in order to use bpf_timer". headroom refuses it at load
 * with that reason.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct tval {
	struct bpf_timer t;
	__u64 n;
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct tval);
} pc_arr SEC(".maps");

SEC("xdp")
int xdp_timer_percpu(struct xdp_md *ctx)
{
	__u32 k = 0;
	struct tval *v = bpf_map_lookup_elem(&pc_arr, &k);

	if (!v)
		return XDP_PASS;
	bpf_timer_init(&v->t, &pc_arr, 1);
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
