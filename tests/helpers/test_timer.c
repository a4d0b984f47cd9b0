// SPDX-License-Identifier: MIT
/*
 * bpf_timer_init, _set_callback, _start and _cancel
 * (progs/helpers/xdp_timer.bpf.c) on an array's and a hash's values,
 * under each engine, each case run once in headroom and once through the
 * kernel's BPF_PROG_TEST_RUN: every helper return of the sequence
 * (cancel and start before init -EINVAL, bad clocks -EINVAL, init 0 then
 * -EBUSY, start before a callback -EINVAL, bad start flags -EINVAL,
 * cancel armed 1, start after a cancel -EINVAL, cancel idle 0), and, after
 * sleeping, what the callbacks did on both sides: a timer started for
 * 1 ms (or at an absolute time past) has fired once within 2 s with its
 * key; one cancelled, one whose element was deleted (by user space or by
 * the program) and one whose element was overwritten never fire, and the
 * slot is uninitialised again; a callback cancelling its own timer gets
 * -EDEADLK. Then, on headroom alone, a callback that starts its own timer
 * again at 0 ns for ever: the process goes on, a cancel stops it, and
 * closing an object with one still running ends cleanly.
 */
#include <errno.h>
#include <stddef.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "async_cases.h"
#include "harness.h"
#include "headroom/map.h"
#include "headroom/object.h"
#include "headroom/test_run.h"
#include "kernel_side.h"
#include "oracle.h"
#include "vm/vm.h"

#define OBJ "xdp_timer.o"
#define MS 1000000ull
#define TIMER_MAGIC 0x54494d45

struct timer_rec {
	uint32_t mode;
	uint32_t map;
	uint32_t key;
	uint32_t magic;
	uint64_t arg;
	uint64_t flags;
	int64_t r[16];
};

struct tval {
	uint64_t timer[2];
	uint64_t fired;
	uint32_t id;
	uint32_t cb_key;
	int64_t cb_ret;
};

enum { ARR, HASH };

static const char *const map_names[] = { "arr", "hmap" };

/* One case on each side; headroom's answers in @out_hr, the kernel's
 * compared with them. */
static void one(struct oracle *o, bool kernel, const char *label, uint32_t mode,
		uint32_t map, uint32_t key, uint64_t arg, uint64_t flags,
		struct timer_rec *out_hr)
{
	struct timer_rec in = { .mode = mode,
				.map = map,
				.key = key,
				.magic = TIMER_MAGIC,
				.arg = arg,
				.flags = flags };

	t_async_case(o, kernel, OBJ, NULL, label, &in, sizeof(in),
		     offsetof(struct timer_rec, r), "bpf_timer_init", out_hr);
}

/* Waits up to 2 s for counts[id] to reach @want on both sides. */
static void wait_fired(struct oracle *o, bool kernel, uint32_t map,
		       uint32_t key, uint64_t want)
{
	t_async_wait(o, kernel, OBJ, key + 16 * map, want);
}

static void expect_value(struct oracle *o, bool kernel, const char *label,
			 uint32_t map, uint32_t key, uint64_t count,
			 bool present, int64_t cb_ret)
{
	t_async_expect(o, kernel, OBJ, label, map_names[map], "bpf_timer", key,
		       key + 16 * map, count, present, cb_ret);
}

static void delete_both(struct oracle *o, bool kernel, uint32_t map,
			uint32_t key)
{
	struct hr_object *obj = oracle_headroom_object(o, OBJ);
	struct hr_map *m = obj ? hr_object_find_map(obj, map_names[map]) : NULL;

	CHECK(m && hr_map_delete_elem(m, &key) == 0, "headroom delete");
	if (kernel) {
		struct bpf_object *k = oracle_kernel_object(o, OBJ);
		int fd =
			k ? bpf_object__find_map_fd_by_name(k, map_names[map]) :
			    -1;

		CHECK(fd >= 0 && bpf_map_delete_elem(fd, &key) == 0,
		      "kernel delete");
	}
}

static void update_both(struct oracle *o, bool kernel, uint32_t map,
			uint32_t key)
{
	struct hr_object *obj = oracle_headroom_object(o, OBJ);
	struct hr_map *m = obj ? hr_object_find_map(obj, map_names[map]) : NULL;
	struct tval v = { .timer = { ~0ull, ~0ull }, .id = key + 16 * map };

	CHECK(m && hr_map_update_elem(m, &key, &v, 0) == 0, "headroom update");
	if (kernel) {
		struct bpf_object *k = oracle_kernel_object(o, OBJ);
		int fd =
			k ? bpf_object__find_map_fd_by_name(k, map_names[map]) :
			    -1;

		CHECK(fd >= 0 && bpf_map_update_elem(fd, &key, &v, 0) == 0,
		      "kernel update");
	}
}

