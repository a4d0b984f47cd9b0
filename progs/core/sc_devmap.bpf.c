// SPDX-License-Identifier: MIT
/*
 * Seed 002's redirect part: sc_dm_redirect sends through the DEVMAP
 * sc_dm_map, to key 1 (sc_dm_cfg[0] = 0, else XDP_DROP), or broadcast
 * with BPF_F_EXCLUDE_INGRESS (1) or without (2). The entries' egress
 * program sc_dm_egress rewrites three payload bytes: the egress ifindex,
 * the ingress ifindex and SC_DM_MARK. sc_dm_peer, on the veth peers,
 * counts frames carrying the mark and passes everything.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define SC_DM_OFF 42 /* the UDP payload of an IPv4 packet */
#define SC_DM_MARK 0xee

struct {
	__uint(type, BPF_MAP_TYPE_DEVMAP);
	__uint(max_entries, 4);
	__type(key, __u32);
	__type(value, struct bpf_devmap_val);
} sc_dm_map SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u32);
} sc_dm_cfg SEC(".maps");

/* [0] egress runs, [1] peer frames with the mark, [2] without. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 3);
	__type(key, __u32);
	__type(value, __u64);
} sc_dm_stats SEC(".maps");

static __always_inline void count(__u32 key)
{
	__u64 *v = bpf_map_lookup_elem(&sc_dm_stats, &key);

	if (v)
		*v += 1;
}

SEC("xdp")
int sc_dm_redirect(struct xdp_md *ctx)
{
	__u32 key = 0, *mode = bpf_map_lookup_elem(&sc_dm_cfg, &key);

	if (!mode)
		return XDP_ABORTED;
	if (*mode == 1)
		return bpf_redirect_map(
			&sc_dm_map, 0, BPF_F_BROADCAST | BPF_F_EXCLUDE_INGRESS);
	if (*mode == 2)
		return bpf_redirect_map(&sc_dm_map, 0, BPF_F_BROADCAST);
	return bpf_redirect_map(&sc_dm_map, 1, XDP_DROP);
}

SEC("xdp/devmap")
int sc_dm_egress(struct xdp_md *ctx)
{
	__u8 *data = (void *)(long)ctx->data;
	__u8 *end = (void *)(long)ctx->data_end;

	count(0);
	if (data + SC_DM_OFF + 3 > end)
		return XDP_DROP;
	data[SC_DM_OFF] = (__u8)ctx->egress_ifindex;
	data[SC_DM_OFF + 1] = (__u8)ctx->ingress_ifindex;
	data[SC_DM_OFF + 2] = SC_DM_MARK;
	return XDP_PASS;
}

SEC("xdp")
int sc_dm_peer(struct xdp_md *ctx)
{
	__u8 *data = (void *)(long)ctx->data;
	__u8 *end = (void *)(long)ctx->data_end;

	if (data + SC_DM_OFF + 3 <= end && data[SC_DM_OFF + 2] == SC_DM_MARK)
		count(1);
	else
		count(2);
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
