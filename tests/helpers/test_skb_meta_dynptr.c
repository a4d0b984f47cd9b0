// SPDX-License-Identifier: MIT
/*
 * bpf_dynptr_from_skb_meta and the dynptr kfuncs on it, in headroom
 * alone (tests/helpers/test_skb_meta_dynptr_kernel.c compares with the kernel):
 *
 *  - every case of tests/lib/skb_meta_cases.c (metadata of 0, 4, 32 and 252
 *    bytes; offsets and lengths at and past the edges) through the
 *    datapath, XDP making the metadata and tc ingress reading it, under
 *    the interpreter and the JIT, each record equal to what Linux 6.18
 *    gives (the model in skb_meta_cases.c), and some results spelled out;
 *  - the same program in tc test runs, where there is no metadata;
 *  - the kfunc refused to XDP programs at load time;
 *  - the type-independent kfuncs on an XDP dynptr;
 *  - forged dynptrs ending the run instead of reaching memory.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "headroom/headroom.h"
#include "vm/vm.h"
#include "skb_meta_cases.h"

static struct smd_case cases[SMD_NRECS];
static unsigned int ncases;

static const char *ename(enum hr_engine e)
{
	return e == HR_ENGINE_JIT ? "jit" : "interp";
}

static void compare_all(const char *who, const struct smd_rec *got,
			bool test_run)
{
	static struct smd_rec want[SMD_NRECS];

	smd_expect_all(cases, ncases, test_run, want);
	smd_compare(who, cases, ncases, got, want);
}

/* The case of @meta bytes with @off and @len (and any adjust). */
static const struct smd_rec *find(const struct smd_rec *recs, uint8_t meta,
				  uint32_t off, uint32_t len)
{
	unsigned int i;

	for (i = 0; i < ncases; i++)
		if (cases[i].meta_len == meta && cases[i].off == off &&
		    cases[i].len == len)
			return &recs[cases[i].idx];
	return NULL;
}

/* A few results written out, in case the model were wrong too. */
static void spelled_out(const struct smd_rec *recs)
{
	const struct smd_rec *r;
	unsigned int i;

	/* 32 bytes read whole: the XDP program's bytes, at data_meta. */
	r = find(recs, 32, 0, 32);
	CHECK(r != NULL, "case 32/0/32");
	if (!r)
		return;
	CHECK_EQ(r->create, 0);
	CHECK_EQ(r->size, 32);
	CHECK_EQ(r->meta_len, 32);
	CHECK_EQ(r->rd, 0);
	for (i = 0; i < 32; i++)
		if (r->rd_bytes[i] != SMD_META_BYTE(cases[0].idx, i) &&
		    r->rd_bytes[i] != SMD_META_BYTE(r - recs, i))
			break;
	CHECK_EQ(i, 32);
	CHECK_EQ(r->rd_flags, -EINVAL);
	CHECK_EQ(r->wr_flags, -EINVAL); /* meta writes take no flags */
	CHECK_EQ(r->wr, 0);
	CHECK_EQ(r->meta_mid[0], SMD_PAT_BYTE(0));
	CHECK_EQ(r->slice[1], 1); /* never the buffer */
	CHECK_EQ(r->slice[2], 1);
	CHECK_EQ(r->slice[3], 0); /* 252 > 32 */
	CHECK_EQ(r->memset, 0);
	CHECK_EQ(r->meta_end[31], 0x5a); /* memset seen through data_meta */
	CHECK_EQ(r->n_create, -EINVAL);
	CHECK_EQ(r->n_null, 1);
	CHECK_EQ(r->n_size, (uint32_t)-EINVAL);
	/* One past the end. */
	r = find(recs, 32, 32, 1);
	CHECK(r && r->rd == -E2BIG && r->wr == -E2BIG &&
		      r->wr_flags == -E2BIG && r->slice[0] == 0,
	      "32 bytes, 1 at 32: -E2BIG and no slice");
	r = find(recs, 32, 32, 0);
	CHECK(r && r->rd == 0 && r->wr == 0, "32 bytes, 0 at 32: fine");
	r = find(recs, 32, 0xffffffffu, 1);
	CHECK(r && r->rd == -E2BIG && r->memset == -E2BIG, "offset wraps");
	/* No metadata: a dynptr of size 0, not a null one. */
	r = find(recs, 0, 0, 0);
	CHECK(r && r->create == 0 && r->size == 0 && !r->is_null &&
		      r->rd == 0 && r->slice[0] == 0,
	      "no metadata: an empty dynptr");
	/* 252: the largest, read and sliced whole. */
	r = find(recs, SMD_MAX_META, 0, SMD_MAX_META);
	CHECK(r && r->rd == 0 && r->slice[3] == 1 && r->copy_dm == 0,
	      "252 bytes whole");
	r = find(recs, SMD_MAX_META, 0, SMD_MAX_META + 1);
	CHECK(r && r->rd == -E2BIG, "253 of 252");
}