/* bpf_timer_cancel drops the callback (drop_prog_refcnt): the start
 * after it is -EINVAL until set_callback again. */
static const int64_t sequence[15] = {
	-EINVAL, -EINVAL, -EINVAL, -EINVAL, 0, -EBUSY, -EINVAL, 0,
	-EINVAL, 0,	  1,	   -EINVAL, 0, 0,      0,
};

static void cases(struct oracle *o, bool kernel, unsigned int pass)
{
	uint32_t k = pass * 5, map;
	struct timer_rec r;
	char label[64];
	int i;

	/* The sequence, ending armed for 1 ms. */
	for (map = ARR; map <= HASH; map++) {
		snprintf(label, sizeof(label), "pass %u %s sequence", pass,
			 map_names[map]);
		one(o, kernel, label, 0, map, k, MS, 0, &r);
		for (i = 0; i < 15; i++)
			CHECK(r.r[i] == sequence[i], "%s: r[%d] = %lld", label,
			      i, (long long)r.r[i]);
	}
	/* Armed for 200 ms, then cancelled. */
	one(o, kernel, "boottime init", 3, ARR, k + 1, 7, 0, &r);
	CHECK_EQ(r.r[0], 0);
	one(o, kernel, "arm 200 ms", 2, ARR, k + 1, 200 * MS, 0, &r);
	CHECK(r.r[0] == 0 && r.r[1] == 0, "arm: %lld %lld", (long long)r.r[0],
	      (long long)r.r[1]);
	one(o, kernel, "cancel armed", 1, ARR, k + 1, 0, 0, &r);
	CHECK_EQ(r.r[0], 1);
	/* Armed, then its element deleted by user space. */
	one(o, kernel, "realtime init", 3, HASH, k + 1, 0, 0, &r);
	CHECK_EQ(r.r[0], 0);
	one(o, kernel, "arm hash", 2, HASH, k + 1, 200 * MS, 0, &r);
	CHECK_EQ(r.r[1], 0);
	delete_both(o, kernel, HASH, k + 1);
	/* Armed, then deleted by the program. */
	one(o, kernel, "init hash 2", 3, HASH, k + 2, 1, 0, &r);
	one(o, kernel, "arm hash 2", 2, HASH, k + 2, 200 * MS, 0, &r);
	CHECK_EQ(r.r[1], 0);
	one(o, kernel, "program delete", 5, HASH, k + 2, 0, 0, &r);
	CHECK_EQ(r.r[0], 0);
	/* Armed, then its element overwritten by user space. */
	one(o, kernel, "init arr 2", 3, ARR, k + 2, 1, 0, &r);
	one(o, kernel, "arm arr 2", 2, ARR, k + 2, 200 * MS, 0, &r);
	update_both(o, kernel, ARR, k + 2);
	one(o, kernel, "cancel after update", 1, ARR, k + 2, 0, 0, &r);
	CHECK_EQ(r.r[0], -EINVAL);
	/* A callback cancelling its own timer. */
	one(o, kernel, "init arr 3", 3, ARR, k + 3, 1, 0, &r);
	one(o, kernel, "arm self-cancel", 6, ARR, k + 3, MS, 0, &r);
	CHECK(r.r[0] == 0 && r.r[1] == 0, "self-cancel arm");
	/* BPF_F_TIMER_ABS at time 0: already due. */
	one(o, kernel, "init arr 4", 3, ARR, k + 4, 1, 0, &r);
	one(o, kernel, "arm abs", 2, ARR, k + 4, 0, 1, &r);
	CHECK(r.r[0] == 0 && r.r[1] == 0, "abs arm");

	wait_fired(o, kernel, ARR, k, 1);
	wait_fired(o, kernel, HASH, k, 1);
	wait_fired(o, kernel, ARR, k + 3, 1);
	wait_fired(o, kernel, ARR, k + 4, 1);
	/* Past the 200 ms of the ones that must not fire. */
	usleep(400000);
	expect_value(o, kernel, "arr fired", ARR, k, 1, true, 0);
	expect_value(o, kernel, "hash fired", HASH, k, 1, true, 0);
	expect_value(o, kernel, "cancelled", ARR, k + 1, 0, true, 0);
	expect_value(o, kernel, "deleted", HASH, k + 1, 0, false, 0);
	expect_value(o, kernel, "program-deleted", HASH, k + 2, 0, false, 0);
	expect_value(o, kernel, "overwritten", ARR, k + 2, 0, true, 0);
	expect_value(o, kernel, "self-cancel", ARR, k + 3, 1, true, -EDEADLK);
	expect_value(o, kernel, "abs", ARR, k + 4, 1, true, 0);
	/* A deleted element comes back (the program inserts it) with its
	 * timer uninitialised. */
	one(o, kernel, "cancel on a new element", 1, HASH, k + 1, 0, 0, &r);
	CHECK_EQ(r.r[0], -EINVAL);
}

