// SPDX-License-Identifier: MIT
/*
 * The kernel as oracle for XDP test runs: the programs in progs/ run in
 * the live kernel (BPF_PROG_TEST_RUN) and in headroom over the same
 * inputs, and every observable must match: metadata, head and tail
 * adjustment at and past their limits, reading data_meta, a parser over
 * generated packets, and the error codes for bad sizes and contexts.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "headroom/headroom.h"

#include "gen_packets.h"
#include "harness.h"
#include "kernel_side.h"
#include "oracle.h"
#include "../../progs/include/hr_progs.h"

#define FRAME 4096u
#define HEADROOM 256u
#define SHINFO 320u
#define XDP_FRAME_SZ 40u
#define ETH_HLEN 14u
/* Largest linear packet in a kernel XDP test run without metadata. */
#define MAX_LINEAR (FRAME - HEADROOM - SHINFO)
#define BIG (96u * 1024u)

ORACLE_LINK_HEADROOM;

static struct oracle *orc;
static uint8_t *buf; /* metadata + packet of the case being built */
static struct gen_rng rng;

/* One comparison, one check. */
static void compare(const struct oracle_case *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void compare(const struct oracle_case *c, const char *fmt, ...)
{
	char label[160];
	va_list ap;
	int r;

	va_start(ap, fmt);
	vsnprintf(label, sizeof(label), fmt, ap);
	va_end(ap);
	r = oracle_check(orc, c, label);
	/* A host difference (kernel_side.h): not compared, and the
	 * summary says so. */
	if (r == ORACLE_REFUSED)
		return;
	CHECK(r == 1, "%s: %s", label,
	      r < 0 ? strerror(-r) : "kernel and headroom differ");
}

/* Recognisable metadata bytes, so moves and overwrites show. */
static void fill_meta(uint32_t metalen)
{
	uint32_t i;

	for (i = 0; i < metalen; i++)
		buf[i] = (uint8_t)(0xc0 + i);
}

static void put_deltas(uint8_t *pkt, int32_t d1, int32_t d2)
{
	memcpy(pkt + HR_ADJ_DELTA1_OFF, &d1, sizeof(d1));
	memcpy(pkt + HR_ADJ_DELTA2_OFF, &d2, sizeof(d2));
}

/* metadata + an IPv4/UDP packet of @len carrying the two deltas. */
static uint32_t build_adjust(uint32_t metalen, uint32_t len, int32_t d1,
			     int32_t d2)
{
	gen_seed(&rng, 1000 + len);
	fill_meta(metalen);
	gen_ipv4_udp(&rng, buf + metalen, len);
	put_deltas(buf + metalen, d1, d2);
	return metalen + len;
}

static void run_adjust(const char *obj, uint32_t metalen, uint32_t len,
		       int32_t d1, int32_t d2)
{
	struct oracle_case c = {
		.obj = obj,
		.data = buf,
		.size = build_adjust(metalen, len, d1, d2),
		.use_ctx = true,
		.metalen = metalen,
	};

	compare(&c, "%s meta %u len %u delta %d,%d", obj, metalen, len, d1, d2);
}

static void test_adjust_meta(void)
{
	static const uint32_t metas[] = { 0, 4, 32, 216 };
	unsigned int i;
	int d;

	for (i = 0; i < sizeof(metas) / sizeof(metas[0]); i++)
		for (d = -256; d <= 256; d += 2)
			run_adjust("xdp_adjust_meta.o", metas[i], 60, d, 0);
	/* Two calls: grow then give back, and an odd one after an even. */
	for (d = -64; d <= 64; d += 4) {
		run_adjust("xdp_adjust_meta.o", 8, 60, -16, d);
		run_adjust("xdp_adjust_meta.o", 0, 60, -4, d + 1);
	}
	/* Without a context: no metadata at all. */
	for (d = -40; d <= 8; d += 4) {
		struct oracle_case c = {
			.obj = "xdp_adjust_meta.o",
			.data = buf,
			.size = build_adjust(0, 60, d, 0),
		};

		compare(&c, "adjust_meta no ctx delta %d", d);
	}
}

/* Deltas around both limits and across the range between them. */
static void sweep(const char *obj, uint32_t metalen, uint32_t len, int lo,
		  int hi, int step)
{
	int d;

	for (d = lo - 6; d <= lo + 6; d++)
		run_adjust(obj, metalen, len, d, 0);
	for (d = hi - 6; d <= hi + 6; d++)
		run_adjust(obj, metalen, len, d, 0);
	for (d = lo - 300; d <= hi + 300; d += step)
		run_adjust(obj, metalen, len, d, 0);
	run_adjust(obj, metalen, len, (int32_t)0x80000000, 0);
	run_adjust(obj, metalen, len, 0x7fffffff, 0);
}

/*
 * Both limits of adjust_head or adjust_tail, for every packet size and
 * metadata length: head may come down to the xdp_frame plus the metadata
 * and up to ETH_HLEN before the end; tail may shrink to ETH_HLEN and grow
 * to the hard end, before skb_shared_info.
 */
static void sweep_sizes(const char *obj, bool head)
{
	static const uint32_t lens[] = { 14, 60, 1500, 3520 };
	static const uint32_t metas[] = { 0, 32 };
	unsigned int i, j;
	int lo, hi;

	for (i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
		for (j = 0; j < sizeof(metas) / sizeof(metas[0]); j++) {
			if (head) {
				lo = -(int)(HEADROOM - XDP_FRAME_SZ - metas[j]);
				hi = (int)(lens[i] - ETH_HLEN);
			} else {
				lo = -(int)(lens[i] - ETH_HLEN);
				hi = (int)(MAX_LINEAR - lens[i]);
			}
			sweep(obj, metas[j], lens[i], lo, hi,
			      lens[i] > 100 ? 37 : 3);
		}
	}
}

static void test_adjust_head(void)
{
	int d;

	sweep_sizes("xdp_adjust_head.o", true);
	/* Push then pull, pull then push: the exposed bytes are stale. */
	for (d = 4; d <= 64; d += 12) {
		run_adjust("xdp_adjust_head.o", 16, 60, -d, d);
		run_adjust("xdp_adjust_head.o", 16, 60, d, -d - 8);
		run_adjust("xdp_adjust_head.o", 0, 60, -d, 0);
	}
}

static void test_adjust_tail(void)
{
	int d;

	sweep_sizes("xdp_adjust_tail.o", false);
	/* Shrink then grow back: the regrown bytes must read as zero. */
	for (d = 1; d <= 46; d += 5) {
		run_adjust("xdp_adjust_tail.o", 0, 60, -d, d);
		run_adjust("xdp_adjust_tail.o", 8, 60, -d, d + 100);
		run_adjust("xdp_adjust_tail.o", 8, 1500, -d, 4000);
	}
}

static void test_read_meta(void)
{
	uint32_t m;

	for (m = 0; m <= 252; m += 4) {
		struct oracle_case c = {
			.obj = "xdp_read_meta.o",
			.data = buf,
			.size = build_adjust(m, 60, 0, 0),
			.use_ctx = true,
			.metalen = m,
		};

		compare(&c, "read_meta meta %u", m);
	}
	{
		struct oracle_case c = {
			.obj = "xdp_read_meta.o",
			.data = buf,
			.size = build_adjust(0, 60, 0, 0),
		};

		compare(&c, "read_meta no ctx");
	}
}

static void test_parse(void)
{
	struct gen_info info;
	uint32_t len, m;
	unsigned int i;

	gen_seed(&rng, 42);
	for (i = 0; i < 1000; i++) {
		m = (i % 55) * 4; /* 0 .. 216 */
		len = gen_packet(&rng, buf + m, FRAME, &info);
		if (i % 3 == 0)
			len = gen_cut(&rng, &info);
		fill_meta(m);
		{
			struct oracle_case c = {
				.obj = "xdp_parse.o",
				.data = buf,
				.size = m + len,
				.use_ctx = true,
				.metalen = m,
			};

			compare(&c, "parse #%u meta %u len %u/%u (%s)", i, m,
				len, info.len, info.desc);
		}
	}
}

/* data_in too small or larger than a linear buffer, with and without
 * a context. */
static void test_sizes(void)
{
	static const uint32_t sizes[] = { 0,	1,    13,   14,	   15,
					  60,	3519, 3520, 3521,  3552,
					  3553, 4096, 8192, 65536, BIG };
	static const uint32_t metas[] = { 0, 4, 32 };
	unsigned int i, j;

	gen_seed(&rng, 7);
	gen_fill(&rng, buf, BIG);
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		struct oracle_case c = {
			.obj = "xdp_read_meta.o",
			.data = buf,
			.size = sizes[i],
		};

		compare(&c, "size %u no ctx", sizes[i]);
		for (j = 0; j < sizeof(metas) / sizeof(metas[0]); j++) {
			if (metas[j] > sizes[i])
				continue;
			c.use_ctx = true;
			c.metalen = metas[j];
			compare(&c, "size %u meta %u", sizes[i], metas[j]);
		}
	}
	/* A small output buffer: -ENOSPC, with the full size reported. */
	{
		struct oracle_case c = {
			.obj = "xdp_read_meta.o",
			.data = buf,
			.size = 100,
			.data_out_cap = 40,
		};

		compare(&c, "data_out 40 of 100");
		c.no_data_out = true;
		compare(&c, "no data_out");
	}
}

