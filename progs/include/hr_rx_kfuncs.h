/* SPDX-License-Identifier: MIT */
/* The XDP RX metadata kfuncs (net/core/xdp.c), for programs to call. */
#ifndef HR_RX_KFUNCS_H
#define HR_RX_KFUNCS_H

#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#include "hr_progs.h" /* enum xdp_rss_hash_type */

extern int bpf_xdp_metadata_rx_timestamp(const struct xdp_md *ctx,
					 __u64 *timestamp) __ksym;
extern int bpf_xdp_metadata_rx_hash(const struct xdp_md *ctx, __u32 *hash,
				    enum xdp_rss_hash_type *rss_type) __ksym;
extern int bpf_xdp_metadata_rx_vlan_tag(const struct xdp_md *ctx,
					__be16 *vlan_proto,
					__u16 *vlan_tci) __ksym;

/* The 16 bytes of metadata bench/engines (c) and (c') write. */
struct bench_meta {
	__u32 hash;
	__u32 rss_type;
	__u32 ts_lo;
	__u16 vlan_tci;
	__u16 vlan_proto;
};

#endif /* HR_RX_KFUNCS_H */
