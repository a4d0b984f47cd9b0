// SPDX-License-Identifier: MIT
/*
 * A multi-buffer xdp_buff's fragments moved by a program: its tail grown
 * within the last fragment's buffer or cut across fragments, as
 * net/core/filter.c's bpf_xdp_frags_increase_tail and
 * bpf_xdp_frags_shrink_tail do for bpf_xdp_adjust_tail, and its first
 * bytes pulled into the linear part, as the bpf_xdp_pull_data kfunc
 * (6.18) does; a fragment emptied by either goes back to its pool at
 * once, as bpf_xdp_shrink_data gives its page back.
 */
#include <errno.h>
#include <string.h>

#include "core/pool.h"
#include "core/xdp.h"

/* bpf_xdp_shrink_data: true when the fragment is used up (and gone back
 * to its pool), else @shrink bytes taken off its tail or head. */
static bool shrink_frag(struct hr_xdp_frag *frag, uint32_t shrink, bool tail)
{
	struct hr_pool *pool;

	if (frag->size == shrink) {
		pool = hr_pool_of(frag->addr);
		if (pool)
			hr_pool_put(pool, frag->addr);
		return true;
	}
	if (!tail)
		frag->off += shrink;
	frag->size -= shrink;
	return false;
}

static int increase_tail(struct hr_xdp_buff *xdp, int offset)
{
	struct hr_xdp_shinfo *si = hr_xdp_shinfo(xdp);
	struct hr_xdp_frag *frag = &si->frags[si->nr_frags - 1];
	uint32_t frag_size = xdp->rxq ? xdp->rxq->frag_size : 0;
	int64_t tailroom;

	if (!frag_size || frag_size > xdp->frame_sz)
		return -EOPNOTSUPP;
	tailroom = (int64_t)frag_size - frag->size - frag->off;
	if (offset > tailroom)
		return -EINVAL;
	/* The grown bytes may hold an earlier packet's. */
	memset(hr_xdp_frag_data(frag) + frag->size, 0, (size_t)offset);
	frag->size += (uint32_t)offset;
	si->frags_size += (uint32_t)offset;
	return 0;
}

static int shrink_tail(struct hr_xdp_buff *xdp, int offset)
{
	struct hr_xdp_shinfo *si = hr_xdp_shinfo(xdp);
	uint32_t freed = 0, len_free = 0;
	int i;

	if ((int64_t)offset > (int64_t)hr_xdp_buff_len(xdp) - HR_ETH_HLEN)
		return -EINVAL;
	for (i = (int)si->nr_frags - 1; i >= 0 && offset > 0; i--) {
		struct hr_xdp_frag *frag = &si->frags[i];
		uint32_t shrink = (uint32_t)offset < frag->size ?
					  (uint32_t)offset :
					  frag->size;

		len_free += shrink;
		offset -= (int)shrink;
		if (shrink_frag(frag, shrink, true))
			freed++;
	}
	si->nr_frags -= freed;
	si->frags_size -= len_free;
	/* What the fragments did not hold comes off the linear part (the
	 * length check above leaves it an Ethernet header). */
	if (!si->nr_frags) {
		xdp->flags &= ~HR_XDP_FLAGS_HAS_FRAGS;
		xdp->data_end = (uint8_t *)xdp->data_end - offset;
	}
	return 0;
}

int hr_xdp_frags_adjust_tail(struct hr_xdp_buff *xdp, int offset)
{
	if (offset < 0)
		return shrink_tail(xdp, -offset);
	return increase_tail(xdp, offset);
}

/* The linear part moved down by @shift bytes, metadata with it, for
 * room at its end. */
static void shift_linear(struct hr_xdp_buff *xdp, uint8_t *start, int64_t shift)
{
	memmove(start - shift, start,
		(size_t)((uint8_t *)xdp->data_end - start));
	xdp->data_meta = (uint8_t *)xdp->data_meta - shift;
	xdp->data = (uint8_t *)xdp->data - shift;
	xdp->data_end = (uint8_t *)xdp->data_end - shift;
}

int hr_xdp_pull_data(struct hr_xdp_buff *xdp, uint32_t len)
{
	struct hr_xdp_shinfo *si = hr_xdp_shinfo(xdp);
	uint32_t data_len =
		(uint32_t)((uint8_t *)xdp->data_end - (uint8_t *)xdp->data);
	uint8_t *start = hr_xdp_meta_unsupported(xdp) ? xdp->data :
							xdp->data_meta;
	int64_t headroom, tailroom, delta;
	uint32_t i, freed = 0;

	if (len <= data_len)
		return 0;
	if (len > hr_xdp_buff_len(xdp))
		return -EINVAL;
	headroom = (int64_t)(start - (uint8_t *)xdp->data_hard_start) -
		   (int64_t)sizeof(struct hr_xdp_frame);
	tailroom = (int64_t)((uint8_t *)hr_xdp_hard_end(xdp) -
			     (uint8_t *)xdp->data_end);
	delta = (int64_t)len - data_len;
	if (delta > tailroom + headroom)
		return -EINVAL;
	if (delta > tailroom)
		shift_linear(xdp, start, delta - tailroom);
	/* len is past the linear part and within the buff: there are
	 * fragments, and they hold at least delta bytes. */
	for (i = 0; i < si->nr_frags && delta; i++) {
		struct hr_xdp_frag *frag = &si->frags[i];
		uint32_t shrink = (uint64_t)delta < frag->size ?
					  (uint32_t)delta :
					  frag->size;

		memcpy(xdp->data_end, hr_xdp_frag_data(frag), shrink);
		xdp->data_end = (uint8_t *)xdp->data_end + shrink;
		si->frags_size -= shrink;
		delta -= shrink;
		if (shrink_frag(frag, shrink, false))
			freed++;
	}
	if (freed) {
		memmove(si->frags, si->frags + freed,
			(si->nr_frags - freed) * sizeof(si->frags[0]));
		si->nr_frags -= freed;
		if (!si->nr_frags)
			xdp->flags &= ~HR_XDP_FLAGS_HAS_FRAGS;
	}
	return 0;
}
