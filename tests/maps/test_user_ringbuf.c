// SPDX-License-Identifier: MIT
/*
 * BPF_MAP_TYPE_USER_RINGBUF (maps/user_ringbuf.c, headroom/user_ringbuf.h)
 * without a program: the creation rules of ringbuf_map_alloc (max_entries
 * a power of 2 and a multiple of the page, no key or value, no flag but
 * BPF_F_NUMA_NODE), the producer's answers as libbpf's (-EINVAL for
 * another map type or a short opts, -E2BIG for a flag bit in the size
 * or a record larger than the ring, -ENOSPC when full, -EINVAL for a
 * timeout below -1), the record header as the kernel lays it out (length
 * with BUSY while reserved, 8 bytes before the sample, records 8-aligned),
 * and the drain's side: samples in order with their sizes, a reserved
 * one stopping it (-ENODATA), a discarded one skipped (-EAGAIN), a
 * sample that wraps still contiguous, a header longer than what was
 * produced -EINVAL, a producer position not a multiple of 8 -EINVAL, one
 * drain at a time, and a blocked producer woken by a drain that made room
 * (and not by one that asked for no wakeup until its timeout).
 */
#include <errno.h>
#include <pthread.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"
#include "headroom/map.h"
#include "headroom/opts.h"
#include "headroom/user_ringbuf.h"
#include "maps/map.h"
#include "maps/ringbuf.h"

/* ringbuf_map_alloc's rules, then a valid ring of @size bytes. */
static void test_create(void)
{
	static const struct {
		uint32_t k, v, n, flags;
		int want;
	} c[] = {
		{ 0, 0, 4096 * 3, 0, -EINVAL },
		{ 0, 0, 2048, 0, -EINVAL },
		{ 0, 0, 0, 0, -EINVAL },
		{ 4, 0, 4096, 0, -EINVAL },
		{ 0, 4, 4096, 0, -EINVAL },
		{ 0, 0, 4096, HR_F_NO_PREALLOC, -EINVAL },
		{ 0, 0, 4096, HR_F_RDONLY_PROG, -EINVAL },
		{ 0, 0, 8192, HR_F_NUMA_NODE, 0 },
	};
	struct hr_map_attr a = { .type = HR_MAP_USER_RINGBUF };
	struct hr_map *m;
	size_t i;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		a.key_size = c[i].k;
		a.value_size = c[i].v;
		a.max_entries = c[i].n;
		a.map_flags = c[i].flags;
		m = NULL;
		CHECK(hr_map_create(&a, &m) == c[i].want, "create case %zu", i);
		CHECK(c[i].want || hr_map_type(m) == HR_MAP_USER_RINGBUF,
		      "type");
		hr_map_free(m);
	}
}

static struct hr_map *ring(uint32_t type, uint32_t size)
{
	struct hr_map_attr a = { .type = type, .max_entries = size };
	struct hr_map *m = NULL;

	CHECK(hr_map_create(&a, &m) == 0, "a ring of %u bytes", size);
	return m;
}

static void test_new(void)
{
	struct hr_user_ringbuf_opts small = { .sz = 4 };
	HR_OPTS(hr_user_ringbuf_opts, opts);
	struct hr_user_ringbuf *p = (void *)1;
	struct hr_map *rb, *u;

	rb = ring(HR_MAP_RINGBUF, 4096);
	u = ring(HR_MAP_USER_RINGBUF, 4096);
	CHECK_EQ(hr_user_ringbuf_new(rb, NULL, &p), -EINVAL);
	CHECK(p == NULL, "no producer for a RINGBUF");
	CHECK_EQ(hr_user_ringbuf_new(NULL, NULL, &p), -EINVAL);
	CHECK_EQ(hr_user_ringbuf_new(u, &small, &p), -EINVAL);
	CHECK_EQ(hr_user_ringbuf_new(u, &opts, &p), 0);
	hr_user_ringbuf_free(p);
	CHECK_EQ(hr_user_ringbuf_new(u, NULL, &p), 0);
	hr_user_ringbuf_free(p);
	hr_map_free(rb);
	hr_map_free(u);
}

static uint32_t hdr_len(const void *sample)
{
	uint32_t len;

	memcpy(&len, (const uint8_t *)sample - HR_RINGBUF_HDR_SZ, 4);
	return len;
}

/* The drain's view: the next sample (0) or peek's error; consumed. */
static int take(struct hr_map *m, uint8_t *buf, uint32_t *size)
{
	void *s;
	int err = hr_user_ringbuf_peek(m, &s, size);

	if (err)
		return err;
	memcpy(buf, s, *size);
	hr_user_ringbuf_release(m, *size);
	return 0;
}

