// SPDX-License-Identifier: MIT
/* Redirect every packet to CPU (worker) 1 through a cpumap. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_CPUMAP);
	__uint(max_entries, 2);
	__type(key, __u32);
	__type(value, __u32); /* qsize */
} cpu_map SEC(".maps");

SEC("xdp")
int bench_cpumap(struct xdp_md *ctx)
{
	return bpf_redirect_map(&cpu_map, 1, 0);
}

char _license[] SEC("license") = "GPL";
