// SPDX-License-Identifier: MIT
/*
 * The redirecting side of the live-change test (tests/core/test_live_change.c):
 * generator packets (Ethernet, IPv4, UDP) go by the parity of the UDP
 * source port either to devmap entry 0 or to cpumap entry (port >> 1) & 1;
 * a missing entry gives XDP_DROP (the flags' action bits), so the test can
 * delete and re-add entries under traffic and still count every packet.
 * Counts its choices in vk_redir_count: [0] devmap, [1] cpumap.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_DEVMAP);
	__uint(max_entries, 4);
	__type(key, __u32);
	__type(value, __u32);
} vk_tx_port SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_CPUMAP);
	__uint(max_entries, 2);
	__type(key, __u32);
	__type(value, struct bpf_cpumap_val);
} vk_cpu_map SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 2);
	__type(key, __u32);
	__type(value, __u64);
} vk_redir_count SEC(".maps");

SEC("xdp")
int vk_redir(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *data_end = (void *)(long)ctx->data_end;
	__u8 *p = data;
	__u32 key;
	__u64 *c;

	if ((void *)(p + 36) > data_end)
		return XDP_ABORTED;
	key = p[35] & 1;
	c = bpf_map_lookup_elem(&vk_redir_count, &key);
	if (c)
		__sync_fetch_and_add(c, 1);
	if (!(p[35] & 1))
		return bpf_redirect_map(&vk_tx_port, 0, XDP_DROP);
	return bpf_redirect_map(&vk_cpu_map, (p[35] >> 1) & 1, XDP_DROP);
}

char _license[] SEC("license") = "GPL";
