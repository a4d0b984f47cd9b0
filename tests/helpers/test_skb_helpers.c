// SPDX-License-Identifier: MIT
/*
 * The tc skb helpers (progs/helpers/tc_skb_helpers.bpf.c), each over packets and
 * arguments that reach its success and error paths, run through
 * hr_prog_test_run and, where the kernel can test-run tc programs,
 * through BPF_PROG_TEST_RUN: the same error, retval, output bytes and
 * __sk_buff ctx_out (the programs leave what they saw in cb[]). Checks
 * that hold without the kernel make the test fail on its own too.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <arpa/inet.h>
#include <linux/if_ether.h>
#include <linux/pkt_cls.h>

#include "gen_packets.h"
#include "harness.h"
#include "oracle.h"

#define ENOTSUPP 524

static struct oracle *orc;
static unsigned int cases, diffs;

/* Ethernet + IPv4 + TCP with @plen payload bytes and valid checksums. */
static uint32_t ipv4_tcp(uint8_t *p, uint32_t plen)
{
	uint32_t len = 14 + 20 + 20 + plen, sum, i;
	uint8_t *ip = p + 14, *tcp = p + 34;
	uint16_t c;

	memset(p, 0, len);
	memcpy(p, "\x02\x00\x00\x00\x00\x02\x02\x00\x00\x00\x00\x01\x08\x00",
	       14);
	ip[0] = 0x45;
	ip[2] = (uint8_t)((len - 14) >> 8);
	ip[3] = (uint8_t)(len - 14);
	ip[8] = 64;
	ip[9] = 6;
	memcpy(ip + 12, "\x0a\x00\x00\x01\x0a\x00\x00\x02", 8);
	c = htons((uint16_t)~gen_fold(gen_sum16(ip, 20, 0)));
	memcpy(ip + 10, &c, 2);
	tcp[0] = 0x30;
	tcp[1] = 0x39;
	tcp[3] = 80;
	tcp[12] = 0x50;
	tcp[13] = 0x18;
	for (i = 0; i < plen; i++)
		tcp[20 + i] = (uint8_t)(i * 7 + 1);
	sum = gen_sum16(ip + 12, 8, 0) + 6 + 20 + plen;
	sum = gen_sum16(tcp, 20 + plen, sum);
	c = htons((uint16_t)~gen_fold(sum));
	memcpy(tcp + 16, &c, 2);
	return len;
}

/* Ethernet + IPv6 + UDP with @plen payload bytes. */
static uint32_t ipv6_udp(uint8_t *p, uint32_t plen)
{
	uint32_t len = 14 + 40 + 8 + plen, i;
	uint8_t *ip = p + 14, *udp = p + 54;

	memset(p, 0, len);
	memcpy(p, "\x02\x00\x00\x00\x00\x02\x02\x00\x00\x00\x00\x01\x86\xdd",
	       14);
	ip[0] = 0x60;
	ip[4] = (uint8_t)((8 + plen) >> 8);
	ip[5] = (uint8_t)(8 + plen);
	ip[6] = 17;
	ip[7] = 64;
	ip[8] = 0xfd;
	ip[23] = 1;
	ip[24] = 0xfd;
	ip[39] = 2;
	udp[1] = 53;
	udp[3] = 53;
	udp[5] = (uint8_t)(8 + plen);
	for (i = 0; i < plen; i++)
		udp[8 + i] = (uint8_t)(i + 0x40);
	return len;
}

/* @p with 802.1Q tags (@ntags of them, TPIDs from @tpid) inserted. */
static uint32_t vlan_tagged(uint8_t *p, uint32_t len, int ntags,
			    const uint16_t *tpid)
{
	int i;

	for (i = ntags - 1; i >= 0; i--) {
		uint16_t t = htons(tpid[i]), tci = htons((uint16_t)(100 + i));

		memmove(p + 16, p + 12, len - 12);
		memcpy(p + 12, &t, 2);
		memcpy(p + 14, &tci, 2);
		len += 4;
	}
	return len;
}

static void cb_set(struct __sk_buff *s, uint32_t a, uint32_t b, uint32_t c,
		   uint32_t d, uint32_t e)
{
	memset(s, 0, sizeof(*s));
	s->cb[0] = a;
	s->cb[1] = b;
	s->cb[2] = c;
	s->cb[3] = d;
	s->cb[4] = e;
}

