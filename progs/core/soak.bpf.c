// SPDX-License-Identifier: MIT
/*
 * The soak test's generator-side programs (tests/core/test_soak.c), sharing
 * this object's devmap and cpumap. Generator packets (Ethernet, IPv4,
 * UDP) are steered by their UDP source port s (1 .. 64):
 *
 *   soak_gen       s % 16: 0..5 devmap entry (s >> 4) & 3, 6..11 cpumap
 *                  entry (s >> 4) & 3, 12 XDP_TX, 13 PASS, 14 DROP,
 *                  15 ABORTED; a missing entry drops
 *   soak_gen2      s % 4: 0, 1 devmap entry (s >> 2) & 3, 2, 3 cpumap
 *                  entry (s >> 2) & 3; a missing entry passes
 *   soak_gen_drop  drops everything (lets the rings drain)
 *   soak_cpu       cpumap program: s % 4: 0 DROP, 1 redirect to devmap
 *                  entry (s >> 2) & 3 (a miss drops), 2 and 3 PASS
 *   soak_cpu_slow  cpumap program: a bpf_loop of 64 iterations, then
 *                  PASS: a slow consumer that lets the ring overflow
 *   soak_egress    devmap program: drops s % 5 == 0, passes the rest
 *
 * Every verdict lands in a counter of the datapath's own, so the test
 * accounts for each packet without reading map values under traffic.
 * Entry 3 of the cpumap names a CPU the test's datapath does not have.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_DEVMAP);
	__uint(max_entries, 4);
	__type(key, __u32);
	__type(value, struct bpf_devmap_val);
} soak_tx SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_CPUMAP);
	__uint(max_entries, 4);
	__type(key, __u32);
	__type(value, struct bpf_cpumap_val);
} soak_cpus SEC(".maps");

/* The UDP source port's low byte (ports 1 .. 64), or -1. */
static __always_inline int sport(struct xdp_md *ctx)
{
	__u8 *p = (void *)(long)ctx->data;

	if ((void *)(p + 36) > (void *)(long)ctx->data_end)
		return -1;
	return p[35];
}

SEC("xdp")
int soak_gen(struct xdp_md *ctx)
{
	int s = sport(ctx);

	if (s < 0)
		return XDP_ABORTED;
	switch (s % 16) {
	case 0 ... 5:
		return bpf_redirect_map(&soak_tx, (s >> 4) & 3, XDP_DROP);
	case 6 ... 11:
		return bpf_redirect_map(&soak_cpus, (s >> 4) & 3, XDP_DROP);
	case 12:
		return XDP_TX;
	case 13:
		return XDP_PASS;
	case 14:
		return XDP_DROP;
	default:
		return XDP_ABORTED;
	}
}

SEC("xdp")
int soak_gen2(struct xdp_md *ctx)
{
	int s = sport(ctx);

	if (s < 0)
		return XDP_ABORTED;
	if (s % 4 < 2)
		return bpf_redirect_map(&soak_tx, (s >> 2) & 3, XDP_PASS);
	return bpf_redirect_map(&soak_cpus, (s >> 2) & 3, XDP_PASS);
}

SEC("xdp")
int soak_gen_drop(struct xdp_md *ctx)
{
	return XDP_DROP;
}

SEC("xdp/cpumap")
int soak_cpu(struct xdp_md *ctx)
{
	int s = sport(ctx);

	if (s < 0)
		return XDP_ABORTED;
	switch (s % 4) {
	case 0:
		return XDP_DROP;
	case 1:
		return bpf_redirect_map(&soak_tx, (s >> 2) & 3, XDP_DROP);
	default:
		return XDP_PASS;
	}
}

static long spin_cb(__u32 i, void *data)
{
	__u64 *x = data;

	*x = *x * 31 + i;
	return 0;
}

SEC("xdp/cpumap")
int soak_cpu_slow(struct xdp_md *ctx)
{
	__u64 x = 1;

	bpf_loop(64, spin_cb, &x, 0);
	return x ? XDP_PASS : XDP_DROP;
}

SEC("xdp/devmap")
int soak_egress(struct xdp_md *ctx)
{
	int s = sport(ctx);

	if (s < 0)
		return XDP_ABORTED;
	return s % 5 ? XDP_PASS : XDP_DROP;
}

char _license[] SEC("license") = "GPL";
