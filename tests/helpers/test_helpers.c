// SPDX-License-Identifier: MIT
/*
 * The XDP packet helpers and the misc helpers, called directly the way the
 * engines call them: return values, packet bytes, the context and packet
 * bounds after a move, and the memory checks on the program's buffers.
 * bpf_csum_diff is also compared with the live kernel (BPF_PROG_TEST_RUN).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <linux/bpf.h>

#include "harness.h"
#include "progs/ctx.h"
#include "helpers/helpers.h"
#include "core/pool.h"

static struct hr_pool *pool;
static struct hr_rxq_info rxq = { .ifindex = 1, .meta_supported = true };
static const struct hr_vm_prog vm = { .ctx_size = sizeof(struct xdp_md) };

struct env {
	struct hr_xdp_buff xdp;
	struct hr_xdp_ctx c;
	struct hr_run run;
	uint8_t *frame;
};

/* A run over a fresh frame with @len bytes 0, 1, 2 ... at headroom 256. */
static void env_init(struct env *e, uint32_t len, bool meta)
{
	uint32_t i;

	memset(e, 0, sizeof(*e));
	e->frame = hr_pool_get(pool);
	if (!e->frame)
		abort();
	memset(e->frame, 0xaa, HR_FRAME_SIZE);
	for (i = 0; i < len; i++)
		e->frame[256 + i] = (uint8_t)i;
	hr_xdp_init_buff(&e->xdp, HR_FRAME_SIZE, &rxq);
	hr_xdp_prepare_buff(&e->xdp, e->frame, 256, len, meta);
	e->c.xdp = &e->xdp;
	hr_run_init(&e->run, &vm, &e->c.md);
	e->run.priv = &e->c;
	hr_xdp_ctx_sync(&e->c, &e->run);
}

static void env_done(struct env *e)
{
	hr_pool_put(pool, e->frame);
}

static int64_t call(const struct hr_helper *h, struct env *e, uint64_t r2,
		    uint64_t r3, uint64_t r4, uint64_t r5)
{
	return (int64_t)h->fn((uint64_t)(uintptr_t)&e->c.md, r2, r3, r4, r5,
			      &e->run);
}

/* What the program sees agrees with the buff. */
static void check_sync(struct env *e)
{
	struct hr_xdp_buff *x = &e->xdp;

	CHECK_EQ(e->c.md.data, (uint32_t)(uintptr_t)x->data);
	CHECK_EQ(e->c.md.data_end, (uint32_t)(uintptr_t)x->data_end);
	CHECK_EQ(e->c.md.data_meta, (uint32_t)(uintptr_t)x->data_meta);
	CHECK_EQ(e->c.md.data, (uintptr_t)x->data); /* real addresses */
	CHECK_EQ(e->run.pkt_lo,
		 (uintptr_t)(hr_xdp_meta_unsupported(x) ? x->data :
							  x->data_meta));
	CHECK_EQ(e->run.pkt_hi, (uintptr_t)x->data_end);
}

static void test_ids(void)
{
	CHECK_EQ(hr_helper_ktime_get_ns.id, BPF_FUNC_ktime_get_ns);
	CHECK_EQ(hr_helper_trace_printk.id, BPF_FUNC_trace_printk);
	CHECK_EQ(hr_helper_get_prandom_u32.id, BPF_FUNC_get_prandom_u32);
	CHECK_EQ(hr_helper_get_smp_processor_id.id,
		 BPF_FUNC_get_smp_processor_id);
	CHECK_EQ(hr_helper_csum_diff.id, BPF_FUNC_csum_diff);
	CHECK_EQ(hr_helper_xdp_adjust_head.id, BPF_FUNC_xdp_adjust_head);
	CHECK_EQ(hr_helper_xdp_adjust_meta.id, BPF_FUNC_xdp_adjust_meta);
	CHECK_EQ(hr_helper_xdp_adjust_tail.id, BPF_FUNC_xdp_adjust_tail);
	CHECK_EQ(hr_helper_xdp_get_buff_len.id, BPF_FUNC_xdp_get_buff_len);
	CHECK_EQ(hr_helper_xdp_load_bytes.id, BPF_FUNC_xdp_load_bytes);
	CHECK_EQ(hr_helper_xdp_store_bytes.id, BPF_FUNC_xdp_store_bytes);
	CHECK(strcmp(hr_helper_xdp_adjust_meta.name, "bpf_xdp_adjust_meta") ==
		      0,
	      "name");
	CHECK(strcmp(hr_helper_csum_diff.name, "bpf_csum_diff") == 0, "name");
}

