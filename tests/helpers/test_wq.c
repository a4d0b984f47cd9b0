// SPDX-License-Identifier: MIT
/*
 * bpf_wq_init, bpf_wq_set_callback_impl and bpf_wq_start
 * (progs/helpers/xdp_wq.bpf.c) on an array's and a hash's values, under
 * each engine, each case run in headroom and through the kernel's
 * BPF_PROG_TEST_RUN: every kfunc return (start and set_callback before
 * init -EINVAL, init with flags -EINVAL, init 0 then -EBUSY, start before
 * a callback -EINVAL, set_callback and start with flags -EINVAL, start
 * 0, a second start before the callback ran 0), and, after sleeping, what
 * the callbacks did on both sides: a wq started twice has run once, with
 * its key; one whose element the program deleted (hash) or overwrote
 * (array) right after starting it never runs, and the deleted element
 * comes back uninitialised; a callback starting its own wq runs again
 * (three runs, each start 0). Then, on headroom alone, closing an object
 * with a wq started; and the uses the kernel refuses at load.
 *
 * This host's kernel refuses bpf_wq_set_callback_impl to programs that
 * are not sleepable (kernel_side.h, t_host_refuses_wq_callback), which
 * mainline 6.18 takes: there, with a note, only xdp_wq_nocb (every
 * return that needs no callback) is compared with the kernel, and the
 * callback cases hold headroom to mainline's semantics alone.
 */
#include <errno.h>
#include <stddef.h>
#include <string.h>
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

#define OBJ "xdp_wq.o"
#define WQ_MAGIC 0x57514d47

struct wq_rec {
	uint32_t mode;
	uint32_t map;
	uint32_t key;
	uint32_t magic;
	uint64_t flags;
	int64_t r[16];
};

enum { ARR, HASH };

static const char *const map_names[] = { "arr", "hmap" };

/* One case of program @prog on headroom and, when @kernel, the kernel;
 * headroom's answers in @out, the kernel's compared with them. */
static void one(struct oracle *o, bool kernel, const char *prog,
		const char *label, uint32_t mode, uint32_t map, uint32_t key,
		uint64_t flags, struct wq_rec *out)
{
	struct wq_rec in = { .mode = mode,
			     .map = map,
			     .key = key,
			     .magic = WQ_MAGIC,
			     .flags = flags };

	t_async_case(o, kernel, OBJ, prog, label, &in, sizeof(in),
		     offsetof(struct wq_rec, r), "bpf_wq_init", out);
}

/* Waits up to 2 s for the runs of @key's callback to reach @want. */
static void wait_ran(struct oracle *o, bool kernel, uint32_t map, uint32_t key,
		     uint64_t want)
{
	t_async_wait(o, kernel, OBJ, key + 16 * map, want);
}

static void expect_value(struct oracle *o, bool kernel, const char *label,
			 uint32_t map, uint32_t key, uint64_t count,
			 bool present)
{
	t_async_expect(o, kernel, OBJ, label, map_names[map], "bpf_wq", key,
		       key + 16 * map, count, present, 0);
}

/* xdp_wq_nocb: start before init, init with flags, init, init again,
 * start before a callback, start with flags. */
static const int64_t nocb_want[6] = { -EINVAL, -EINVAL, 0,
				      -EBUSY,  -EINVAL, -EINVAL };
/* xdp_wq mode 0: the same and set_callback (before init, with flags,
 * without), start with flags, then two starts. */
static const int64_t seq_want[12] = { -EINVAL, -EINVAL, -EINVAL, 0,
				      -EBUSY,  -EINVAL, -EINVAL, -EINVAL,
				      0,       -EINVAL, 0,	 0 };

