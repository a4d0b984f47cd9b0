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

int hr_xdp_do_redirect(struct hr_worker *w, struct hr_dev *dev_rx,
		       struct hr_xdp_buff *xdp)
{
	struct hr_redirect_info *ri = &w->ri;
	struct hr_redirect_info cur = *ri;
	struct hr_xdp_frame *frame;
	struct hr_dev *fwd;

	/* This is the fast path: clear first, as the kernel does. */
	ri->map_id = 0;
	ri->map_type = 0;
	ri->map = NULL;
	ri->tgt_value = NULL;

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
