// SPDX-License-Identifier: MIT
/*
 * LRU_HASH, LRU_PERCPU_HASH, LPM_TRIE, QUEUE, STACK, RINGBUF, PROG_ARRAY,
 * ARRAY_OF_MAPS and HASH_OF_MAPS from user space, the helpers of
 * helpers_generic.c from programs (progs/maps/map_types_ops.bpf.c,
 * progs/maps/tailcall_chain.bpf.c), and the load-time refusal of the
 * current-task helpers. Results are the kernel's (test_map_types_kernel.c
 * checks the same against the live kernel).
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "headroom/map.h"
#include "headroom/object.h"
#include "headroom/ringbuf.h"
#include "headroom/test_run.h"
#include "progs/prog.h"
#include "progs/prog_registry.h"
#include "maps/map.h"
#include "maps/map_registry.h"

#define HR_ENOTSUPP 524

static int mk(uint32_t type, uint32_t k, uint32_t v, uint32_t n, uint32_t fl,
	      struct hr_map **out)
{
	struct hr_map_attr a = { .type = type,
				 .key_size = k,
				 .value_size = v,
				 .max_entries = n,
				 .map_flags = fl,
				 .ncpus = 2,
				 .name = "t" };

	return hr_map_create(&a, out);
}

static void test_create_rules(void)
{
	struct hr_map *m = NULL;

	CHECK_EQ(mk(HR_MAP_LRU_HASH, 4, 8, 16, HR_F_NO_PREALLOC, &m),
		 -HR_ENOTSUPP);
	CHECK_EQ(mk(HR_MAP_LRU_HASH, 0, 8, 16, 0, &m), -EINVAL);
	CHECK_EQ(mk(HR_MAP_LRU_PERCPU_HASH, 4, 8, 16, HR_F_NUMA_NODE, &m),
		 -EINVAL);
	CHECK_EQ(mk(HR_MAP_LRU_HASH, 4, 8, 5, HR_F_NO_COMMON_LRU, &m), 0);
	CHECK_EQ(hr_map_max_entries(m), 6); /* rounded to 2 CPUs */
	hr_map_free(m);
	CHECK_EQ(mk(HR_MAP_LPM_TRIE, 8, 4, 16, 0, &m), -EINVAL);
	CHECK_EQ(mk(HR_MAP_LPM_TRIE, 4, 4, 16, HR_F_NO_PREALLOC, &m), -EINVAL);
	CHECK_EQ(mk(HR_MAP_LPM_TRIE, 261, 4, 16, HR_F_NO_PREALLOC, &m),
		 -EINVAL);
	CHECK_EQ(mk(HR_MAP_QUEUE, 4, 4, 16, 0, &m), -EINVAL);
	CHECK_EQ(mk(HR_MAP_STACK, 0, 0, 16, 0, &m), -EINVAL);
	CHECK_EQ(mk(HR_MAP_RINGBUF, 0, 0, 4096 * 3, 0, &m), -EINVAL);
	CHECK_EQ(mk(HR_MAP_RINGBUF, 0, 0, 2048, 0, &m), -EINVAL);
	CHECK_EQ(mk(HR_MAP_RINGBUF, 4, 0, 4096, 0, &m), -EINVAL);
	CHECK_EQ(mk(HR_MAP_PROG_ARRAY, 4, 8, 4, 0, &m), -EINVAL);
	CHECK_EQ(mk(HR_MAP_ARRAY_OF_MAPS, 4, 4, 4, 0, &m), -EBADF);
}