/* One case: compared with the kernel; headroom's result in @hr. */
static void run(const char *prog, const void *pkt, uint32_t len,
		const struct __sk_buff *ctx, const char *label,
		struct oracle_result *hr)
{
	struct oracle_case c = { .obj = "tc_skb_helpers.o",
				 .prog = prog,
				 .data = pkt,
				 .size = len,
				 .skb = ctx };
	int ret = oracle_check(orc, &c, label);
	bool same = ret == 1 || ret == ORACLE_REFUSED;

	*hr = *oracle_headroom_result(orc);
	cases++;
	if (!same)
		diffs++;
	CHECK(same, "%s differs from the kernel", label);
}

static struct oracle_result res;
static uint8_t pkt[4096];

static void test_load_bytes(void)
{
	static const uint32_t offs[] = { 0,	     1,		 14,	    40,
					 57,	     58,	 59,	    100,
					 0x7fffffff, 0x80000000, 0xffffffff };
	struct __sk_buff s;
	uint32_t len = ipv4_tcp(pkt, 20), i;
	char label[64];

	for (i = 0; i < sizeof(offs) / sizeof(offs[0]); i++) {
		cb_set(&s, offs[i], 0, 0, 0, 0);
		snprintf(label, sizeof(label), "load_bytes off %u", offs[i]);
		run("tc_load_bytes", pkt, len, &s, label, &res);
	}
	cb_set(&s, 60, 0, 0, 0, 0);
	run("tc_load_bytes", pkt, len, &s, "load_bytes past end", &res);
	CHECK_EQ((int)res.retval, -EFAULT);
	CHECK_EQ(res.skb_out.cb[1], 0); /* buffer cleared on error */
	cb_set(&s, 14, 0, 0, 0, 0);
	run("tc_load_bytes", pkt, len, &s, "load_bytes ip", &res);
	CHECK_EQ(res.retval, 0);
	CHECK(!memcmp(&res.skb_out.cb[1], pkt + 14, 16), "bytes");
}

static void test_store_bytes(void)
{
	static const uint32_t offs[] = { 0, 6, 50, 51, 52, 0x80000000 };
	static const uint32_t flags[] = { 0, BPF_F_RECOMPUTE_CSUM,
					  BPF_F_INVALIDATE_HASH, 3, 4 };
	struct __sk_buff s;
	uint32_t len = ipv4_tcp(pkt, 4), i, j;
	char label[64];

	for (i = 0; i < sizeof(offs) / sizeof(offs[0]); i++)
		for (j = 0; j < sizeof(flags) / sizeof(flags[0]); j++) {
			cb_set(&s, offs[i], 0x11223344, 0x55667788, flags[j],
			       0);
			snprintf(label, sizeof(label),
				 "store_bytes off %u flags %u", offs[i],
				 flags[j]);
			run("tc_store_bytes", pkt, len, &s, label, &res);
		}
	cb_set(&s, 6, 0x11223344, 0x55667788, 0, 0);
	run("tc_store_bytes", pkt, len, &s, "store_bytes mac", &res);
	CHECK_EQ(res.retval, 0);
	CHECK(!memcmp(res.out + 6, "\x44\x33\x22\x11\x88\x77\x66\x55", 8),
	      "stored");
	cb_set(&s, 0, 0, 0, 4, 0);
	run("tc_store_bytes", pkt, len, &s, "store_bytes bad flag", &res);
	CHECK_EQ((int)res.retval, -EINVAL);
}

static void test_pull_data(void)
{
	static const uint32_t lens[] = { 0, 1, 14, 57, 58, 59, 1000 };
	struct __sk_buff s;
	uint32_t len = ipv4_tcp(pkt, 4), i;
	char label[64];

	for (i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
		cb_set(&s, lens[i], 0, 0, 0, 0);
		snprintf(label, sizeof(label), "pull_data %u", lens[i]);
		run("tc_pull_data", pkt, len, &s, label, &res);
	}
	CHECK_EQ((int)res.retval, -ENOMEM);
}

