// SPDX-License-Identifier: MIT
/*
 * bpf_skb_set_tstamp and __sk_buff->tstamp_type
 * (progs/helpers/tc_set_tstamp.bpf.c) against the kernel's
 * BPF_PROG_TEST_RUN under both engines: each clock with a timestamp of 0
 * and of 2^40 + 5, an unknown clock, a packet that is not IP; what the
 * program reads back of tstamp_type and tstamp, and the ctx_out.
 */
#include <errno.h>
#include <string.h>
#include <linux/pkt_cls.h>

#include "harness.h"
#include "headroom/test_run.h"
#include "oracle.h"

static uint8_t pkt[64];

/* Ethernet with @proto, then an IPv4 header (or zeroes). */
static void frame(uint16_t proto)
{
	memset(pkt, 0, sizeof(pkt));
	memcpy(pkt, "\x02\x00\x00\x00\x00\x02\x02\x00\x00\x00\x00\x01", 12);
	pkt[12] = (uint8_t)(proto >> 8);
	pkt[13] = (uint8_t)proto;
	if (proto == 0x0800)
		memcpy(pkt + 14,
		       "\x45\x00\x00\x32\x00\x00\x40\x00\x40\x11\x00\x00"
		       "\x0a\x00\x00\x02\x0a\x00\x00\x01",
		       20);
	if (proto == 0x86dd)
		pkt[14] = 0x60;
}

static void one(struct oracle *o, bool kernel, const char *prog, uint64_t ts,
		uint32_t type, int want_ret, uint32_t want_read)
{
	struct __sk_buff s;
	struct oracle_case c = { .obj = "tc_set_tstamp.o",
				 .prog = prog,
				 .data = pkt,
				 .size = sizeof(pkt),
				 .skb = &s };
	struct oracle_result r;
	char label[96];

	oracle_skb_cb(&s, (uint32_t)ts, (uint32_t)(ts >> 32), type, 0);
	snprintf(label, sizeof(label), "%s ts %llu type %u proto %02x%02x",
		 prog, (unsigned long long)ts, type, pkt[12], pkt[13]);
	CHECK(oracle_run_headroom(o, &c, &r) == 0, "%s: run", label);
	CHECK((int)r.skb_out.cb[3] == want_ret, "%s: returned %d, want %d",
	      label, (int)r.skb_out.cb[3], want_ret);
	CHECK(r.skb_out.cb[4] == want_read, "%s: read %u, want %u", label,
	      r.skb_out.cb[4], want_read);
	if (kernel)
		CHECK(oracle_check(o, &c, label) == 1, "%s differs", label);
}

static void cases(struct oracle *o, bool kernel)
{
	static const uint16_t protos[] = { 0x0800, 0x86dd };
	const uint64_t big = (1ull << 40) + 5;
	uint32_t type;
	size_t p;

	for (p = 0; p < 2; p++) {
		frame(protos[p]);
		for (type = 0; type < 3; type++) {
			one(o, kernel, "tc_tstamp_type", big, type, 0, type);
			one(o, kernel, "tc_tstamp_only", big, type, 0, 5);
			one(o, kernel, "tc_tstamp_type", 0, type,
			    type ? -EINVAL : 0, 0);
		}
		one(o, kernel, "tc_tstamp_type", big, 3, -EINVAL, 0);
		one(o, kernel, "tc_tstamp_type", big, 0xffffffff, -EINVAL, 0);
	}
	frame(0x0806);
	one(o, kernel, "tc_tstamp_type", big, 1, -EOPNOTSUPP, 0);
	one(o, kernel, "tc_tstamp_only", big, 0, -EOPNOTSUPP, 0);
}

int main(void)
{
	return oracle_main_engines(cases);
}