/* Never above max_entries; a key a program looked up survives. */
static void test_lru(void)
{
	struct hr_map *m;
	uint32_t k, n = 0, next;
	uint64_t v = 7;
	void *p;

	CHECK_EQ(mk(HR_MAP_LRU_HASH, 4, 8, 64, 0, &m), 0);
	for (k = 0; k < 64; k++)
		CHECK_EQ(hr_map_update_elem(m, &k, &v, HR_ANY), 0);
	for (k = 0; k < 64; k += 2) {
		p = m->ops->lookup(m, &k, 0); /* program-style: marks */
		CHECK(p != NULL, "key %u", k);
	}
	for (k = 1000; k < 1032; k++)
		CHECK_EQ(hr_map_update_elem(m, &k, &v, HR_NOEXIST), 0);
	for (k = 0; k < 64; k += 2)
		CHECK_EQ(hr_map_lookup_elem(m, &k, &v), 0);
	k = 0;
	CHECK_EQ(hr_map_update_elem(m, &k, &v, HR_NOEXIST), -EEXIST);
	k = 5000;
	CHECK_EQ(hr_map_update_elem(m, &k, &v, HR_EXIST), -ENOENT);
	CHECK_EQ(hr_map_update_elem(m, &k, &v, 4), -EINVAL);
	for (int r = hr_map_get_next_key(m, NULL, &next); !r;
	     r = hr_map_get_next_key(m, &next, &next))
		n++;
	CHECK_EQ(n, 64);
	hr_map_free(m);
}

struct lpm_key {
	uint32_t prefixlen;
	uint8_t data[4];
};

static void lpm_put(struct hr_map *m, uint8_t a, uint8_t b, uint8_t c,
		    uint32_t plen, uint32_t val)
{
	struct lpm_key k = { plen, { a, b, c, 0 } };

	CHECK_EQ(hr_map_update_elem(m, &k, &val, HR_ANY), 0);
}

static void test_lpm(void)
{
	struct lpm_key k = { 32, { 192, 168, 1, 1 } }, nk;
	/* The kernel's example order (lpm_trie.c): more specific first. */
	static const struct lpm_key order[] = {
		{ 24, { 192, 168, 0, 0 } },
		{ 24, { 192, 168, 1, 0 } },
		{ 24, { 192, 168, 128, 0 } },
		{ 16, { 192, 168, 0, 0 } },
	};
	struct hr_map *m;
	uint32_t v, i = 0;
	int r;

	CHECK_EQ(mk(HR_MAP_LPM_TRIE, 8, 4, 4, HR_F_NO_PREALLOC, &m), 0);
	lpm_put(m, 192, 168, 0, 16, 1);
	lpm_put(m, 192, 168, 0, 24, 2);
	lpm_put(m, 192, 168, 128, 24, 3);
	lpm_put(m, 192, 168, 1, 24, 5);
	CHECK_EQ(hr_map_lookup_elem(m, &k, &v), 0);
	CHECK_EQ(v, 5);
	k.data[2] = 77;
	CHECK_EQ(hr_map_lookup_elem(m, &k, &v), 0);
	CHECK_EQ(v, 1);
	k.data[0] = 10;
	CHECK_EQ(hr_map_lookup_elem(m, &k, &v), -ENOENT);
	k.prefixlen = 33;
	CHECK_EQ(hr_map_update_elem(m, &k, &v, HR_ANY), -EINVAL);
	k.prefixlen = 8;
	CHECK_EQ(hr_map_update_elem(m, &k, &v, HR_ANY), -ENOSPC);
	CHECK_EQ(hr_map_update_elem(m, &k, &v, HR_EXIST), -ENOENT);
	k = order[0];
	CHECK_EQ(hr_map_update_elem(m, &k, &v, HR_NOEXIST), -EEXIST);
	for (r = hr_map_get_next_key(m, NULL, &nk); !r && i < 4;
	     r = hr_map_get_next_key(m, &nk, &nk), i++)
		CHECK(memcmp(&nk, &order[i], sizeof(nk)) == 0, "walk %u", i);
	CHECK_EQ(i, 4);
	CHECK_EQ(r, -ENOENT);
	k = order[3];
	CHECK_EQ(hr_map_delete_elem(m, &k), 0);
	CHECK_EQ(hr_map_delete_elem(m, &k), -ENOENT);
	k = (struct lpm_key){ 32, { 192, 168, 77, 1 } };
	CHECK_EQ(hr_map_lookup_elem(m, &k, &v), -ENOENT);
	hr_map_free(m);
}