static void test_adjust(void)
{
	struct env e;
	uint32_t before;

	env_init(&e, 100, true);
	check_sync(&e);
	CHECK_EQ(call(&hr_helper_xdp_get_buff_len, &e, 0, 0, 0, 0), 100);

	CHECK_EQ(call(&hr_helper_xdp_adjust_meta, &e, (uint64_t)-8, 0, 0, 0),
		 0);
	CHECK_EQ(e.c.md.data - e.c.md.data_meta, 8);
	check_sync(&e);
	CHECK_EQ(call(&hr_helper_xdp_adjust_meta, &e, (uint64_t)-2, 0, 0, 0),
		 -EACCES);
	/* A 64-bit register carrying a negative int: only the low 32 bits. */
	CHECK_EQ(call(&hr_helper_xdp_adjust_meta, &e, 0xfffffffcull, 0, 0, 0),
		 0);
	CHECK_EQ(e.c.md.data - e.c.md.data_meta, 12);

	CHECK_EQ(call(&hr_helper_xdp_adjust_head, &e, (uint64_t)-20, 0, 0, 0),
		 0);
	CHECK_EQ((uintptr_t)e.xdp.data, (uintptr_t)e.frame + 236);
	check_sync(&e);
	CHECK_EQ(call(&hr_helper_xdp_get_buff_len, &e, 0, 0, 0, 0), 120);
	before = e.c.md.data;
	CHECK_EQ(call(&hr_helper_xdp_adjust_head, &e, 200, 0, 0, 0), -EINVAL);
	CHECK_EQ(e.c.md.data, before);
	check_sync(&e);

	CHECK_EQ(call(&hr_helper_xdp_adjust_tail, &e, 30, 0, 0, 0), 0);
	check_sync(&e);
	CHECK_EQ(call(&hr_helper_xdp_get_buff_len, &e, 0, 0, 0, 0), 150);
	CHECK_EQ(e.frame[356 + 29], 0); /* grown bytes cleared */
	CHECK_EQ(call(&hr_helper_xdp_adjust_tail, &e, (uint64_t)-137, 0, 0, 0),
		 -EINVAL);
	CHECK_EQ(call(&hr_helper_xdp_adjust_tail, &e, (uint64_t)-136, 0, 0, 0),
		 0);
	check_sync(&e);
	CHECK_EQ(call(&hr_helper_xdp_get_buff_len, &e, 0, 0, 0, 0), 14);
	CHECK_EQ(e.run.abort, HR_ABORT_NONE);
	env_done(&e);

	/* No metadata support: ENOTSUPP, and pkt_lo starts at data. */
	env_init(&e, 64, false);
	check_sync(&e);
	CHECK_EQ(call(&hr_helper_xdp_adjust_meta, &e, (uint64_t)-4, 0, 0, 0),
		 -524);
	CHECK_EQ(call(&hr_helper_xdp_adjust_head, &e, (uint64_t)-16, 0, 0, 0),
		 0);
	CHECK_EQ(e.c.md.data_meta, e.c.md.data + 1);
	check_sync(&e);
	env_done(&e);
}

