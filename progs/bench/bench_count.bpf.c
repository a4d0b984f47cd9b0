// SPDX-License-Identifier: MIT
/* Counts packets in cnt[0], then returns the verdict in cfg[0]. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u32);
} cfg SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} cnt SEC(".maps");

SEC("xdp")
int bench_count(struct xdp_md *ctx)
{
	__u32 key = 0, *verdict = bpf_map_lookup_elem(&cfg, &key);
	__u64 *c = bpf_map_lookup_elem(&cnt, &key);

	if (c)
		*c += 1;
	return verdict ? *verdict : XDP_ABORTED;
}

char _license[] SEC("license") = "GPL";
