// SPDX-License-Identifier: MIT
/* tc ingress: bpf_redirect(cfg[0], cfg[1]) for every packet, or
 * bpf_redirect_peer(cfg[0], 0) when cfg[2] is set. */
#include <linux/bpf.h>
#include <linux/pkt_cls.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 3);
	__type(key, __u32);
	__type(value, __u32);
} cfg SEC(".maps");

SEC("tc")
int tc_redir(struct __sk_buff *skb)
{
	__u32 k0 = 0, k1 = 1, k2 = 2, *ifindex = bpf_map_lookup_elem(&cfg, &k0);
	__u32 *flags = bpf_map_lookup_elem(&cfg, &k1);
	__u32 *peer = bpf_map_lookup_elem(&cfg, &k2);

	if (!ifindex || !flags || !peer)
		return TC_ACT_SHOT;
	if (*peer)
		return bpf_redirect_peer(*ifindex, 0);
	return bpf_redirect(*ifindex, *flags);
}

char _license[] SEC("license") = "GPL";
