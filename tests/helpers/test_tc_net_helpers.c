// SPDX-License-Identifier: MIT
/*
 * bpf_get_hash_recalc, bpf_set_hash, bpf_set_hash_invalid,
 * bpf_skb_ecn_set_ce, bpf_check_mtu (tc), bpf_redirect_neigh,
 * bpf_redirect_peer and bpf_trace_vprintk (tc_net_helpers.bpf.c) over
 * fixed and generated packets and arguments, compared with the kernel's
 * BPF_PROG_TEST_RUN in a network namespace of the test's own (only its
 * loopback device, as a test run of headroom's has): results, packets
 * (checksums after ECN marking) and every __sk_buff field.
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <linux/bpf.h>

#include "gen_packets.h"
#include "harness.h"
#include "oracle.h"

static struct oracle *orc;
static unsigned int cases, diffs;
static uint8_t pkt[1600];

static void run(const char *prog, uint32_t len, const struct __sk_buff *s,
		const char *label)
{
	struct oracle_case c = { .obj = "tc_net_helpers.o",
				 .prog = prog,
				 .data = pkt,
				 .size = len,
				 .skb = s };
	int ret = oracle_check(orc, &c, label);

	cases++;
	if (ret != 1)
		diffs++;
	CHECK(ret == 1, "%s differs from the kernel (%d)", label, ret);
}

/* headroom alone: the hash rules and an ECN mark with its checksum. */
static void test_values(void)
{
	struct __sk_buff s;
	struct oracle_case c = { .obj = "tc_net_helpers.o",
				 .prog = "tc_hash",
				 .data = pkt,
				 .skb = &s };
	struct oracle_result r;
	struct gen_rng g;

	gen_seed(&g, 3);
	c.size = gen_ipv4_udp(&g, pkt, 64);
	oracle_skb_cb(&s, 0, 0xabcd, 0, 0);
	CHECK(oracle_run_headroom(orc, &c, &r) == 0, "run");
	CHECK_EQ(r.skb_out.cb[0], 7);
	CHECK_EQ(r.skb_out.cb[1], 0xabcd);
	CHECK_EQ(r.skb_out.cb[2], 0xabcd);
	CHECK_EQ(r.skb_out.cb[3], 0);
	CHECK_EQ(r.skb_out.cb[4], 3);
	CHECK_EQ(r.retval, 0);
	pkt[15] = 0x02; /* ECT(0) */
	c.prog = "tc_ecn";
	CHECK(oracle_run_headroom(orc, &c, &r) == 0, "run");
	CHECK_EQ(r.retval, 11);
	CHECK_EQ(r.skb_out.cb[0], 1);
	CHECK_EQ(r.out[15], 0x03);
}

static void ecn_cases(void)
{
	static const uint8_t tos[] = { 0, 1, 2, 3, 0xfc, 0xfd, 0xfe, 0xff };
	struct __sk_buff s;
	struct gen_rng g;
	uint32_t i, j, len;
	char label[80];

	gen_seed(&g, 11);
	memset(&s, 0, sizeof(s));
	for (i = 0; i < sizeof(tos); i++) {
		len = gen_ipv4_udp(&g, pkt, 60);
		pkt[15] = tos[i];
		snprintf(label, sizeof(label), "ecn ipv4 tos %#x", tos[i]);
		run("tc_ecn", len, &s, label);
		/* Cut short of the IPv4 header: nothing marked. */
		run("tc_ecn", 33, &s, label);
		run("tc_ecn", 34, &s, label);
	}
	for (i = 0; i < 300; i++) {
		len = gen_packet(&g, pkt, sizeof(pkt), NULL);
		/* ECN bits set on any IP version's traffic class. */
		pkt[14 + (gen_below(&g, 2))] ^= (uint8_t)gen_below(&g, 256);
		if (gen_below(&g, 4) == 0)
			len = 14 + gen_below(&g, len - 14 + 1);
		snprintf(label, sizeof(label), "ecn random %u", i);
		run("tc_ecn", len, &s, label);
		for (j = 0; j < 2; j++)
			run("tc_hash", len, &s, label);
	}
}