static void bad_ctx(const char *what, struct xdp_md ctx, uint32_t size,
		    uint32_t ctx_size)
{
	struct oracle_case c = {
		.obj = "xdp_read_meta.o",
		.data = buf,
		.size = size,
		.ctx = &ctx,
		.ctx_size_in = ctx_size,
	};

	compare(&c,
		"ctx %s {meta %u data %u end %u in %u rxq %u eg %u} "
		"size %u ctx_size %u",
		what, ctx.data_meta, ctx.data, ctx.data_end,
		ctx.ingress_ifindex, ctx.rx_queue_index, ctx.egress_ifindex,
		size, ctx_size);
}

static void test_bad_ctx(void)
{
	static const uint32_t metas[] = { 1, 2, 3, 6, 250, 252, 253, 256, 260 };
	const uint32_t n = 400;
	unsigned int i;

	build_adjust(0, n, 0, 0);
	bad_ctx("good", (struct xdp_md){ .data = 8, .data_end = n }, n, 0);
	bad_ctx("data_meta",
		(struct xdp_md){ .data_meta = 4, .data = 8, .data_end = n }, n,
		0);
	bad_ctx("data>end", (struct xdp_md){ .data = n + 4, .data_end = n }, n,
		0);
	bad_ctx("end<size", (struct xdp_md){ .data = 0, .data_end = n - 4 }, n,
		0);
	bad_ctx("end>size", (struct xdp_md){ .data = 0, .data_end = n + 4 }, n,
		0);
	for (i = 0; i < sizeof(metas) / sizeof(metas[0]); i++)
		bad_ctx("metalen",
			(struct xdp_md){ .data = metas[i], .data_end = n }, n,
			0);
	bad_ctx("data=end", (struct xdp_md){ .data = 20, .data_end = 20 }, 20,
		0);
	bad_ctx("data 8 end 20", (struct xdp_md){ .data = 8, .data_end = 20 },
		20, 0);
	bad_ctx("ingress lo",
		(struct xdp_md){ .data_end = n, .ingress_ifindex = 1 }, n, 0);
	bad_ctx("ingress none",
		(struct xdp_md){ .data_end = n, .ingress_ifindex = 99999 }, n,
		0);
	bad_ctx("rxq 1 no dev",
		(struct xdp_md){ .data_end = n, .rx_queue_index = 1 }, n, 0);
	bad_ctx("rxq 9 on lo",
		(struct xdp_md){ .data_end = n,
				 .ingress_ifindex = 1,
				 .rx_queue_index = 9 },
		n, 0);
	bad_ctx("egress", (struct xdp_md){ .data_end = n, .egress_ifindex = 1 },
		n, 0);
	/* data_end below data_size_in: the linear part, the rest in frags;
	 * ETH_HLEN counts the whole packet, not the linear part. */
	bad_ctx("linear 6", (struct xdp_md){ .data = 4, .data_end = 10 }, 18,
		0);
	bad_ctx("linear 13", (struct xdp_md){ .data_end = 13 }, n, 0);
	bad_ctx("linear 0", (struct xdp_md){ .data_end = 0 }, n, 0);
	bad_ctx("linear 3600", (struct xdp_md){ .data_end = 3600 }, 8000, 0);
	bad_ctx("packet 13", (struct xdp_md){ .data = 4, .data_end = 17 }, 17,
		0);
	bad_ctx("short ctx", (struct xdp_md){ .data = 4, .data_end = n }, n, 8);
	bad_ctx("long ctx", (struct xdp_md){ .data_end = n }, n, 32);
}