static void test_csum(void)
{
	static const uint32_t offs[] = { 24, 25, 50, 56, 57, 58, 0x10000 };
	static const uint32_t flags[] = {
		0,	  2,	    4,	      1,	3,
		8,	  0x10 | 4, 0x10 | 2, 0x20 | 4, 0x20 | 0x40 | 2,
		0x80 | 4, 0x10
	};
	static const uint32_t vals[][2] = {
		{ 0, 0 },	   { 0x0a000002, 0x0b000003 },
		{ 0xffff, 0 },	   { 0x1234, 0xfedc },
		{ 0xffffffff, 0 }, { 0, 0x12345678 },
	};
	struct __sk_buff s;
	uint32_t len = ipv4_tcp(pkt, 3), i, j, k, l4;
	char label[96];

	for (l4 = 0; l4 < 2; l4++)
		for (i = 0; i < sizeof(offs) / sizeof(offs[0]); i++)
			for (j = 0; j < sizeof(flags) / sizeof(flags[0]); j++)
				for (k = 0; k < 6; k++) {
					cb_set(&s, offs[i], vals[k][0],
					       vals[k][1], flags[j], 0);
					s.mark = l4;
					snprintf(label, sizeof(label),
						 "l%u_csum off %u flags %#x "
						 "from %#x to %#x",
						 3 + l4, offs[i], flags[j],
						 vals[k][0], vals[k][1]);
					run("tc_csum", pkt, len, &s, label,
					    &res);
				}
	/* A zero checksum with BPF_F_MARK_MANGLED_0 stays zero (UDP). */
	memset(pkt + 50, 0, 2);
	cb_set(&s, 50, 1, 2, 0x20 | 2, 0);
	s.mark = 1;
	run("tc_csum", pkt, len, &s, "l4 mangled zero", &res);
	CHECK(!res.out[50] && !res.out[51], "zero checksum kept");
	for (k = 0; k < 6; k++) {
		len = ipv4_tcp(pkt, k);
		cb_set(&s, 50, vals[k][0], vals[k][1], 0x10, 0);
		snprintf(label, sizeof(label), "csum_diff %u", k);
		run("tc_csum_diff", pkt, len, &s, label, &res);
	}
}

static void test_nat(void)
{
	struct __sk_buff s;
	uint32_t len = ipv4_tcp(pkt, 9), sum;

	cb_set(&s, htonl(0xc0a80101), 0, 0, 0, 0);
	run("tc_nat", pkt, len, &s, "nat", &res);
	CHECK_EQ(res.retval, 0);
	CHECK(!memcmp(res.out + 30, "\xc0\xa8\x01\x01", 4), "new dst");
	CHECK_EQ(gen_fold(gen_sum16(res.out + 14, 20, 0)), 0xffff);
	sum = gen_sum16(res.out + 26, 8, 0) + 6 + 29;
	CHECK_EQ(gen_fold(gen_sum16(res.out + 34, 29, sum)), 0xffff);
}

static void test_change_head(void)
{
	/* Past one frame the head is reallocated (pskb_expand_head), in
	 * the kernel and here alike; 16064 - 58 fills SKB_MAX_ALLOC. */
	static const uint32_t rooms[] = { 0,	 1,	14,    64,	  65,
					  200,	 3000,	4000,  4096,	  8000,
					  16006, 16007, 16064, 0xffffffff };
	struct __sk_buff s;
	uint32_t len = ipv4_tcp(pkt, 4), i;
	char label[64];

	for (i = 0; i < sizeof(rooms) / sizeof(rooms[0]); i++) {
		cb_set(&s, rooms[i], 0, 0, 0, 0);
		snprintf(label, sizeof(label), "change_head %u", rooms[i]);
		run("tc_change_head", pkt, len, &s, label, &res);
	}
	cb_set(&s, 8000, 0, 0, 0, 0);
	run("tc_change_head", pkt, len, &s, "change_head 8000", &res);
	CHECK_EQ(res.retval, 0);
	CHECK_EQ(res.size_out, len + 8000);
	CHECK(!memcmp(res.out + 8000, pkt, len), "packet behind 8000 zeroes");
	cb_set(&s, 14, 1, 0, 0, 0);
	run("tc_change_head", pkt, len, &s, "change_head flags", &res);
	CHECK_EQ((int)res.retval, -EINVAL);
	cb_set(&s, 200, 0, 0, 0, 0);
	run("tc_change_head", pkt, len, &s, "change_head 200", &res);
	CHECK_EQ(res.retval, 0);
	CHECK_EQ(res.size_out, len + 200);
}

