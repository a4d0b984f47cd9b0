// SPDX-License-Identifier: MIT
/*
 * `headroom run`'s pipeline test and examples/meta_cpumap.yaml, RX side:
 * the RX hash and timestamp through the metadata kfuncs into 16 bytes of
 * metadata (struct run_meta), then to a cpumap entry chosen by the hash
 * (hash % ncpus, a .rodata setting), as xdp_redirect_cpu's hash mode.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#include "hr_rx_kfuncs.h"

#include "hr_run_meta.h"

const volatile __u32 ncpus = 2;

struct {
	__uint(type, BPF_MAP_TYPE_CPUMAP);
	__uint(max_entries, 16);
	__type(key, __u32);
	__type(value, struct bpf_cpumap_val);
} run_cpu_map SEC(".maps");

SEC("xdp")
int run_rx(struct xdp_md *ctx)
{
	enum xdp_rss_hash_type type = 0;
	struct run_meta *m;
	__u32 hash = 0;
	__u64 ts = 0;

	bpf_xdp_metadata_rx_hash(ctx, &hash, &type);
	bpf_xdp_metadata_rx_timestamp(ctx, &ts);
	if (bpf_xdp_adjust_meta(ctx, -(int)sizeof(*m)))
		return XDP_ABORTED;
	m = (void *)(long)ctx->data_meta;
	if ((void *)(m + 1) > (void *)(long)ctx->data)
		return XDP_ABORTED;
	m->hash = hash;
	m->rss_type = type;
	m->ts_lo = (__u32)ts;
	m->magic = RUN_MAGIC;
	return bpf_redirect_map(&run_cpu_map, ncpus ? hash % ncpus : 0,
				XDP_DROP);
}

char _license[] SEC("license") = "GPL";
