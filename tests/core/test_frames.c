// SPDX-License-Identifier: MIT
/*
 * Frame pools and the xdp_buff / xdp_frame rules: every bound of
 * adjust_meta, adjust_head and adjust_tail at and either side of its limit,
 * the error codes, the metadata move, the zeroing on growth, the
 * conversions, and the pool's accounting under two threads.
 */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "core/pool.h"
#include "core/xdp.h"

static struct hr_pool *pool;
static struct hr_rxq_info rxq = { .ifindex = 1, .meta_supported = true };

/* A buff on a fresh frame: @headroom, @len bytes of 0x11, frame 0xaa. */
static uint8_t *buff(struct hr_xdp_buff *xdp, uint32_t headroom, uint32_t len,
		     bool meta)
{
	uint8_t *f = hr_pool_get(pool);

	if (!f)
		abort();
	memset(f, 0xaa, HR_FRAME_SIZE);
	memset(f + headroom, 0x11, len);
	hr_xdp_init_buff(xdp, HR_FRAME_SIZE, &rxq);
	hr_xdp_prepare_buff(xdp, f, headroom, len, meta);
	return f;
}

static void done(uint8_t *f)
{
	hr_pool_put(pool, f);
}

#define PTR_EQ(a, b) CHECK_EQ((uintptr_t)(a), (uintptr_t)(b))

static void test_meta_bounds(void)
{
	struct hr_xdp_buff x, save;
	uint8_t *f;

	/* headroom 256: meta can go down to hard_start + 40, 216 bytes. */
	f = buff(&x, 256, 100, true);
	CHECK_EQ(hr_xdp_adjust_meta(&x, 0), 0);
	PTR_EQ(x.data_meta, x.data);
	CHECK_EQ(hr_xdp_adjust_meta(&x, 4), -EINVAL); /* above data */
	CHECK_EQ(hr_xdp_adjust_meta(&x, -217), -EINVAL);
	CHECK_EQ(hr_xdp_adjust_meta(&x, -220), -EINVAL);
	save = x;
	CHECK_EQ(hr_xdp_adjust_meta(&x, -216), 0);
	PTR_EQ(x.data_meta, f + 40);
	CHECK_EQ(hr_xdp_metalen(&x), 216);
	x = save;
	CHECK_EQ(hr_xdp_adjust_meta(&x, -1), -EACCES);
	CHECK_EQ(hr_xdp_adjust_meta(&x, -2), -EACCES);
	CHECK_EQ(hr_xdp_adjust_meta(&x, -3), -EACCES);
	PTR_EQ(x.data_meta, x.data); /* failures leave it */
	CHECK_EQ(hr_xdp_adjust_meta(&x, -8), 0);
	CHECK_EQ(hr_xdp_metalen(&x), 8);
	CHECK_EQ(hr_xdp_adjust_meta(&x, 4), 0);
	CHECK_EQ(hr_xdp_metalen(&x), 4);
	CHECK_EQ(hr_xdp_adjust_meta(&x, 4), 0);
	CHECK_EQ(hr_xdp_metalen(&x), 0);
	CHECK_EQ(hr_xdp_adjust_meta(&x, 1), -EINVAL);
	CHECK_EQ(hr_xdp_adjust_meta(&x, INT_MIN), -EINVAL);
	CHECK_EQ(hr_xdp_adjust_meta(&x, INT_MAX), -EINVAL);
	PTR_EQ(x.data_meta, x.data);
	done(f);

	/* headroom 400: the 252-byte limit is reached before the frame. */
	f = buff(&x, 400, 100, true);
	CHECK_EQ(hr_xdp_adjust_meta(&x, -256), -EACCES);
	CHECK_EQ(hr_xdp_adjust_meta(&x, -253), -EACCES);
	CHECK_EQ(hr_xdp_adjust_meta(&x, -255), -EACCES);
	CHECK_EQ(hr_xdp_adjust_meta(&x, -252), 0);
	CHECK_EQ(hr_xdp_metalen(&x), 252);
	CHECK_EQ(hr_xdp_adjust_meta(&x, -4), -EACCES);
	CHECK_EQ(hr_xdp_adjust_meta(&x, 252), 0);
	done(f);

	/* headroom 100: frame bound at 60 bytes of metadata. */
	f = buff(&x, 100, 100, true);
	CHECK_EQ(hr_xdp_adjust_meta(&x, -64), -EINVAL);
	CHECK_EQ(hr_xdp_adjust_meta(&x, -61), -EINVAL);
	CHECK_EQ(hr_xdp_adjust_meta(&x, -60), 0);
	done(f);

	/* Headroom under the frame header: nothing fits. */
	f = buff(&x, 40, 100, true);
	CHECK_EQ(hr_xdp_adjust_meta(&x, -4), -EINVAL);
	CHECK_EQ(hr_xdp_adjust_meta(&x, 0), 0);
	done(f);

	/* A device without metadata support: ENOTSUPP before any bound. */
	f = buff(&x, 256, 100, false);
	PTR_EQ(x.data_meta, (uint8_t *)x.data + 1);
	CHECK(hr_xdp_meta_unsupported(&x), "data_meta = data + 1");
	CHECK_EQ(hr_xdp_adjust_meta(&x, 0), -HR_ENOTSUPP);
	CHECK_EQ(hr_xdp_adjust_meta(&x, -4), -524);
	CHECK_EQ(hr_xdp_adjust_meta(&x, INT_MIN), -524);
	CHECK_EQ(hr_xdp_metalen(&x), 0);
	PTR_EQ(x.data_meta, (uint8_t *)x.data + 1);
	done(f);
}