/* A callback starting its own timer at 0 ns, for ever: headroom bounds
 * it; the main thread's runs go on, a cancel from a program stops it, and
 * closing an object whose timer keeps firing returns. */
static void runaway(int engine)
{
	HR_OPTS(hr_object_open_opts, oo);
	uint8_t pkt[14 + sizeof(struct timer_rec)];
	struct timer_rec in = { .mode = 3, .magic = TIMER_MAGIC, .arg = 1 },
			 out;
	struct hr_object *obj = NULL;
	struct hr_map *counts;
	struct hr_prog *p;
	uint64_t c1 = 0, c2 = 0, c3 = 0;
	uint32_t id = 0;
	char path[512];

	t_prog_path(OBJ, path, sizeof(path));
	CHECK_EQ(hr_object_open(path, &oo, &obj), 0);
	p = obj ? hr_object_find_prog(obj, "xdp_timer") : NULL;
	counts = obj ? hr_object_find_map(obj, "counts") : NULL;
	CHECK(p && counts, "program and map");
	if (!p || !counts) {
		hr_object_close(obj);
		return;
	}
	for (uint32_t key = 0; key < 2; key++) {
		HR_OPTS(hr_test_run_opts, ro, .data_in = pkt,
			.data_size_in = sizeof(pkt), .data_out = pkt,
			.data_size_out = sizeof(pkt), .engine = engine);

		in.key = key;
		in.mode = 3;
		memset(pkt, 0, sizeof(pkt));
		memcpy(pkt + 14, &in, sizeof(in));
		CHECK_EQ(hr_prog_test_run(p, &ro), 0);
		in.mode = 4;
		memcpy(pkt + 14, &in, sizeof(in));
		ro.data_size_out = sizeof(pkt);
		CHECK_EQ(hr_prog_test_run(p, &ro), 0);
		memcpy(&out, pkt + 14, sizeof(out));
		CHECK(out.r[0] == 0 && out.r[1] == 0, "runaway armed");
	}
	usleep(100000);
	hr_map_lookup_elem(counts, &id, &c1);
	CHECK(c1 > 10, "the runaway callback ran (%llu)",
	      (unsigned long long)c1);
	printf("runaway timer (engine %d): %llu callbacks in 100 ms\n", engine,
	       (unsigned long long)c1);
	{
		HR_OPTS(hr_test_run_opts, ro, .data_in = pkt,
			.data_size_in = sizeof(pkt), .data_out = pkt,
			.data_size_out = sizeof(pkt), .engine = engine);

		in.key = 0;
		in.mode = 1;
		memcpy(pkt + 14, &in, sizeof(in));
		CHECK_EQ(hr_prog_test_run(p, &ro), 0);
		memcpy(&out, pkt + 14, sizeof(out));
		CHECK(out.r[0] == 0 || out.r[0] == 1, "cancel runaway: %lld",
		      (long long)out.r[0]);
	}
	hr_map_lookup_elem(counts, &id, &c2);
	usleep(50000);
	hr_map_lookup_elem(counts, &id, &c3);
	CHECK(c2 == c3, "cancelled runaway stopped (%llu then %llu)",
	      (unsigned long long)c2, (unsigned long long)c3);
	/* Key 1's timer still fires as the object closes. */
	hr_object_close(obj);
}

/* Each engine: the cases against the kernel, the runaway callback; after
 * the last, the programs the kernel refuses. */
static void each(struct oracle *o, bool kernel, size_t e)
{
	cases(o, kernel, (unsigned int)e);
	runaway(oracle_engine(o));
	if (e == 2)
		t_async_refused("xdp_timer_bad.o", "xdp_timer_ctx", "bpf_timer",
				kernel);
}

int main(void)
{
	return oracle_main_engines3(each);
}
