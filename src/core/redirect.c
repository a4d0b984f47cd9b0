// SPDX-License-Identifier: MIT
/*
 * xdp_do_redirect (net/core/filter.c): the target bpf_redirect or
 * bpf_redirect_map chose, read once and cleared, then the buff converted
 * and enqueued. Map targets go to the map type's xdp_enqueue (which does
 * the conversion itself: XSKMAP takes the buff as it is).
 */
#include <errno.h>

#include "core/datapath.h"
#include "maps/map.h"

/*
 * The helper stored ri's fields one by one a few instructions ago: read
 * them back the same way (a relaxed atomic load is never merged with its
 * neighbours), since a wider load spanning several of those stores cannot
 * be forwarded from the store buffer and stalls until they retire; a
 * whole-struct copy compiles to such loads.
 */
#define RI_LOAD(f) __atomic_load_n(&ri->f, __ATOMIC_RELAXED)

static void redirect_take(struct hr_redirect_info *ri,
			  struct hr_redirect_info *cur)
{
	cur->tgt_index = RI_LOAD(tgt_index);
	cur->map_type = RI_LOAD(map_type);
	cur->map = RI_LOAD(map);
	cur->tgt_value = RI_LOAD(tgt_value);
	cur->flags = RI_LOAD(flags);
	cur->map_id = RI_LOAD(map_id);
	/* This is the fast path: clear first, as the kernel does. */
	ri->map_id = 0;
	ri->map_type = 0;
	ri->map = NULL;
	ri->tgt_value = NULL;
}

int hr_xdp_do_redirect(struct hr_worker *w, struct hr_dev *dev_rx,
		       struct hr_xdp_buff *xdp)
{
	struct hr_redirect_info cur;
	struct hr_xdp_frame *frame;
	struct hr_dev *fwd;

	redirect_take(&w->ri, &cur);
	if (cur.map_type) {
		if (!cur.map || !cur.map->ops || !cur.map->ops->xdp_enqueue)
			return -EBADRQC;
		return cur.map->ops->xdp_enqueue(cur.map, w, &cur, xdp, dev_rx);
	}
	frame = hr_xdp_buff_to_frame(xdp);
	if (!frame)
		return -EOVERFLOW;
	/* Map type UNSPEC with map_id INT_MAX: bpf_redirect(ifindex).
	 * Anything else (XDP_REDIRECT without a helper call) is
	 * -EBADRQC. */
	if (cur.map_id != HR_REDIRECT_MAP_ID_IFINDEX)
		return -EBADRQC;
	fwd = hr_dev_get_by_index(w->dp, cur.tgt_index);
	if (!fwd)
		return -EINVAL;
	return hr_dev_enqueue(w, fwd, dev_rx, frame, NULL);
}