/* The sum over CPUs of a u64 value, from a buffer of @n copies. */
static uint64_t sum_u64(const uint64_t *v, unsigned int n, bool percpu)
{
	uint64_t sum = 0;
	unsigned int i;

	if (!percpu)
		return v[0];
	for (i = 0; i < n; i++)
		sum += v[i];
	return sum;
}

/*
 * Every key of @map_name (u64 values) must hold the same number on both
 * sides, per-CPU copies summed; the two key sets must be the same size.
 */
static void compare_map(const char *obj, const char *map_name, bool percpu)
{
	struct bpf_object *kobj = oracle_kernel_object(orc, obj);
	struct hr_object *hobj = oracle_headroom_object(orc, obj);
	uint64_t kval[512], hval[512];
	uint8_t key[64], next[64];
	unsigned int kn = 0, hn = 0, ncpu;
	struct bpf_map *kmap;
	struct hr_map *hmap;
	uint32_t ksz;
	void *prev;
	int fd, err;

	if (kobj && oracle_kernel_left_out(orc, obj)[0]) {
		printf("%s: map %s not compared: the kernel left out %s: %s\n",
		       obj, map_name, oracle_kernel_left_out(orc, obj),
		       t_host_note());
		return;
	}
	kmap = kobj ? bpf_object__find_map_by_name(kobj, map_name) : NULL;
	hmap = hobj ? hr_object_find_map(hobj, map_name) : NULL;
	CHECK(kmap && hmap, "%s: map %s missing", obj, map_name);
	if (!kmap || !hmap)
		return;
	fd = bpf_map__fd(kmap);
	ksz = bpf_map__key_size(kmap);
	ncpu = (unsigned int)libbpf_num_possible_cpus();
	CHECK(ksz == hr_map_key_size(hmap) && ksz <= sizeof(key) &&
		      ncpu <= 512 &&
		      hr_map_user_value_size(hmap) <= sizeof(hval),
	      "%s: map %s shapes differ", obj, map_name);
	if (ksz != hr_map_key_size(hmap) || ksz > sizeof(key) || ncpu > 512 ||
	    hr_map_user_value_size(hmap) > sizeof(hval))
		return;
	for (prev = NULL; bpf_map_get_next_key(fd, prev, next) == 0;
	     prev = key) {
		memcpy(key, next, ksz);
		kn++;
		memset(kval, 0, sizeof(kval));
		memset(hval, 0, sizeof(hval));
		err = bpf_map_lookup_elem(fd, key, kval);
		CHECK(err == 0, "%s: kernel lookup: %d", map_name, err);
		err = hr_map_lookup_elem(hmap, key, hval);
		CHECK(err == 0, "%s: headroom lookup: %d", map_name, err);
		if (err)
			continue;
		CHECK(sum_u64(kval, ncpu, percpu) ==
			      sum_u64(hval, hr_map_user_value_size(hmap) / 8,
				      percpu),
		      "%s/%s key #%u: kernel %llu headroom %llu", obj, map_name,
		      kn, (unsigned long long)sum_u64(kval, ncpu, percpu),
		      (unsigned long long)sum_u64(
			      hval, hr_map_user_value_size(hmap) / 8, percpu));
	}
	for (prev = NULL; hr_map_get_next_key(hmap, prev, next) == 0;
	     prev = key) {
		memcpy(key, next, ksz);
		hn++;
		if (hn > 100000)
			break;
	}
	CHECK_EQ(kn, hn);
}

