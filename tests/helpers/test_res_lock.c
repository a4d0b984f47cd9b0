// SPDX-License-Identifier: MIT
/*
 * bpf_res_spin_lock, _unlock, _lock_irqsave, _unlock_irqrestore and
 * bpf_local_irq_save / _restore (progs/helpers/xdp_res_lock.bpf.c): a
 * lock taken and given back, with the irq flags, two locks nested, and
 * one element locked through two lookups, whose second lock is the
 * kernel's -EDEADLK, compared with the kernel's BPF_PROG_TEST_RUN under
 * both engines: every return and the counts written under the locks.
 * Then, on headroom alone, a lock another holder keeps is -ETIMEDOUT
 * after a quarter second, and every lock is free after each run.
 */
#include <errno.h>
#include <string.h>

#include "harness.h"
#include "headroom/map.h"
#include "headroom/object.h"
#include "headroom/test_run.h"
#include "oracle.h"

#define OBJ "xdp_res_lock.o"

struct lock_rec {
	uint32_t mode;
	int32_t r1, r2, r3;
	uint64_t base;
	uint64_t count0, count1;
};

struct val {
	uint32_t lock, pad;
	uint64_t count;
};

static uint8_t pkt[128];

static void set_case(uint32_t mode, uint64_t base)
{
	struct lock_rec in = { .mode = mode, .base = base };

	memset(pkt, 0, sizeof(pkt));
	memcpy(pkt + 14, &in, sizeof(in));
}

static void one(struct oracle *o, bool kernel, uint32_t mode, int32_t r2,
		uint64_t count0, uint64_t count1)
{
	struct oracle_case c = { .obj = OBJ, .data = pkt, .size = sizeof(pkt) };
	struct oracle_result r;
	struct lock_rec out;
	char label[48];

	set_case(mode, 1000 * (mode + 1));
	snprintf(label, sizeof(label), "res lock case %u", mode);
	CHECK(oracle_run_headroom(o, &c, &r) == 0 && r.retval == XDP_PASS,
	      "%s: run (retval %u)", label, r.retval);
	memcpy(&out, r.out + 14, sizeof(out));
	CHECK(out.r1 == 0 && out.r2 == r2 && out.r3 == 0 &&
		      out.count0 == count0 && out.count1 == count1,
	      "%s: %d %d %d counts %llu %llu", label, out.r1, out.r2, out.r3,
	      (unsigned long long)out.count0, (unsigned long long)out.count1);
	if (kernel)
		CHECK(oracle_check(o, &c, label) == 1, "%s differs", label);
}

static void cases(struct oracle *o, bool kernel)
{
	one(o, kernel, 0, 0, 1001, 0);
	one(o, kernel, 1, 0, 2002, 0);
	one(o, kernel, 2, -EDEADLK, 3003, 0);
	one(o, kernel, 3, 0, 4004, 4005);
	one(o, kernel, 4, 0, 5006, 0);
}

/* Element 0's lock word held by someone else: the run waits a quarter
 * second and gets -ETIMEDOUT; the word is left as it was. Every case
 * leaves both locks free. */
static void contended(void)
{
	HR_OPTS(hr_object_open_opts, oo);
	struct hr_object *obj = NULL;
	struct lock_rec out;
	struct hr_map *m;
	struct val v;
	uint32_t k;
	struct hr_prog *p;
	char path[512];
	int eng;

	t_prog_path(OBJ, path, sizeof(path));
	CHECK_EQ(hr_object_open(path, &oo, &obj), 0);
	p = obj ? hr_object_find_prog(obj, "xdp_res_lock") : NULL;
	m = obj ? hr_object_find_map(obj, "vals") : NULL;
	CHECK(p && m, "program and map");
	for (eng = HR_ENGINE_INTERP; p && m && eng <= HR_ENGINE_JIT; eng++) {
		HR_OPTS(hr_test_run_opts, ro, .data_in = pkt,
			.data_size_in = sizeof(pkt), .data_out = pkt,
			.data_size_out = sizeof(pkt), .engine = eng);

		k = 0;
		v = (struct val){ .lock = 1 };
		CHECK_EQ(hr_map_update_elem(m, &k, &v, 0), 0);
		set_case(0, 7);
		CHECK_EQ(hr_prog_test_run(p, &ro), 0);
		memcpy(&out, pkt + 14, sizeof(out));
		CHECK_EQ(out.r1, -ETIMEDOUT);
		CHECK_EQ(hr_map_lookup_elem(m, &k, &v), 0);
		CHECK_EQ(v.lock, 1);
		v.lock = 0;
		CHECK_EQ(hr_map_update_elem(m, &k, &v, 0), 0);
		for (k = 0; k <= 4; k++) {
			set_case(k, 0);
			ro.data_size_out = sizeof(pkt);
			CHECK_EQ(hr_prog_test_run(p, &ro), 0);
			CHECK_EQ(ro.abort, 0);
		}
		for (k = 0; k < 2; k++) {
			CHECK_EQ(hr_map_lookup_elem(m, &k, &v), 0);
			CHECK_EQ(v.lock, 0);
		}
	}
	hr_object_close(obj);
}

int main(void)
{
	contended();
	return oracle_main_engines(cases);
}