static void test_queue_stack(void)
{
	struct hr_map *q, *s;
	uint32_t v, i, got;

	CHECK_EQ(mk(HR_MAP_QUEUE, 0, 4, 3, 0, &q), 0);
	CHECK_EQ(mk(HR_MAP_STACK, 0, 4, 3, 0, &s), 0);
	CHECK_EQ(hr_map_lookup_elem(q, &v, &got), -ENOENT);
	for (i = 1; i <= 3; i++) {
		CHECK_EQ(hr_map_update_elem(q, &v, &i, HR_ANY), 0);
		CHECK_EQ(hr_map_update_elem(s, &v, &i, HR_ANY), 0);
	}
	i = 4;
	CHECK_EQ(hr_map_update_elem(q, &v, &i, HR_ANY), -E2BIG);
	CHECK_EQ(hr_map_update_elem(q, &v, &i, HR_NOEXIST), -EINVAL);
	CHECK_EQ(hr_map_update_elem(q, &v, &i, HR_EXIST), 0);
	CHECK_EQ(hr_map_update_elem(s, &v, &i, HR_EXIST), 0);
	CHECK_EQ(hr_map_delete_elem(q, &v), -EINVAL);
	CHECK_EQ(hr_map_get_next_key(q, NULL, &v), -EINVAL);
	for (i = 2; i <= 4; i++) {
		CHECK_EQ(q->ops->pop(q, &got), 0);
		CHECK_EQ(got, i);
	}
	for (i = 4; i >= 2; i--) {
		CHECK_EQ(s->ops->pop(s, &got), 0);
		CHECK_EQ(got, i);
	}
	CHECK_EQ(s->ops->pop(s, &got), -ENOENT);
	hr_map_free(q);
	hr_map_free(s);
}

static int rb_sum(void *ctx, void *data, size_t size)
{
	uint64_t *sum = ctx;

	*sum += *(uint64_t *)data + size * 1000;
	return 0;
}

/* Reserve/submit from a producer thread while the consumer reads. */
struct rb_thread {
	struct hr_map *m;
	uint64_t made;
};

#include "maps/ringbuf.h"

static void *rb_producer(void *arg)
{
	struct rb_thread *t = arg;
	uint64_t i;

	for (i = 1; i <= 20000; i++) {
		uint64_t *rec;

		while (!(rec = hr_ringbuf_reserve(t->m, 8)))
			;
		*rec = i;
		hr_ringbuf_commit(t->m, rec, i % 7 == 0);
		if (i % 7)
			t->made += i + 8000;
	}
	return NULL;
}

static void test_ringbuf(void)
{
	struct rb_thread t = { 0 };
	uint64_t sum = 0;
	pthread_t th;
	int n, total = 0;

	CHECK_EQ(mk(HR_MAP_RINGBUF, 0, 0, 4096, 0, &t.m), 0);
	CHECK_EQ(hr_ringbuf_consume(t.m, rb_sum, &sum), 0);
	pthread_create(&th, NULL, rb_producer, &t);
	while (total < 20000 - 20000 / 7) {
		n = hr_ringbuf_consume(t.m, rb_sum, &sum);
		if (n < 0) {
			CHECK(n >= 0, "consume %d", n);
			break;
		}
		total += n;
	}
	pthread_join(th, NULL);
	total += hr_ringbuf_consume(t.m, rb_sum, &sum);
	CHECK_EQ(total, 20000 - 20000 / 7);
	CHECK_EQ(sum, t.made);
	CHECK_EQ(hr_ringbuf_avail(t.m), 0);
	hr_map_free(t.m);
}

