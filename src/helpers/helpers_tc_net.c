// SPDX-License-Identifier: MIT
/*
 * tc helpers on the skb's state beyond its bytes (net/core/filter.c):
 * the flow hash (bpf_get_hash_recalc, bpf_set_hash, bpf_set_hash_invalid),
 * ECN marking (bpf_skb_ecn_set_ce, INET_ECN_set_ce), the MTU check
 * (bpf_skb_check_mtu) and the neighbour and peer redirects.
 *
 * The flow hash itself is the skb's (hr_skb_flow_hash, core/skb.c), the
 * one RPS steers by.
 */
#include <errno.h>
#include <string.h>
#include <arpa/inet.h>
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/pkt_cls.h>

#include "progs/ctx.h"
#include "helpers/helpers.h"
#include "helpers/helpers_skb.h"
#include "core/skb.h"
#include "dev/dev.h"

#define HR_MTU_CHK_RET_SUCCESS 0
#define HR_MTU_CHK_RET_FRAG_NEEDED 1
#define HR_MTU_CHK_SEGS 1ull
/* The loopback device of a test run: LOOPBACK_MTU, an Ethernet header. */
#define HR_LO_MTU 65536u
#define HR_HARD_HEADER_LEN 14u
#define HR_REDIR_NEIGH_SIZE 20u /* struct bpf_redir_neigh */

static struct hr_tc_ctx *ctx_of(struct hr_run *run)
{
	return run->priv;
}

static uint64_t ret_int(int v)
{
	return (uint64_t)(int64_t)v;
}

static uint64_t get_hash_recalc(uint64_t r1, uint64_t r2, uint64_t r3,
				uint64_t r4, uint64_t r5, struct hr_run *run)
{
	struct hr_tc_ctx *c = ctx_of(run);
	bool l4;

	/* skb_get_hash: dissect only while no hash is known. */
	if (!c->l4_hash && !c->sw_hash) {
		c->skb.hash = hr_skb_flow_hash(c->data, c->data_end, &l4);
		c->l4_hash = l4;
		c->sw_hash = 1;
	}
	return c->skb.hash;
}

static uint64_t set_hash_invalid(uint64_t r1, uint64_t r2, uint64_t r3,
				 uint64_t r4, uint64_t r5, struct hr_run *run)
{
	struct hr_tc_ctx *c = ctx_of(run);

	/* skb_clear_hash: hash, sw_hash and l4_hash all cleared. */
	c->skb.hash = 0;
	c->sw_hash = 0;
	c->l4_hash = 0;
	return 0;
}

static uint64_t set_hash(uint64_t r1, uint64_t hash, uint64_t r3, uint64_t r4,
			 uint64_t r5, struct hr_run *run)
{
	struct hr_tc_ctx *c = ctx_of(run);

	/* __skb_set_sw_hash(skb, hash, true): an L4 hash, set by software. */
	c->skb.hash = (uint32_t)hash;
	c->sw_hash = 1;
	c->l4_hash = 1;
	return 0;
}

/* skb_protocol(skb, true): past the VLAN tags from the Ethernet header. */
static uint16_t inner_protocol(const struct hr_tc_ctx *c)
{
	uint16_t proto = ntohs((uint16_t)c->skb.protocol);
	const uint8_t *p = c->data + ETH_HLEN;

	while (proto == ETH_P_8021Q || proto == ETH_P_8021AD) {
		if (c->data_end - p < 4)
			return 0;
		proto = (uint16_t)(p[2] << 8 | p[3]);
		p += 4;
	}
	return proto;
}

/* IP_ECN_set_ce, with its checksum arithmetic on the stored (network
 * order) halfword as an x86-64 kernel does it. */
static int ipv4_set_ce(uint8_t *ip)
{
	uint32_t ecn = (ip[1] + 1u) & 3u, check;
	uint16_t old, inc_a = htons(0xfffb), inc_b = htons((uint16_t)ecn);

	if (!(ecn & 2))
		return !ecn;
	memcpy(&old, ip + 10, 2);
	check = (uint32_t)old + inc_a + inc_b;
	old = (uint16_t)(check + (check >= 0xffff));
	memcpy(ip + 10, &old, 2);
	ip[1] |= 3;
	return 1;
}

/* IP6_ECN_set_ce: the traffic class spans the first two bytes. */
static int ipv6_set_ce(uint8_t *ip)
{
	uint8_t dsfield = (uint8_t)((ip[0] & 0xf) << 4 | ip[1] >> 4);

	if ((dsfield & 3) == 0)
		return 0;
	ip[1] |= 3 << 4;
	return 1;
}

static uint64_t skb_ecn_set_ce(uint64_t r1, uint64_t r2, uint64_t r3,
			       uint64_t r4, uint64_t r5, struct hr_run *run)
{
	struct hr_tc_ctx *c = ctx_of(run);
	uint8_t *nh = hr_skb_network_header(run);

	switch (inner_protocol(c)) {
	case ETH_P_IP:
		if (nh + 20 <= c->data_end)
			return ret_int(ipv4_set_ce(nh));
		return 0;
	case ETH_P_IPV6:
		if (nh + 40 <= c->data_end)
			return ret_int(ipv6_set_ce(nh));
		return 0;
	default:
		return 0;
	}
}

