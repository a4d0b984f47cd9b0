// SPDX-License-Identifier: MIT
/*
 * bpf_strncmp (progs/helpers/xdp_strncmp.bpf.c): equal, shorter, longer,
 * empty and high-bit strings at several lengths, compared with the
 * kernel's BPF_PROG_TEST_RUN under both engines; headroom alone against
 * the answers lib/string.c's strncmp gives.
 */
#include <string.h>

#include "harness.h"
#include "headroom/test_run.h"
#include "oracle.h"

static struct oracle *orc;
static bool kernel;
static uint8_t pkt[64];

static void one(const char *s8, const int8_t want[6])
{
	struct oracle_case c = { .obj = "xdp_strncmp.o",
				 .data = pkt,
				 .size = sizeof(pkt) };
	struct oracle_result r;
	char label[64];
	int i;

	memset(pkt, 0, sizeof(pkt));
	memcpy(pkt + 14, s8, 8);
	snprintf(label, sizeof(label), "strncmp '%.8s'", s8);
	CHECK(oracle_run_headroom(orc, &c, &r) == 0 && r.retval == XDP_PASS,
	      "%s: run", label);
	for (i = 0; i < 6; i++)
		CHECK((int8_t)r.out[22 + i] == want[i],
		      "%s: answer %d: %d, want %d", label, i,
		      (int8_t)r.out[22 + i], want[i]);
	if (kernel)
		CHECK(oracle_check(orc, &c, label) == 1, "%s differs", label);
}

int main(void)
{
	static const int engines[] = { HR_ENGINE_INTERP, HR_ENGINE_JIT };
	char why[200];
	size_t e;

	CHECK(oracle_new(&orc) == 0, "oracle");
	kernel = t_have_kernel(why, sizeof(why));
	for (e = 0; e < sizeof(engines) / sizeof(engines[0]); e++) {
		oracle_set_engine(orc, engines[e]);
		one("hello\0\0\0", (const int8_t[]){ 0, 0, 0, 1, -1, 0 });
		one("hellp\0\0\0", (const int8_t[]){ 1, 0, 0, 1, -1, 1 });
		one("help\0\0\0\0", (const int8_t[]){ 1, 0, 0, 1, -1, 1 });
		one("hello wo", (const int8_t[]){ 1, 0, 0, 1, -1, 0 });
		one("\0\0\0\0\0\0\0\0",
		    (const int8_t[]){ -1, -1, -1, 0, -1, -1 });
		one("\x80\x7f\0\0\0\0\0\0",
		    (const int8_t[]){ 1, 1, 1, 1, 0, 1 });
		one("\x80\x80xxxxxx", (const int8_t[]){ 1, 1, 1, 1, 1, 1 });
	}
	oracle_free(orc);
	if (!kernel) {
		t_done();
		return t_skip(why);
	}
	return t_done();
}
