// SPDX-License-Identifier: MIT
/*
 * `headroom run`'s pipeline, remote side: a cpumap program
 * (BPF_XDP_CPUMAP) counting, per worker, the frames it saw and those
 * whose metadata (struct run_meta, 16 bytes) arrived intact, then
 * passing them on to skb building and tc.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#include "hr_run_meta.h"

/* 0: frames seen, 1: with the metadata. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 2);
	__type(key, __u32);
	__type(value, __u64);
} run_cpu_seen SEC(".maps");

static __always_inline void count(__u32 key)
{
	__u64 *v = bpf_map_lookup_elem(&run_cpu_seen, &key);

	if (v)
		*v += 1;
}

SEC("xdp/cpumap")
int run_cpu(struct xdp_md *ctx)
{
	struct run_meta *m = (void *)(long)ctx->data_meta;

	count(0);
	if ((void *)(m + 1) <= (void *)(long)ctx->data && m->magic == RUN_MAGIC)
		count(1);
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
