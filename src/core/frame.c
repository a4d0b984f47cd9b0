// SPDX-License-Identifier: MIT
/*
 * Returning frames and buffs to the pool they came from, fragments too.
 * The pool is found from the address (hr_pool_of), as the kernel finds a
 * page's page_pool from the page.
 */
#include <stdbool.h>
#include <stdio.h>

#include "core/datapath.h"
#include "core/frame.h"
#include "core/pool.h"
#include "core/trace.h"
#include "util/print.h"

#define HR_RET_CACHE 64

struct ret_cache {
	bool active;
	struct hr_pool *pool;
	/* @pool's frames are at [lo, lo + span): pool_of's range check. */
	uintptr_t lo, span;
	unsigned int n;
	/* Bit i: q[i] comes back clean (hr_pool_put_bulk_clean). */
	uint64_t clean;
	void *q[HR_RET_CACHE];
};

_Static_assert(HR_RET_CACHE <= 64, "one clean bit a cached frame");

static __thread struct ret_cache cache;

void hr_frame_cache_flush(void)
{
	if (cache.n)
		hr_pool_put_bulk_clean(cache.pool, cache.q, cache.n,
				       cache.clean);
	cache.n = 0;
	cache.clean = 0;
	/* A pool may go once none of its frames waits here. */
	cache.pool = NULL;
}

void hr_frame_cache_begin(void)
{
	cache.active = true;
}

void hr_frame_cache_end(void)
{
	hr_frame_cache_flush();
	cache.active = false;
}

/*
 * The pool of @addr: the one frames are gathered for when it owns @addr
 * (a range check, where the registry's answer is a walk), as a batch's
 * frames mostly come from one pool. That pool is alive: frames of it
 * wait here, and a pool is destroyed with none out.
 */
static struct hr_pool *pool_of(void *addr)
{
	if (cache.n && (uintptr_t)addr - cache.lo < cache.span)
		return cache.pool;
	return hr_pool_of(addr);
}

static void put_one(void *addr, bool clean)
{
	struct hr_pool *pool = pool_of(addr);

	if (hr_unlikely(hr_trace_on))
		hr_trace_free(addr);
	if (!pool) {
		hr_pr_warn("frame %p belongs to no pool\n", addr);
		return;
	}
	if (!cache.active) {
		hr_pool_put(pool, addr);
		return;
	}
	/* One pool per batch, as xdp_return_frame_bulk keeps one
	 * allocator per batch and flushes when it changes. */
	if (cache.n == HR_RET_CACHE || (cache.n && cache.pool != pool))
		hr_frame_cache_flush();
	if (cache.pool != pool) {
		cache.pool = pool;
		cache.lo = (uintptr_t)hr_pool_base(pool);
		cache.span = (uintptr_t)hr_pool_size(pool) * HR_FRAME_SIZE;
	}
	cache.clean |= (uint64_t)clean << cache.n;
	cache.q[cache.n++] = addr;
}

static void put_frags(void *hard_start, uint32_t frame_sz, uint32_t flags)
{
	struct hr_xdp_shinfo *sinfo;
	uint32_t i;

	if (!(flags & HR_XDP_FLAGS_HAS_FRAGS))
		return;
	sinfo = (struct hr_xdp_shinfo *)((uint8_t *)hard_start + frame_sz -
					 HR_SKB_SHINFO_SIZE);
	for (i = 0; i < sinfo->nr_frags && i < HR_MAX_SKB_FRAGS; i++)
		put_one(sinfo->frags[i].addr, false);
}

void hr_xdp_return_frame(struct hr_xdp_frame *frame)
{
	/* The frame header sits at data_hard_start. */
	put_frags(frame, frame->frame_sz, frame->flags);
	put_one(frame, false);
}

void hr_xdp_return_buff(struct hr_xdp_buff *xdp)
{
	put_frags(xdp->data_hard_start, xdp->frame_sz, xdp->flags);
	put_one(xdp->data_hard_start, false);
}

/*
 * A batch of one pool's frames, with none waiting in the cache, goes back
 * as the cache's flush would give it back (one lock, the clean bits, last
 * first), without a copy into the cache and a call a frame first. The
 * pool is live: its frames are in hand. False leaves the batch to
 * put_one: frames of several pools, others already cached (they keep
 * their order), or a trace, which shows each free.
 */
static bool return_direct(void *const *hard_start, unsigned int n,
			  uint64_t clean)
{
	struct hr_pool *pool;
	uintptr_t lo, span;
	unsigned int i;

	if (cache.n || hr_trace_on || n > HR_RET_CACHE)
		return false;
	pool = hr_pool_of(hard_start[0]);
	if (!pool)
		return false;
	lo = (uintptr_t)hr_pool_base(pool);
	span = (uintptr_t)hr_pool_size(pool) * HR_FRAME_SIZE;
	for (i = 1; i < n; i++)
		if ((uintptr_t)hard_start[i] - lo >= span)
			return false;
	hr_pool_put_bulk_clean(pool, hard_start, n, clean);
	return true;
}

void hr_xdp_return_bulk(void *const *hard_start, unsigned int n, uint64_t clean)
{
	unsigned int i;

	if (n && return_direct(hard_start, n, clean))
		return;
	for (i = 0; i < n; i++)
		put_one(hard_start[i], i < 64 && (clean >> i & 1));
}
