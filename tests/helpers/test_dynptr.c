// SPDX-License-Identifier: MIT
/*
 * The dynptr kfuncs and helpers (progs/helpers/xdp_dynptr.bpf.c) over XDP and tc
 * packets: creation with good and bad flags, reads and writes at every
 * offset around the packet's end, slices that fit in the packet, end
 * exactly at its end or run past it, plain and rdwr. Compared with the
 * kernel's BPF_PROG_TEST_RUN (XDP and tc through tests/lib/oracle.h),
 * with headroom-only checks of the main results.
 *
 * A kernel that refuses bpf_dynptr_slice_rdwr (tests/lib/kernel_side.h) is
 * compared through xdp_dynptr_nordwr.o, the same programs with the rdwr
 * slice emulated by a read-only one and bpf_dynptr_write; headroom must
 * then give the same for the original as for the variant, case by case.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <bpf/libbpf.h>

#include "harness.h"
#include "headroom/headroom.h"
#include "kernel_side.h"
#include "oracle.h"

#define OBJ "xdp_dynptr.o"
#define OBJ_NORDWR "xdp_dynptr_nordwr.o"

struct out {
	int32_t create, rd, wr;
	uint8_t slice, first, pad[2];
};

static uint8_t pkt[256];

/* What the kernel runs: OBJ, or OBJ_NORDWR when it refuses the kfunc. */
static const char *kobj = OBJ;
static bool emulated;

/* With the kfunc emulated: headroom's runs of @c's case in OBJ and in
 * OBJ_NORDWR agree (all but ctx_out, which no program here writes). */
static void check_variant(struct oracle *orc, const struct oracle_case *c,
			  const char *label)
{
	static struct oracle_result a, b;
	struct oracle_case v = *c;

	if (!emulated)
		return;
	v.obj = OBJ;
	CHECK_EQ(oracle_run_headroom(orc, &v, &a), 0);
	v.obj = OBJ_NORDWR;
	CHECK_EQ(oracle_run_headroom(orc, &v, &b), 0);
	CHECK(a.err == b.err && a.retval == b.retval &&
		      a.size_out == b.size_out &&
		      !memcmp(a.out, b.out, a.size_out),
	      "%s: headroom: %s and %s differ (retval %u/%u size %u/%u)", label,
	      OBJ, OBJ_NORDWR, a.retval, b.retval, a.size_out, b.size_out);
}

static uint32_t make_pkt(uint32_t len, uint8_t kind, uint8_t off,
			 uint8_t rflags, uint8_t wflags)
{
	uint32_t i;

	for (i = 0; i < len; i++)
		pkt[i] = (uint8_t)(0x30 + i);
	pkt[0] = kind;
	pkt[1] = off;
	pkt[2] = rflags;
	pkt[3] = wflags;
	return len;
}

static void test_xdp(struct oracle *orc, bool kernel)
{
	static const uint32_t lens[] = { 14, 20, 24, 40, 60, 64, 100 };
	static const uint8_t offs[] = { 0,  4,	8,  16, 24, 40, 44, 48,
					50, 52, 56, 84, 92, 99, 200 };
	struct oracle_case c = { .prog = "xdp_dynptr" };
	struct oracle_result r;
	char label[96];
	uint32_t l, o, kind, fl;
	struct out out;

	for (l = 0; l < sizeof(lens) / sizeof(lens[0]); l++)
		for (o = 0; o < sizeof(offs) / sizeof(offs[0]); o++)
			for (kind = 0; kind < 4; kind++)
				for (fl = 0; fl < 2; fl++) {
					c.obj = kobj;
					c.data = pkt;
					c.size = make_pkt(lens[l],
							  (uint8_t)kind,
							  offs[o], (uint8_t)fl,
							  (uint8_t)fl);
					snprintf(label, sizeof(label),
						 "xdp len %u off %u kind %u "
						 "flags %u",
						 lens[l], offs[o], kind, fl);
					if (kernel)
						CHECK(oracle_check(orc, &c,
								   label) == 1,
						      "%s", label);
					check_variant(orc, &c, label);
				}
	/* Headroom on its own: a slice in the middle or ending at the end
	 * points into the packet, one past it is NULL. */
	c.obj = OBJ;
	c.data = pkt;
	c.size = make_pkt(64, 0, 16, 0, 0);
	CHECK_EQ(oracle_run_headroom(orc, &c, &r), 0);
	memcpy(&out, r.out + 4, sizeof(out));
	CHECK_EQ(out.rd, 0);
	CHECK_EQ(out.wr, 0);
	CHECK_EQ(out.slice, 1);
	CHECK_EQ(out.first, 0x30 + 16);
	c.size = make_pkt(64, 0, 48, 0, 0);
	CHECK_EQ(oracle_run_headroom(orc, &c, &r), 0);
	memcpy(&out, r.out + 4, sizeof(out));
	CHECK_EQ(out.slice, 1);
	c.size = make_pkt(64, 0, 50, 0, 0);
	CHECK_EQ(oracle_run_headroom(orc, &c, &r), 0);
	memcpy(&out, r.out + 4, sizeof(out));
	CHECK_EQ(out.slice, 0);
	CHECK_EQ(out.rd, 0);
	c.size = make_pkt(64, 0, 57, 0, 0);
	CHECK_EQ(oracle_run_headroom(orc, &c, &r), 0);
	memcpy(&out, r.out + 4, sizeof(out));
	CHECK_EQ(out.rd, -E2BIG);
	c.size = make_pkt(64, 1, 0, 0, 0);
	CHECK_EQ(oracle_run_headroom(orc, &c, &r), 0);
	memcpy(&out, r.out + 4, sizeof(out));
	CHECK_EQ(out.create, -EINVAL);
	CHECK_EQ(out.rd, -EINVAL);
	CHECK_EQ(out.wr, -EINVAL);
	c.size = make_pkt(64, 0, 8, 1, 0);
	CHECK_EQ(oracle_run_headroom(orc, &c, &r), 0);
	memcpy(&out, r.out + 4, sizeof(out));
	CHECK_EQ(out.rd, -EINVAL); /* read flags */
}

