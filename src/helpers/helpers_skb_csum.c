// SPDX-License-Identifier: MIT
/*
 * The skb's checksum state as tc programs see it (net/core/filter.c
 * bpf_csum_update, bpf_csum_level, with include/linux/skbuff.h's
 * __skb_incr/_decr/_reset_checksum_unnecessary). headroom's skbs come
 * from test runs and XDP frames, built with CHECKSUM_NONE as the
 * kernel's are (build_skb), so CHECKSUM_COMPLETE never happens here.
 */
#include <errno.h>
#include <linux/bpf.h>

#include "helpers/helpers.h"
#include "helpers/helpers_skb.h"
#include "progs/ctx.h"

/* include/linux/skbuff.h */
#define CHECKSUM_NONE 0
#define CHECKSUM_UNNECESSARY 1
#define SKB_MAX_CSUM_LEVEL 3
/* include/linux/errno.h: not in the UAPI. */
#define ENOTSUPP 524

void hr_skb_csum_reset_unnecessary(struct hr_tc_ctx *c)
{
	if (c->ip_summed == CHECKSUM_UNNECESSARY) {
		c->ip_summed = CHECKSUM_NONE;
		c->csum_level = 0;
	}
}

static void incr_unnecessary(struct hr_tc_ctx *c)
{
	if (c->ip_summed == CHECKSUM_UNNECESSARY) {
		if (c->csum_level < SKB_MAX_CSUM_LEVEL)
			c->csum_level++;
	} else if (c->ip_summed == CHECKSUM_NONE) {
		c->ip_summed = CHECKSUM_UNNECESSARY;
		c->csum_level = 0;
	}
}

static void decr_unnecessary(struct hr_tc_ctx *c)
{
	if (c->ip_summed != CHECKSUM_UNNECESSARY)
		return;
	if (c->csum_level == 0)
		c->ip_summed = CHECKSUM_NONE;
	else
		c->csum_level--;
}

/* long bpf_csum_update(skb, csum): only CHECKSUM_COMPLETE skbs have a
 * csum to add to. */
static uint64_t csum_update(uint64_t r1, uint64_t csum, uint64_t r3,
			    uint64_t r4, uint64_t r5, struct hr_run *run)
{
	return (uint64_t)(int64_t)-ENOTSUPP;
}

/* long bpf_csum_level(skb, level) */
static uint64_t csum_level(uint64_t r1, uint64_t level, uint64_t r3,
			   uint64_t r4, uint64_t r5, struct hr_run *run)
{
	struct hr_tc_ctx *c = run->priv;

	switch (level) {
	case BPF_CSUM_LEVEL_INC:
		incr_unnecessary(c);
		break;
	case BPF_CSUM_LEVEL_DEC:
		decr_unnecessary(c);
		break;
	case BPF_CSUM_LEVEL_RESET:
		hr_skb_csum_reset_unnecessary(c);
		break;
	case BPF_CSUM_LEVEL_QUERY:
		return c->ip_summed == CHECKSUM_UNNECESSARY ?
			       c->csum_level :
			       (uint64_t)(int64_t)-EACCES;
	default:
		return (uint64_t)(int64_t)-EINVAL;
	}
	return 0;
}

const struct hr_helper hr_helper_csum_update = {
	.id = BPF_FUNC_csum_update,
	.name = "bpf_csum_update",
	.fn = csum_update,
};

const struct hr_helper hr_helper_csum_level = {
	.id = BPF_FUNC_csum_level,
	.name = "bpf_csum_level",
	.fn = csum_level,
};