static void test_map_in_map(void)
{
	struct hr_map_attr a = { .type = HR_MAP_ARRAY_OF_MAPS,
				 .key_size = 4,
				 .value_size = 4,
				 .max_entries = 4,
				 .ncpus = 1 };
	struct hr_map *inner, *other, *outer, *houter, *pa;
	uint32_t k = 0, fd, got;

	CHECK_EQ(mk(HR_MAP_ARRAY, 4, 8, 16, 0, &inner), 0);
	CHECK_EQ(mk(HR_MAP_ARRAY, 4, 8, 32, 0, &other), 0);
	CHECK_EQ(mk(HR_MAP_PROG_ARRAY, 4, 4, 4, 0, &pa), 0);
	a.inner_map = pa;
	CHECK_EQ(hr_map_create(&a, &outer), -HR_ENOTSUPP);
	a.inner_map = inner;
	CHECK_EQ(hr_map_create(&a, &outer), 0);
	a.type = HR_MAP_HASH_OF_MAPS;
	CHECK_EQ(hr_map_create(&a, &houter), 0);
	fd = (uint32_t)hr_map_fd(inner);
	CHECK_EQ(hr_map_update_elem(outer, &k, &fd, HR_NOEXIST), -EINVAL);
	CHECK_EQ(hr_map_update_elem(outer, &k, &fd, HR_ANY), 0);
	CHECK_EQ(hr_map_lookup_elem(outer, &k, &got), 0);
	CHECK_EQ(got, fd);
	CHECK(outer->ops->lookup(outer, &k, 0) == inner, "program lookup");
	fd = (uint32_t)hr_map_fd(other); /* max_entries differ */
	CHECK_EQ(hr_map_update_elem(outer, &k, &fd, HR_ANY), -EINVAL);
	fd = 4000;
	CHECK_EQ(hr_map_update_elem(outer, &k, &fd, HR_ANY), -EBADF);
	k = 9;
	fd = (uint32_t)hr_map_fd(inner);
	CHECK_EQ(hr_map_update_elem(outer, &k, &fd, HR_ANY), -E2BIG);
	CHECK_EQ(hr_map_update_elem(houter, &k, &fd, HR_ANY), 0);
	CHECK_EQ(hr_map_update_elem(houter, &k, &fd, HR_NOEXIST), -EEXIST);
	CHECK(houter->ops->lookup(houter, &k, 0) == inner, "hash lookup");
	CHECK_EQ(hr_map_delete_elem(houter, &k), 0);
	k = 1;
	CHECK_EQ(hr_map_delete_elem(outer, &k), -ENOENT);
	k = 0;
	CHECK_EQ(hr_map_delete_elem(outer, &k), 0);
	hr_map_free(outer);
	hr_map_free(houter);
	hr_map_unregister(inner);
	hr_map_unregister(other);
	hr_map_free(inner);
	hr_map_free(other);
	hr_map_free(pa);
}

static struct hr_object *open_obj(const char *name)
{
	char path[512], err[256] = "";
	struct hr_object_open_opts o = { .sz = sizeof(o),
					 .errbuf = err,
					 .errbuf_sz = sizeof(err),
					 .ncpus = 1 };
	struct hr_object *obj = NULL;
	int r;

	snprintf(path, sizeof(path), "%s/%s", t_progs_dir(), name);
	r = hr_object_open(path, &o, &obj);
	CHECK_EQ(r, 0);
	if (r)
		fprintf(stderr, "%s: %s\n", path, err);
	return obj;
}

static int run(struct hr_object *obj, const char *prog, uint32_t *retval)
{
	uint8_t pkt[64] = { 0 };
	struct hr_test_run_opts o = { .sz = sizeof(o),
				      .data_in = pkt,
				      .data_size_in = sizeof(pkt),
				      .repeat = 1,
				      .engine = HR_ENGINE_INTERP };
	struct hr_prog *p = hr_object_find_prog(obj, prog);
	int r;

	if (!p)
		return -ENOENT;
	r = hr_prog_test_run(p, &o);
	if (o.abort)
		fprintf(stderr, "%s: abort %s at %u\n", prog,
			hr_abort_str(o.abort), o.abort_pc);
	*retval = o.retval;
	return r ? r : -o.abort;
}

