// SPDX-License-Identifier: MIT
/* Returns the verdict in cfg[0] (set by the test; 0 is XDP_ABORTED). */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u32);
} cfg SEC(".maps");

SEC("xdp")
int dev_verdict(struct xdp_md *ctx)
{
	__u32 key = 0, *verdict = bpf_map_lookup_elem(&cfg, &key);

	return verdict ? *verdict : XDP_ABORTED;
}

char _license[] SEC("license") = "GPL";
