// SPDX-License-Identifier: MIT
/* A map type headroom lacks: loading must fail naming map and type. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_SOCKMAP);
	__type(key, __u32);
	__type(value, __u32);
	__uint(max_entries, 8);
} socks SEC(".maps");

SEC("xdp")
int bad_map(struct xdp_md *ctx)
{
	__u32 k = 0;

	return bpf_map_lookup_elem(&socks, &k) ? XDP_PASS : XDP_DROP;
}

char _license[] SEC("license") = "GPL";