/* Each program's expected result, as the kernel computes it. */
static void test_helpers(void)
{
	struct hr_object *obj = open_obj("map_types_ops.o");
	uint32_t ret = 0;

	if (!obj)
		return;
	CHECK_EQ(run(obj, "loop_ops", &ret), 0);
	/* 10 iterations (stopped at 9), sum 45, both errors right. */
	CHECK_EQ(ret, 10 * 100000000 + 45 * 100000 + 10000 + 0xf9 * 10 + 1);
	CHECK_EQ(run(obj, "each_ops", &ret), 0);
	/* Keys 0..5 visited: 6 calls, sum 150, keys 15. */
	CHECK_EQ(ret, 6 * 100000 + 150 * 10 + 5);
	CHECK_EQ(run(obj, "lock_ops", &ret), 0);
	CHECK_EQ(ret, 3);
	CHECK_EQ(run(obj, "lock_ops", &ret), 0);
	CHECK_EQ(ret, 6);
	CHECK_EQ(run(obj, "lpm_ops", &ret), 0);
	CHECK_EQ(ret, 24 * 10000 + 8 * 100 + 99);
	CHECK_EQ(run(obj, "stack_ops", &ret), 0);
	CHECK_EQ(ret, 31 * 100000 + 54329);
	CHECK_EQ(run(obj, "ringbuf_ops", &ret), 0);
	CHECK(ret > 100000, "ringbuf %u", ret);
	hr_object_close(obj);
}

static void test_tail_calls(void)
{
	struct hr_object *obj = open_obj("tailcall_chain.o");
	struct hr_prog *p;
	struct hr_map *jmp;
	uint32_t k = 0, fd, ret = 0;

	if (!obj)
		return;
	p = hr_object_find_prog(obj, "tailcall_entry");
	jmp = hr_object_find_map(obj, "jmp");
	CHECK(p && jmp, "prog and map");
	if (!p || !jmp)
		goto out;
	CHECK_EQ(run(obj, "tailcall_entry", &ret), 0);
	CHECK_EQ(ret, 1); /* empty slot: falls through */
	fd = (uint32_t)hr_prog_fd(p);
	CHECK_EQ(hr_map_update_elem(jmp, &k, &fd, HR_NOEXIST), -EINVAL);
	k = 2;
	CHECK_EQ(hr_map_update_elem(jmp, &k, &fd, HR_ANY), -E2BIG);
	k = 0;
	CHECK_EQ(hr_map_update_elem(jmp, &k, &fd, HR_ANY), 0);
	CHECK_EQ(hr_map_lookup_elem(jmp, &k, &ret), 0);
	CHECK_EQ(ret, fd);
	CHECK_EQ(run(obj, "tailcall_entry", &ret), 0);
	/* 1 + 33 tail calls, counted on top of the first run's 1. */
	CHECK_EQ(ret, 1 + 34);
	CHECK_EQ(hr_map_delete_elem(jmp, &k), 0);
	CHECK_EQ(hr_map_delete_elem(jmp, &k), -ENOENT);
out:
	if (p)
		hr_prog_unregister(p);
	hr_object_close(obj);
}

/* bpf_get_current_pid_tgid is in the base set since 6.10 and answers for
 * the running thread; bpf_get_current_task, a kernel pointer, is refused
 * at load by name. */
static void test_task_helpers(void)
{
	char path[512], err[256] = "";
	struct hr_object_open_opts o = { .sz = sizeof(o),
					 .errbuf = err,
					 .errbuf_sz = sizeof(err) };
	uint8_t pkt[64] = { 0 };
	struct hr_test_run_opts r = { .sz = sizeof(r),
				      .data_in = pkt,
				      .data_size_in = sizeof(pkt) };
	struct hr_object *obj = NULL;

	snprintf(path, sizeof(path), "%s/helper_task.o", t_progs_dir());
	CHECK(hr_object_open(path, &o, &obj) == 0, "task helper: %s", err);
	if (obj) {
		CHECK_EQ(hr_prog_test_run(
				 hr_object_find_prog(obj, "task_helper"), &r),
			 0);
		CHECK_EQ(r.retval, (uint32_t)getpid());
	}
	hr_object_close(obj);
	obj = NULL;
	err[0] = 0;
	snprintf(path, sizeof(path), "%s/helper_curtask.o", t_progs_dir());
	CHECK(hr_object_open(path, &o, &obj) < 0, "current task helper loaded");
	CHECK(strstr(err, "bpf_get_current_task") != NULL, "msg: %s", err);
	CHECK(strstr(err, "not available") != NULL, "msg: %s", err);
	hr_object_close(obj);
}

/*
 * A program's trie lookup takes no lock: while one thread replaces
 * 10.0.0.0/8 and adds and removes longer prefixes under it and beside it,
 * lookups of 10.1.2.3 on another must always match one of them, and of
 * 12.0.0.1 never.
 */