static void test_records(void)
{
	struct hr_user_ringbuf *p = NULL;
	struct hr_map *m = ring(HR_MAP_USER_RINGBUF, 4096);
	struct hr_ringbuf *rb;
	uint8_t buf[4096];
	void *a, *b, *c;
	uint32_t size;
	int i;

	CHECK_EQ(hr_user_ringbuf_new(m, NULL, &p), 0);
	if (!p)
		return;
	rb = m->priv;
	CHECK_EQ(take(m, buf, &size), -ENODATA);
	/* Three records: 5, 0 and 16 bytes, 16, 8 and 24 in the ring. */
	CHECK_EQ(hr_user_ringbuf_reserve(p, 5, &a), 0);
	CHECK_EQ(hr_user_ringbuf_reserve(p, 0, &b), 0);
	CHECK_EQ(hr_user_ringbuf_reserve(p, 16, &c), 0);
	CHECK((uint8_t *)b - (uint8_t *)a == 16 &&
		      (uint8_t *)c - (uint8_t *)b == 8,
	      "records 8-aligned after 8-byte headers");
	CHECK_EQ(hdr_len(a), 5 | HR_RINGBUF_BUSY_BIT);
	CHECK_EQ(rb->producer_pos, 48);
	memcpy(a, "hello", 5);
	memset(c, 0xc3, 16);
	/* Reserved, not submitted: nothing to drain yet. */
	CHECK_EQ(take(m, buf, &size), -ENODATA);
	hr_user_ringbuf_submit(p, c);
	CHECK_EQ(take(m, buf, &size), -ENODATA);
	hr_user_ringbuf_submit(p, a);
	CHECK_EQ(hdr_len(a), 5);
	hr_user_ringbuf_discard(p, b);
	CHECK_EQ(hdr_len(b), HR_RINGBUF_DISCARD_BIT);
	CHECK_EQ(take(m, buf, &size), 0);
	CHECK(size == 5 && !memcmp(buf, "hello", 5), "first sample");
	CHECK_EQ(take(m, buf, &size), -EAGAIN);
	CHECK_EQ(take(m, buf, &size), 0);
	CHECK(size == 16 && buf[0] == 0xc3 && buf[15] == 0xc3, "third");
	CHECK_EQ(take(m, buf, &size), -ENODATA);
	CHECK_EQ(rb->consumer_pos, 48);

	/* Sizes: a flag bit, or larger than the ring, is -E2BIG. */
	CHECK_EQ(hr_user_ringbuf_reserve(p, 1u << 31, &a), -E2BIG);
	CHECK_EQ(hr_user_ringbuf_reserve(p, 1u << 30, &a), -E2BIG);
	CHECK_EQ(hr_user_ringbuf_reserve(p, 4089, &a), -E2BIG);
	CHECK(a == NULL, "no sample on error");
	/* 4088 bytes fill the ring: it wraps, and is still contiguous. */
	CHECK_EQ(hr_user_ringbuf_reserve(p, 4088, &a), 0);
	CHECK_EQ(hr_user_ringbuf_reserve(p, 0, &b), -ENOSPC);
	for (i = 0; i < 4088; i++)
		((uint8_t *)a)[i] = (uint8_t)i;
	hr_user_ringbuf_submit(p, a);
	CHECK_EQ(take(m, buf, &size), 0);
	CHECK_EQ(size, 4088);
	for (i = 0; i < 4088 && buf[i] == (uint8_t)i; i++)
		;
	CHECK(i == 4088, "wrapped sample differs at %d", i);
	/* Room again, and a full ring stays full until drained. */
	for (i = 0; i < 4096 / 64; i++)
		CHECK_EQ(hr_user_ringbuf_reserve(p, 56, &a), 0);
	CHECK_EQ(hr_user_ringbuf_reserve(p, 0, &a), -ENOSPC);
	CHECK_EQ(hr_user_ringbuf_reserve_blocking(p, 0, 0, &a), -ENOSPC);
	CHECK_EQ(hr_user_ringbuf_reserve_blocking(p, 0, -2, &a), -EINVAL);
	hr_user_ringbuf_free(p);
	hr_map_free(m);
}