static void test_change_tail(void)
{
	/* The MTU selftests' 4096 and 4110; past one frame the head is
	 * reallocated, up to SKB_MAX_ALLOC (16064). */
	static const uint32_t lens[] = { 0,    13,   14,    15,	  40,	58,
					 100,  1500, 3000,  3712, 3713, 4096,
					 4110, 9000, 16064, 16065 };
	struct __sk_buff s;
	uint32_t len = ipv4_tcp(pkt, 4), i;
	char label[64];

	for (i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
		cb_set(&s, lens[i], 0, 0, 0, 0);
		snprintf(label, sizeof(label), "change_tail %u", lens[i]);
		run("tc_change_tail", pkt, len, &s, label, &res);
	}
	cb_set(&s, 100, 1, 0, 0, 0);
	run("tc_change_tail", pkt, len, &s, "change_tail flags", &res);
	CHECK_EQ((int)res.retval, -EINVAL);
	cb_set(&s, 100, 0, 0, 0, 0);
	s.mark = 1;
	run("tc_change_tail", pkt, len, &s, "change_tail encap", &res);
	CHECK_EQ((int)res.retval, -ENOTSUPP);
	cb_set(&s, 1000, 0, 0, 0, 0);
	run("tc_change_tail", pkt, len, &s, "change_tail 1000", &res);
	CHECK_EQ(res.size_out, 1000);
	cb_set(&s, 16064, 0, 0, 0, 0);
	run("tc_change_tail", pkt, len, &s, "change_tail 16064", &res);
	CHECK_EQ(res.retval, 0);
	CHECK_EQ(res.size_out, 16064);
	CHECK(!memcmp(res.out, pkt, len) && res.out[16063] == 0,
	      "packet kept, growth zeroed");
}

static void test_adjust_room(void)
{
	static const int32_t diffs_[] = { 0,	   4,	   8,	  20,	40,
					  -4,	   -20,	   -40,	  -37,	-38,
					  -39,	   -0xfff, 0xfff, 1500, 0x1000,
					  -0x1000, -100 };
	static const uint64_t flags[] = {
		0,
		BPF_F_ADJ_ROOM_FIXED_GSO,
		BPF_F_ADJ_ROOM_NO_CSUM_RESET,
		BPF_F_ADJ_ROOM_ENCAP_L3_IPV4,
		BPF_F_ADJ_ROOM_ENCAP_L3_IPV6,
		BPF_F_ADJ_ROOM_ENCAP_L3_IPV4 | BPF_F_ADJ_ROOM_ENCAP_L3_IPV6,
		BPF_F_ADJ_ROOM_ENCAP_L3_IPV4 | BPF_F_ADJ_ROOM_ENCAP_L4_GRE,
		BPF_F_ADJ_ROOM_ENCAP_L3_IPV4 | BPF_F_ADJ_ROOM_ENCAP_L4_UDP,
		BPF_F_ADJ_ROOM_ENCAP_L3_IPV6 | BPF_F_ADJ_ROOM_ENCAP_L4_GRE |
			BPF_F_ADJ_ROOM_ENCAP_L4_UDP,
		BPF_F_ADJ_ROOM_ENCAP_L3_IPV4 | BPF_F_ADJ_ROOM_ENCAP_L2_ETH,
		BPF_F_ADJ_ROOM_ENCAP_L3_IPV4 | BPF_F_ADJ_ROOM_ENCAP_L2_ETH |
			BPF_F_ADJ_ROOM_ENCAP_L2(14),
		BPF_F_ADJ_ROOM_ENCAP_L3_IPV4 | BPF_F_ADJ_ROOM_ENCAP_L2(8),
		BPF_F_ADJ_ROOM_ENCAP_L3_IPV6 | BPF_F_ADJ_ROOM_ENCAP_L2(44),
		BPF_F_ADJ_ROOM_ENCAP_L2(4),
		1ull << 7,
		1ull << 8,
		(1ull << 7) | (1ull << 8),
		1ull << 9,
		1ull << 40,
	};
	struct __sk_buff s;
	uint32_t lens[3], mode, i, j, p, twice;
	uint8_t pkts[3][256];
	char label[128];

	lens[0] = ipv4_tcp(pkts[0], 4);
	lens[1] = ipv6_udp(pkts[1], 4);
	memcpy(pkts[2], pkts[0], lens[0]);
	pkts[2][12] = 0x08;
	pkts[2][13] = 0x06; /* ARP: not IP */
	lens[2] = lens[0];
	for (p = 0; p < 3; p++)
		for (mode = 0; mode < 3; mode++)
			for (i = 0; i < sizeof(diffs_) / sizeof(diffs_[0]); i++)
				for (j = 0;
				     j < sizeof(flags) / sizeof(flags[0]); j++)
					for (twice = 0; twice < 2; twice++) {
						if (twice && !flags[j])
							continue;
						cb_set(&s, (uint32_t)diffs_[i],
						       mode, (uint32_t)flags[j],
						       (uint32_t)(flags[j] >>
								  32),
						       0);
						s.mark = twice;
						snprintf(
							label, sizeof(label),
							"adjust_room pkt %u mode "
							"%u diff %d flags %#llx%s",
							p, mode, diffs_[i],
							(unsigned long long)
								flags[j],
							twice ? " twice" : "");
						run("tc_adjust_room", pkts[p],
						    lens[p], &s, label, &res);
					}
	cb_set(&s, 20, BPF_ADJ_ROOM_MAC, BPF_F_ADJ_ROOM_ENCAP_L3_IPV4, 0, 0);
	s.mark = 1;
	run("tc_adjust_room", pkts[0], lens[0], &s, "adjust_room encap twice",
	    &res);
	CHECK_EQ((int)res.retval, -EALREADY);
	cb_set(&s, 20, BPF_ADJ_ROOM_NET, 0, 0, 0);
	run("tc_adjust_room", pkts[0], lens[0], &s, "adjust_room net", &res);
	CHECK_EQ(res.retval, 0);
	CHECK_EQ(res.size_out, lens[0] + 20);
	CHECK(!memcmp(res.out, pkts[0], 34), "headers kept");
	CHECK(!memcmp(res.out + 54, pkts[0] + 34, lens[0] - 34), "payload");
	cb_set(&s, 0, 7, 0, 0, 0);
	run("tc_adjust_room", pkts[0], lens[0], &s, "adjust_room mode", &res);
	CHECK_EQ((int)res.retval, -ENOTSUPP);
}