/*
 * The device @ifindex names from the skb's (0: the skb's own), with its
 * MTU: a test run has only the loopback device, index 1.
 */
static bool mtu_dev(const struct hr_tc_ctx *c, uint32_t ifindex, uint32_t *mtu)
{
	struct hr_dev *dev = c->s ? c->s->dev : NULL;

	if (dev && dev->dp) {
		if (ifindex)
			dev = hr_dev_get_by_index(dev->dp, ifindex);
		if (!dev)
			return false;
		*mtu = dev->mtu;
		return true;
	}
	if (ifindex > 1)
		return false;
	*mtu = HR_LO_MTU;
	return true;
}

/* bpf_skb_check_mtu(skb, ifindex, *mtu_len, len_diff, flags). */
static uint64_t skb_check_mtu(uint64_t r1, uint64_t ifindex, uint64_t mtu_ptr,
			      uint64_t len_diff, uint64_t flags,
			      struct hr_run *run)
{
	struct hr_tc_ctx *c = ctx_of(run);
	uint32_t *mtu_len = hr_run_mem(run, mtu_ptr, sizeof(*mtu_len), true);
	uint32_t mtu;
	int64_t skb_len;
	int ret = HR_MTU_CHK_RET_FRAG_NEEDED;

	if (!mtu_len)
		return 0;
	/* Bad flags and a missing device leave *mtu_len as it was. */
	if (flags & ~HR_MTU_CHK_SEGS)
		return ret_int(-EINVAL);
	if ((flags & HR_MTU_CHK_SEGS) && ((int32_t)len_diff || *mtu_len))
		return ret_int(-EINVAL);
	if (!mtu_dev(c, (uint32_t)ifindex, &mtu))
		return ret_int(-ENODEV);
	skb_len = *mtu_len ? (int64_t)*mtu_len + HR_HARD_HEADER_LEN :
			     (int64_t)(c->data_end - c->data);
	skb_len = (int32_t)(skb_len + (int32_t)len_diff);
	if (skb_len <= (int64_t)mtu + HR_HARD_HEADER_LEN)
		ret = HR_MTU_CHK_RET_SUCCESS;
	else if (c->skb.gso_size)
		/* GSO segments are checked at transmit; BPF_MTU_CHK_SEGS would
		 * need the gso_type a test run cannot set: it passes. */
		ret = HR_MTU_CHK_RET_SUCCESS;
	*mtu_len = mtu;
	return ret_int(ret);
}

static uint64_t redirect_neigh(uint64_t ifindex, uint64_t params, uint64_t plen,
			       uint64_t flags, uint64_t r5, struct hr_run *run)
{
	struct hr_tc_ctx *c = ctx_of(run);
	int32_t len = (int32_t)plen;

	if (len && !hr_run_mem(run, params, (uint32_t)len, false))
		return 0;
	if ((len && (uint32_t)len < HR_REDIR_NEIGH_SIZE) || flags)
		return TC_ACT_SHOT;
	c->redirect_ifindex = (uint32_t)ifindex;
	c->redirect_flags = HR_REDIRECT_F_NEIGH |
			    (len ? HR_REDIRECT_F_NEXTHOP : 0);
	return TC_ACT_REDIRECT;
}

static uint64_t redirect_peer(uint64_t ifindex, uint64_t flags, uint64_t r3,
			      uint64_t r4, uint64_t r5, struct hr_run *run)
{
	struct hr_tc_ctx *c = ctx_of(run);

	if (flags)
		return TC_ACT_SHOT;
	c->redirect_ifindex = (uint32_t)ifindex;
	c->redirect_flags = HR_REDIRECT_F_PEER;
	return TC_ACT_REDIRECT;
}

const struct hr_helper hr_helper_get_hash_recalc = {
	.id = BPF_FUNC_get_hash_recalc,
	.name = "bpf_get_hash_recalc",
	.fn = get_hash_recalc,
};

const struct hr_helper hr_helper_set_hash_invalid = {
	.id = BPF_FUNC_set_hash_invalid,
	.name = "bpf_set_hash_invalid",
	.fn = set_hash_invalid,
};

const struct hr_helper hr_helper_set_hash = {
	.id = BPF_FUNC_set_hash,
	.name = "bpf_set_hash",
	.fn = set_hash,
};

const struct hr_helper hr_helper_skb_ecn_set_ce = {
	.id = BPF_FUNC_skb_ecn_set_ce,
	.name = "bpf_skb_ecn_set_ce",
	.fn = skb_ecn_set_ce,
};

const struct hr_helper hr_helper_skb_check_mtu = {
	.id = BPF_FUNC_check_mtu,
	.name = "bpf_check_mtu",
	.fn = skb_check_mtu,
};

const struct hr_helper hr_helper_redirect_neigh = {
	.id = BPF_FUNC_redirect_neigh,
	.name = "bpf_redirect_neigh",
	.fn = redirect_neigh,
};

const struct hr_helper hr_helper_redirect_peer = {
	.id = BPF_FUNC_redirect_peer,
	.name = "bpf_redirect_peer",
	.fn = redirect_peer,
};