struct lpm_race {
	struct hr_map *m;
	int done, reading; /* reading: the reader's first lookup is done */
	unsigned int misses, ghosts, wrong, lookups, failed;
};

static void *lpm_writer(void *p)
{
	struct lpm_race *a = p;
	unsigned int i, seed = 11;
	/* Not lpm_put(): the checks' counters are the main thread's. */
#define PUT(x, y, z, plen, val)                                 \
	do {                                                    \
		struct lpm_key k_ = { plen, { x, y, z, 0 } };   \
		uint32_t v_ = val;                              \
                                                                \
		if (hr_map_update_elem(a->m, &k_, &v_, HR_ANY)) \
			a->failed++;                            \
	} while (0)

	/* Races only with a reader running: on a loaded machine the writer
	 * could otherwise be done before the reader is first scheduled. */
	while (!__atomic_load_n(&a->reading, __ATOMIC_ACQUIRE))
		sched_yield();
	for (i = 0; i < 100000; i++) {
		uint8_t b = (uint8_t)(rand_r(&seed) % 4), c = (uint8_t)i;
		struct lpm_key k16 = { 16, { 10, b, 0, 0 } };
		struct lpm_key k24 = { 24, { 10, 1, c, 0 } };
		struct lpm_key k8 = { 8, { 11, b, 0, 0 } };

		switch (i % 5) {
		case 0:
			PUT(10, 0, 0, 8, 8);
			break;
		case 1:
			PUT(10, b, 0, 16, 16);
			break;
		case 2:
			hr_map_delete_elem(a->m, &k16);
			break;
		case 3:
			PUT(10, 1, c, 24, 24);
			PUT(11, b, 0, 8, 11);
			break;
		default:
			hr_map_delete_elem(a->m, &k24);
			hr_map_delete_elem(a->m, &k8);
			break;
		}
	}
#undef PUT
	__atomic_store_n(&a->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

static void *lpm_reader(void *p)
{
	struct lpm_race *a = p;
	struct lpm_key k = { 32, { 10, 1, 2, 3 } }, g = { 32, { 12, 0, 0, 1 } };

	while (!__atomic_load_n(&a->done, __ATOMIC_ACQUIRE)) {
		uint32_t *v = a->m->ops->lookup(a->m, &k, 0), x;

		if (!v) {
			a->misses++;
		} else {
			x = __atomic_load_n(v, __ATOMIC_RELAXED);
			if (x != 8 && x != 16 && x != 24)
				a->wrong++;
		}
		if (a->m->ops->lookup(a->m, &g, 0))
			a->ghosts++;
		a->lookups++;
		__atomic_store_n(&a->reading, 1, __ATOMIC_RELEASE);
	}
	return NULL;
}

static void test_lpm_lockless(void)
{
	struct lpm_race a = { 0 };
	pthread_t w, r;

	CHECK_EQ(mk(HR_MAP_LPM_TRIE, 8, 4, 64, HR_F_NO_PREALLOC, &a.m), 0);
	if (!a.m)
		return;
	lpm_put(a.m, 10, 0, 0, 8, 8);
	CHECK_EQ(pthread_create(&r, NULL, lpm_reader, &a), 0);
	CHECK_EQ(pthread_create(&w, NULL, lpm_writer, &a), 0);
	pthread_join(w, NULL);
	pthread_join(r, NULL);
	CHECK(a.lookups > 0, "the reader ran");
	CHECK(a.misses == 0, "%u of %u lookups missed 10.0.0.0/8", a.misses,
	      a.lookups);
	CHECK(a.wrong == 0, "%u lookups saw another prefix's value", a.wrong);
	CHECK(a.ghosts == 0, "%u lookups matched 12.0.0.1", a.ghosts);
	CHECK_EQ(a.failed, 0);
	hr_map_free(a.m);
}

int main(void)
{
	test_create_rules();
	test_lru();
	test_lpm();
	test_lpm_lockless();
	test_queue_stack();
	test_ringbuf();
	test_map_in_map();
	test_helpers();
	test_tail_calls();
	test_task_helpers();
	return t_done();
}