static void test_vlan(void)
{
	static const uint32_t ops[] = { 0x1,   0x3,   0x11,   0x13,   0x31,
					0x113, 0x333, 0x2121, 0x3311, 0x131 };
	static const uint32_t args[] = { 0x00648100, 0x0065a888, 0x00661234,
					 0xffff0081 };
	static const uint16_t tp[][2] = { { 0x8100, 0x8100 },
					  { 0x88a8, 0x8100 } };
	struct __sk_buff s;
	uint8_t pkts[4][256];
	uint32_t lens[4], i, j, p;
	char label[96];

	lens[0] = ipv4_tcp(pkts[0], 4);
	memcpy(pkts[1], pkts[0], lens[0]);
	lens[1] = vlan_tagged(pkts[1], lens[0], 1, tp[0]);
	memcpy(pkts[2], pkts[0], lens[0]);
	lens[2] = vlan_tagged(pkts[2], lens[0], 2, tp[1]);
	memcpy(pkts[3], pkts[1], 17); /* a tag and no more */
	lens[3] = 17;
	for (p = 0; p < 4; p++)
		for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
			for (j = 0; j < 4; j++) {
				cb_set(&s, ops[i], args[j], args[(j + 1) % 4],
				       0, 0);
				snprintf(label, sizeof(label),
					 "vlan pkt %u ops %#x arg %#x", p,
					 ops[i], args[j]);
				run("tc_vlan", pkts[p], lens[p], &s, label,
				    &res);
			}
	/* push, push: the first tag goes into the packet. */
	cb_set(&s, 0x11, htons(0x8100) | 5u << 16, 0, 0, 0);
	run("tc_vlan", pkts[0], lens[0], &s, "vlan push push", &res);
	CHECK_EQ(res.retval, 0);
	CHECK_EQ(res.size_out, lens[0] + 4);
	CHECK_EQ(res.skb_out.cb[0], 1);
	CHECK_EQ(res.skb_out.cb[1], 5);
	/* pop of a tagged packet takes the tag out. */
	cb_set(&s, 0x3, 0, 0, 0, 0);
	run("tc_vlan", pkts[1], lens[1], &s, "vlan pop", &res);
	CHECK_EQ(res.size_out, lens[0]);
	CHECK(!memcmp(res.out, pkts[0], lens[0]), "untagged");
}