/* Programs that keep state: run the same packets through both sides. */
static void test_stateful(void)
{
	static const char *const objs[] = { "xdp_counter.o", "xdp_demo.o" };
	struct gen_info info;
	unsigned int i, k;
	uint32_t len;

	for (k = 0; k < 2; k++) {
		gen_seed(&rng, 99 + k);
		for (i = 0; i < 100; i++) {
			len = gen_packet(&rng, buf, FRAME, &info);
			if (i % 5 == 0)
				len = gen_cut(&rng, &info);
			{
				struct oracle_case c = {
					.obj = objs[k],
					.data = buf,
					.size = len,
					.use_ctx = i & 1,
				};

				compare(&c, "%s #%u len %u (%s)", objs[k], i,
					len, info.desc);
			}
		}
	}
	compare_map("xdp_counter.o", "proto_count", true);
	compare_map("xdp_counter.o", "src_bytes", false);
	compare_map("xdp_demo.o", "demo_counter", false);

	/* tc: no context, no metadata in an skb test run. */
	len = build_adjust(0, 60, 0, 0);
	{
		struct oracle_case c = {
			.obj = "tc_read_meta.o",
			.data = buf,
			.size = len,
		};

		compare(&c, "tc_read_meta");
	}
}

static void run_all(int engine, const char *name)
{
	unsigned int cases = oracle_cases(orc);
	unsigned int diffs = oracle_differences(orc);

	oracle_set_engine(orc, engine);
	test_adjust_meta();
	test_adjust_head();
	test_adjust_tail();
	test_read_meta();
	test_parse();
	test_sizes();
	test_bad_ctx();
	test_stateful();
	printf("%s: %u cases, %u differences\n", name,
	       oracle_cases(orc) - cases, oracle_differences(orc) - diffs);
}

