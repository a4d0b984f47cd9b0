// SPDX-License-Identifier: MIT
/*
 * LD_ABS / LD_IND in tc programs (progs/ld_abs.c, helpers_ld_abs.c):
 * tc_ld_abs.bpf.c over fixed and random packets and offsets, in range,
 * at each edge, negative (SKF_NET_OFF, SKF_LL_OFF, down to the skb head)
 * and wrapped, under every engine, compared with the kernel's
 * BPF_PROG_TEST_RUN: the values in network order, a failed load's
 * "return 0" with what was stored before it, a subprogram's failed load
 * returning 0 to its caller. XDP refuses them at load, as the kernel.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <linux/bpf.h>
#include <linux/filter.h>

#include <headroom/headroom.h>

#include "gen_packets.h"
#include "harness.h"
#include "oracle.h"

static struct oracle *orc;
static unsigned int cases, diffs;
static uint8_t pkt[1600];

static void run(const char *prog, uint32_t len, uint32_t o1, uint32_t o2,
		uint32_t o3, const char *label)
{
	struct __sk_buff s = { .cb = { o1, o2, o3 } };
	struct oracle_case c = { .obj = "tc_ld_abs.o",
				 .prog = prog,
				 .data = pkt,
				 .size = len,
				 .skb = &s };
	int ret = oracle_check(orc, &c, label);

	cases++;
	if (ret != 1)
		diffs++;
	CHECK(ret == 1, "%s differs from the kernel (%d)", label, ret);
}

/* Values headroom gives, without the kernel: network order, the stop. */
static void test_values(void)
{
	struct __sk_buff s = { .cb = { 30, 23, 34 } };
	struct oracle_case c = { .obj = "tc_ld_abs.o",
				 .prog = "tc_ld_abs",
				 .data = pkt,
				 .skb = &s };
	const struct oracle_result *r;
	struct oracle_result res;
	struct gen_rng g;

	gen_seed(&g, 1);
	c.size = gen_ipv4_udp(&g, pkt, 60);
	CHECK(oracle_run_headroom(orc, &c, &res) == 0, "run");
	r = &res;
	CHECK_EQ(r->err, 0);
	CHECK_EQ(r->retval, 0x55);
	CHECK_EQ(r->skb_out.cb[0], 0x0800);
	CHECK_EQ(r->skb_out.cb[1], (uint32_t)pkt[26] << 24 | pkt[27] << 16 |
					   pkt[28] << 8 | pkt[29]);
	CHECK_EQ(r->skb_out.cb[2], 17);
	CHECK_EQ(r->skb_out.cb[3], 0x0800);
	CHECK_EQ(r->skb_out.cb[4], (uint32_t)pkt[30] << 24 | pkt[31] << 16 |
					   pkt[32] << 8 | pkt[33]);
	CHECK_EQ(r->skb_out.mark, 17u << 16 | pkt[36] << 8 | pkt[37]);
	/* A word at the last three bytes fails: return 0 there, what was
	 * stored before it kept, nothing after. */
	s.cb[0] = 57;
	s.cb[4] = 0x1234;
	CHECK(oracle_run_headroom(orc, &c, &res) == 0, "run");
	CHECK_EQ(r->retval, 0);
	CHECK_EQ(r->skb_out.cb[3], 0x0800);
	CHECK_EQ(r->skb_out.cb[4], 0x1234);
	CHECK_EQ(r->skb_out.mark, 0);
}

static void test_refused_in_xdp(void)
{
	char err[512] = "", path[512];
	HR_OPTS(hr_object_open_opts, oo, .errbuf = err,
		.errbuf_sz = sizeof(err));
	struct hr_object *obj = NULL;
	int ret;

	snprintf(path, sizeof(path), "%s/xdp_ld_abs.o", t_progs_dir());
	ret = hr_object_open(path, &oo, &obj);
	CHECK(ret == -EINVAL, "xdp LD_ABS loaded: %d", ret);
	CHECK(strstr(err, "BPF_LD_[ABS|IND]") != NULL, "message: %s", err);
	hr_object_close(obj);
}

/*
 * An abort in a subprogram linked after LD_ABS loads names the object's
 * instruction (objdump's and the kernel log's: 14 of
 * tests/verifier/ld_abs_after.bpf.c, which the kernel refuses there), not
 * its place once the loads are expanded, and its function bounds moved
 * with the expansion so the subprogram runs at all.
 */
