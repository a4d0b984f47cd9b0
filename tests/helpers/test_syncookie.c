// SPDX-License-Identifier: MIT
/*
 * bpf_tcp_raw_gen_syncookie_ipv4/_ipv6 and bpf_tcp_raw_check_syncookie_
 * ipv4/_ipv6 (progs/helpers/xdp_syncookie.bpf.c) against the kernel's
 * BPF_PROG_TEST_RUN under both engines: the MSS the generator encodes
 * (from the client's MSS option, or the default) or its error for a
 * th_len that is not the header's, that the check accepts the ACK a
 * cookie makes and refuses a changed cookie and the SYN itself. The
 * cookies themselves are keyed by each side's own secret and never
 * compared.
 */
#include <errno.h>
#include <string.h>

#include "harness.h"
#include "headroom/test_run.h"
#include "oracle.h"

#define IP_OFF 8
#define TH_OFF 48

static uint8_t pkt[128];

/* A SYN from 10.0.0.2:40000 to 10.0.0.1:80 (or fd00::2 to fd00::1),
 * seq 0x11223344, with @opt (@optlen bytes, a multiple of 4) after the
 * TCP header. */
static void syn(bool v6, const uint8_t *opt, uint32_t optlen)
{
	uint8_t *ip = pkt + IP_OFF, *th = pkt + TH_OFF;

	memset(pkt, 0, sizeof(pkt));
	pkt[0] = v6;
	if (v6) {
		ip[0] = 0x60;
		ip[6] = 6;
		ip[7] = 64;
		ip[8] = 0xfd;
		ip[23] = 2;
		ip[24] = 0xfd;
		ip[39] = 1;
	} else {
		memcpy(ip,
		       "\x45\x00\x00\x28\x00\x00\x40\x00\x40\x06\x00\x00"
		       "\x0a\x00\x00\x02\x0a\x00\x00\x01",
		       20);
	}
	memcpy(th, "\x9c\x40\x00\x50\x11\x22\x33\x44\x00\x00\x00\x00", 12);
	th[12] = (uint8_t)(((20 + optlen) / 4) << 4);
	th[13] = 0x02; /* SYN */
	th[14] = 0xff;
	if (optlen)
		memcpy(th + 20, opt, optlen);
	pkt[1] = (uint8_t)(20 + optlen);
}

static int64_t answer(const struct oracle_result *r, int i)
{
	int64_t v;

	memcpy(&v, r->out + IP_OFF + 8 * i, 8);
	return v;
}

static void one(struct oracle *o, bool kernel, const char *label, int64_t mss,
		int64_t ok, int64_t syn_check)
{
	struct oracle_case c = { .obj = "xdp_syncookie.o",
				 .data = pkt,
				 .size = sizeof(pkt) };
	struct oracle_result r;

	CHECK(oracle_run_headroom(o, &c, &r) == 0 && r.retval == XDP_PASS,
	      "%s: run", label);
	CHECK(answer(&r, 0) == mss, "%s: gen %lld, want %lld", label,
	      (long long)answer(&r, 0), (long long)mss);
	CHECK(answer(&r, 1) == ok, "%s: check %lld, want %lld", label,
	      (long long)answer(&r, 1), (long long)ok);
	CHECK(answer(&r, 2) == syn_check, "%s: SYN check %lld, want %lld",
	      label, (long long)answer(&r, 2), (long long)syn_check);
	if (kernel)
		CHECK(oracle_check(o, &c, label) == 1, "%s differs", label);
}

static void cases(struct oracle *o, bool kernel)
{
	static const uint8_t mss1460[] = { 2, 4, 0x05, 0xb4 };
	static const uint8_t mss1000[] = { 2, 4, 0x03, 0xe8 };
	static const uint8_t mss9000[] = { 2, 4, 0x23, 0x28 };
	static const uint8_t mss0[] = { 2, 4, 0, 0 };
	static const uint8_t nop_mss[] = { 1, 1, 1,    1,    1, 1, 1, 1,
					   2, 4, 0x05, 0x78, 0, 0, 0, 0 };
	static const uint8_t eol_first[] = { 0, 2, 4, 0x05, 0xb4, 0, 0, 0 };
	static const uint8_t silly[] = { 3, 1, 2, 4, 0x05, 0xb4, 0, 0 };
	static const uint8_t partial[] = { 1, 1, 1, 2, 6, 0x05, 0xb4, 0 };
	const int64_t acc = -EACCES, inval = -EINVAL;
	int v6;

	for (v6 = 0; v6 < 2; v6++) {
		int64_t def = v6 ? 1220 : 536, big = v6 ? 8940 : 1460;

		syn(v6, mss1460, 4);
		one(o, kernel, v6 ? "v6 mss 1460" : "v4 mss 1460",
		    v6 ? 1440 : 1460, 0, acc);
		syn(v6, NULL, 0);
		one(o, kernel, v6 ? "v6 no options" : "v4 no options", def, 0,
		    acc);
		syn(v6, mss1000, 4);
		one(o, kernel, v6 ? "v6 mss 1000" : "v4 mss 1000", def, 0, acc);
		syn(v6, mss9000, 4);
		one(o, kernel, v6 ? "v6 mss 9000" : "v4 mss 9000", big, 0, acc);
		syn(v6, mss0, 4);
		one(o, kernel, v6 ? "v6 mss 0" : "v4 mss 0", def, 0, acc);
		syn(v6, nop_mss, 16);
		one(o, kernel, v6 ? "v6 nops, mss 1400" : "v4 nops, mss 1400",
		    v6 ? 1220 : 1300, 0, acc);
		syn(v6, eol_first, 8);
		one(o, kernel, v6 ? "v6 eol first" : "v4 eol first", def, 0,
		    acc);
		syn(v6, silly, 8);
		one(o, kernel, v6 ? "v6 silly option" : "v4 silly option", def,
		    0, acc);
		syn(v6, partial, 8);
		one(o, kernel, v6 ? "v6 partial option" : "v4 partial option",
		    def, 0, acc);
		syn(v6, mss1460, 4);
		pkt[2] = 2; /* two minutes older: past MAX_SYNCOOKIE_AGE */
		one(o, kernel, v6 ? "v6 cookie aged" : "v4 cookie aged",
		    v6 ? 1440 : 1460, acc, acc);
		syn(v6, mss1460, 4);
		pkt[2] = 0x80;
		one(o, kernel, v6 ? "v6 cookie bit 7" : "v4 cookie bit 7",
		    v6 ? 1440 : 1460, acc, acc);
		syn(v6, mss1460, 4);
		pkt[1] = 20; /* th_len is not doff * 4 */
		one(o, kernel, v6 ? "v6 th_len short" : "v4 th_len short",
		    inval, acc, acc);
		pkt[1] = 0;
		one(o, kernel, v6 ? "v6 th_len 0" : "v4 th_len 0", inval, acc,
		    acc);
		pkt[1] = 19;
		pkt[TH_OFF + 12] = 0x40; /* doff 4 */
		one(o, kernel, v6 ? "v6 th_len 19" : "v4 th_len 19", inval, acc,
		    acc);
	}
}

int main(void)
{
	return oracle_main_engines(cases);
}
