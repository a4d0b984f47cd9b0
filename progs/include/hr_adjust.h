/* SPDX-License-Identifier: MIT */
/*
 * The body shared by the adjust programs: two deltas read from the
 * packet (hr_progs.h), the helper called with the first and, when that
 * succeeded and the second is not 0, with the second. The return value
 * says which call failed and how.
 */
#ifndef HR_ADJUST_H
#define HR_ADJUST_H

#include "hr_progs.h"

/*
 * Defines int NAME(struct xdp_md *ctx) calling HELPER(ctx, delta); AFTER
 * is run on success (a statement using ctx, or nothing).
 */
#define HR_ADJUST_PROG(NAME, HELPER, AFTER)                   \
	SEC("xdp")                                            \
	int NAME(struct xdp_md *ctx)                          \
	{                                                     \
		void *data = (void *)(long)ctx->data;         \
		void *data_end = (void *)(long)ctx->data_end; \
		__s32 d1, d2;                                 \
		int ret;                                      \
                                                              \
		if (data + HR_ADJ_DELTA2_OFF + 4 > data_end)  \
			return HR_ADJ_RET_SHORT;              \
		d1 = *(__s32 *)(data + HR_ADJ_DELTA1_OFF);    \
		d2 = *(__s32 *)(data + HR_ADJ_DELTA2_OFF);    \
		ret = HELPER(ctx, d1);                        \
		if (ret)                                      \
			return HR_ADJ_RET_ERR1(ret);          \
		if (d2) {                                     \
			ret = HELPER(ctx, d2);                \
			if (ret)                              \
				return HR_ADJ_RET_ERR2(ret);  \
		}                                             \
		AFTER;                                        \
		return XDP_PASS;                              \
	}

#endif /* HR_ADJUST_H */
