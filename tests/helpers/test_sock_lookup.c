// SPDX-License-Identifier: MIT
/*
 * Socket lookups over headroom's empty socket table (helpers_sock.c),
 * tc and XDP, compared with the kernel's BPF_PROG_TEST_RUN in a network
 * namespace of the test's own, where no socket exists either: every
 * lookup finds nothing, for IPv4 and IPv6 tuples, any netns id and flags.
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <linux/bpf.h>

#include "gen_packets.h"
#include "harness.h"
#include "oracle.h"

static uint8_t pkt[128];

int main(void)
{
	static const uint32_t netns[] = { 0, 1, 0xfffffffe, 0xfffffffd };
	struct oracle_case c = { .obj = "sock_lookup.o", .data = pkt };
	struct oracle *orc;
	struct __sk_buff s;
	struct gen_rng g;
	char why[128], label[64];
	uint32_t i, j;

	if (!t_have_kernel(why, sizeof(why)))
		return t_skip(why);
	CHECK(unshare(CLONE_NEWNET) == 0, "unshare: %s", strerror(errno));
	CHECK(oracle_new(&orc) == 0, "oracle");
	gen_seed(&g, 17);
	c.size = gen_ipv4_udp(&g, pkt, 80);
	pkt[23] = 6;
	c.prog = "xdp_sock_lookup";
	CHECK(oracle_check(orc, &c, "xdp lookup") == 1, "xdp differs");
	CHECK_EQ(oracle_headroom_result(orc)->retval, XDP_PASS);
	c.prog = "tc_sock_lookup";
	c.skb = &s;
	for (i = 0; i < 4; i++)
		for (j = 0; j < 4; j++) {
			memset(&s, 0, sizeof(s));
			s.cb[0] = 0x0100000a;
			s.cb[1] = 0x0200000a;
			s.cb[2] = netns[i];
			s.cb[3] = j == 3 ? 1 : 0;
			s.cb[4] = j & 1;
			snprintf(label, sizeof(label), "tc lookup %u %u", i, j);
			CHECK(oracle_check(orc, &c, label) == 1, "%s differs",
			      label);
			CHECK_EQ(oracle_headroom_result(orc)->retval, 0);
		}
	oracle_summary(orc);
	oracle_free(orc);
	return t_done();
}