static void cases(struct oracle *o, bool kernel, bool kernel_cb,
		  unsigned int pass)
{
	uint32_t k = pass * 5, map;
	struct wq_rec r;
	char label[80];

	for (map = ARR; map <= HASH; map++) {
		snprintf(label, sizeof(label), "pass %u %s no callback", pass,
			 map_names[map]);
		one(o, kernel, "xdp_wq_nocb", label, 0, map, k, 0, &r);
		for (int i = 0; i < 6; i++)
			CHECK(r.r[i] == nocb_want[i], "%s: r[%d] = %lld", label,
			      i, (long long)r.r[i]);
		snprintf(label, sizeof(label), "pass %u %s sequence", pass,
			 map_names[map]);
		one(o, kernel_cb, "xdp_wq", label, 0, map, k + 1, 0, &r);
		for (int i = 0; i < 12; i++)
			CHECK(r.r[i] == seq_want[i], "%s: r[%d] = %lld", label,
			      i, (long long)r.r[i]);
		/* Start with flags, then without. */
		one(o, kernel_cb, "xdp_wq", "init", 1, map, k + 2, 0, &r);
		CHECK_EQ(r.r[0], 0);
		one(o, kernel_cb, "xdp_wq", "start flags", 2, map, k + 2, 1,
		    &r);
		CHECK(r.r[0] == 0 && r.r[1] == -EINVAL,
		      "start flags: %lld %lld", (long long)r.r[0],
		      (long long)r.r[1]);
		one(o, kernel_cb, "xdp_wq", "start", 2, map, k + 2, 0, &r);
		CHECK(r.r[0] == 0 && r.r[1] == 0, "start: %lld %lld",
		      (long long)r.r[0], (long long)r.r[1]);
		/* Started, then its element deleted or overwritten. */
		one(o, kernel_cb, "xdp_wq", "init 3", 1, map, k + 3, 0, &r);
		one(o, kernel_cb, "xdp_wq", "start, free", 3, map, k + 3, 0,
		    &r);
		CHECK(r.r[0] == 0 && r.r[1] == 0 && r.r[2] == 0,
		      "start, free: %lld %lld %lld", (long long)r.r[0],
		      (long long)r.r[1], (long long)r.r[2]);
		/* A callback starting its own wq again. */
		one(o, kernel_cb, "xdp_wq", "init 4", 1, map, k + 4, 0, &r);
		one(o, kernel_cb, "xdp_wq", "start again", 4, map, k + 4, 0,
		    &r);
		CHECK(r.r[0] == 0 && r.r[1] == 0, "start again: %lld %lld",
		      (long long)r.r[0], (long long)r.r[1]);
	}
	for (map = ARR; map <= HASH; map++) {
		wait_ran(o, kernel_cb, map, k + 1, 1);
		wait_ran(o, kernel_cb, map, k + 2, 1);
		wait_ran(o, kernel_cb, map, k + 4, 3);
	}
	/* Long enough for a wq that would wrongly run. */
	usleep(100000);
	for (map = ARR; map <= HASH; map++) {
		snprintf(label, sizeof(label), "pass %u %s", pass,
			 map_names[map]);
		expect_value(o, kernel, "no callback", map, k, 0, true);
		expect_value(o, kernel_cb, "started twice, ran once", map,
			     k + 1, 1, true);
		expect_value(o, kernel_cb, "started", map, k + 2, 1, true);
		expect_value(o, kernel_cb, "freed before it ran", map, k + 3, 0,
			     map == ARR);
		expect_value(o, kernel_cb, "started from its callback", map,
			     k + 4, 3, true);
	}
	/* The deleted element comes back (the program inserts it) with its
	 * wq uninitialised. */
	one(o, kernel_cb, "xdp_wq", "start on a new element", 2, HASH, k + 3, 0,
	    &r);
	CHECK(r.r[0] == -EINVAL && r.r[1] == -EINVAL, "new element: %lld %lld",
	      (long long)r.r[0], (long long)r.r[1]);
}

/* headroom alone: an object closed with wqs started and a callback that
 * starts its own wq again; nothing runs after the close returns. */
static void close_started(int engine)
{
	HR_OPTS(hr_object_open_opts, oo);
	uint8_t pkt[14 + sizeof(struct wq_rec)];
	struct wq_rec in = { .magic = WQ_MAGIC }, out;
	struct hr_object *obj = NULL;
	struct hr_prog *p;
	char path[512];

	t_prog_path(OBJ, path, sizeof(path));
	CHECK_EQ(hr_object_open(path, &oo, &obj), 0);
	p = obj ? hr_object_find_prog(obj, "xdp_wq") : NULL;
	CHECK(p != NULL, "program xdp_wq");
	for (uint32_t key = 0; p && key < 4; key++) {
		HR_OPTS(hr_test_run_opts, ro, .data_in = pkt,
			.data_size_in = sizeof(pkt), .data_out = pkt,
			.data_size_out = sizeof(pkt), .engine = engine);

		in.key = key;
		in.map = key & 1;
		in.mode = 1;
		memset(pkt, 0, sizeof(pkt));
		memcpy(pkt + 14, &in, sizeof(in));
		CHECK_EQ(hr_prog_test_run(p, &ro), 0);
		in.mode = key < 2 ? 4 : 2;
		memcpy(pkt + 14, &in, sizeof(in));
		ro.data_size_out = sizeof(pkt);
		CHECK_EQ(hr_prog_test_run(p, &ro), 0);
		memcpy(&out, pkt + 14, sizeof(out));
		CHECK(out.r[0] == 0 && out.r[1] == 0, "started before close");
	}
	hr_object_close(obj);
}

/* Each engine: the cases (their callbacks compared where the host's
 * kernel takes them), an object closed with wqs started; after the last,
 * the programs the kernel refuses. */
static void each(struct oracle *o, bool kernel, size_t e)
{
	static bool kernel_cb;

	if (e == 0) {
		kernel_cb = kernel && !t_host_refuses_wq_callback();
		if (kernel && !kernel_cb)
			printf("note: the callback cases are not compared "
			       "with the kernel (headroom alone, to mainline "
			       "6.18's semantics): %s\n",
			       t_host_note());
	}
	cases(o, kernel, kernel_cb, (unsigned int)e);
	close_started(oracle_engine(o));
	if (e == 2)
		t_async_refused("xdp_wq_bad.o", "xdp_wq_ctx", "bpf_wq", kernel);
}

int main(void)
{
	return oracle_main_engines3(each);
}
