// SPDX-License-Identifier: MIT
/*
 * Multi-buffer XDP test runs against the live kernel: packets from 60 to
 * 20000 bytes, with and without metadata, their linear part set by
 * xdp_md.data_end (6.18 puts the rest in page fragments), run through
 * progs/helpers/xdp_frags.bpf.c: bpf_xdp_adjust_tail growing the last
 * fragment within its page and cutting across fragments into the linear
 * part, and bpf_xdp_pull_data pulling fragment bytes into the linear
 * part, moving it down into the headroom when its tailroom is short.
 * Every observable (error, retval, data_out, ctx_out) must be the
 * kernel's, under the interpreter, the JIT and the checked JIT.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "oracle.h"
#include "headroom/headroom.h"

#define MAX_PKT 20000u
#define ALL UINT32_MAX

ORACLE_LINK_HEADROOM;

static struct oracle *orc;
static uint8_t *buf;

/* @meta bytes of metadata, then a @size-byte packet whose argument word
 * at offset 14 is @arg; the rest a pattern that shows moved bytes. */
static uint32_t build(uint32_t meta, uint32_t size, uint32_t arg)
{
	uint32_t i;

	for (i = 0; i < meta; i++)
		buf[i] = (uint8_t)(0xe0 + i);
	for (i = 0; i < size; i++)
		buf[meta + i] = (uint8_t)(i * 7 + 3);
	memset(buf + meta, 0xff, 6);
	buf[meta + 12] = 0x08;
	buf[meta + 13] = 0x00;
	memcpy(buf + meta + 14, &arg, sizeof(arg));
	return meta + size;
}

static void one(const char *prog, uint32_t meta, uint32_t size, uint32_t lin,
		int32_t arg)
{
	struct xdp_md ctx = { .data = meta };
	struct oracle_case c = {
		.obj = "xdp_frags.o",
		.prog = prog,
		.data = buf,
		.ctx = &ctx,
	};
	int r;

	c.size = build(meta, size, (uint32_t)arg);
	ctx.data_end = lin == ALL ? c.size : lin;
	r = oracle_check(orc, &c, "");
	CHECK(r == 1, "%s meta %u size %u linear %u arg %d: %s", prog, meta,
	      size, ctx.data_end, arg,
	      r < 0 ? "setup failed" : "kernel and headroom differ");
}

static void run_all(int engine)
{
	static const uint32_t sizes[] = { 60,	300,  3520,  3521,   4000,
					  5000, 8000, 12000, MAX_PKT };
	static const uint32_t lins[] = { ALL, 0, 14, 100, 3000 };
	static const uint32_t metas[] = { 0, 8 };
	unsigned int s, l, m, k;

	oracle_set_engine(orc, engine);
	for (m = 0; m < 2; m++)
		for (s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++)
			for (l = 0; l < sizeof(lins) / sizeof(lins[0]); l++) {
				uint32_t size = sizes[s], meta = metas[m];
				uint32_t lin = lins[l];
				int32_t n = (int32_t)size;
				const int32_t deltas[] = {
					-30000, -n + 14, -n + 13, -4000, -1500,
					-100,	-1,	 0,	  1,	 100,
					576,	2616,	 3000,	  4096
				};
				const int32_t pulls[] = { 0,	14,    18,
							  100,	101,   3000,
							  3520, 3600,  n - 1,
							  n,	n + 1, 8000,
							  3736, 3737 };

				if (lin != ALL && (lin + meta > meta + size))
					continue;
				if (lin != ALL)
					lin += meta;
				for (k = 0; k < 14; k++) {
					one("frag_tail", meta, size, lin,
					    deltas[k]);
					one("frag_pull", meta, size, lin,
					    pulls[k]);
				}
			}
}

int main(void)
{
	char why[256];

	if (!t_have_kernel(why, sizeof(why)))
		return t_skip(why);
	buf = calloc(1, MAX_PKT + 64);
	if (!buf || oracle_new(&orc)) {
		CHECK(0, "no memory");
		return t_done();
	}
	CHECK(oracle_have_headroom(), "headroom's test-run API is linked");
	run_all(HR_ENGINE_INTERP);
	run_all(HR_ENGINE_JIT);
	run_all(HR_ENGINE_JIT_CHECKED);
	oracle_summary(orc);
	oracle_free(orc);
	free(buf);
	return t_done();
}
