// SPDX-License-Identifier: MIT
/*
 * bpf_iter_num_new, _next and _destroy (progs/helpers/xdp_iter_num.bpf.c)
 * over empty, short, reversed, overflowing and too-long ranges, with
 * bpf_rcu_read_lock/_unlock around them, and bpf_ktime_get_tai_ns with
 * bpf_preempt_disable/_enable, compared with the kernel's
 * BPF_PROG_TEST_RUN: return codes, every value the iterator gave, its
 * state after the end. Both engines run the loops against the budget.
 */
#include <errno.h>
#include <limits.h>
#include <string.h>
#include <time.h>

#include "harness.h"
#include "headroom/test_run.h"
#include "oracle.h"

static struct oracle *orc;
static bool kernel;
static uint8_t pkt[64];

struct iter_rec {
	int32_t start, end;
	int32_t ret, count;
	int64_t sum;
	int32_t first, last;
	int32_t after, pad;
};

static void one(int32_t start, int32_t end, int32_t want_ret,
		int32_t want_count)
{
	struct oracle_case c = { .obj = "xdp_iter_num.o",
				 .prog = "xdp_iter_num",
				 .data = pkt,
				 .size = sizeof(pkt) };
	struct oracle_result r;
	struct iter_rec in = { .start = start, .end = end }, out;
	char label[80];

	memset(pkt, 0, sizeof(pkt));
	memcpy(pkt + 14, &in, sizeof(in));
	snprintf(label, sizeof(label), "iter [%d, %d)", start, end);
	CHECK(oracle_run_headroom(orc, &c, &r) == 0 && r.retval == XDP_PASS,
	      "%s: run (retval %u)", label, r.retval);
	memcpy(&out, r.out + 14, sizeof(out));
	CHECK(out.ret == want_ret && out.count == want_count && !out.after,
	      "%s: ret %d count %d after %d", label, out.ret, out.count,
	      out.after);
	if (want_count > 0)
		CHECK(out.first == start && out.last == end - 1, "%s: %d..%d",
		      label, out.first, out.last);
	if (kernel)
		CHECK(oracle_check(orc, &c, label) == 1, "%s differs", label);
}

static void tai(void)
{
	struct oracle_case c = { .obj = "xdp_iter_num.o",
				 .prog = "xdp_tai",
				 .data = pkt,
				 .size = sizeof(pkt) };
	struct oracle_result r;
	struct timespec ts;
	uint64_t now, bits;

	memset(pkt, 0, sizeof(pkt));
	clock_gettime(CLOCK_TAI, &ts);
	now = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
	memcpy(pkt + 16, &now, sizeof(now));
	CHECK(oracle_run_headroom(orc, &c, &r) == 0, "tai run");
	memcpy(&bits, r.out + 24, sizeof(bits));
	CHECK_EQ(bits, 7);
	if (kernel) {
		CHECK(oracle_run_kernel(orc, &c, &r) == 0, "tai kernel run");
		memcpy(&bits, r.out + 24, sizeof(bits));
		CHECK_EQ(bits, 7);
	}
}

int main(void)
{
	static const int engines[] = { HR_ENGINE_INTERP, HR_ENGINE_JIT,
				       HR_ENGINE_JIT_CHECKED };
	char why[200];
	int ret = oracle_new(&orc);
	size_t e;

	CHECK(ret == 0, "oracle_new: %s", strerror(-ret));
	if (ret)
		return t_done();
	kernel = t_have_kernel(why, sizeof(why));
	for (e = 0; e < sizeof(engines) / sizeof(engines[0]); e++) {
		oracle_set_engine(orc, engines[e]);
		one(0, 0, 0, 0);
		one(0, 10, 0, 10);
		one(-5, 3, 0, 8);
		one(7, 3, -EINVAL, 0);
		one(INT_MAX - 2, INT_MAX, 0, 2);
		one(INT_MIN, INT_MIN + 3, 0, 3);
		one(0, 8 * 1024 * 1024, 0, 8 * 1024 * 1024);
		one(0, 8 * 1024 * 1024 + 1, -E2BIG, 0);
		one(INT_MIN, INT_MAX, -E2BIG, 0);
		tai();
	}
	oracle_free(orc);
	if (!kernel) {
		t_done();
		return t_skip(why);
	}
	return t_done();
}