static void test_load_store(void)
{
	uint8_t *big = calloc(1, 0x20000), *ro = calloc(1, 64);
	struct hr_region regions[2] = {
		{ .start = (uintptr_t)big,
		  .end = (uintptr_t)big + 0x20000,
		  .flags = HR_REGION_READ | HR_REGION_WRITE },
		{ .start = (uintptr_t)ro,
		  .end = (uintptr_t)ro + 64,
		  .flags = HR_REGION_READ },
	};
	uint64_t stk, bigp = (uintptr_t)big, rop = (uintptr_t)ro;
	struct env e;
	uint8_t *s;
	int i;

	if (!big || !ro)
		abort();
	env_init(&e, 100, true);
	e.run.regions = regions;
	e.run.nregions = 2;
	s = e.run.stack + sizeof(e.run.stack) - 64;
	stk = (uintptr_t)s;

	CHECK_EQ(call(&hr_helper_xdp_load_bytes, &e, 10, stk, 20, 0), 0);
	for (i = 0; i < 20; i++)
		if (s[i] != 10 + i)
			break;
	CHECK_EQ(i, 20);
	CHECK_EQ(call(&hr_helper_xdp_load_bytes, &e, 0, stk, 64, 0), 0);
	CHECK_EQ(s[63], 63);
	/* The last byte, and one past it. */
	CHECK_EQ(call(&hr_helper_xdp_load_bytes, &e, 99, stk, 1, 0), 0);
	CHECK_EQ(s[0], 99);
	CHECK_EQ(call(&hr_helper_xdp_load_bytes, &e, 100, stk, 1, 0), -EINVAL);
	CHECK_EQ(call(&hr_helper_xdp_load_bytes, &e, 37, stk, 64, 0), -EINVAL);
	CHECK_EQ(call(&hr_helper_xdp_load_bytes, &e, 36, stk, 64, 0), 0);
	/* 16-bit limits come first: EFAULT, even with a valid buffer. */
	CHECK_EQ(call(&hr_helper_xdp_load_bytes, &e, 0x10000, stk, 1, 0),
		 -EFAULT);
	CHECK_EQ(call(&hr_helper_xdp_load_bytes, &e, 0xffff, stk, 1, 0),
		 -EINVAL);
	CHECK_EQ(call(&hr_helper_xdp_load_bytes, &e, 0, bigp, 0x10000, 0),
		 -EFAULT);
	CHECK_EQ(call(&hr_helper_xdp_load_bytes, &e, 0, bigp, 0xffff, 0),
		 -EINVAL);
	/* The offset is a u32: the high half of the register is ignored. */
	CHECK_EQ(call(&hr_helper_xdp_load_bytes, &e, 0x100000005ull, stk, 1, 0),
		 0);
	CHECK_EQ(s[0], 5);
	CHECK_EQ(e.run.abort, HR_ABORT_NONE);

	/* store_bytes writes the packet, from any readable buffer. */
	memset(ro, 0xee, 64);
	CHECK_EQ(call(&hr_helper_xdp_store_bytes, &e, 50, rop, 50, 0), 0);
	CHECK_EQ(e.frame[256 + 49], 49);
	CHECK_EQ(e.frame[256 + 50], 0xee);
	CHECK_EQ(e.frame[256 + 99], 0xee);
	CHECK_EQ(e.frame[256 + 100], 0xaa);
	CHECK_EQ(call(&hr_helper_xdp_store_bytes, &e, 51, rop, 50, 0), -EINVAL);
	CHECK_EQ(e.frame[256 + 100], 0xaa);
	CHECK_EQ(call(&hr_helper_xdp_store_bytes, &e, 0x10000, rop, 1, 0),
		 -EFAULT);
	/* Stored bytes show through load_bytes. */
	CHECK_EQ(call(&hr_helper_xdp_load_bytes, &e, 98, stk, 2, 0), 0);
	CHECK_EQ(s[0], 0xee);
	CHECK_EQ(e.run.abort, HR_ABORT_NONE);

	/* After adjust_head, offsets count from the new data. */
	CHECK_EQ(call(&hr_helper_xdp_adjust_head, &e, 10, 0, 0, 0), 0);
	CHECK_EQ(call(&hr_helper_xdp_load_bytes, &e, 0, stk, 1, 0), 0);
	CHECK_EQ(s[0], 10);
	CHECK_EQ(call(&hr_helper_xdp_load_bytes, &e, 90, stk, 1, 0), -EINVAL);
	env_done(&e);

	/* Loading into read-only memory ends the run. */
	env_init(&e, 100, true);
	e.run.regions = regions;
	e.run.nregions = 2;
	CHECK_EQ(call(&hr_helper_xdp_load_bytes, &e, 0, rop, 4, 0), 0);
	CHECK_EQ(e.run.abort, HR_ABORT_HELPER_ARG);
	CHECK_EQ(ro[0], 0xee);
	env_done(&e);
	/* A wild buffer ends the run before the packet is touched. */
	env_init(&e, 100, true);
	CHECK_EQ(call(&hr_helper_xdp_store_bytes, &e, 0, 0x1000, 4, 0), 0);
	CHECK_EQ(e.run.abort, HR_ABORT_HELPER_ARG);
	CHECK_EQ(e.run.abort_addr, 0x1000);
	CHECK_EQ(e.frame[256], 0);
	env_done(&e);
	/* The stack of a frame deeper than the current one is not ours. */
	env_init(&e, 100, true);
	CHECK_EQ(call(&hr_helper_xdp_load_bytes, &e, 0, (uintptr_t)e.run.stack,
		      4, 0),
		 0);
	CHECK_EQ(e.run.abort, HR_ABORT_HELPER_ARG);
	env_done(&e);
	free(big);
	free(ro);
}

