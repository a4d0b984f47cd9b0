/* SPDX-License-Identifier: MIT */
/*
 * Frame pools: fixed 4 KiB frames, mapped below 4 GiB so that the 32-bit
 * packet pointer fields of struct xdp_md and struct __sk_buff hold real
 * addresses (the kernel rewrites those loads; we place memory instead).
 * The pool counts the frames that are out at every moment.
 */
#ifndef HR_CORE_POOL_H
#define HR_CORE_POOL_H

#include <stdbool.h>
#include <stdint.h>

#define HR_FRAME_SIZE 4096u

struct hr_pool;

/* 0 or -errno (-ENOMEM when no memory below 4 GiB is left). */
int hr_pool_create(uint32_t nframes, struct hr_pool **pool);
/* Frees the pool; frames still out are a bug the caller's test reports. */
void hr_pool_destroy(struct hr_pool *pool);

/* A frame, or NULL when all are out. Not zeroed. */
void *hr_pool_get(struct hr_pool *pool);
void hr_pool_put(struct hr_pool *pool, void *frame);
/* The pool @frame belongs to is @pool. */
bool hr_pool_owns(const struct hr_pool *pool, const void *frame);

uint32_t hr_pool_size(const struct hr_pool *pool);
/* The pool's one mapping: frame i is at base + i * HR_FRAME_SIZE, the
 * whole hr_pool_size() * HR_FRAME_SIZE bytes page-aligned (an AF_XDP UMEM
 * can be made of it). */
void *hr_pool_base(const struct hr_pool *pool);
/* Frames handed out and not yet returned. */
uint32_t hr_pool_outstanding(const struct hr_pool *pool);

/* Up to @n frames into @frames under one lock; returns how many. */
unsigned int hr_pool_get_bulk(struct hr_pool *pool, void **frames,
			      unsigned int n);
/* Returns @n frames under one lock. */
void hr_pool_put_bulk(struct hr_pool *pool, void *const *frames,
		      unsigned int n);

/*
 * Content tags, as the kernel's page pool lets a driver keep what it
 * wrote into a page that comes back untouched: a frame's tag is a value
 * its getter gives it (hr_pool_set_tag, while holding the frame) to say
 * what the frame holds. It survives only a return that says the bytes
 * are as the getter left them (bit i of @clean for frames[i], i < 64);
 * every other return, and every get without tags, clears it. So a tag
 * read at a get (0: none) is one this getter's kind set on bytes no one
 * has changed since. Tags mean something only to one getter of a pool.
 */
unsigned int hr_pool_get_bulk_tags(struct hr_pool *pool, void **frames,
				   uint32_t *tags, unsigned int n);
void hr_pool_set_tag(struct hr_pool *pool, const void *frame, uint32_t tag);
void hr_pool_put_bulk_clean(struct hr_pool *pool, void *const *frames,
			    unsigned int n, uint64_t clean);
/*
 * Puts of a frame that is not from @pool, or is already free: reported on
 * stderr and ignored, never corrupting the free stack. A pointer anywhere
 * inside a frame returns that frame.
 */
uint64_t hr_pool_bad_puts(const struct hr_pool *pool);

/* The live pool holding @addr (anywhere inside a frame), or NULL. Every
 * pool is in a small process-wide registry; lookups take no lock. */
struct hr_pool *hr_pool_of(const void *addr);

/*
 * @bytes of zeroed memory whose every byte, and the address one past the
 * end, fits in 32 bits (for packet buffers that are not frames: a test
 * run's skb head grown past its frame); NULL when there is none.
 */
void *hr_mem_low(size_t bytes);
void hr_mem_low_free(void *mem, size_t bytes);

#endif /* HR_CORE_POOL_H */
