// SPDX-License-Identifier: MIT
/*
 * bench/datapath, kernel side: the live-frames injector on veth A. Gives
 * each frame one of @flows UDP source ports (1024 + n % flows), as
 * headroom's generator spreads its flows, then XDP_TX sends it to the
 * peer, as the veth patch set's pktgen did with its flow counts.
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/ip.h>
#include <linux/udp.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_endian.h>

const volatile __u32 flows = 1;

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} injected SEC(".maps");

SEC("xdp")
int bench_inject(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *data_end = (void *)(long)ctx->data_end;
	struct udphdr *udp =
		data + sizeof(struct ethhdr) + sizeof(struct iphdr);
	__u32 key = 0, n = flows ? flows : 1;
	__u64 *c = bpf_map_lookup_elem(&injected, &key);

	if ((void *)(udp + 1) > data_end || !c)
		return XDP_ABORTED;
	udp->source = bpf_htons((__u16)(1024 + *c % n));
	*c += 1;
	return XDP_TX;
}

char _license[] SEC("license") = "GPL";