static void test_misc(void)
{
	struct timespec ts;
	uint64_t a, b, now, seen_or = 0, seen_and = ~0ull;
	struct env e;
	int i, same = 0;
	uint32_t prev = 0;

	env_init(&e, 64, true);
	a = (uint64_t)call(&hr_helper_ktime_get_ns, &e, 0, 0, 0, 0);
	clock_gettime(CLOCK_MONOTONIC, &ts);
	now = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
	b = (uint64_t)call(&hr_helper_ktime_get_ns, &e, 0, 0, 0, 0);
	CHECK(a <= now && now <= b, "monotonic: %llu %llu %llu",
	      (unsigned long long)a, (unsigned long long)now,
	      (unsigned long long)b);

	for (i = 0; i < 1000; i++) {
		uint64_t r = (uint64_t)call(&hr_helper_get_prandom_u32, &e, 0,
					    0, 0, 0);

		CHECK(r <= 0xffffffffull, "u32");
		seen_or |= r;
		seen_and &= r;
		same += (uint32_t)r == prev;
		prev = (uint32_t)r;
	}
	CHECK_EQ(seen_or, 0xffffffffull); /* every bit set sometime */
	CHECK_EQ(seen_and, 0); /* and clear sometime */
	CHECK(same < 3, "repeats %d", same);

	e.run.cpu = 3;
	CHECK_EQ(call(&hr_helper_get_smp_processor_id, &e, 0, 0, 0, 0), 3);
	env_done(&e);
}

/* A reference one's complement sum, 16 bits at a time, in the byte order
 * the x86-64 kernel sums: little-endian. */
static uint32_t ref_sum(const uint8_t *p, uint32_t n, uint64_t acc)
{
	uint32_t i;

	for (i = 0; i + 1 < n; i += 2)
		acc += (uint32_t)p[i] | (uint32_t)p[i + 1] << 8;
	if (n & 1)
		acc += p[n - 1];
	while (acc >> 16)
		acc = (acc & 0xffff) + (acc >> 16);
	return (uint32_t)acc;
}

