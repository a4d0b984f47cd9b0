// SPDX-License-Identifier: MIT
/*
 * bpf_skb_set_tstamp (net/core/filter.c): the skb's timestamp and its
 * clock, skb->tstamp_type, which a tc program then reads back in
 * __sk_buff->tstamp_type (a byte, read-only: tc_cls_act_is_valid_access).
 * Only IPv4 and IPv6 packets take one (the stack clears a delivery time
 * only for inet protocols); a monotonic or TAI time of 0 is refused, a
 * realtime one of 0 means no timestamp.
 */
#include <errno.h>
#include <arpa/inet.h>
#include <linux/if_ether.h>

#include "progs/ctx.h"
#include "helpers/helpers.h"

/* enum skb_tstamp_type of 6.11's UAPI (the 6.1 header lacks TAI). */
#define HR_SKB_CLOCK_REALTIME 0
#define HR_SKB_CLOCK_MONOTONIC 1
#define HR_SKB_CLOCK_TAI 2

static int set_tstamp(struct hr_tc_ctx *c, uint64_t tstamp, uint32_t type)
{
	if (c->skb.protocol != htons(ETH_P_IP) &&
	    c->skb.protocol != htons(ETH_P_IPV6))
		return -EOPNOTSUPP;
	if (type > HR_SKB_CLOCK_TAI)
		return -EINVAL;
	if (type != HR_SKB_CLOCK_REALTIME && !tstamp)
		return -EINVAL;
	c->skb.tstamp = tstamp;
	c->skb.tstamp_type = (uint8_t)type;
	return 0;
}

static uint64_t skb_set_tstamp(uint64_t r1, uint64_t tstamp, uint64_t type,
			       uint64_t r4, uint64_t r5, struct hr_run *run)
{
	return (uint64_t)(int64_t)set_tstamp(run->priv, tstamp, (uint32_t)type);
}

const struct hr_helper hr_helper_skb_set_tstamp = {
	.id = 192,
	.name = "bpf_skb_set_tstamp",
	.fn = skb_set_tstamp,
};
