// SPDX-License-Identifier: MIT
/* bpf_redirect() to the ifindex in cfg[0] (set by the test). */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u32);
} cfg SEC(".maps");

SEC("xdp")
int dev_redirect(struct xdp_md *ctx)
{
	__u32 key = 0, *ifindex = bpf_map_lookup_elem(&cfg, &key);

	if (!ifindex)
		return XDP_ABORTED;
	return bpf_redirect(*ifindex, 0);
}

char _license[] SEC("license") = "GPL";