static uint64_t csum_call(struct env *e, const void *from, uint32_t fsz,
			  const void *to, uint32_t tsz, uint32_t seed)
{
	return hr_helper_csum_diff.fn((uintptr_t)from, fsz, (uintptr_t)to, tsz,
				      seed, &e->run);
}

static void test_csum_unit(void)
{
	struct env e;
	uint8_t *s;
	uint32_t i, r;

	env_init(&e, 64, true);
	s = e.run.stack + sizeof(e.run.stack) - 256;
	for (i = 0; i < 256; i++)
		s[i] = (uint8_t)(i * 37 + 11);
	/* Nothing to sum: the seed, folded to 16 bits. */
	CHECK_EQ(csum_call(&e, NULL, 0, NULL, 0, 0x00010002), 0x0003);
	CHECK_EQ(csum_call(&e, NULL, 0, NULL, 0, 0xffff0000), 0xffff);
	/* Pushing data: its sum plus the seed, equal modulo 0xffff to a
	 * plain 16-bit one's complement sum. */
	for (i = 1; i <= 200; i += 7) {
		r = (uint32_t)csum_call(&e, NULL, 0, s, i, 0);
		CHECK(r <= 0xffff, "16 bits");
		CHECK_EQ(r % 0xffff, ref_sum(s, i, 0) % 0xffff);
	}
	/* Diffing equal data gives no change. */
	r = (uint32_t)csum_call(&e, s, 40, s, 40, 0);
	CHECK(r == 0 || r == 0xffff, "equal diff %#x", r);
	/* Replacing a word: to - from. */
	r = (uint32_t)csum_call(&e, s, 4, s + 4, 4, 0);
	CHECK_EQ(r % 0xffff,
		 (ref_sum(s + 4, 4, 0) + 0xffff - ref_sum(s, 4, 0)) % 0xffff);
	CHECK_EQ(e.run.abort, HR_ABORT_NONE);
	/* Out-of-bounds buffers end the run. */
	CHECK_EQ(csum_call(&e, (void *)0x1000, 4, s, 4, 0), 0);
	CHECK_EQ(e.run.abort, HR_ABORT_HELPER_ARG);
	env_done(&e);

	/* csum_partial: zero only for all-zero input. */
	{
		uint8_t ones[48];

		memset(ones, 0xff, sizeof(ones));
		CHECK_EQ(hr_csum_partial(ones, 8, 0), 0xffffffffu);
		CHECK_EQ(hr_csum_partial(ones, 0, 0), 0);
		/* All ones stays all ones (never the other zero). */
		CHECK_EQ(hr_csum_partial(ones, 40, 0), 0xffffffffu);
		CHECK_EQ(hr_csum_partial(ones, 48, 0), 0xffffffffu);
		CHECK_EQ(hr_csum_partial(ones, 0, 7), 7);
	}
}

/* The kernel oracle: an XDP program that stores from/to on its stack,
 * calls bpf_csum_diff and writes r0 to the first packet bytes. */
#define INSN(c, d, s, o, i)                 \
	((struct bpf_insn){ .code = (c),    \
			    .dst_reg = (d), \
			    .src_reg = (s), \
			    .off = (o),     \
			    .imm = (i) })

