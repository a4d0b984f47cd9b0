// SPDX-License-Identifier: MIT
/*
 * bpf_perf_event_output from XDP and tc: a 12-byte record (magic, packet
 * length, a counter) plus packet bytes. The first packet byte picks the
 * case: 0 current CPU with 32 packet bytes, 1 slot 63, 2 a bad flag, 3
 * more packet bytes than the packet has, 4 the record only, 5 slot 1 (a
 * CPU the run is not on), 6 the whole packet. The helper's result is
 * written over the first four packet bytes (XDP) or returned (tc).
 */
#include <linux/bpf.h>
#include <linux/pkt_cls.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_PERF_EVENT_ARRAY);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(__u32));
	__uint(max_entries, 64);
} events SEC(".maps");

struct record {
	__u32 magic;
	__u32 len;
	__u32 count;
};

static __u32 count;

static __always_inline __u64 pick_flags(__u8 mode, __u64 len)
{
	switch (mode) {
	case 0:
		return BPF_F_CURRENT_CPU | (32ull << 32);
	case 1:
		return 63;
	case 2:
		return BPF_F_CURRENT_CPU | (1ull << 52);
	case 3:
		return BPF_F_CURRENT_CPU | ((len + 1) << 32);
	case 5:
		return 1;
	case 6:
		return BPF_F_CURRENT_CPU | (len << 32);
	default:
		return BPF_F_CURRENT_CPU;
	}
}

SEC("xdp")
int xdp_perf(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *end = (void *)(long)ctx->data_end;
	struct record r = { 0xfeedbeef, ctx->data_end - ctx->data, ++count };
	__u8 *p = data;
	long ret;

	if (data + 32 > end)
		return XDP_DROP;
	ret = bpf_perf_event_output(ctx, &events, pick_flags(p[0], r.len), &r,
				    sizeof(r));
	*(__s32 *)p = (__s32)ret;
	return XDP_PASS;
}

SEC("tc")
int tc_perf(struct __sk_buff *skb)
{
	__u8 mode = 0;
	struct record r = { 0xfeedbeef, skb->len, ++count };

	bpf_skb_load_bytes(skb, 0, &mode, 1);
	return (int)bpf_perf_event_output(
		skb, &events, pick_flags(mode, skb->len), &r, sizeof(r));
}

char _license[] SEC("license") = "GPL";
