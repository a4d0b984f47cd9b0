// SPDX-License-Identifier: MIT
/*
 * The kernel as oracle for bpf_dynptr_from_skb_meta (Linux 6.18) and the
 * dynptr kfuncs on it. The cases of tests/lib/skb_meta_cases.c run:
 *
 *   kernel:   AF_PACKET sendto() on veth A of a pair in a namespace made
 *             here -> veth_xmit -> B's native XDP (smd_xdp: metadata of
 *             0 .. 252 bytes) -> skb -> B's tc ingress (smd_tc), which
 *             records what it saw in smd_recs;
 *   headroom: a pcap device replaying the same frames through the same
 *             objects (interpreter and JIT).
 *
 * Every record must be the same on both sides and equal to the model of
 * skb_meta_cases.c. Then the same tc program in BPF_PROG_TEST_RUN (no
 * metadata in a tc test run, the kernel's as headroom's), the kfunc
 * refused to XDP programs by both, and the type-independent kfuncs on an
 * XDP dynptr through XDP test runs (tests/lib/oracle.h). Without the kernel
 * (root, bpf(), iproute2) the test skips, or fails with
 * HEADROOM_REQUIRE_KERNEL=1.
 *
 * A kernel that refuses bpf_dynptr_slice_rdwr (tests/lib/kernel_side.h)
 * runs SMD_OBJ_NORDWR instead, the rdwr slices emulated, against
 * headroom's runs of the same; headroom's runs of SMD_OBJ must then give
 * the same records as its runs of SMD_OBJ_NORDWR, and smd_xdp_ops, which
 * does not call the kfunc, is still compared in SMD_OBJ itself.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "harness.h"
#include "headroom/headroom.h"
#include "kernel_side.h"
#include "oracle.h"
#include "skb_meta_cases.h"
#include "xdp_tc_run.h"

static struct smd_case cases[SMD_NRECS];
static unsigned int ncases;
static struct t_netns ns;
/* What the kernel runs: SMD_OBJ, or SMD_OBJ_NORDWR when it refuses the
 * kfunc. */
static const char *kobj = SMD_OBJ;
static bool emulated;

/* With the kfunc emulated: headroom's records of SMD_OBJ, by @run under
 * @e, are those of SMD_OBJ_NORDWR in @var. */
static void check_variant(const char *who, int e, const struct smd_rec *var,
			  int (*run)(int e, struct smd_rec *recs))
{
	static struct smd_rec h[SMD_NRECS];

	if (!emulated)
		return;
	memset(h, 0, sizeof(h));
	smd_obj = SMD_OBJ;
	if (!run(e, h))
		smd_compare(who, cases, ncases, h, var);
	smd_obj = kobj;
}

static int run_datapath(int e, struct smd_rec *recs)
{
	return smd_run_datapath((enum hr_engine)e, cases, ncases, recs);
}

static int run_test_runs(int e, struct smd_rec *recs)
{
	unsigned int i;

	for (i = 0; i < ncases; i++)
		smd_run_test_run((enum hr_engine)e, &cases[i],
				 &recs[cases[i].idx]);
	return 0;
}

static int kset_pattern(struct bpf_object *o)
{
	uint8_t pat[SMD_RD_MAX];
	uint32_t key = 0;

	smd_pattern(pat);
	return bpf_map_update_elem(t_kmap(o, "smd_pat"), &key, pat, 0);
}

static void kread(struct bpf_object *o, struct smd_rec *recs)
{
	int fd = t_kmap(o, "smd_recs");
	uint32_t i;

	for (i = 0; i < SMD_NRECS; i++)
		bpf_map_lookup_elem(fd, &i, &recs[i]);
}

static uint32_t wire_frame(void *arg, unsigned int i, uint8_t *buf)
{
	return smd_packet(&cases[i], buf, true);
}

/* The veth path: smd_xdp on B, smd_tc at B's ingress, frames sent on A.
 * 0, or -1 when the kernel side could not be set up. */