static void mtu_cases(void)
{
	static const uint32_t mtus[] = { 0, 1, 1500, 65536, 65537, 0xffffffff };
	static const uint32_t ifs[] = { 0, 1, 2, 77 };
	static const int32_t diffs_[] = {
		0, 1, -1, 65536 - 60 + 14, 65536 - 60 + 15, -100, 0x7fffffff
	};
	static const uint32_t flags[] = { 0, 1, 2 };
	struct __sk_buff s;
	struct gen_rng g;
	uint32_t a, b, c, d, len;
	char label[96];

	gen_seed(&g, 5);
	len = gen_ipv4_udp(&g, pkt, 60);
	for (a = 0; a < sizeof(mtus) / sizeof(mtus[0]); a++)
		for (b = 0; b < sizeof(ifs) / sizeof(ifs[0]); b++)
			for (c = 0; c < sizeof(diffs_) / sizeof(diffs_[0]); c++)
				for (d = 0; d < 3; d++) {
					oracle_skb_cb(&s, mtus[a], ifs[b],
						      (uint32_t)diffs_[c],
						      flags[d]);
					snprintf(
						label, sizeof(label),
						"mtu %u if %u diff %d flags %u",
						mtus[a], ifs[b], diffs_[c],
						flags[d]);
					run("tc_mtu", len, &s, label);
				}
	oracle_skb_cb(&s, 0, 0, 65536 - 60 + 15, 0);
	s.gso_size = 1400;
	s.gso_segs = 2;
	run("tc_mtu", len, &s, "mtu gso");
	s.cb[2] = 0;
	s.cb[3] = 1;
	run("tc_mtu", len, &s, "mtu gso segs");
}

static void redirect_cases(void)
{
	static const uint32_t plens[] = { 0, 1, 19, 20, 21 };
	struct __sk_buff s;
	struct gen_rng g;
	uint32_t i, j, len;
	char label[96];

	gen_seed(&g, 9);
	len = gen_ipv4_udp(&g, pkt, 60);
	for (i = 0; i < sizeof(plens) / sizeof(plens[0]); i++)
		for (j = 0; j < 4; j++) {
			oracle_skb_cb(&s, j == 3 ? 99 : 1, j & 1, plens[i],
				      j == 2 ? 1 : 0);
			snprintf(label, sizeof(label), "neigh plen %u case %u",
				 plens[i], j);
			run("tc_redirect_neigh", len, &s, label);
		}
	for (j = 0; j < 4; j++) {
		oracle_skb_cb(&s, j ? 1 : 5,
			      j == 2 ? 1 : (j == 3 ? 1u << 31 : 0), 0, 0);
		snprintf(label, sizeof(label), "peer case %u", j);
		run("tc_redirect_peer", len, &s, label);
	}
}

static void vprintk_cases(void)
{
	struct __sk_buff s;
	struct gen_rng g;
	uint32_t n, len;
	char label[64];

	gen_seed(&g, 13);
	len = gen_ipv4_udp(&g, pkt, 60);
	for (n = 0; n <= 7; n++) {
		oracle_skb_cb(&s, (uint32_t)-5, 7, 0xbeef, n);
		snprintf(label, sizeof(label), "vprintk %u args", n);
		run("tc_vprintk", len, &s, label);
	}
	s.cb[4] = 1; /* 5 bytes: not a whole number of arguments */
	run("tc_vprintk", len, &s, "vprintk 5 bytes");
}

int main(void)
{
	char why[128];

	CHECK(oracle_new(&orc) == 0, "oracle");
	test_values();
	if (!t_have_kernel(why, sizeof(why))) {
		oracle_free(orc);
		t_skip(why);
		return t_done();
	}
	/* Devices the host has would answer bpf_check_mtu's ifindex. */
	CHECK(unshare(CLONE_NEWNET) == 0, "unshare: %s", strerror(errno));
	ecn_cases();
	mtu_cases();
	redirect_cases();
	vprintk_cases();
	printf("tc net helpers: %u cases against the kernel, %u differences\n",
	       cases, diffs);
	oracle_summary(orc);
	oracle_free(orc);
	return t_done();
}