/* Whether headroom runs a program with its JIT here. */
static bool jit_available(void)
{
	struct oracle_result *res = malloc(sizeof(*res));
	struct oracle_case c = {
		.obj = "xdp_read_meta.o",
		.data = buf,
		.size = build_adjust(0, 60, 0, 0),
	};
	bool ok;

	if (!res)
		return false;
	oracle_set_engine(orc, HR_ENGINE_JIT);
	ok = oracle_run_headroom(orc, &c, res) == 0 && res->err == 0;
	free(res);
	return ok;
}

int main(void)
{
	char why[256];
	int err;

	if (!t_have_kernel(why, sizeof(why)))
		return t_skip(why);
	buf = calloc(1, BIG + FRAME);
	err = oracle_new(&orc);
	if (!buf || err) {
		CHECK(0, "no memory");
		return t_done();
	}
	if (getenv("ORACLE_PRINT"))
		oracle_set_print_limit(orc,
				       (unsigned)atoi(getenv("ORACLE_PRINT")));
	CHECK(oracle_have_headroom() && oracle_headroom_api[0],
	      "headroom's test-run API is not linked");

	run_all(HR_ENGINE_INTERP, "interp");
	if (jit_available())
		run_all(HR_ENGINE_JIT, "jit");
	else
		printf("jit: not available, interpreter only\n");

	oracle_summary(orc);
	oracle_free(orc);
	free(buf);
	return t_done();
}