static void test_head_bounds(void)
{
	struct hr_xdp_buff x, save;
	uint8_t *f, *d;
	int i;

	/* No metadata: data in [hard + 40, data_end - 14]. */
	f = buff(&x, 256, 100, true);
	save = x;
	CHECK_EQ(hr_xdp_adjust_head(&x, -217), -EINVAL);
	CHECK_EQ(hr_xdp_adjust_head(&x, 87), -EINVAL);
	CHECK_EQ(hr_xdp_adjust_head(&x, INT_MIN), -EINVAL);
	CHECK_EQ(hr_xdp_adjust_head(&x, INT_MAX), -EINVAL);
	CHECK(memcmp(&x, &save, sizeof(x)) == 0, "failure changed the buff");
	CHECK_EQ(hr_xdp_adjust_head(&x, -216), 0);
	PTR_EQ(x.data, f + 40);
	PTR_EQ(x.data_meta, f + 40);
	PTR_EQ(x.data_end, save.data_end);
	/* The new head is not cleared: the frame's old bytes show. */
	CHECK_EQ(((uint8_t *)x.data)[0], 0xaa);
	x = save;
	CHECK_EQ(hr_xdp_adjust_head(&x, 86), 0);
	CHECK_EQ((uint8_t *)x.data_end - (uint8_t *)x.data, 14);
	PTR_EQ(x.data_meta, x.data);
	CHECK_EQ(hr_xdp_adjust_head(&x, 1), -EINVAL);
	CHECK_EQ(hr_xdp_adjust_head(&x, 0), 0);
	CHECK_EQ(hr_xdp_adjust_head(&x, -303), -EINVAL);
	CHECK_EQ(hr_xdp_adjust_head(&x, -302), 0);
	PTR_EQ(x.data, f + 40);
	done(f);

	/* 32 bytes of metadata: the lower bound rises by 32 and the
	 * metadata travels with data, bytes intact. */
	f = buff(&x, 256, 100, true);
	CHECK_EQ(hr_xdp_adjust_meta(&x, -32), 0);
	for (i = 0; i < 32; i++)
		((uint8_t *)x.data_meta)[i] = (uint8_t)(i + 1);
	save = x;
	CHECK_EQ(hr_xdp_adjust_head(&x, -185), -EINVAL);
	CHECK_EQ(hr_xdp_adjust_head(&x, -184), 0);
	PTR_EQ(x.data_meta, f + 40);
	PTR_EQ(x.data, f + 72);
	for (i = 0; i < 32; i++)
		if (((uint8_t *)x.data_meta)[i] != i + 1)
			break;
	CHECK_EQ(i, 32);
	CHECK_EQ(hr_xdp_adjust_head(&x, 184 + 86), 0);
	CHECK_EQ((uint8_t *)x.data - (uint8_t *)x.data_meta, 32);
	d = x.data_meta;
	for (i = 0; i < 32; i++)
		if (d[i] != i + 1)
			break;
	CHECK_EQ(i, 32);
	CHECK_EQ(hr_xdp_adjust_head(&x, 1), -EINVAL);
	/* Back to where it started: same metadata bytes. */
	CHECK_EQ(hr_xdp_adjust_head(&x, -86), 0);
	PTR_EQ(x.data, save.data);
	PTR_EQ(x.data_meta, save.data_meta);
	for (i = 0; i < 32; i++)
		if (((uint8_t *)x.data_meta)[i] != i + 1)
			break;
	CHECK_EQ(i, 32);
	done(f);

	/* Unsupported metadata: data_meta stays data + 1. */
	f = buff(&x, 256, 100, false);
	CHECK_EQ(hr_xdp_adjust_head(&x, -217), -EINVAL);
	CHECK_EQ(hr_xdp_adjust_head(&x, -216), 0);
	PTR_EQ(x.data_meta, (uint8_t *)x.data + 1);
	CHECK_EQ(hr_xdp_adjust_head(&x, 216 + 86), 0);
	PTR_EQ(x.data_meta, (uint8_t *)x.data + 1);
	CHECK(hr_xdp_meta_unsupported(&x), "still unsupported");
	done(f);

	/* A packet shorter than an Ethernet header: no offset is valid. */
	f = buff(&x, 256, 13, true);
	CHECK_EQ(hr_xdp_adjust_head(&x, 0), -EINVAL);
	CHECK_EQ(hr_xdp_adjust_head(&x, -1), 0);
	done(f);
}

