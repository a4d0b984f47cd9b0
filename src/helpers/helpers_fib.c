// SPDX-License-Identifier: MIT
/*
 * bpf_fib_lookup for XDP and tc (net/core/filter.c bpf_xdp_fib_lookup,
 * bpf_skb_fib_lookup) on headroom's tables (src/core/fib.c). XDP always
 * checks the route MTU against tot_len; tc only when tot_len is given,
 * otherwise the skb is checked against the output device's MTU
 * (is_skb_forwardable) after a successful lookup.
 */
#include <errno.h>
#include <linux/bpf.h>
#include <linux/if_ether.h>

#include "progs/ctx.h"
#include "helpers/helpers.h"
#include "core/fib.h"

#define HR_VLAN_HLEN 4u

static uint64_t ret_int(int v)
{
	return (uint64_t)(int64_t)v;
}

static struct bpf_fib_lookup *params(struct hr_run *run, uint64_t ptr,
				     int32_t plen, int *err)
{
	struct bpf_fib_lookup *p;

	/* The verifier sizes the buffer by plen (ARG_CONST_SIZE). */
	p = hr_run_mem(run, ptr, plen > 0 ? (uint32_t)plen : 1, true);
	if (!p)
		return NULL;
	if (plen < (int32_t)sizeof(*p)) {
		*err = -EINVAL;
		return NULL;
	}
	return p;
}

static uint64_t xdp_fib_lookup(uint64_t r1, uint64_t ptr, uint64_t plen,
			       uint64_t flags, uint64_t r5, struct hr_run *run)
{
	int err = 0;
	struct bpf_fib_lookup *p = params(run, ptr, (int32_t)plen, &err);

	if (!p)
		return ret_int(err);
	if ((uint32_t)flags & ~HR_FIB_LOOKUP_MASK)
		return ret_int(-EINVAL);
	return ret_int(hr_fib_lookup(p, (uint32_t)flags, true));
}

static uint64_t skb_fib_lookup(uint64_t r1, uint64_t ptr, uint64_t plen,
			       uint64_t flags, uint64_t r5, struct hr_run *run)
{
	struct hr_tc_ctx *c = run->priv;
	int err = 0;
	struct bpf_fib_lookup *p = params(run, ptr, (int32_t)plen, &err);
	bool check_mtu;
	uint32_t mtu;
	int rc;

	if (!p)
		return ret_int(err);
	if ((uint32_t)flags & ~HR_FIB_LOOKUP_MASK)
		return ret_int(-EINVAL);
	check_mtu = p->tot_len != 0;
	rc = hr_fib_lookup(p, (uint32_t)flags, check_mtu);
	if (rc == BPF_FIB_LKUP_RET_SUCCESS && !check_mtu) {
		mtu = hr_fib_dev_mtu(p->ifindex);
		if ((uint32_t)(c->data_end - c->data) >
		    mtu + ETH_HLEN + HR_VLAN_HLEN)
			rc = BPF_FIB_LKUP_RET_FRAG_NEEDED;
		p->mtu_result = (uint16_t)mtu;
	}
	return ret_int(rc);
}

const struct hr_helper hr_helper_xdp_fib_lookup = {
	.id = BPF_FUNC_fib_lookup,
	.name = "bpf_fib_lookup",
	.fn = xdp_fib_lookup,
};

const struct hr_helper hr_helper_skb_fib_lookup = {
	.id = BPF_FUNC_fib_lookup,
	.name = "bpf_fib_lookup",
	.fn = skb_fib_lookup,
};