/* What user space may write wrong, as __bpf_user_ringbuf_peek sees it. */
static void test_peek_errors(void)
{
	struct hr_user_ringbuf *p = NULL;
	struct hr_map *m = ring(HR_MAP_USER_RINGBUF, 4096);
	struct hr_ringbuf *rb;
	uint8_t buf[64];
	uint32_t size, len;
	void *a;

	CHECK_EQ(hr_user_ringbuf_new(m, NULL, &p), 0);
	if (!p)
		return;
	rb = m->priv;
	CHECK_EQ(hr_user_ringbuf_reserve(p, 8, &a), 0);
	/* A header longer than the producer position covers. */
	len = 64 | HR_RINGBUF_BUSY_BIT;
	memcpy((uint8_t *)a - HR_RINGBUF_HDR_SZ, &len, 4);
	hr_user_ringbuf_submit(p, a);
	CHECK_EQ(take(m, buf, &size), -EINVAL);
	CHECK_EQ(rb->consumer_pos, 0);
	/* Mended, and the producer position unaligned. */
	len = 8;
	memcpy((uint8_t *)a - HR_RINGBUF_HDR_SZ, &len, 4);
	rb->producer_pos += 4;
	CHECK_EQ(take(m, buf, &size), -EINVAL);
	rb->producer_pos -= 4;
	CHECK_EQ(take(m, buf, &size), 0);
	CHECK_EQ(size, 8);
	/* One drain at a time. */
	CHECK(hr_user_ringbuf_try_busy(m), "first drain");
	CHECK(!hr_user_ringbuf_try_busy(m), "second drain: -EBUSY");
	hr_user_ringbuf_unbusy(m, false);
	CHECK(hr_user_ringbuf_try_busy(m), "after the first");
	hr_user_ringbuf_unbusy(m, false);
	hr_user_ringbuf_free(p);
	hr_map_free(m);
}

struct blocked {
	struct hr_user_ringbuf *p;
	int timeout, err;
	int64_t ms;
	int done;
};

static int64_t now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

static void *reserve_thread(void *arg)
{
	struct blocked *b = arg;
	int64_t t0 = now_ms();
	void *s;

	b->err = hr_user_ringbuf_reserve_blocking(b->p, 56, b->timeout, &s);
	b->ms = now_ms() - t0;
	if (!b->err)
		hr_user_ringbuf_submit(b->p, s);
	__atomic_store_n(&b->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

/* Starts a producer blocked on @m's full ring: true once it waits. */
static bool start_blocked(struct hr_map *m, struct blocked *b, pthread_t *t)
{
	struct hr_ringbuf *rb = m->priv;
	int ms;

	b->done = 0;
	pthread_create(t, NULL, reserve_thread, b);
	for (ms = 0;
	     ms < 5000 && !__atomic_load_n(&rb->waiters, __ATOMIC_SEQ_CST);
	     ms++)
		usleep(1000);
	CHECK(ms < 5000, "the producer waits");
	return ms < 5000;
}

/* Whether the producer is done within @ms. */
static bool done_within(struct blocked *b, int ms)
{
	while (ms-- > 0 && !__atomic_load_n(&b->done, __ATOMIC_ACQUIRE))
		usleep(1000);
	return __atomic_load_n(&b->done, __ATOMIC_ACQUIRE);
}

/* A drain of one sample, waking producers as @wakeup says. */
static void drain_one(struct hr_map *m, bool wakeup)
{
	uint8_t buf[64];
	uint32_t size;

	CHECK(hr_user_ringbuf_try_busy(m), "drain");
	CHECK_EQ(take(m, buf, &size), 0);
	hr_user_ringbuf_unbusy(m, wakeup);
}

static void test_blocking(void)
{
	struct hr_user_ringbuf *p = NULL;
	struct blocked b = { .timeout = -1 };
	struct hr_map *m = ring(HR_MAP_USER_RINGBUF, 4096);
	pthread_t t;
	void *a;
	int i;

	CHECK_EQ(hr_user_ringbuf_new(m, NULL, &p), 0);
	if (!p)
		return;
	for (i = 0; i < 4096 / 64; i++) {
		CHECK_EQ(hr_user_ringbuf_reserve(p, 56, &a), 0);
		hr_user_ringbuf_submit(p, a);
	}
	b.p = p;
	/* For ever: a drain that made room wakes it (a producer it did not
	 * wake is left behind, failed, rather than the test hanging). */
	if (!start_blocked(m, &b, &t))
		return;
	drain_one(m, true);
	CHECK(done_within(&b, 3000), "a drain with a wakeup wakes it");
	if (!b.done)
		return;
	pthread_join(t, NULL);
	CHECK_EQ(b.err, 0);
	/* 150 ms: a drain without a wakeup leaves it waiting until the
	 * time is up, when it tries once more and finds the room. */
	b.timeout = 150;
	if (!start_blocked(m, &b, &t))
		return;
	drain_one(m, false);
	pthread_join(t, NULL);
	CHECK_EQ(b.err, 0);
	CHECK(b.ms >= 140, "woken after %lld ms without a wakeup",
	      (long long)b.ms);
	/* Full, 30 ms, nobody drains: -ENOSPC. */
	b.timeout = 30;
	reserve_thread(&b);
	CHECK_EQ(b.err, -ENOSPC);
	CHECK(b.ms >= 25, "gave up after %lld ms", (long long)b.ms);
	hr_user_ringbuf_free(p);
	hr_map_free(m);
}

int main(void)
{
	test_create();
	test_new();
	test_records();
	test_peek_errors();
	test_blocking();
	return t_done();
}
