/* SPDX-License-Identifier: MIT */
/*
 * What progs/dev/xsk_hints.bpf.c, the kernel-side program of the afxdp
 * device, writes in front of each frame (bpf_xdp_adjust_meta, or as the
 * packet's first bytes with bpf_xdp_adjust_head where a kernel refuses
 * the former) before it redirects it to the AF_XDP socket: the kernel's RX hints and each
 * metadata kfunc's return value, as the kernel's xdp_hw_metadata selftest
 * carries them. Fixed-width types only: compiled for BPF and for the host.
 */
#ifndef HR_DEV_AFXDP_META_H
#define HR_DEV_AFXDP_META_H

#include <linux/types.h>

/* "hrxm": lets the reader tell our metadata from none at all. */
#define HR_AFXDP_META_MAGIC 0x6872786du

struct hr_afxdp_meta {
	__u64 timestamp;
	__u32 hash;
	__u32 hash_type; /* enum xdp_rss_hash_type */
	__u16 vlan_proto; /* network byte order, as the kfunc gives it */
	__u16 vlan_tci;
	/* 0, -ENODATA (this packet has none), -EOPNOTSUPP (the driver has
	 * no such kfunc, or the program is not device-bound). */
	__s16 ret_ts;
	__s16 ret_hash;
	__s16 ret_vlan;
	__u16 pad;
	__u32 magic;
};

/* Counters of the kernel program, per CPU, by HR_AFXDP_CNT_*. */
enum {
	HR_AFXDP_CNT_REDIRECT, /* bpf_redirect_map to a socket succeeded */
	HR_AFXDP_CNT_NO_SOCKET, /* no socket on that queue: XDP_PASS */
	HR_AFXDP_CNT_META_ERR, /* no room for the block: XDP_PASS */
	HR_AFXDP_CNT__MAX,
};

#endif /* HR_DEV_AFXDP_META_H */