static int kernel_veth(struct smd_rec *recs)
{
	struct t_frames f = { .n = ncases, .frame = wire_frame };
	struct t_krecs r = { "smd_recs", recs, sizeof(*recs), ncases };
	struct bpf_object *o = t_kopen(kobj);
	int rc = -1;

	if (!o || kset_pattern(o))
		CHECK(0, "kernel: object or pattern");
	else
		rc = t_veth_xdp_tc(&ns, o, "smd_xdp", "smd_tc", &f, &r);
	bpf_object__close(o);
	return rc;
}

/* BPF_PROG_TEST_RUN of smd_tc for every case (no metadata). */
static int kernel_test_runs(struct smd_rec *recs)
{
	struct bpf_object *o = t_kopen(kobj);
	uint8_t pkt[SMD_PKT_LEN];
	unsigned int i;
	int fd;

	if (!o || kset_pattern(o)) {
		bpf_object__close(o);
		return -1;
	}
	fd = t_kprog(o, "smd_tc");
	for (i = 0; i < ncases; i++) {
		LIBBPF_OPTS(bpf_test_run_opts, t, .data_in = pkt,
			    .data_size_in = smd_packet(&cases[i], pkt, false));

		CHECK(bpf_prog_test_run_opts(fd, &t) == 0 && t.retval == 2,
		      "kernel test run %u: %s retval %u", i, strerror(errno),
		      t.retval);
	}
	kread(o, recs);
	bpf_object__close(o);
	return 0;
}

static void test_veth(void)
{
	static struct smd_rec k[SMD_NRECS], hi[SMD_NRECS], hj[SMD_NRECS],
		model[SMD_NRECS];

	smd_expect_all(cases, ncases, false, model);
	if (smd_run_datapath(HR_ENGINE_INTERP, cases, ncases, hi) ||
	    smd_run_datapath(HR_ENGINE_JIT, cases, ncases, hj))
		return;
	if (kernel_veth(k))
		return;
	smd_compare("kernel veth vs the model", cases, ncases, k, model);
	smd_compare("kernel veth vs headroom interpreter", cases, ncases, k,
		    hi);
	smd_compare("kernel veth vs headroom JIT", cases, ncases, k, hj);
	check_variant("headroom interpreter: original vs variant",
		      HR_ENGINE_INTERP, hi, run_datapath);
	check_variant("headroom JIT: original vs variant", HR_ENGINE_JIT, hj,
		      run_datapath);
}

static void test_test_runs(void)
{
	static struct smd_rec k[SMD_NRECS], h[SMD_NRECS], model[SMD_NRECS];
	int e;

	smd_expect_all(cases, ncases, true, model);
	if (kernel_test_runs(k)) {
		CHECK(0, "kernel test runs");
		return;
	}
	smd_compare("kernel tc test run vs the model", cases, ncases, k, model);
	for (e = HR_ENGINE_INTERP; e <= HR_ENGINE_JIT; e++) {
		memset(h, 0, sizeof(h));
		run_test_runs(e, h);
		smd_compare(e == HR_ENGINE_JIT ?
				    "kernel tc test run vs headroom JIT" :
				    "kernel tc test run vs headroom",
			    cases, ncases, k, h);
		check_variant("headroom tc test run: original vs variant", e, h,
			      run_test_runs);
	}
}

/* The kfunc is for SCHED_CLS and SCHED_ACT: an XDP program calling it
 * does not load, in the kernel (-EACCES) as in headroom. */
static void test_xdp_refused(void)
{
	HR_OPTS(hr_object_open_opts, oo);
	struct hr_object *h = NULL;
	struct bpf_object *o;
	char path[512];
	int kerr = 0, herr;

	snprintf(path, sizeof(path), "%s/skb_meta_dynptr_xdp.o", t_progs_dir());
	o = bpf_object__open_file(path, NULL);
	CHECK(o != NULL, "kernel: open %s", path);
	if (o) {
		libbpf_print_fn_t old = libbpf_set_print(NULL);

		kerr = bpf_object__load(o);
		libbpf_set_print(old);
		bpf_object__close(o);
	}
	herr = hr_object_open(path, &oo, &h);
	hr_object_close(h);
	CHECK_EQ(kerr, -EACCES);
	CHECK_EQ(herr, kerr);
}

