// SPDX-License-Identifier: MIT
/*
 * Work and references a program can cause, bounded and charged
 * (progs/vm/limits_work.bpf.c), under the interpreter, the JIT and the
 * checked JIT: nested bpf_loop ends on the budget within seconds; a
 * bpf_for_each_map_elem walk that keeps finding new elements ends with
 * HR_ABORT_MAP_WALK; a second bpf_spin_lock aborts, a lock held at exit
 * is released and the run aborts, an unlock of a lock not held aborts;
 * a program writes only the ring buffer record it holds, and a record it
 * never submits is discarded when the run ends. Then a ring whose header
 * the host damages: hr_ringbuf_consume() answers -EBADMSG, never reads
 * past what was committed.
 */
#include <errno.h>
#include <string.h>
#include <time.h>
#include <linux/bpf.h>

#include "vm/vm.h"
#include "maps/ringbuf.h"
#include "harness.h"
#include "headroom/headroom.h"

static const enum hr_engine engines[] = { HR_ENGINE_INTERP, HR_ENGINE_JIT,
					  HR_ENGINE_JIT_CHECKED };
static const char *const engine_names[] = { "interp", "jit", "jit-checked" };

static struct hr_object *obj;

static int run(const char *name, enum hr_engine eng, uint32_t *retval)
{
	struct hr_prog *prog = hr_object_find_prog(obj, name);
	uint8_t pkt[64] = { 0 }, out[256];
	struct hr_test_run_opts o = {
		.sz = sizeof(o),
		.data_in = pkt,
		.data_size_in = sizeof(pkt),
		.data_out = out,
		.data_size_out = sizeof(out),
		.engine = eng,
	};
	int ret;

	if (!prog) {
		CHECK(0, "no program %s", name);
		return -1;
	}
	ret = hr_prog_test_run(prog, &o);
	CHECK(ret == 0, "%s: test run %d", name, ret);
	if (retval)
		*retval = o.retval;
	return o.abort;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

struct seen {
	unsigned int n;
	uint64_t last;
};

static int on_sample(void *ctx, void *data, size_t size)
{
	struct seen *s = ctx;

	s->n++;
	if (size == 8)
		memcpy(&s->last, data, 8);
	return 0;
}

/* Each engine starts from an empty hash map. */
static void empty(struct hr_map *map)
{
	uint32_t key;

	while (hr_map_get_next_key(map, NULL, &key) == 0)
		CHECK_EQ(hr_map_delete_elem(map, &key), 0);
}

static void test_engine(unsigned int e)
{
	const char *en = engine_names[e];
	struct hr_map *locks = hr_object_find_map(obj, "locks");
	struct hr_map *rb = hr_object_find_map(obj, "rb");
	struct seen s = { 0 };
	uint32_t key = 0, retval;
	uint8_t val[8];
	double t;
	int ab;

	t = now();
	ab = run("nested_loop", engines[e], NULL);
	CHECK(ab == HR_ABORT_BUDGET, "%s nested_loop: abort %s", en,
	      hr_abort_str(ab));
	printf("%s: nested bpf_loop stopped after %.2f s\n", en, now() - t);

	empty(hr_object_find_map(obj, "walk"));
	CHECK_EQ(run("walk_once", engines[e], &retval), 0);
	CHECK(retval == XDP_PASS, "%s walk_once visits the 5 elements", en);
	ab = run("walk_forever", engines[e], NULL);
	CHECK(ab == HR_ABORT_MAP_WALK, "%s walk_forever: abort %s", en,
	      hr_abort_str(ab));

	ab = run("lock_twice", engines[e], NULL);
	CHECK(ab == HR_ABORT_LOCK_RECURSION, "%s lock_twice: %s", en,
	      hr_abort_str(ab));
	ab = run("lock_two", engines[e], NULL);
	CHECK(ab == HR_ABORT_LOCK_RECURSION, "%s lock_two: %s", en,
	      hr_abort_str(ab));
	ab = run("lock_held_at_exit", engines[e], NULL);
	CHECK(ab == HR_ABORT_LOCK_HELD, "%s lock_held_at_exit: %s", en,
	      hr_abort_str(ab));
	ab = run("unlock_not_held", engines[e], NULL);
	CHECK(ab == HR_ABORT_HELPER_ARG, "%s unlock_not_held: %s", en,
	      hr_abort_str(ab));
	/* Every lock above was given back: a well-behaved run takes it. */
	CHECK_EQ(hr_map_lookup_elem(locks, &key, val), 0);
	CHECK(((uint32_t *)val)[0] == 0, "%s: lock word free", en);
	ab = run("lock_ok", engines[e], &retval);
	CHECK(ab == 0 && retval == XDP_PASS, "%s lock_ok: %s", en,
	      hr_abort_str(ab));

	ab = run("rb_ok", engines[e], NULL);
	CHECK(ab == 0, "%s rb_ok: %s", en, hr_abort_str(ab));
	ab = run("rb_header", engines[e], NULL);
	CHECK(ab == HR_ABORT_OOB_STORE, "%s rb_header: %s", en,
	      hr_abort_str(ab));
	ab = run("rb_past", engines[e], NULL);
	CHECK(ab == HR_ABORT_OOB_STORE, "%s rb_past: %s", en, hr_abort_str(ab));
	ab = run("rb_after_submit", engines[e], NULL);
	CHECK(ab == HR_ABORT_OOB_STORE, "%s rb_after_submit: %s", en,
	      hr_abort_str(ab));
	ab = run("rb_leak", engines[e], NULL);
	CHECK(ab == 0, "%s rb_leak: %s", en, hr_abort_str(ab));
	ab = run("rb_ok", engines[e], NULL);
	CHECK(ab == 0, "%s rb_ok after a leak: %s", en, hr_abort_str(ab));
	/* rb_ok twice and rb_after_submit committed; the aborted ones'
	 * records were discarded, the leaked one too. */
	CHECK_EQ(hr_ringbuf_consume(rb, on_sample, &s), 3);
	CHECK(s.last == 0x1122334455667788ull, "%s: the record's bytes", en);
	CHECK_EQ(hr_ringbuf_avail(rb), 0);
}

/* A lock word no run will give back (written by hand): the wait for it
 * is bounded, and the run ends with its own reason. */
static void test_contended(void)
{
	struct hr_map *locks = hr_object_find_map(obj, "locks");
	uint32_t key = 0, taken[2] = { 1, 0 }, free_[2] = { 0, 0 };
	double t;
	int ab;

	CHECK_EQ(hr_map_update_elem(locks, &key, taken, 0), 0);
	t = now();
	ab = run("lock_ok", HR_ENGINE_INTERP, NULL);
	t = now() - t;
	CHECK(ab == HR_ABORT_LOCK_CONTENDED, "lock_ok on a stuck lock: %s",
	      hr_abort_str(ab));
	CHECK(t < 10, "the wait ended (%.2f s)", t);
	CHECK_EQ(hr_map_update_elem(locks, &key, free_, 0), 0);
}

/* The host (not a program) damages a committed header. */
static void test_damaged_ring(void)
{
	struct hr_map *rb = hr_object_find_map(obj, "rb");
	struct seen s = { 0 };
	uint32_t *hdr;
	uint8_t *rec;

	rec = hr_ringbuf_reserve(rb, 8);
	CHECK(rec != NULL, "reserve");
	if (!rec)
		return;
	hr_ringbuf_commit(rb, rec, false);
	hdr = (uint32_t *)(rec - 8);
	*hdr = 0x3ffffff0;
	CHECK_EQ(hr_ringbuf_consume(rb, on_sample, &s), -EBADMSG);
	CHECK_EQ(s.n, 0);
}

int main(void)
{
	HR_OPTS(hr_object_open_opts, oo);
	char path[4200];
	unsigned int e;

	snprintf(path, sizeof(path), "%s/limits_work.o", t_progs_dir());
	if (hr_object_open(path, &oo, &obj)) {
		CHECK(0, "open %s", path);
		return t_done();
	}
	for (e = 0; e < sizeof(engines) / sizeof(engines[0]); e++)
		test_engine(e);
	test_contended();
	test_damaged_ring();
	hr_object_close(obj);
	return t_done();
}
