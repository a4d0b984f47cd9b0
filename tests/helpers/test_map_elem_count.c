// SPDX-License-Identifier: MIT
/*
 * bpf_map_sum_elem_count (progs/helpers/xdp_map_elem_count.bpf.c) over a
 * hash, a per-CPU hash, an LRU hash and an array after inserts up to and
 * past a full map, a replacement and deletes, compared with the kernel's
 * BPF_PROG_TEST_RUN under both engines: every count (an array keeps
 * none: 0) and the insert that found the hash full.
 */
#include <errno.h>
#include <string.h>

#include "harness.h"
#include "headroom/test_run.h"
#include "oracle.h"

struct count_rec {
	uint32_t inserts, deletes, replace;
	int32_t full_ret;
	int64_t empty, hash, pcpu, lru, array;
};

static uint8_t pkt[128];

static void one(struct oracle *o, bool kernel, uint32_t ins, uint32_t del,
		uint32_t replace)
{
	struct oracle_case c = { .obj = "xdp_map_elem_count.o",
				 .data = pkt,
				 .size = sizeof(pkt) };
	struct count_rec in = { ins, del, replace }, out;
	int64_t want = ins - (del < ins ? del : ins), want_hash;
	struct oracle_result r;
	char label[80];

	want_hash = (ins > 8 ? 8 : ins) - (del < 8 && del < ins ? del :
					   ins > 8		? 8 :
								  ins);
	memset(pkt, 0, sizeof(pkt));
	memcpy(pkt + 14, &in, sizeof(in));
	snprintf(label, sizeof(label), "insert %u delete %u replace %u", ins,
		 del, replace);
	CHECK(oracle_run_headroom(o, &c, &r) == 0 && r.retval == XDP_PASS,
	      "%s: run (retval %u)", label, r.retval);
	memcpy(&out, r.out + 14, sizeof(out));
	CHECK(out.empty == 0 && out.hash == want_hash &&
		      out.pcpu == want_hash && out.lru == want &&
		      out.array == 0,
	      "%s: empty %lld hash %lld pcpu %lld lru %lld array %lld", label,
	      (long long)out.empty, (long long)out.hash, (long long)out.pcpu,
	      (long long)out.lru, (long long)out.array);
	CHECK_EQ(out.full_ret, ins > 8 ? -E2BIG : 0);
	if (kernel)
		CHECK(oracle_check(o, &c, label) == 1, "%s differs", label);
}

static void cases(struct oracle *o, bool kernel)
{
	one(o, kernel, 0, 0, 0);
	one(o, kernel, 1, 0, 0);
	one(o, kernel, 5, 0, 1);
	one(o, kernel, 5, 2, 1);
	one(o, kernel, 8, 0, 1);
	one(o, kernel, 9, 0, 0);
	one(o, kernel, 16, 3, 1);
	one(o, kernel, 16, 16, 0);
	one(o, kernel, 3, 0, 0);
}

int main(void)
{
	return oracle_main_engines(cases);
}