/* smd_xdp_ops over argument sets and packet lengths, both engines. */
static void test_xdp_ops(void)
{
	static const uint16_t offs[] = { 0, 10, 50, 100, 127, 128, 200, 65535 };
	static const uint16_t lens[] = { 0, 1, 8, 40, 128, 129 };
	static const uint16_t adj[][2] = {
		{ 0, 0 },   { 60, 100 },  { 9, 8 },
		{ 0, 129 }, { 128, 128 }, { 0, 128 }
	};
	static const uint32_t plens[] = { 46, 128, 200 };
	struct oracle_case c = { .obj = SMD_OBJ, .prog = "smd_xdp_ops" };
	struct oracle *orc;
	uint8_t pkt[256];
	char label[96];
	unsigned int i, j, k, l, n = 0, e;

	if (oracle_new(&orc)) {
		CHECK(0, "oracle");
		return;
	}
	for (e = HR_ENGINE_INTERP; e <= HR_ENGINE_JIT; e++) {
		oracle_set_engine(orc, (int)e);
		for (l = 0; l < sizeof(plens) / sizeof(plens[0]); l++)
			for (i = 0; i < sizeof(offs) / sizeof(offs[0]); i++)
				for (j = 0; j < sizeof(lens) / sizeof(lens[0]);
				     j++) {
					uint16_t a[5] = {
						offs[i],
						lens[j],
						adj[(i + j) % 6][0],
						adj[(i + j) % 6][1],
						offs[(i + 3) % 8],
					};

					for (k = 0; k < plens[l]; k++)
						pkt[k] = (uint8_t)(k * 7);
					memcpy(pkt, a, sizeof(a));
					c.data = pkt;
					c.size = plens[l];
					snprintf(label, sizeof(label),
						 "xdp ops %s len %u off %u "
						 "n %u",
						 e == HR_ENGINE_JIT ? "jit" :
								      "interp",
						 plens[l], offs[i], lens[j]);
					CHECK(oracle_check(orc, &c, label) == 1,
					      "%s", label);
					n++;
				}
	}
	oracle_summary(orc);
	oracle_free(orc);
	CHECK(n == 2 * 3 * 8 * 6, "%u XDP cases", n);
}

int main(void)
{
	char why[256];

	ncases = smd_make_cases(cases);
	if (!t_have_kernel(why, sizeof(why)))
		return t_skip(why);
	if (system("ip -V >/dev/null 2>&1"))
		return t_skip("no iproute2");
	/* A host difference (kernel_side.h): the kernel's program cannot
	 * load, and there is nothing to compare with. */
	if (t_host_skips_adjust_meta("the XDP program of smd"))
		return t_done();
	if (t_host_refuses_kfunc()) {
		char left[256];
		struct bpf_object *k =
			t_kload(SMD_OBJ, left, sizeof(left), NULL);

		emulated = true;
		kobj = SMD_OBJ_NORDWR;
		smd_obj = kobj;
		printf("note: %s; the kernel runs %s instead of %s (the rdwr "
		       "slices emulated), and headroom's records of the two "
		       "must agree\n",
		       t_host_note(), SMD_OBJ_NORDWR, SMD_OBJ);
		/* Any other reason to refuse it is still a failure. */
		CHECK(k != NULL && !strcmp(left, "smd_tc"),
		      "the kernel refuses %s for another reason (left out: "
		      "%s)",
		      SMD_OBJ, k ? left : "all");
		bpf_object__close(k);
	}
	test_test_runs();
	test_xdp_refused();
	test_xdp_ops();
	if (t_netns_setup("hrm", &ns)) {
		CHECK(0, "network namespace %s with a veth pair", ns.name);
	} else {
		test_veth();
	}
	t_netns_cleanup();
	return t_done();
}
