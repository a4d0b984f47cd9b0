// SPDX-License-Identifier: MIT
/*
 * Seed 004's DDoS filter: drops UDP by the RX hash type the NIC reported
 * (bpf_xdp_metadata_rx_hash), passes the rest. It never reads the packet:
 * no access to ctx->data, data_end or data_meta, so a packet whose bytes
 * say one thing and whose hints say another goes by the hints.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#include "hr_rx_kfuncs.h"

/* SC_DDOS_*: per-CPU counts of what the filter decided. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 4);
	__type(key, __u32);
	__type(value, __u64);
} sc_ddos_stats SEC(".maps");

#define SC_DDOS_DROP_UDP 0
#define SC_DDOS_PASS 1
#define SC_DDOS_NO_HINT 2 /* -EOPNOTSUPP or -ENODATA: passed */

static __always_inline void count(__u32 key)
{
	__u64 *v = bpf_map_lookup_elem(&sc_ddos_stats, &key);

	if (v)
		*v += 1;
}

SEC("xdp")
int sc_ddos(struct xdp_md *ctx)
{
	enum xdp_rss_hash_type type = 0;
	__u32 hash = 0;

	if (bpf_xdp_metadata_rx_hash(ctx, &hash, &type)) {
		count(SC_DDOS_NO_HINT);
		return XDP_PASS;
	}
	if (type & XDP_RSS_L4_UDP) {
		count(SC_DDOS_DROP_UDP);
		return XDP_DROP;
	}
	count(SC_DDOS_PASS);
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
