/* SPDX-License-Identifier: MIT */
/*
 * Tunnel metadata of a tc test run's skb: what a packet received on a
 * collect_md ("external") tunnel device carries (the kernel's struct
 * ip_tunnel_info behind a metadata_dst), for bpf_skb_get_tunnel_key and
 * bpf_skb_get_tunnel_opt to read, and what bpf_skb_set_tunnel_key and
 * bpf_skb_set_tunnel_opt left on it. Given to hr_prog_test_run through
 * struct hr_test_run_opts (tunnel_in, tunnel_out).
 */
#ifndef HEADROOM_TUNNEL_H
#define HEADROOM_TUNNEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "headroom/opts.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The kernel's tunnel flags, bit for bit (IP_TUNNEL_*_BIT of
 * linux/if_tunnel.h): the low 16 are what bpf_skb_get_tunnel_key gives
 * in tunnel_flags with BPF_F_TUNINFO_FLAGS (as TUNNEL_*, network order). */
#define HR_TUNNEL_F_CSUM (1u << 0)
#define HR_TUNNEL_F_ROUTING (1u << 1)
#define HR_TUNNEL_F_KEY (1u << 2)
#define HR_TUNNEL_F_SEQ (1u << 3)
#define HR_TUNNEL_F_STRICT (1u << 4)
#define HR_TUNNEL_F_REC (1u << 5)
#define HR_TUNNEL_F_VERSION (1u << 6)
#define HR_TUNNEL_F_NO_KEY (1u << 7)
#define HR_TUNNEL_F_DONT_FRAGMENT (1u << 8)
#define HR_TUNNEL_F_OAM (1u << 9)
#define HR_TUNNEL_F_CRIT_OPT (1u << 10)
#define HR_TUNNEL_F_GENEVE_OPT (1u << 11)
#define HR_TUNNEL_F_VXLAN_OPT (1u << 12)
#define HR_TUNNEL_F_NOCACHE (1u << 13)
#define HR_TUNNEL_F_ERSPAN_OPT (1u << 14)
#define HR_TUNNEL_F_GTP_OPT (1u << 15)
#define HR_TUNNEL_F_VTI (1u << 16)
#define HR_TUNNEL_F_PFCP_OPT (1u << 17)
#define HR_TUNNEL_F_ALL ((1u << 18) - 1)
/* Any of these says options are present (bpf_skb_get_tunnel_opt). */
#define HR_TUNNEL_F_OPTS                                  \
	(HR_TUNNEL_F_GENEVE_OPT | HR_TUNNEL_F_VXLAN_OPT | \
	 HR_TUNNEL_F_ERSPAN_OPT | HR_TUNNEL_F_GTP_OPT | HR_TUNNEL_F_PFCP_OPT)

/* The options' room: ip_tunnel_info's options_len is a u8. */
#define HR_TUNNEL_OPTS_MAX 255

struct hr_tunnel_md {
	size_t sz; /* sizeof(struct hr_tunnel_md), as HR_OPTS sets it */
	/* AF_INET or AF_INET6; 0 in tunnel_out: the skb carries none. */
	int family;
	/* Out only: the program set it (bpf_skb_set_tunnel_key, the
	 * kernel's IP_TUNNEL_INFO_TX); remote is then where it goes. */
	bool tx;
	uint64_t id; /* tun_id: the VNI, GRE key ... */
	/* The other end and this one, network order (IPv4: 4 bytes). */
	uint8_t remote[16];
	uint8_t local[16];
	uint8_t tos;
	uint8_t ttl;
	uint32_t label; /* IPv6 flow label, 20 bits; 0 for IPv4 */
	uint32_t flags; /* HR_TUNNEL_F_* */
	uint8_t opts_len;
	uint8_t opts[HR_TUNNEL_OPTS_MAX];
};

#ifdef __cplusplus
}
#endif

#endif /* HEADROOM_TUNNEL_H */
