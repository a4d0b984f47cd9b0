// SPDX-License-Identifier: MIT
/*
 * bpf_throw with the default exception callback (progs/helpers/
 * xdp_throw.bpf.c): no throw, a throw in the main function, two frames
 * down after the callee wrote the packet, and in a global function, each
 * cookie 0..3, under every engine: the run returns the cookie, nothing
 * after the throw runs (the packet and the count say so), and the kernel
 * gives the same verdict, packet and map. A throw inside a callback,
 * which the verifier refuses, ends the run (xdp_throw_cb.bpf.c), and so
 * does reaching __bpf_trap (xdp_trap.bpf.c).
 */
#include <string.h>

#include "harness.h"
#include "headroom/test_run.h"
#include "oracle.h"

static struct oracle *orc;
static bool kernel;

static void one(uint8_t where, uint8_t cookie)
{
	uint8_t pkt[64] = { where, cookie };
	struct oracle_case c = { .obj = "xdp_throw.o",
				 .data = pkt,
				 .size = sizeof(pkt) };
	struct oracle_result r;
	/* inner() throws only a cookie that is not 0. */
	bool thrown = where == 1 || where == 3 || (where == 2 && cookie);
	char label[64];

	snprintf(label, sizeof(label), "throw at %u, cookie %u", where, cookie);
	CHECK(oracle_run_headroom(orc, &c, &r) == 0, "%s: run", label);
	CHECK(r.retval == (thrown ? cookie : XDP_TX), "%s: retval %u", label,
	      r.retval);
	/* The callee wrote byte 2; its caller's write of byte 3 happens
	 * only without a throw. */
	CHECK(r.out[2] == (where == 2 ? 0xee : 0), "%s: byte 2 %#x", label,
	      r.out[2]);
	CHECK(r.out[3] == (where == 2 && !cookie ? 7 : 0), "%s: byte 3 %#x",
	      label, r.out[3]);
	if (kernel)
		CHECK(oracle_check(orc, &c, label) == 1, "%s differs", label);
}

/* From a callback: the run ends (XDP_ABORTED), not 3 nor XDP_TX. */
static void in_callback(void)
{
	uint8_t pkt[64] = { 0 };
	struct oracle_case c = { .obj = "xdp_throw_cb.o",
				 .data = pkt,
				 .size = sizeof(pkt) };
	struct oracle_result r;

	CHECK(oracle_run_headroom(orc, &c, &r) == 0, "callback: run");
	CHECK(r.retval == XDP_ABORTED, "a throw in a callback: retval %u",
	      r.retval);
}

/* __bpf_trap, which the kernel refuses reachable: the path that does
 * not reach it runs, the one that does ends the run. */
static void trap(void)
{
	uint8_t pkt[64] = { 0 };
	struct oracle_case c = { .obj = "xdp_trap.o",
				 .data = pkt,
				 .size = sizeof(pkt) };
	struct oracle_result r;

	CHECK(oracle_run_headroom(orc, &c, &r) == 0 && r.retval == XDP_PASS,
	      "__bpf_trap not reached: retval %u", r.retval);
	pkt[0] = 1;
	CHECK(oracle_run_headroom(orc, &c, &r) == 0 && r.retval == XDP_ABORTED,
	      "__bpf_trap reached: retval %u", r.retval);
}

int main(void)
{
	static const int engines[] = { HR_ENGINE_INTERP, HR_ENGINE_JIT,
				       HR_ENGINE_JIT_CHECKED };
	char why[200];
	size_t e;
	uint8_t where, cookie;

	CHECK(oracle_new(&orc) == 0, "oracle");
	kernel = t_have_kernel(why, sizeof(why));
	for (e = 0; e < sizeof(engines) / sizeof(engines[0]); e++) {
		oracle_set_engine(orc, engines[e]);
		for (where = 0; where < 4; where++)
			for (cookie = 0; cookie < 4; cookie++)
				one(where, cookie);
		in_callback();
		trap();
	}
	oracle_free(orc);
	if (!kernel) {
		t_done();
		return t_skip(why);
	}
	return t_done();
}