static bool all(const uint8_t *p, size_t n, uint8_t v)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (p[i] != v)
			return false;
	return true;
}

static void test_tail_bounds(void)
{
	struct hr_xdp_buff x, save;
	uint8_t *f;

	/* data_end may reach hard_start + 4096 - 320 = +3776. */
	f = buff(&x, 256, 100, true);
	save = x;
	PTR_EQ(hr_xdp_hard_end(&x), f + 3776);
	CHECK_EQ(hr_xdp_adjust_tail(&x, 3421), -EINVAL);
	CHECK_EQ(hr_xdp_adjust_tail(&x, INT_MAX), -EINVAL);
	CHECK_EQ(hr_xdp_adjust_tail(&x, -87), -EINVAL);
	CHECK_EQ(hr_xdp_adjust_tail(&x, INT_MIN), -EINVAL);
	CHECK(memcmp(&x, &save, sizeof(x)) == 0, "failure changed the buff");
	CHECK(all(f + 356, 3740, 0xaa), "failure wrote the frame");
	CHECK_EQ(hr_xdp_adjust_tail(&x, 3420), 0);
	PTR_EQ(x.data_end, f + 3776);
	CHECK(all(f + 356, 3420, 0), "grown bytes are zero");
	CHECK(all(f + 3776, 320, 0xaa), "shinfo area untouched");
	CHECK(all(f + 256, 100, 0x11), "payload kept");
	CHECK_EQ(hr_xdp_adjust_tail(&x, 1), -EINVAL);
	CHECK_EQ(hr_xdp_adjust_tail(&x, 0), 0);
	x = save;
	CHECK_EQ(hr_xdp_adjust_tail(&x, -86), 0);
	CHECK_EQ((uint8_t *)x.data_end - (uint8_t *)x.data, 14);
	CHECK_EQ(hr_xdp_adjust_tail(&x, -1), -EINVAL);
	/* Shrinking does not clear; growing again does. */
	CHECK_EQ(f[256 + 14], 0x11);
	CHECK_EQ(hr_xdp_adjust_tail(&x, 10), 0);
	CHECK(all(f + 256 + 14, 10, 0), "regrown bytes are zero");
	CHECK_EQ(f[256 + 24], 0x11);
	done(f);

	/* A smaller frame_sz lowers the hard end. */
	f = buff(&x, 256, 100, true);
	x.frame_sz = 2048;
	CHECK_EQ(hr_xdp_adjust_tail(&x, 2048 - 320 - 356 + 1), -EINVAL);
	CHECK_EQ(hr_xdp_adjust_tail(&x, 2048 - 320 - 356), 0);
	done(f);

	/* Metadata does not matter to the tail. */
	f = buff(&x, 256, 100, false);
	CHECK_EQ(hr_xdp_adjust_tail(&x, -86), 0);
	PTR_EQ(x.data_meta, (uint8_t *)x.data + 1);
	done(f);
}