static int kernel_csum(const uint8_t *from, uint32_t fsz, const uint8_t *to,
		       uint32_t tsz, uint32_t seed, uint64_t *out)
{
	struct bpf_insn insns[600];
	uint8_t pkt[64] = { 0 }, pout[64];
	unsigned int n = 0, i;
	int fd, err;
	LIBBPF_OPTS(bpf_test_run_opts, opts, .data_in = pkt,
		    .data_size_in = sizeof(pkt), .data_out = pout,
		    .data_size_out = sizeof(pout), .repeat = 1);

	insns[n++] = INSN(BPF_ALU64 | BPF_MOV | BPF_X, 6, 1, 0, 0);
	for (i = 0; i < fsz; i++)
		insns[n++] = INSN(BPF_ST | BPF_MEM | BPF_B, 10, 0,
				  (short)(-512 + (int)i), from[i]);
	for (i = 0; i < tsz; i++)
		insns[n++] = INSN(BPF_ST | BPF_MEM | BPF_B, 10, 0,
				  (short)(-256 + (int)i), to[i]);
	insns[n++] = INSN(BPF_ALU64 | BPF_MOV | BPF_X, 1, 10, 0, 0);
	insns[n++] = INSN(BPF_ALU64 | BPF_ADD | BPF_K, 1, 0, 0, -512);
	insns[n++] = INSN(BPF_ALU64 | BPF_MOV | BPF_K, 2, 0, 0, (int)fsz);
	insns[n++] = INSN(BPF_ALU64 | BPF_MOV | BPF_X, 3, 10, 0, 0);
	insns[n++] = INSN(BPF_ALU64 | BPF_ADD | BPF_K, 3, 0, 0, -256);
	insns[n++] = INSN(BPF_ALU64 | BPF_MOV | BPF_K, 4, 0, 0, (int)tsz);
	insns[n++] = INSN(BPF_ALU | BPF_MOV | BPF_K, 5, 0, 0, (int)seed);
	insns[n++] = INSN(BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_csum_diff);
	insns[n++] = INSN(BPF_ALU64 | BPF_MOV | BPF_X, 7, 0, 0, 0);
	insns[n++] = INSN(BPF_LDX | BPF_MEM | BPF_W, 2, 6, 0, 0);
	insns[n++] = INSN(BPF_LDX | BPF_MEM | BPF_W, 3, 6, 4, 0);
	insns[n++] = INSN(BPF_ALU64 | BPF_MOV | BPF_X, 4, 2, 0, 0);
	insns[n++] = INSN(BPF_ALU64 | BPF_ADD | BPF_K, 4, 0, 0, 8);
	insns[n++] = INSN(BPF_JMP | BPF_JGT | BPF_X, 4, 3, 1, 0);
	insns[n++] = INSN(BPF_STX | BPF_MEM | BPF_DW, 2, 7, 0, 0);
	insns[n++] = INSN(BPF_ALU64 | BPF_MOV | BPF_K, 0, 0, 0, XDP_PASS);
	insns[n++] = INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0);

	fd = bpf_prog_load(BPF_PROG_TYPE_XDP, "csum", "GPL", insns, n, NULL);
	if (fd < 0)
		return fd;
	err = bpf_prog_test_run_opts(fd, &opts);
	close(fd);
	if (err)
		return err;
	if (opts.retval != XDP_PASS || opts.data_size_out < 8)
		return -EIO;
	memcpy(out, pout, 8);
	return 0;
}

