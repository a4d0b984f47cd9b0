// SPDX-License-Identifier: MIT
/*
 * Seed 003, remote side: a cpumap program (BPF_XDP_CPUMAP) reading the
 * metadata sc_cpu_rx wrote on the RX worker, counting per CPU
 * (SC_REM_*): frames seen, and those whose metadata is intact and whose
 * chosen CPU is the one running this program. Passes everything.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define SC_CPU_MAGIC 0x53435055u

struct sc_cpu_meta {
	__u32 magic;
	__u32 hash;
	__u32 target;
	__u32 rx_cpu;
};

#define SC_REM_SEEN 0
#define SC_REM_OK 1
#define SC_REM_NO_META 2
#define SC_REM_WRONG_CPU 3

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 4);
	__type(key, __u32);
	__type(value, __u64);
} sc_rem_stats SEC(".maps");

static __always_inline void count(__u32 key)
{
	__u64 *v = bpf_map_lookup_elem(&sc_rem_stats, &key);

	if (v)
		*v += 1;
}

SEC("xdp/cpumap")
int sc_cpu_remote(struct xdp_md *ctx)
{
	struct sc_cpu_meta *m = (void *)(long)ctx->data_meta;
	void *data = (void *)(long)ctx->data;

	count(SC_REM_SEEN);
	/* Exactly the 16 bytes written on the RX worker (the bound first,
	 * for the verifier, then the magic, then the exact length). */
	if ((void *)(m + 1) > data || m->magic != SC_CPU_MAGIC ||
	    (void *)(m + 1) != data) {
		count(SC_REM_NO_META);
		return XDP_PASS;
	}
	if (m->target != bpf_get_smp_processor_id()) {
		count(SC_REM_WRONG_CPU);
		return XDP_PASS;
	}
	count(SC_REM_OK);
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