static void test_frame_conversion(void)
{
	struct hr_xdp_buff x, y;
	struct hr_xdp_frame *fr;
	uint8_t *f;
	int i;

	f = buff(&x, 256, 100, true);
	CHECK_EQ(hr_xdp_adjust_meta(&x, -24), 0);
	for (i = 0; i < 24; i++)
		((uint8_t *)x.data_meta)[i] = (uint8_t)(0x40 + i);
	x.flags = 0;
	fr = hr_xdp_buff_to_frame(&x);
	CHECK(fr != NULL, "frame");
	PTR_EQ(fr, f);
	PTR_EQ(fr->data, f + 256);
	CHECK_EQ(fr->len, 100);
	CHECK_EQ(fr->headroom, 256 - 40);
	CHECK_EQ(fr->metasize, 24);
	CHECK_EQ(fr->frame_sz, 4096);
	CHECK_EQ(fr->flags, 0);
	CHECK_EQ(fr->mem_type, 0);
	memset(&y, 0x5a, sizeof(y));
	y.rxq = &rxq;
	hr_xdp_frame_to_buff(fr, &y);
	PTR_EQ(y.data_hard_start, f);
	PTR_EQ(y.data, x.data);
	PTR_EQ(y.data_end, x.data_end);
	PTR_EQ(y.data_meta, x.data_meta);
	CHECK_EQ(y.frame_sz, 4096);
	CHECK_EQ(y.flags, 0);
	PTR_EQ(y.rxq, &rxq);
	for (i = 0; i < 24; i++)
		if (((uint8_t *)y.data_meta)[i] != 0x40 + i)
			break;
	CHECK_EQ(i, 24);
	CHECK(all(f + 256, 100, 0x11), "payload kept");
	done(f);

	/* headroom - metasize must hold the 40-byte header. */
	f = buff(&x, 40, 100, true);
	CHECK(hr_xdp_buff_to_frame(&x) != NULL, "exactly 40 fits");
	done(f);
	f = buff(&x, 39, 100, true);
	CHECK(hr_xdp_buff_to_frame(&x) == NULL, "39 does not");
	CHECK(all(f, 39, 0xaa), "nothing written on failure");
	done(f);
	f = buff(&x, 80, 100, true);
	CHECK_EQ(hr_xdp_adjust_meta(&x, -40), 0);
	CHECK(hr_xdp_buff_to_frame(&x) != NULL, "80 - 40 fits");
	done(f);
	f = buff(&x, 80, 100, true);
	x.data_meta = (uint8_t *)x.data - 44; /* as a buggy driver might */
	CHECK(hr_xdp_buff_to_frame(&x) == NULL, "80 - 44 does not");
	done(f);

	/* data_end past the hard end: the driver left no shinfo room. */
	f = buff(&x, 256, 3776 - 256, true);
	CHECK(hr_xdp_buff_to_frame(&x) != NULL, "up to the hard end");
	done(f);
	f = buff(&x, 256, 3776 - 256 + 1, true);
	CHECK(hr_xdp_buff_to_frame(&x) == NULL, "one past the hard end");
	done(f);

	/* Unsupported metadata converts as none, and comes back valid. */
	f = buff(&x, 256, 100, false);
	fr = hr_xdp_buff_to_frame(&x);
	CHECK(fr != NULL, "frame");
	CHECK_EQ(fr->metasize, 0);
	CHECK_EQ(fr->headroom, 216);
	hr_xdp_frame_to_buff(fr, &y);
	PTR_EQ(y.data_meta, y.data);
	done(f);

	/* After adjust_head the frame records the moved data. */
	f = buff(&x, 256, 100, true);
	CHECK_EQ(hr_xdp_adjust_head(&x, -200), 0);
	fr = hr_xdp_buff_to_frame(&x);
	CHECK(fr != NULL, "frame");
	CHECK_EQ(fr->headroom, 16);
	CHECK_EQ(fr->len, 300);
	hr_xdp_frame_to_buff(fr, &y);
	PTR_EQ(y.data, f + 56);
	PTR_EQ(y.data_end, f + 356);
	done(f);
}

