/* SPDX-License-Identifier: MIT */
/*
 * What a run of each program type carries: the context the program sees
 * (r1) and the kernel object behind it, which helpers reach through
 * run->priv. The packet pointer fields of the UAPI contexts are 32 bits;
 * frames live below 4 GiB (core/pool.h), so they hold real addresses.
 */
#ifndef HR_PROGS_CTX_H
#define HR_PROGS_CTX_H

#include <stdint.h>
#include <linux/bpf.h>

#include "vm/vm.h"
#include "core/xdp.h"

struct hr_skb;

/* run->ctx for XDP programs; run->priv is the same struct. */
struct hr_xdp_ctx {
	struct xdp_md md;
	struct hr_xdp_buff *xdp;
	/* Redirect target chosen by bpf_redirect / bpf_redirect_map. */
	uint32_t redirect_ifindex;
	uint64_t redirect_flags;
	struct hr_map *redirect_map;
	uint32_t redirect_key;
	/* The worker's bpf_redirect_info (datapath runs); NULL in test
	 * runs, where the redirect helpers use a per-thread one. */
	struct hr_redirect_info *ri;
};

/*
 * The tunnel metadata behind an skb's metadata_dst (the kernel's struct
 * ip_tunnel_info): in the kernel's own terms, so that the helpers read
 * and write it as filter.c does (helpers_tunnel.c). A received packet's
 * src is the remote end; one the program set (mode TX) goes to dst.
 */
#define HR_TUN_INFO_TX 0x01 /* IP_TUNNEL_INFO_TX */
#define HR_TUN_INFO_IPV6 0x02 /* IP_TUNNEL_INFO_IPV6 */
#define HR_TUN_OPTS_MAX 255 /* IP_TUNNEL_OPTS_MAX: options_len is a u8 */

struct hr_tun_info {
	uint64_t id; /* key.tun_id, host order */
	uint8_t src[16]; /* key.u.ipv4 (4 bytes) or ipv6, network order */
	uint8_t dst[16];
	uint32_t flags; /* key.tun_flags: bit N is IP_TUNNEL_*_BIT N */
	uint32_t label; /* key.label, host order */
	uint8_t tos;
	uint8_t ttl;
	uint8_t mode; /* HR_TUN_INFO_* */
	uint8_t opts_len;
	uint8_t opts[HR_TUN_OPTS_MAX];
};

/* filter.c's internal redirect flags, above the UAPI's BPF_F_INGRESS:
 * BPF_F_NEIGH, BPF_F_PEER, BPF_F_NEXTHOP. */
#define HR_REDIRECT_F_NEIGH (1ull << 1)
#define HR_REDIRECT_F_PEER (1ull << 2)
#define HR_REDIRECT_F_NEXTHOP (1ull << 3)

