// SPDX-License-Identifier: MIT
/* veth's skb path, the sending end A: counts (vs_back[0]) and drops
 * what B's XDP_TX sent back. A program of its own object, since the one
 * on B is bound to B's device. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} vs_back SEC(".maps");

SEC("xdp")
int vs_back_xdp(struct xdp_md *ctx)
{
	__u32 key = 0;
	__u64 *c = bpf_map_lookup_elem(&vs_back, &key);

	if (c)
		__sync_fetch_and_add(c, 1);
	return XDP_DROP;
}

char _license[] SEC("license") = "GPL";