static void test_orig_numbering(void)
{
	static const int engines[] = { HR_ENGINE_INTERP, HR_ENGINE_JIT,
				       HR_ENGINE_JIT_CHECKED };
	char err[512] = "", path[512];
	HR_OPTS(hr_object_open_opts, oo, .errbuf = err,
		.errbuf_sz = sizeof(err));
	struct hr_object *obj = NULL;
	struct hr_prog *p;
	uint8_t b[37] = { [12] = 0x08, [14] = 0x45 };

	snprintf(path, sizeof(path), "%s/../verifier/ld_abs_after.o",
		 t_progs_dir());
	if (hr_object_open(path, &oo, &obj)) {
		CHECK(0, "open %s: %s", path, err);
		return;
	}
	p = hr_object_find_prog(obj, "bad_ld_abs_after");
	CHECK(p != NULL, "bad_ld_abs_after");
	/* Source 10.0.0.1 at offset 26: the branch calling port(). */
	b[26] = 10, b[29] = 1;
	for (size_t i = 0; p && i < sizeof(engines) / sizeof(*engines); i++) {
		HR_OPTS(hr_test_run_opts, o, .data_in = b,
			.data_size_in = sizeof(b), .engine = engines[i]);

		CHECK_EQ(hr_prog_test_run(p, &o), 0);
		CHECK(o.abort != 0, "engine %d: no abort", engines[i]);
		CHECK(o.abort_pc == 14, "engine %d: abort at insn %u, want 14",
		      engines[i], o.abort_pc);
	}
	hr_object_close(obj);
}

static void test_kernel(int engine, const char *ename)
{
	static const int32_t negs[] = {
		SKF_NET_OFF,	  SKF_NET_OFF + 9,  SKF_NET_OFF - 14,
		SKF_NET_OFF - 80, SKF_NET_OFF - 81, SKF_LL_OFF,
		SKF_LL_OFF - 1,	  SKF_LL_OFF - 66,  SKF_LL_OFF - 67,
		SKF_LL_OFF + 56,  SKF_LL_OFF + 57,  SKF_NET_OFF + 42,
		SKF_NET_OFF + 43, SKF_NET_OFF - 1,  SKF_LL_OFF - 100000,
	};
	static const uint32_t lens[] = { 14, 15, 27, 30, 34, 42, 60, 61, 1514 };
	uint32_t i, j, len;
	struct gen_rng g;
	char label[96];

	oracle_set_engine(orc, engine);
	gen_seed(&g, 7);
	for (i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
		len = gen_ipv4_udp(&g, pkt, lens[i]);
		for (j = 0; j + 4 <= len + 6 && j < 70; j++) {
			snprintf(label, sizeof(label), "%s len %u off %u",
				 ename, len, j);
			run("tc_ld_abs", len, j, j, j, label);
		}
		for (j = 0; j < sizeof(negs) / sizeof(negs[0]); j++) {
			snprintf(label, sizeof(label), "%s len %u neg %d",
				 ename, len, negs[j]);
			run("tc_ld_abs", len, (uint32_t)negs[j],
			    (uint32_t)negs[j], (uint32_t)negs[j], label);
		}
		snprintf(label, sizeof(label), "%s len %u wrap", ename, len);
		run("tc_ld_abs", len, 0x80000000u, len - 1, 0xfffffffeu, label);
		run("tc_ld_abs", len, 0xffffffffu, 0x7fffffffu, 0xffffffffu,
		    label);
		snprintf(label, sizeof(label), "%s len %u sub", ename, len);
		run("tc_ld_abs_sub", len, 26, 0, 0, label);
		run("tc_ld_abs_sub", len, len - 3, 0, 0, label);
	}
	for (i = 0; i < 200; i++) {
		len = gen_packet(&g, pkt, sizeof(pkt), NULL);
		snprintf(label, sizeof(label), "%s random %u", ename, i);
		run("tc_ld_abs", len, gen_below(&g, len + 8),
		    gen_below(&g, len + 8), gen_below(&g, len + 8), label);
	}
}

int main(void)
{
	char why[128];

	CHECK(oracle_new(&orc) == 0, "oracle");
	test_values();
	test_refused_in_xdp();
	test_orig_numbering();
	if (!t_have_kernel(why, sizeof(why))) {
		oracle_free(orc);
		t_skip(why);
		return t_done();
	}
	test_kernel(HR_ENGINE_INTERP, "interp");
	test_kernel(HR_ENGINE_JIT, "jit");
	test_kernel(HR_ENGINE_JIT_CHECKED, "jit-checked");
	printf("ld_abs: %u cases against the kernel, %u differences\n", cases,
	       diffs);
	oracle_summary(orc);
	oracle_free(orc);
	return t_done();
}