static void test_ttl(struct oracle *orc, bool kernel)
{
	struct oracle_case c = { .obj = kobj, .prog = "xdp_dynptr_ttl" };
	struct oracle_result r;
	uint32_t len;

	for (len = 10; len <= 60; len += 2) {
		char label[48];

		make_pkt(len, 0, 0, 0, 0);
		pkt[12] = 0x08;
		pkt[13] = 0x00;
		if (len > 22)
			pkt[22] = 7;
		c.data = pkt;
		c.size = len;
		snprintf(label, sizeof(label), "ttl len %u", len);
		if (kernel)
			CHECK(oracle_check(orc, &c, label) == 1, "%s", label);
		check_variant(orc, &c, label);
	}
	c.obj = OBJ;
	c.size = 60;
	pkt[22] = 7;
	CHECK_EQ(oracle_run_headroom(orc, &c, &r), 0);
	CHECK_EQ(r.retval, XDP_TX);
	CHECK_EQ(r.out[22], 6);
}

/* The tc program's run over one packet, headroom only, into @res. */
static int tc_headroom(struct oracle *o, const char *obj, uint32_t len,
		       const struct __sk_buff *s, struct oracle_result *res)
{
	struct oracle_case c = { .obj = obj,
				 .prog = "tc_dynptr",
				 .data = pkt,
				 .size = len,
				 .skb = s };

	return oracle_run_headroom(o, &c, res);
}

static void test_tc(bool kernel)
{
	static const uint32_t lens[] = { 14, 24, 40, 64, 100 };
	static const uint8_t offs[] = { 0,  8,	16, 24, 44, 48,
					50, 56, 84, 92, 99, 200 };
	static struct oracle_result r, hr;
	struct oracle_case c = { .obj = kobj,
				 .prog = "tc_dynptr",
				 .data = pkt };
	struct oracle *o;
	struct __sk_buff s;
	char label[96];
	uint32_t l, i, kind, fl;

	CHECK_EQ(oracle_new(&o), 0);
	if (!o)
		return;
	oracle_set_headroom_only(o, !kernel);
	memset(&s, 0, sizeof(s));
	c.skb = &s;
	for (l = 0; l < sizeof(lens) / sizeof(lens[0]); l++)
		for (i = 0; i < sizeof(offs) / sizeof(offs[0]); i++)
			for (kind = 0; kind < 4; kind++)
				for (fl = 0; fl < 4; fl++) {
					c.size = make_pkt(
						lens[l], (uint8_t)kind, offs[i],
						(uint8_t)(fl & 1),
						(uint8_t)(fl & 2 ? 2 : fl));

					snprintf(label, sizeof(label),
						 "tc len %u off %u kind %u "
						 "flags %u",
						 lens[l], offs[i], kind, fl);
					CHECK(oracle_check(o, &c, label) == 1,
					      "%s", label);
					if (!emulated)
						continue;
					r = *oracle_headroom_result(o);
					/* Headroom's own checks run the
					 * original. */
					CHECK(tc_headroom(o, OBJ, c.size, &s,
							  &hr) == 0 &&
						      hr.err == r.err &&
						      hr.retval == r.retval &&
						      hr.size_out ==
							      r.size_out &&
						      !memcmp(hr.out, r.out,
							      r.size_out) &&
						      !memcmp(&hr.skb_out,
							      &r.skb_out,
							      sizeof(r.skb_out)),
					      "%s: headroom: %s and %s differ",
					      label, OBJ, OBJ_NORDWR);
				}
	tc_headroom(o, OBJ, make_pkt(64, 0, 48, 0, 0), &s, &r);
	CHECK_EQ(r.skb_out.cb[3] & 0xff, 1); /* skb: pointer up to the end */
	tc_headroom(o, OBJ, make_pkt(64, 0, 8, 0, 4), &s, &r);
	CHECK_EQ((int)r.skb_out.cb[2], -EINVAL);
	oracle_summary(o);
	oracle_free(o);
}

int main(void)
{
	char why[256];
	bool kernel = t_have_kernel(why, sizeof(why));
	struct oracle *orc;

	if (!kernel)
		fprintf(stderr, "no kernel oracle (%s): headroom only\n", why);
	if (kernel && t_host_refuses_kfunc()) {
		char left[256];
		struct bpf_object *k = t_kload(OBJ, left, sizeof(left), NULL);

		emulated = true;
		kobj = OBJ_NORDWR;
		printf("note: %s; %s is compared with the kernel through %s "
		       "(the rdwr slice emulated), and headroom's runs of "
		       "the two must agree\n",
		       t_host_note(), OBJ, OBJ_NORDWR);
		/* Any other reason to refuse it is still a failure. */
		CHECK(k != NULL, "the kernel refuses %s for another reason",
		      OBJ);
		bpf_object__close(k);
	}
	CHECK_EQ(oracle_new(&orc), 0);
	test_xdp(orc, kernel);
	test_ttl(orc, kernel);
	oracle_summary(orc);
	oracle_free(orc);
	test_tc(kernel);
	return t_done();
}