/* run->ctx for tc programs; run->priv is the same struct. */
struct hr_tc_ctx {
	struct __sk_buff skb;
	struct hr_skb *s; /* may be NULL in test runs */
	/* The packet, as xdp_buff-style pointers inside its frame. */
	uint8_t *head;
	uint8_t *data;
	uint8_t *data_end;
	/* skb_metadata_len(): the metadata is the meta_len bytes in front
	 * of data (data_meta) and of the MAC header (the skb_meta dynptr).
	 * As in 6.18 it stays where XDP left it while helpers move data,
	 * and a helper reallocating the head clears it (helpers_skb.c). */
	uint32_t meta_len;
	/* meta_len when the run began: no run makes more, so an skb_meta
	 * dynptr is never longer. */
	uint32_t meta_len_run;
	uint32_t frame_sz;
	uint32_t redirect_ifindex;
	/* BPF_F_INGRESS, or'ed with HR_REDIRECT_F_* below. */
	uint64_t redirect_flags;
	/* skb header state the skb helpers keep (helpers_skb.c): offsets
	 * from head, set up on first use while hdr_init is 0 (MAC header at
	 * data, network header right after the Ethernet header). */
	uint16_t mac_header;
	uint16_t network_header;
	uint16_t transport_header; /* 0xffff: not set */
	uint8_t hdr_init;
	uint8_t encapsulation;
	/* skb->ip_summed (CHECKSUM_NONE 0, _UNNECESSARY 1; a test run's skb
	 * and one built from an XDP frame start with none) and
	 * skb->csum_level (helpers_skb_csum.c). */
	uint8_t ip_summed;
	uint8_t csum_level;
	/* skb->l4_hash and skb->sw_hash behind skb.hash (helpers_tc_net.c). */
	uint8_t l4_hash;
	uint8_t sw_hash;
	/* bpf_clone_redirect: clones sent and the last one's target. */
	uint32_t clone_cnt;
	uint32_t clone_ifindex;
	uint64_t clone_flags;
	/*
	 * pskb_expand_head past the frame: gives the skb a bigger head with
	 * @nhead more bytes in front and at least @ntail more behind, 0 or
	 * -ENOMEM. Set by test runs, which own their skb's memory; NULL in
	 * the datapath, whose skbs live in pool frames that cannot grow, so
	 * growth past the frame is -ENOMEM there.
	 */
	int (*expand_head)(struct hr_tc_ctx *c, uint32_t nhead, uint32_t ntail);
	void *grown; /* the head expand_head made (NULL: the frame) */
	size_t grown_sz;
	/* skb_tunnel_info(): NULL, the metadata the packet arrived with, or
	 * the per-CPU one bpf_skb_set_tunnel_key attached (helpers_tunnel.c). */
	struct hr_tun_info *tun;
};

static inline uint32_t hr_ptr32(const void *p)
{
	return (uint32_t)(uintptr_t)p;
}

/* Refreshes what the program sees after the buff moved (a helper changed
 * data, data_meta or data_end). */
static inline void hr_xdp_ctx_sync(struct hr_xdp_ctx *c, struct hr_run *run)
{
	struct hr_xdp_buff *xdp = c->xdp;
	uint8_t *lo = hr_xdp_meta_unsupported(xdp) ? (uint8_t *)xdp->data :
						     (uint8_t *)xdp->data_meta;

	c->md.data = hr_ptr32(xdp->data);
	c->md.data_end = hr_ptr32(xdp->data_end);
	c->md.data_meta = hr_ptr32(xdp->data_meta);
	run->pkt_lo = (uintptr_t)lo;
	run->pkt_hi = (uintptr_t)xdp->data_end;
}

/* Sets run->rx_hints (and rx_hints_ok) for the packet in @c, once per
 * packet with the first hr_xdp_ctx_sync: what the hint kfuncs read first.
 * The hints must not change while the program runs. */
static inline void hr_xdp_run_hints(struct hr_run *run,
				    const struct hr_rx_hints *h)
{
	run->rx_hints = h;
	run->rx_hints_ok = h ? h->present & h->supported : 0;
}

static inline void hr_xdp_ctx_hints(struct hr_xdp_ctx *c, struct hr_run *run)
{
	hr_xdp_run_hints(run, hr_xdp_std_hints(c->xdp));
}

/* The same for tc, after data or data_end moved. */
static inline void hr_tc_ctx_sync(struct hr_tc_ctx *c, struct hr_run *run)
{
	/* Pushes that leave less headroom than there is metadata put 6.18's
	 * data_meta in front of the buffer, where it reads whatever lies
	 * there; here data_meta stops at the head, so that data_meta .. data
	 * is always memory of this skb (the engines' bounds analysis proves
	 * accesses there). */
	uint8_t *meta = (size_t)(c->data - c->head) < c->meta_len ?
				c->head :
				c->data - c->meta_len;

	c->skb.data = hr_ptr32(c->data);
	c->skb.data_end = hr_ptr32(c->data_end);
	c->skb.data_meta = hr_ptr32(meta);
	c->skb.len = (uint32_t)(c->data_end - c->data);
	run->pkt_lo = (uintptr_t)meta;
	run->pkt_hi = (uintptr_t)c->data_end;
}

#endif /* HR_PROGS_CTX_H */