static void test_change_proto(void)
{
	static const uint32_t protos[] = { 0x0008, 0xdd86, 0x0608, 0x0081 };
	struct __sk_buff s;
	uint8_t pkts[2][256];
	uint32_t lens[2], p, i, f;
	char label[64];

	lens[0] = ipv4_tcp(pkts[0], 4);
	lens[1] = ipv6_udp(pkts[1], 4);
	for (p = 0; p < 2; p++)
		for (i = 0; i < 4; i++)
			for (f = 0; f < 2; f++) {
				cb_set(&s, protos[i], f, 0, 0, 0);
				snprintf(label, sizeof(label),
					 "change_proto pkt %u to %#x flags %u",
					 p, protos[i], f);
				run("tc_change_proto", pkts[p], lens[p], &s,
				    label, &res);
			}
	cb_set(&s, 0xdd86, 0, 0, 0, 0);
	run("tc_change_proto", pkts[0], lens[0], &s, "change_proto 4to6", &res);
	CHECK_EQ(res.retval, 0);
	CHECK_EQ(res.size_out, lens[0] + 20);
	CHECK_EQ(res.skb_out.cb[2], 0xdd86);
}

static void test_redirects(void)
{
	/* Only lo exists in a headroom test run; the host's other devices
	 * cannot be mirrored, so 9999 stands for a missing one. */
	static const uint32_t ifs[] = { 0, 1, 9999, 0x80000001 };
	static const uint32_t flags[] = { 0, BPF_F_INGRESS, 2, 4, 0x100 };
	struct __sk_buff s;
	uint32_t len = ipv4_tcp(pkt, 4), i, j;
	char label[64];

	for (i = 0; i < 4; i++)
		for (j = 0; j < 5; j++) {
			cb_set(&s, ifs[i], flags[j], 0, 0, 0);
			snprintf(label, sizeof(label), "redirect %u flags %#x",
				 ifs[i], flags[j]);
			run("tc_redirect", pkt, len, &s, label, &res);
			snprintf(label, sizeof(label),
				 "clone_redirect %u flags %#x", ifs[i],
				 flags[j]);
			run("tc_clone_redirect", pkt, len, &s, label, &res);
		}
	cb_set(&s, 7, 0, 0, 0, 0);
	run("tc_redirect", pkt, len, &s, "redirect 7", &res);
	CHECK_EQ(res.retval, TC_ACT_REDIRECT);
	cb_set(&s, 1, 0, 0, 0, 0);
	run("tc_clone_redirect", pkt, len, &s, "clone_redirect lo", &res);
	CHECK_EQ(res.retval, 0);
	cb_set(&s, 9999, 0, 0, 0, 0);
	run("tc_clone_redirect", pkt, len, &s, "clone_redirect 9999", &res);
	CHECK_EQ((int)res.retval, -EINVAL);
}

/* Random packets through the VLAN and room programs. */
static void test_random(void)
{
	struct gen_rng r;
	struct __sk_buff s;
	uint32_t i, len;
	char label[64];

	gen_seed(&r, 6);
	for (i = 0; i < 200; i++) {
		len = gen_packet(&r, pkt, 1024, NULL);
		if (len < 14)
			continue;
		cb_set(&s, 0x313 & (0xfff >> (4 * (i % 3))),
		       htons(0x8100) | (i << 16), 0, 0, 0);
		snprintf(label, sizeof(label), "random vlan %u", i);
		run("tc_vlan", pkt, len, &s, label, &res);
		cb_set(&s, (uint32_t)((int)gen_below(&r, 80) - 40),
		       gen_below(&r, 2), 0, 0, 0);
		snprintf(label, sizeof(label), "random adjust_room %u", i);
		run("tc_adjust_room", pkt, len, &s, label, &res);
		cb_set(&s, gen_below(&r, 2) ? 0xdd86 : 0x0008, 0, 0, 0, 0);
		snprintf(label, sizeof(label), "random change_proto %u", i);
		run("tc_change_proto", pkt, len, &s, label, &res);
	}
}

int main(void)
{
	char why[256];
	bool kernel = t_have_kernel(why, sizeof(why));

	if (!kernel)
		fprintf(stderr, "no kernel oracle (%s): headroom only\n", why);
	CHECK_EQ(oracle_new(&orc), 0);
	if (!orc)
		return t_done();
	oracle_set_headroom_only(orc, !kernel);
	test_load_bytes();
	test_store_bytes();
	test_pull_data();
	test_csum();
	test_nat();
	test_change_head();
	test_change_tail();
	test_adjust_room();
	test_vlan();
	test_change_proto();
	test_redirects();
	test_random();
	printf("tc oracle: %u cases, %u differences%s\n", cases, diffs,
	       kernel ? "" : " (headroom only)");
	oracle_free(orc);
	return t_done();
}
