// SPDX-License-Identifier: MIT
/*
 * The loads LD_ABS and LD_IND call once rewritten (progs/ld_abs.c): the
 * kernel's bpf_skb_load_helper_{8,16,32}_no_cache (net/core/filter.c).
 * A non-negative offset reads the packet from the MAC header; a negative
 * one is SKF_NET_OFF (network header) or SKF_LL_OFF (MAC header) based,
 * as bpf_internal_load_pointer_neg_helper, and must stay inside head ..
 * tail. The value comes back in host order; a load outside the packet is
 * -EFAULT, which the rewritten code turns into "return 0".
 */
#include <errno.h>
#include <linux/filter.h>

#include "progs/ctx.h"
#include "helpers/helpers.h"
#include "helpers/helpers_skb.h"

static const uint8_t *neg_ptr(struct hr_run *run, struct hr_tc_ctx *c,
			      int32_t k, uint32_t size)
{
	const uint8_t *p;

	if (k >= SKF_NET_OFF)
		p = hr_skb_network_header(run) + (k - SKF_NET_OFF);
	else if (k >= SKF_LL_OFF)
		p = hr_skb_mac_header(c) + (k - SKF_LL_OFF);
	else
		return NULL;
	if (p < c->head || p + size > c->data_end)
		return NULL;
	return p;
}

static uint64_t load(uint64_t r1, uint64_t r2, struct hr_run *run,
		     uint32_t size)
{
	struct hr_tc_ctx *c = run->priv;
	int32_t off = (int32_t)r2;
	const uint8_t *p;
	uint64_t v = 0;
	uint32_t i;

	/* The verifier's "R6 != pointer to skb", checked when it runs. */
	if (r1 != (uintptr_t)run->ctx || !c) {
		hr_run_abort(run, HR_ABORT_HELPER_ARG, r1);
		return 0;
	}
	if (off >= 0)
		p = (uint64_t)off + size <= (uint64_t)(c->data_end - c->data) ?
			    c->data + off :
			    NULL;
	else
		p = neg_ptr(run, c, off, size);
	if (!p)
		return (uint64_t)(int64_t)-EFAULT;
	for (i = 0; i < size; i++)
		v = v << 8 | p[i];
	return v;
}

static uint64_t load_8(uint64_t r1, uint64_t r2, uint64_t r3, uint64_t r4,
		       uint64_t r5, struct hr_run *run)
{
	return load(r1, r2, run, 1);
}

static uint64_t load_16(uint64_t r1, uint64_t r2, uint64_t r3, uint64_t r4,
			uint64_t r5, struct hr_run *run)
{
	return load(r1, r2, run, 2);
}

static uint64_t load_32(uint64_t r1, uint64_t r2, uint64_t r3, uint64_t r4,
			uint64_t r5, struct hr_run *run)
{
	return load(r1, r2, run, 4);
}

const hr_helper_fn hr_skb_ld_abs_fns[3] = { load_8, load_16, load_32 };
