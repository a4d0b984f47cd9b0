// SPDX-License-Identifier: MIT
/*
 * headroom bench redirect-cpu, and bench/datapath's cpumap pipeline on
 * both sides: the RX program spreads packets over the CPUs listed in
 * cpus_available[0 .. ncpus - 1] (xdp-bench's map of the same name),
 * round robin, or by the RX hash when built as bench_cpu_hash.bpf.c
 * (xdp-bench redirect-cpu's --program-mode round-robin, and the rxhash
 * steering of the cpumap thread: a separate object because the kernel
 * loads a program calling the hint kfuncs only bound to a device); the cpumap program counts what the remote CPU
 * received in a per-CPU array (the kernel's delivered rate, seen on the
 * CPU that delivers), then drops or passes on to the stack (tc).
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#include "hr_rx_kfuncs.h"

const volatile __u32 ncpus = 1;
const volatile __u32 remote_action = XDP_DROP;

struct {
	__uint(type, BPF_MAP_TYPE_CPUMAP);
	__uint(max_entries, 16);
	__type(key, __u32);
	__type(value, struct bpf_cpumap_val);
} cpu_map SEC(".maps");

/* The cpumap keys (CPUs) to spread over. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 16);
	__type(key, __u32);
	__type(value, __u32);
} cpus_available SEC(".maps");

/* [0]: the round-robin counter of the RX CPU. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} rr SEC(".maps");

/* [0]: frames the cpumap program saw on this CPU. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} remote_seen SEC(".maps");

SEC("xdp")
int bench_cpu_rx(struct xdp_md *ctx)
{
	__u32 key = 0, n = ncpus ? ncpus : 1, *cpu;
#ifdef BENCH_CPU_BY_HASH
	enum xdp_rss_hash_type type = 0;
	__u32 hash = 0;

	/* A device without hints steers everything to the first. */
	bpf_xdp_metadata_rx_hash(ctx, &hash, &type);
	key = hash % n;
#else
	__u64 *c = bpf_map_lookup_elem(&rr, &key);

	if (!c)
		return XDP_ABORTED;
	key = (__u32)(*c % n);
	*c += 1;
#endif
	cpu = bpf_map_lookup_elem(&cpus_available, &key);
	if (!cpu)
		return XDP_ABORTED;
	return bpf_redirect_map(&cpu_map, *cpu, 0);
}

SEC("xdp/cpumap")
int bench_cpu_remote(struct xdp_md *ctx)
{
	__u32 key = 0;
	__u64 *c = bpf_map_lookup_elem(&remote_seen, &key);

	if (c)
		*c += 1;
	return remote_action;
}

char _license[] SEC("license") = "GPL";