static void test_datapath(void)
{
	static struct smd_rec recs[2][SMD_NRECS];
	static const enum hr_engine engines[2] = { HR_ENGINE_INTERP,
						   HR_ENGINE_JIT };
	char who[32];
	int e;

	for (e = 0; e < 2; e++) {
		snprintf(who, sizeof(who), "datapath %s", ename(engines[e]));
		if (smd_run_datapath(engines[e], cases, ncases, recs[e]))
			continue;
		compare_all(who, recs[e], false);
		spelled_out(recs[e]);
	}
	CHECK(!memcmp(recs[0], recs[1], sizeof(recs[0])),
	      "interpreter and JIT records differ");
}

static void test_test_runs(void)
{
	static struct smd_rec recs[SMD_NRECS];
	static const enum hr_engine engines[2] = { HR_ENGINE_INTERP,
						   HR_ENGINE_JIT };
	char who[32];
	unsigned int i;
	int e;

	for (e = 0; e < 2; e++) {
		memset(recs, 0, sizeof(recs));
		snprintf(who, sizeof(who), "tc test run %s", ename(engines[e]));
		for (i = 0; i < ncases; i++)
			smd_run_test_run(engines[e], &cases[i],
					 &recs[cases[i].idx]);
		compare_all(who, recs, true);
	}
}

static int open_err(const char *name, char *err, size_t errsz)
{
	HR_OPTS(hr_object_open_opts, oo, .errbuf = err, .errbuf_sz = errsz);
	struct hr_object *o = NULL;
	char path[512];
	int rc;

	snprintf(path, sizeof(path), "%s/%s", t_progs_dir(), name);
	rc = hr_object_open(path, &oo, &o);
	hr_object_close(o);
	return rc;
}

static void test_xdp_refused(void)
{
	char err[256] = "";

	CHECK_EQ(open_err("skb_meta_dynptr_xdp.o", err, sizeof(err)), -EACCES);
	CHECK(strstr(err, "bpf_dynptr_from_skb_meta is not allowed in xdp"),
	      "error: %s", err);
	/* A kfunc no type has is still unknown. */
	CHECK_EQ(open_err("loader_badkfunc.o", err, sizeof(err)), -EOPNOTSUPP);
}

static struct hr_prog *find_prog(struct hr_object *o, const char *name)
{
	struct hr_prog *p = o ? hr_object_find_prog(o, name) : NULL;

	CHECK(p != NULL, "program %s", name);
	return p;
}

static struct hr_object *open_ok(const char *name)
{
	HR_OPTS(hr_object_open_opts, oo);
	struct hr_object *o = NULL;
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", t_progs_dir(), name);
	CHECK_EQ(hr_object_open(path, &oo, &o), 0);
	return o;
}

static void run_ops(struct hr_prog *p, enum hr_engine e, const uint16_t a[5],
		    uint8_t *pkt, uint32_t len, struct smd_ops_out *o)
{
	HR_OPTS(hr_test_run_opts, t, .data_in = pkt, .data_size_in = len,
		.data_out = pkt, .data_size_out = len, .engine = e);
	uint32_t i;

	for (i = 0; i < len; i++)
		pkt[i] = (uint8_t)i;
	memcpy(pkt, a, 10);
	CHECK_EQ(hr_prog_test_run(p, &t), 0);
	CHECK_EQ(t.retval, 2 /* XDP_PASS */);
	memcpy(o, pkt + 10, sizeof(*o));
}