static void test_csum_kernel(void)
{
	static const uint32_t sizes[][2] = {
		{ 0, 4 },  { 4, 0 },	 { 4, 4 },     { 0, 1 },   { 3, 0 },
		{ 2, 6 },  { 20, 20 },	 { 40, 40 },   { 0, 80 },  { 80, 0 },
		{ 8, 88 }, { 0, 240 },	 { 240, 240 }, { 79, 81 }, { 17, 0 },
		{ 0, 57 }, { 120, 160 }, { 12, 36 },   { 44, 44 }, { 1, 1 },
	};
	uint8_t from[240], to[240];
	uint32_t v, seed;
	unsigned int k, i, fills;
	uint64_t kout;
	struct env e;
	char why[128];
	int err;

	if (!t_have_kernel(why, sizeof(why))) {
		printf("SKIP kernel csum_diff oracle: %s\n", why);
		return;
	}
	env_init(&e, 64, true);
	srand(1234);
	/* Random data, all-ones (the dropped-carry case) and zeros. */
	for (fills = 0; fills < 3; fills++) {
		for (k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
			uint32_t fsz = sizes[k][0], tsz = sizes[k][1];
			uint8_t *sf = e.run.stack + sizeof(e.run.stack) - 512;
			uint8_t *st = sf + 256;

			for (i = 0; i < 240; i++) {
				from[i] = fills == 0 ? (uint8_t)rand() :
					  fills == 1 ? 0xff :
						       0;
				to[i] = fills == 0 ? (uint8_t)rand() :
					fills == 1 ? 0xff :
						     0;
			}
			seed = fills == 0 ? (uint32_t)rand() * 2654435761u :
			       fills == 1 ? 0xffffffffu :
					    0;
			memcpy(sf, from, fsz);
			memcpy(st, to, tsz);
			err = kernel_csum(from, fsz, to, tsz, seed, &kout);
			CHECK_EQ(err, 0);
			if (err)
				continue;
			v = (uint32_t)csum_call(&e, sf, fsz, st, tsz, seed);
			CHECK(v == kout,
			      "csum_diff(%u, %u, seed %#x) fill %u: ours %#x "
			      "kernel %#llx",
			      fsz, tsz, seed, fills, v,
			      (unsigned long long)kout);
		}
	}
	CHECK_EQ(e.run.abort, HR_ABORT_NONE);
	env_done(&e);
}

static char captured[2048];
static size_t captured_len;

static void capture(const char *text, size_t len)
{
	memcpy(captured, text, len);
	captured[len] = '\0';
	captured_len = len;
}

static int64_t printk(struct env *e, const char *fmt, uint64_t a1, uint64_t a2,
		      uint64_t a3)
{
	uint8_t *s = e->run.stack + sizeof(e->run.stack) - 256;
	size_t n = strlen(fmt) + 1;

	memcpy(s, fmt, n);
	captured[0] = '\0';
	captured_len = 0;
	return (int64_t)hr_helper_trace_printk.fn((uintptr_t)s, n, a1, a2, a3,
						  &e->run);
}

#define PRINTK_IS(e, fmt, a1, a2, a3, want)                                   \
	do {                                                                  \
		int64_t _r = printk(e, fmt, a1, a2, a3);                      \
		CHECK(_r == (int64_t)strlen(want) &&                          \
			      strcmp(captured, want) == 0,                    \
		      "%s: got %lld \"%s\", want \"%s\"", fmt, (long long)_r, \
		      captured, want);                                        \
	} while (0)

