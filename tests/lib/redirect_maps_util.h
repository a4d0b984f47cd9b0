/* SPDX-License-Identifier: MIT */
/* Helpers shared by the redirect map tests (devmap, cpumap, xskmap). */
#ifndef HR_TESTS_REDIRECT_MAPS_UTIL_H
#define HR_TESTS_REDIRECT_MAPS_UTIL_H

#include <stdint.h>
#include <string.h>

#include "core/pool.h"
#include "core/xdp.h"
#include "maps/map.h"

/* Strong references: pull the types' objects out of the archive while
 * map.c refers to them weakly. */
extern const struct hr_map_ops hr_map_ops_devmap;
extern const struct hr_map_ops hr_map_ops_cpumap;
extern const struct hr_map_ops hr_map_ops_xskmap;

static inline bool rm_linked(void)
{
	return hr_map_ops_for(HR_MAP_DEVMAP) == &hr_map_ops_devmap &&
	       hr_map_ops_for(HR_MAP_CPUMAP) == &hr_map_ops_cpumap &&
	       hr_map_ops_for(HR_MAP_XSKMAP) == &hr_map_ops_xskmap;
}

static inline struct hr_map *rm_map(uint32_t type, uint32_t ks, uint32_t vs,
				    uint32_t max, uint32_t flags, int *err)
{
	struct hr_map_attr a = { .type = type,
				 .key_size = ks,
				 .value_size = vs,
				 .max_entries = max,
				 .map_flags = flags };
	struct hr_map *m = NULL;

	*err = hr_map_create(&a, &m);
	return m;
}

/* A @len byte packet (bytes = seq) with @meta bytes of metadata, in a
 * frame from @pool; false when the pool is empty. */
static inline bool rm_buff(struct hr_pool *pool, struct hr_rxq_info *rxq,
			   struct hr_xdp_buff *xdp, uint32_t len, uint32_t meta,
			   uint8_t seq)
{
	uint8_t *hard = hr_pool_get(pool);

	if (!hard)
		return false;
	memset(xdp, 0, sizeof(*xdp));
	hr_xdp_init_buff(xdp, HR_FRAME_SIZE, rxq);
	hr_xdp_prepare_buff(xdp, hard, HR_XDP_PACKET_HEADROOM, len, true);
	memset(xdp->data, seq, len);
	/* An Ethernet header with IPv4 as its type. */
	((uint8_t *)xdp->data)[12] = 0x08;
	((uint8_t *)xdp->data)[13] = 0x00;
	if (meta) {
		xdp->data_meta = (uint8_t *)xdp->data - meta;
		memset(xdp->data_meta, 0xa0 + seq % 16, meta);
	}
	return true;
}

#endif /* HR_TESTS_REDIRECT_MAPS_UTIL_H */