static void test_pool_basic(void)
{
	struct hr_pool *p;
	void *fr[70], *extra;
	unsigned int i, j;
	uint64_t bad;
	int on_stack;

	CHECK_EQ(hr_pool_create(0, &p), -EINVAL);
	CHECK(p == NULL, "no pool on error");
	CHECK_EQ(hr_pool_create(64, &p), 0);
	CHECK_EQ(hr_pool_size(p), 64);
	CHECK_EQ(hr_pool_outstanding(p), 0);
	for (i = 0; i < 64; i++) {
		fr[i] = hr_pool_get(p);
		CHECK(fr[i] != NULL, "frame %u", i);
		CHECK_EQ(hr_pool_outstanding(p), i + 1);
	}
	CHECK(hr_pool_get(p) == NULL, "pool exhausted");
	CHECK_EQ(hr_pool_outstanding(p), 64);
	for (i = 0; i < 64; i++) {
		uintptr_t a = (uintptr_t)fr[i];

		CHECK(a + HR_FRAME_SIZE <= (1ull << 32), "below 4 GiB");
		CHECK_EQ(a % HR_FRAME_SIZE, 0);
		CHECK(hr_pool_owns(p, fr[i]), "owns");
		for (j = 0; j < i; j++)
			if (fr[j] == fr[i])
				break;
		CHECK_EQ(j, i);
		/* Frames are writable end to end. */
		memset(fr[i], (int)i, HR_FRAME_SIZE);
	}
	CHECK(!hr_pool_owns(p, &on_stack), "stack is not the pool's");
	CHECK(!hr_pool_owns(p, (uint8_t *)fr[0] - 1) ||
		      (uint8_t *)fr[0] - 1 >= (uint8_t *)fr[1],
	      "before the first frame");

	hr_pool_put(p, fr[5]);
	CHECK_EQ(hr_pool_outstanding(p), 63);
	bad = hr_pool_bad_puts(p);
	hr_pool_put(p, fr[5]); /* double put */
	CHECK_EQ(hr_pool_bad_puts(p), bad + 1);
	CHECK_EQ(hr_pool_outstanding(p), 63);
	hr_pool_put(p, &on_stack); /* foreign */
	CHECK_EQ(hr_pool_bad_puts(p), bad + 2);
	hr_pool_put(p, NULL);
	CHECK_EQ(hr_pool_bad_puts(p), bad + 3);
	CHECK_EQ(hr_pool_outstanding(p), 63);
	/* Only one frame was free: it comes back, once. */
	extra = hr_pool_get(p);
	CHECK(extra == fr[5], "the freed frame");
	CHECK(hr_pool_get(p) == NULL, "double put did not free twice");
	/* A pointer inside a frame returns that frame. */
	hr_pool_put(p, (uint8_t *)fr[7] + 300);
	CHECK_EQ(hr_pool_outstanding(p), 63);
	CHECK(hr_pool_get(p) == fr[7], "interior put");

	hr_pool_put_bulk(p, fr, 64);
	CHECK_EQ(hr_pool_outstanding(p), 0);
	CHECK_EQ(hr_pool_bad_puts(p), bad + 3);
	CHECK_EQ(hr_pool_get_bulk(p, fr, 70), 64);
	CHECK_EQ(hr_pool_outstanding(p), 64);
	CHECK_EQ(hr_pool_get_bulk(p, fr + 64, 6), 0);
	hr_pool_put_bulk(p, fr, 32);
	CHECK_EQ(hr_pool_outstanding(p), 32);
	hr_pool_put_bulk(p, fr + 32, 32);
	CHECK_EQ(hr_pool_outstanding(p), 0);
	hr_pool_destroy(p);
}

