// SPDX-License-Identifier: MIT
/* A __ksym kfunc extern: the RX hash metadata kfunc. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

/* The 6.1 UAPI headers predate these (include/net/xdp.h, 6.3). */
enum xdp_rss_hash_type {
	XDP_RSS_TYPE_NONE = 0,
};

extern int bpf_xdp_metadata_rx_hash(const struct xdp_md *ctx, __u32 *hash,
				    enum xdp_rss_hash_type *rss_type) __ksym;

SEC("xdp")
int rx_hash(struct xdp_md *ctx)
{
	enum xdp_rss_hash_type type;
	__u32 hash;

	if (bpf_xdp_metadata_rx_hash(ctx, &hash, &type))
		return XDP_DROP;
	return hash & 1 ? XDP_PASS : XDP_DROP;
}

char _license[] SEC("license") = "GPL";