static void test_trace_printk(void)
{
	hr_trace_sink_fn old = hr_trace_sink;
	struct env e;
	uint8_t *s;
	int64_t r;

	hr_trace_sink = capture;
	env_init(&e, 64, true);
	s = e.run.stack + sizeof(e.run.stack) - 64;
	strcpy((char *)s, "str");

	PRINTK_IS(&e, "hello\n", 0, 0, 0, "hello\n");
	PRINTK_IS(&e, "%d %i %u", (uint64_t)-5, 7, 0xffffffffull,
		  "-5 7 4294967295");
	PRINTK_IS(&e, "%d", 0x1ffffffffull, 0, 0, "-1"); /* int-sized */
	PRINTK_IS(&e, "%ld %lu %lx", (uint64_t)-5, (uint64_t)-1, 0xabcull,
		  "-5 18446744073709551615 abc");
	PRINTK_IS(&e, "%lld %llu %llX", (uint64_t)-9, 9, 0xabcull, "-9 9 ABC");
	PRINTK_IS(&e, "%x %X", 0xbeef, 0xbeef, 0, "beef BEEF");
	PRINTK_IS(&e, "[%5d|%-5d|%05d]", 42, 42, 42, "[   42|42   |00042]");
	PRINTK_IS(&e, "%+d % d", 3, 3, 0, "+3  3");
	PRINTK_IS(&e, "100%%", 0, 0, 0, "100%");
	PRINTK_IS(&e, "%c%c", 'o', 'k', 0, "ok");
	PRINTK_IS(&e, "<%s>", (uintptr_t)s, 0, 0, "<str>");
	PRINTK_IS(&e, "<%s>", 0x1000, 0, 0, "<>"); /* faulting string */
	/* Unreadable address bytes print as zeros. */
	PRINTK_IS(&e, "%pI4", 0x1000, 0, 0, "0.0.0.0");
	CHECK_EQ(e.run.abort, HR_ABORT_NONE);

	/* Bad formats: EINVAL, nothing printed. */
	r = printk(&e, "%d %d %d %d", 1, 2, 3);
	CHECK_EQ(r, -EINVAL);
	CHECK_EQ(captured_len, 0);
	CHECK_EQ(printk(&e, "%q", 0, 0, 0), -EINVAL);
	CHECK_EQ(printk(&e, "%5.2d", 0, 0, 0), -EINVAL);
	CHECK_EQ(printk(&e, "%#x", 0, 0, 0), -EINVAL);
	CHECK_EQ(printk(&e, "%hd", 0, 0, 0), -EINVAL);
	CHECK_EQ(printk(&e, "%sx", (uintptr_t)s, 0, 0), -EINVAL);
	CHECK_EQ(printk(&e, "end %", 0, 0, 0), -EINVAL);
	CHECK_EQ(printk(&e, "bell\a", 0, 0, 0), -EINVAL);
	PRINTK_IS(&e, "%s.", (uintptr_t)s, 0, 0, "str.");
	/* No NUL within fmt_size. */
	memcpy(s, "abc", 3);
	CHECK_EQ((int64_t)hr_helper_trace_printk.fn((uintptr_t)s, 3, 0, 0, 0,
						    &e.run),
		 -EINVAL);
	/* The NUL may come early: only the text before it counts. */
	memcpy(s, "ab\0cd", 6);
	CHECK_EQ((int64_t)hr_helper_trace_printk.fn((uintptr_t)s, 6, 0, 0, 0,
						    &e.run),
		 2);
	CHECK(strcmp(captured, "ab") == 0, "%s", captured);
	CHECK_EQ(e.run.abort, HR_ABORT_NONE);
	/* A format outside the program's memory ends the run. */
	CHECK_EQ((int64_t)hr_helper_trace_printk.fn(0x1000, 4, 0, 0, 0, &e.run),
		 0);
	CHECK_EQ(e.run.abort, HR_ABORT_HELPER_ARG);
	env_done(&e);

	/* %pI4 and friends read their bytes through the memory check. */
	env_init(&e, 64, true);
	s = e.run.stack + sizeof(e.run.stack) - 64;
	memcpy(s, "\x0a\x00\x00\x01", 4);
	PRINTK_IS(&e, "%pI4 %pi4", (uintptr_t)s, (uintptr_t)s, 0,
		  "10.0.0.1 010.000.000.001");
	memset(s, 0, 16);
	s[0] = 0x20;
	s[1] = 0x01;
	s[15] = 1;
	PRINTK_IS(&e, "%pI6", (uintptr_t)s, 0, 0,
		  "2001:0000:0000:0000:0000:0000:0000:0001");
	PRINTK_IS(&e, "%pi6", (uintptr_t)s, 0, 0,
		  "20010000000000000000000000000001");
	PRINTK_IS(&e, "%px", 0x1234, 0, 0, "0000000000001234");
	CHECK_EQ(e.run.abort, HR_ABORT_NONE);
	env_done(&e);
	hr_trace_sink = old;
}

int main(void)
{
	CHECK_EQ(hr_pool_create(16, &pool), 0);
	if (!pool)
		return t_done();
	test_ids();
	test_adjust();
	test_load_store();
	test_misc();
	test_csum_unit();
	test_trace_printk();
	test_csum_kernel();
	CHECK_EQ(hr_pool_outstanding(pool), 0);
	hr_pool_destroy(pool);
	return t_done();
}
