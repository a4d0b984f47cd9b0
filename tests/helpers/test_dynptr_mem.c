// SPDX-License-Identifier: MIT
/*
 * Local dynptrs: bpf_dynptr_from_mem over a map value and the stack,
 * then bpf_dynptr_write, _read, _data, bpf_dynptr_adjust and _size
 * (progs/helpers/xdp_dynptr_mem.bpf.c), at offsets inside, at and past
 * the dynptr's end, with bad flags and sizes, against the kernel's
 * BPF_PROG_TEST_RUN under both engines: every return and the bytes the
 * map value holds after.
 */
#include <errno.h>
#include <string.h>

#include "harness.h"
#include "headroom/object.h"
#include "headroom/test_run.h"
#include "oracle.h"
#include "vm/vm.h" /* enum hr_abort */

static uint8_t pkt[256];

static void one(struct oracle *o, bool kernel, const uint8_t a[8],
		int64_t want_from, int64_t want_write)
{
	struct oracle_case c = { .obj = "xdp_dynptr_mem.o",
				 .data = pkt,
				 .size = sizeof(pkt) };
	struct oracle_result r;
	int64_t ret[2], data0;
	uint32_t size = a[0] > 64 ? 64 : a[0];
	char label[96];

	memset(pkt, 0, sizeof(pkt));
	memcpy(pkt, a, 8);
	snprintf(label, sizeof(label),
		 "size %u flags %u write@%u read@%u data@%u wflags %u adj %u",
		 a[0], a[1], a[2], a[3], a[4], a[6], a[7]);
	CHECK(oracle_run_headroom(o, &c, &r) == 0 && r.retval == XDP_PASS,
	      "%s: run", label);
	memcpy(ret, r.out + 16, sizeof(ret));
	memcpy(&data0, r.out + 16 + 8 * 8, sizeof(data0));
	CHECK(ret[0] == want_from && ret[1] == want_write,
	      "%s: from_mem %lld write %lld, want %lld %lld", label,
	      (long long)ret[0], (long long)ret[1], (long long)want_from,
	      (long long)want_write);
	/* bpf_dynptr_data of no bytes: a pointer wherever the offset is
	 * within the dynptr, its end included. */
	CHECK(data0 == (!a[1] && a[4] <= size), "%s: data of 0 bytes %lld",
	      label, (long long)data0);
	if (kernel)
		CHECK(oracle_check(o, &c, label) == 1, "%s differs", label);
}

static void cases(struct oracle *o, bool kernel)
{
	static const struct {
		uint8_t a[8];
		int64_t from, write;
	} t[] = {
		{ { 64, 0, 0, 0, 0, 0, 0, 0 }, 0, 0 },
		{ { 64, 0, 10, 10, 10, 0, 0, 2 }, 0, 0 },
		{ { 64, 0, 56, 56, 56, 0, 0, 60 }, 0, 0 },
		{ { 64, 0, 57, 57, 57, 0, 0, 64 }, 0, -E2BIG },
		{ { 16, 0, 8, 8, 8, 0, 0, 8 }, 0, 0 },
		{ { 16, 0, 9, 9, 9, 0, 0, 17 }, 0, -E2BIG },
		{ { 0, 0, 0, 0, 0, 0, 0, 0 }, 0, -E2BIG },
		{ { 8, 0, 0, 0, 0, 0, 1, 0 }, 0, -EINVAL },
		{ { 8, 0, 0, 0, 0, 0, 0, 9 }, 0, 0 },
		{ { 64, 1, 0, 0, 0, 0, 0, 0 }, -EINVAL, -EINVAL },
		{ { 64, 0x80, 0, 0, 0, 0, 0, 0 }, -EINVAL, -EINVAL },
		{ { 63, 0, 55, 3, 60, 0, 0, 5 }, 0, 0 },
		/* No bytes at the very end: bpf_dynptr_data is not NULL. */
		{ { 64, 0, 0, 0, 64, 0, 0, 0 }, 0, 0 },
		{ { 16, 0, 0, 0, 16, 0, 0, 0 }, 0, 0 },
		{ { 16, 0, 0, 0, 17, 0, 0, 0 }, 0, 0 },
	};
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		one(o, kernel, t[i].a, t[i].from, t[i].write);
}

/* dynptr_local_forged.o with selector @sel: the abort reason; a run
 * that ends passes. */
static int forged(struct hr_prog *p, uint8_t sel, int engine)
{
	uint32_t ret = 0;
	int abort = t_run_selector(p, sel, engine, &ret);

	if (!abort)
		CHECK_EQ(ret, XDP_PASS);
	return abort;
}

/* A local dynptr the verifier would refuse reaches only the program's
 * own memory: anything else ends the run. */
static void containment(void)
{
	HR_OPTS(hr_object_open_opts, oo);
	struct hr_object *obj = NULL;
	struct hr_prog *p;
	char path[512];
	int eng;

	t_prog_path("dynptr_local_forged.o", path, sizeof(path));
	CHECK_EQ(hr_object_open(path, &oo, &obj), 0);
	p = obj ? hr_object_find_prog(obj, "local_forged") : NULL;
	CHECK(p != NULL, "local_forged");
	for (eng = HR_ENGINE_INTERP; p && eng <= HR_ENGINE_JIT; eng++) {
		CHECK_EQ(forged(p, 0, eng), HR_ABORT_NONE);
		CHECK_EQ(forged(p, 1, eng), HR_ABORT_HELPER_ARG);
		CHECK_EQ(forged(p, 2, eng), HR_ABORT_HELPER_ARG);
		CHECK_EQ(forged(p, 3, eng), HR_ABORT_HELPER_ARG);
	}
	hr_object_close(obj);
}

int main(void)
{
	containment();
	return oracle_main_engines(cases);
}
