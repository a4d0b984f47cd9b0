// SPDX-License-Identifier: MIT
/*
 * Seed 003, RX side: 16 bytes of metadata (struct sc_cpu_meta: magic, RX
 * hash from the kfunc, the chosen CPU, the RX CPU), then a redirect into
 * the cpumap: round robin (sc_cpu_cfg[0] = 0) or by hash (1). Counts what
 * it steered to each CPU in sc_cpu_steered.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#include "hr_rx_kfuncs.h"

#define SC_CPU_MAGIC 0x53435055u /* "SCPU" */

struct sc_cpu_meta {
	__u32 magic;
	__u32 hash;
	__u32 target;
	__u32 rx_cpu;
};

struct {
	__uint(type, BPF_MAP_TYPE_CPUMAP);
	__uint(max_entries, 2);
	__type(key, __u32);
	__type(value, struct bpf_cpumap_val);
} sc_cpu_map SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u32);
} sc_cpu_cfg SEC(".maps");

/* [0] the round-robin counter; [1 + cpu] frames steered to cpu. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 3);
	__type(key, __u32);
	__type(value, __u64);
} sc_cpu_steered SEC(".maps");

SEC("xdp")
int sc_cpu_rx(struct xdp_md *ctx)
{
	enum xdp_rss_hash_type type = 0;
	__u32 key = 0, hash = 0, target, *mode;
	struct sc_cpu_meta *m;
	__u64 *rr, *n;

	mode = bpf_map_lookup_elem(&sc_cpu_cfg, &key);
	rr = bpf_map_lookup_elem(&sc_cpu_steered, &key);
	if (!mode || !rr)
		return XDP_ABORTED;
	if (bpf_xdp_metadata_rx_hash(ctx, &hash, &type))
		return XDP_ABORTED;
	if (*mode)
		target = hash & 1;
	else
		target = __sync_fetch_and_add(rr, 1) & 1;
	key = 1 + target;
	n = bpf_map_lookup_elem(&sc_cpu_steered, &key);
	if (!n)
		return XDP_ABORTED;
	__sync_fetch_and_add(n, 1);
	if (bpf_xdp_adjust_meta(ctx, -(int)sizeof(*m)))
		return XDP_ABORTED;
	m = (void *)(long)ctx->data_meta;
	if ((void *)(m + 1) > (void *)(long)ctx->data)
		return XDP_ABORTED;
	m->magic = SC_CPU_MAGIC;
	m->hash = hash;
	m->target = target;
	m->rx_cpu = bpf_get_smp_processor_id();
	return bpf_redirect_map(&sc_cpu_map, target, XDP_ABORTED);
}

char _license[] SEC("license") = "GPL";