/* bpf_dynptr_size, _clone, _adjust, _copy, _memset on an XDP dynptr. */
static void test_xdp_ops(void)
{
	struct hr_object *obj = open_ok(SMD_OBJ);
	struct hr_prog *p = find_prog(obj, "smd_xdp_ops");
	uint8_t pkt[128];
	struct smd_ops_out o;
	int e;

	for (e = HR_ENGINE_INTERP; p && e <= HR_ENGINE_JIT; e++) {
		/* Clone [60, 100), copy its first 8 bytes to 50, memset
		 * 8 at 80. */
		run_ops(p, e, (const uint16_t[5]){ 50, 8, 60, 100, 80 }, pkt,
			sizeof(pkt), &o);
		CHECK_EQ(o.size, 128);
		CHECK_EQ(o.clone, 0);
		CHECK_EQ(o.adjust, 0);
		CHECK_EQ(o.clone_size, 40);
		CHECK_EQ(o.orig_size, 128);
		CHECK_EQ(o.copy, 0);
		CHECK_EQ(o.memset, 0);
		CHECK_EQ(o.copy_oob, -E2BIG); /* 300 > 40 */
		CHECK(!o.rdonly && !o.is_null && !o.clone_null, "flags");
		CHECK_EQ(pkt[50], 60);
		CHECK_EQ(pkt[57], 67);
		CHECK_EQ(pkt[80], 0xee);
		CHECK_EQ(pkt[87], 0xee);
		CHECK_EQ(pkt[88], 88);
		/* Adjust reversed and past the end; copy and memset past. */
		run_ops(p, e, (const uint16_t[5]){ 125, 8, 9, 8, 121 }, pkt,
			sizeof(pkt), &o);
		CHECK_EQ(o.adjust, -EINVAL);
		CHECK_EQ(o.clone_size, 128);
		CHECK_EQ(o.copy, -E2BIG);
		CHECK_EQ(o.memset, -E2BIG);
		run_ops(p, e, (const uint16_t[5]){ 0, 0, 0, 129, 128 }, pkt,
			sizeof(pkt), &o);
		CHECK_EQ(o.adjust, -ERANGE);
		CHECK_EQ(o.copy, 0); /* nothing, at 0 */
		CHECK_EQ(o.memset, 0); /* nothing, at the end */
	}
	hr_object_close(obj);
}

/* Runs @p over a packet whose byte 0 is @sel; the abort reason. */
static int forged(struct hr_prog *p, uint8_t sel, int engine)
{
	uint8_t pkt[64] = { sel };
	HR_OPTS(hr_test_run_opts, o, .data_in = pkt,
		.data_size_in = sizeof(pkt), .engine = engine);

	CHECK_EQ(hr_prog_test_run(p, &o), 0);
	return o.abort;
}

/* Forged dynptrs (progs/helpers/skb_meta_dynptr_forged.bpf.c): every one this
 * program type could not have made ends the run with a bad helper
 * argument; the one it could have made is read. */
static void test_forged(void)
{
	struct hr_object *obj = open_ok("skb_meta_dynptr_forged.o");
	struct hr_prog *x = find_prog(obj, "forged_xdp");
	struct hr_prog *t = find_prog(obj, "forged_tc");
	unsigned int sel;
	int e;

	for (e = HR_ENGINE_INTERP; x && t && e <= HR_ENGINE_JIT; e++)
		for (sel = 0; sel <= 5; sel++) {
			CHECK(forged(x, (uint8_t)sel, e) ==
				      (sel == 2 ? HR_ABORT_NONE :
						  HR_ABORT_HELPER_ARG),
			      "xdp forged %u", sel);
			CHECK(forged(t, (uint8_t)sel, e) ==
				      (sel == 3 ? HR_ABORT_NONE :
						  HR_ABORT_HELPER_ARG),
			      "tc forged %u", sel);
		}
	hr_object_close(obj);
}

int main(void)
{
	ncases = smd_make_cases(cases);
	CHECK(ncases == 4 * 20, "%u cases", ncases);
	test_datapath();
	test_test_runs();
	test_xdp_refused();
	test_xdp_ops();
	test_forged();
	return t_done();
}
