// SPDX-License-Identifier: MIT
/* Maps sized at load (max_entries 0), as tools that size by config do. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, 0);
} sized SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_CPUMAP);
	__type(key, __u32);
	__type(value, struct bpf_cpumap_val);
	__uint(max_entries, 0);
} cpus SEC(".maps");

/* The last slot of a map of 16 exists; of a map of 8 it does not. */
SEC("xdp")
int conv_size0(struct xdp_md *ctx)
{
	__u32 k = 15;

	return bpf_map_lookup_elem(&sized, &k) ? XDP_PASS : XDP_DROP;
}

SEC("kprobe/do_nothing")
int not_xdp(void *ctx)
{
	return 0;
}

char _license[] SEC("license") = "GPL";
