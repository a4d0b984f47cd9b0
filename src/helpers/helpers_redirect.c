// SPDX-License-Identifier: MIT
/*
 * bpf_redirect and bpf_redirect_map for XDP (net/core/filter.c
 * bpf_xdp_redirect, bpf_xdp_redirect_map): they only record the target in
 * the worker's bpf_redirect_info; xdp_do_redirect acts on it after the
 * program returns XDP_REDIRECT.
 */
#include <linux/bpf.h>

#include "progs/ctx.h"
#include "helpers/helpers.h"
#include "core/datapath.h"
#include "maps/map.h"

/* Test runs have no worker: a per-thread one stands in. */
static __thread struct hr_redirect_info test_ri;

static struct hr_redirect_info *run_ri(struct hr_run *run)
{
	struct hr_xdp_ctx *c = run->priv;

	return c && c->ri ? c->ri : &test_ri;
}

static uint64_t xdp_redirect(uint64_t ifindex, uint64_t flags, uint64_t r3,
			     uint64_t r4, uint64_t r5, struct hr_run *run)
{
	struct hr_redirect_info *ri = run_ri(run);

	if (flags)
		return XDP_ABORTED;
	ri->tgt_index = (uint32_t)ifindex;
	ri->map_id = HR_REDIRECT_MAP_ID_IFINDEX;
	ri->map_type = 0;
	ri->map = NULL;
	return XDP_REDIRECT;
}

static uint64_t xdp_redirect_map(uint64_t map_ptr, uint64_t key, uint64_t flags,
				 uint64_t r4, uint64_t r5, struct hr_run *run)
{
	struct hr_redirect_info *ri = run_ri(run);
	struct hr_map *map = hr_run_map(run, map_ptr);
	uint64_t ret;

	if (!map)
		return 0;
	/* The verifier admits only redirect maps here; a map without the
	 * hook is refused at run time instead. */
	if (!map->ops || !map->ops->redirect)
		return XDP_ABORTED;
	ret = map->ops->redirect(map, key, flags, ri);
	if (ret == XDP_REDIRECT && ri->map_type) {
		/* xdp_do_redirect needs the map for every map type, not
		 * only for broadcast as the kernel's ri->map. */
		ri->map = map;
		ri->map_id = 1;
	} else if (!ri->map_type) {
		/* A miss clears the state; a later XDP_REDIRECT then uses
		 * the ifindex path, as the kernel's map_id = INT_MAX. */
		ri->map_id = HR_REDIRECT_MAP_ID_IFINDEX;
		ri->map = NULL;
	}
	return ret;
}

const struct hr_helper hr_helper_redirect = {
	.id = BPF_FUNC_redirect,
	.name = "bpf_redirect",
	.fn = xdp_redirect,
};

const struct hr_helper hr_helper_redirect_map = {
	.id = BPF_FUNC_redirect_map,
	.name = "bpf_redirect_map",
	.fn = xdp_redirect_map,
};