struct stress_arg {
	struct hr_pool *pool;
	uint8_t tag;
	unsigned int iters;
	unsigned int errors;
};

/* Each frame carries its holder's tag: a frame handed to two threads at
 * once shows the other's tag. */
static void *stress(void *arg)
{
	struct stress_arg *a = arg;
	void *fr[8];
	unsigned int it, n, i;

	for (it = 0; it < a->iters; it++) {
		n = hr_pool_get_bulk(a->pool, fr, 1 + it % 8);
		for (i = 0; i < n; i++)
			*(volatile uint8_t *)fr[i] = a->tag;
		if (it & 1) {
			void *one = hr_pool_get(a->pool);

			if (one) {
				*(volatile uint8_t *)one = a->tag;
				if (*(volatile uint8_t *)one != a->tag)
					a->errors++;
				hr_pool_put(a->pool, one);
			}
		}
		for (i = 0; i < n; i++)
			if (*(volatile uint8_t *)fr[i] != a->tag)
				a->errors++;
		if (hr_pool_outstanding(a->pool) > hr_pool_size(a->pool))
			a->errors++;
		for (i = 0; i < n; i++)
			hr_pool_put(a->pool, fr[i]);
	}
	return NULL;
}

static void test_pool_threads(void)
{
	struct stress_arg a[2];
	pthread_t th[2];
	struct hr_pool *p;
	int i;

	/* Fewer frames than both threads want: they contend for them. */
	CHECK_EQ(hr_pool_create(12, &p), 0);
	for (i = 0; i < 2; i++) {
		a[i] = (struct stress_arg){ .pool = p,
					    .tag = (uint8_t)(0x70 + i),
					    .iters = 200000 };
		CHECK_EQ(pthread_create(&th[i], NULL, stress, &a[i]), 0);
	}
	for (i = 0; i < 2; i++)
		pthread_join(th[i], NULL);
	CHECK_EQ(a[0].errors + a[1].errors, 0);
	CHECK_EQ(hr_pool_outstanding(p), 0);
	CHECK_EQ(hr_pool_bad_puts(p), 0);
	/* All twelve are free again. */
	{
		void *fr[13];

		CHECK_EQ(hr_pool_get_bulk(p, fr, 13), 12);
		hr_pool_put_bulk(p, fr, 12);
	}
	CHECK_EQ(hr_pool_outstanding(p), 0);
	hr_pool_destroy(p);
}

int main(void)
{
	CHECK_EQ(hr_pool_create(64, &pool), 0);
	if (!pool)
		return t_done();
	test_meta_bounds();
	test_head_bounds();
	test_tail_bounds();
	test_frame_conversion();
	/* Every buff above went back: no frame leaked. */
	CHECK_EQ(hr_pool_outstanding(pool), 0);
	CHECK_EQ(hr_pool_bad_puts(pool), 0);
	hr_pool_destroy(pool);
	test_pool_basic();
	test_pool_threads();
	return t_done();
}
