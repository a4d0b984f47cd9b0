// SPDX-License-Identifier: MIT
/*
 * bpf_csum_level, bpf_csum_update, bpf_skb_load_bytes_relative and
 * bpf_skb_change_type (progs/helpers/tc_skb_csum.bpf.c) over generated
 * packets, offsets, header bases, packet types and adjust_room flags,
 * compared with the kernel's BPF_PROG_TEST_RUN in a network namespace
 * of the test's own (as in test_tc_net_helpers): results, packets and
 * every __sk_buff field. headroom alone: the csum_level answers and the
 * bytes read, against what the packet holds.
 */
#include <errno.h>
#include <sched.h>
#include <string.h>
#include <linux/bpf.h>

#include "gen_packets.h"
#include "harness.h"
#include "oracle.h"

static struct oracle *orc;
static uint8_t pkt[256];

static void setup(struct __sk_buff *s, uint32_t a, uint32_t b, uint32_t e)
{
	memset(s, 0, sizeof(*s));
	s->cb[0] = a;
	s->cb[1] = b;
	s->cb[4] = e;
}

static int8_t answer(const struct __sk_buff *s, int i)
{
	return (int8_t)(s->cb[i / 4] >> (i % 4 * 8));
}

static void values(void)
{
	static const int8_t want[] = { -EACCES, 0,	 0,	  3,
				       0,	2,	 0,	  -EACCES,
				       -EACCES, -EACCES, -EINVAL, (int8_t)-524,
				       0,	-EACCES };
	struct __sk_buff s;
	struct oracle_case c = { .obj = "tc_skb_csum.o",
				 .prog = "tc_csum_level",
				 .data = pkt,
				 .skb = &s };
	struct oracle_result r;
	struct gen_rng g;
	size_t i;

	gen_seed(&g, 5);
	c.size = gen_ipv4_udp(&g, pkt, 64);
	setup(&s, 0, 0, 0);
	CHECK(oracle_run_headroom(orc, &c, &r) == 0, "csum_level run");
	for (i = 0; i < sizeof(want); i++)
		CHECK(answer(&r.skb_out, (int)i) == want[i],
		      "csum_level answer %zu: %d, want %d", i,
		      answer(&r.skb_out, (int)i), want[i]);
	setup(&s, 0, 0, BPF_F_ADJ_ROOM_NO_CSUM_RESET);
	CHECK(oracle_run_headroom(orc, &c, &r) == 0, "csum_level run");
	CHECK_EQ(answer(&r.skb_out, 13), 1);

	c.prog = "tc_load_relative";
	setup(&s, 2, BPF_HDR_START_NET, 0);
	CHECK(oracle_run_headroom(orc, &c, &r) == 0, "relative run");
	CHECK(r.skb_out.cb[2] == 0 && !memcmp(&r.skb_out.cb[3], pkt + 16, 4) &&
		      !memcmp(&r.skb_out.cb[4], pkt + 20, 4),
	      "8 bytes from the network header + 2");
	setup(&s, 57, BPF_HDR_START_MAC, 0);
	CHECK(oracle_run_headroom(orc, &c, &r) == 0, "relative run");
	CHECK(r.skb_out.cb[2] == (uint32_t)-EFAULT && r.skb_out.cb[3] == 0 &&
		      r.skb_out.mark == 0,
	      "past the tail by one: %d, mark %d", (int)r.skb_out.cb[2],
	      (int)r.skb_out.mark);
}

static unsigned int cases, diffs;

static void run(const char *prog, uint32_t len, const struct __sk_buff *s,
		const char *label)
{
	struct oracle_case c = { .obj = "tc_skb_csum.o",
				 .prog = prog,
				 .data = pkt,
				 .size = len,
				 .skb = s };
	int ret = oracle_check(orc, &c, label);

	cases++;
	diffs += ret != 1;
	CHECK(ret == 1, "%s differs from the kernel (%d)", label, ret);
}

static void kernel_cases(void)
{
	static const uint32_t offs[] = { 0,  1,	 13, 14, 40, 42,     49,
					 50, 56, 57, 63, 64, 0xffff, 0x10000 };
	static const uint8_t dst[][6] = {
		{ 0, 0, 0, 0, 0, 0 },
		{ 0xff, 0xff, 0xff, 0xff, 0xff, 0xff },
		{ 0x01, 0, 0x5e, 0, 0, 1 },
		{ 0x02, 1, 2, 3, 4, 5 },
	};
	struct __sk_buff s;
	struct gen_rng g;
	char label[96];
	uint32_t len, start, t;
	size_t i, d;

	gen_seed(&g, 11);
	len = gen_ipv4_udp(&g, pkt, 64);
	setup(&s, 0, 0, 0);
	run("tc_csum_level", len, &s, "csum_level, reset by adjust_room");
	setup(&s, 0, 0, BPF_F_ADJ_ROOM_NO_CSUM_RESET);
	run("tc_csum_level", len, &s, "csum_level, NO_CSUM_RESET");
	setup(&s, 0, 0, 1u << 20);
	run("tc_csum_level", len, &s, "csum_level, bad adjust_room flags");
	for (start = 0; start < 3; start++)
		for (i = 0; i < sizeof(offs) / sizeof(offs[0]); i++) {
			setup(&s, offs[i], start, 0);
			snprintf(label, sizeof(label),
				 "load_bytes_relative off %u start %u", offs[i],
				 start);
			run("tc_load_relative", len, &s, label);
		}
	for (d = 0; d < sizeof(dst) / sizeof(dst[0]); d++)
		for (t = 0; t < 9; t++) {
			memcpy(pkt, dst[d], 6);
			setup(&s, t == 8 ? 0xffffffffu : t, 0, 0);
			snprintf(label, sizeof(label),
				 "change_type %u on dst %02x:%02x", t,
				 dst[d][0], dst[d][5]);
			run("tc_change_type", len, &s, label);
		}
}

int main(void)
{
	char why[128];

	CHECK(oracle_new(&orc) == 0, "oracle");
	values();
	if (!t_have_kernel(why, sizeof(why))) {
		oracle_free(orc);
		t_skip(why);
		return t_done();
	}
	CHECK(unshare(CLONE_NEWNET) == 0, "unshare: %s", strerror(errno));
	kernel_cases();
	printf("skb csum helpers: %u cases against the kernel, %u differ\n",
	       cases, diffs);
	oracle_free(orc);
	return t_done();
}
