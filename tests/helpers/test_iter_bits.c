// SPDX-License-Identifier: MIT
/*
 * bpf_iter_bits_new, _next and _destroy (progs/helpers/xdp_iter_bits.bpf.c)
 * over one word (kept in the iterator) and several (copied), up to the
 * 511-word limit and past it, from the stack and a map value, and with a
 * NULL or unreadable pointer and no words, compared with the kernel's
 * BPF_PROG_TEST_RUN under every engine: the return code, how many bits
 * the iterator gave, the first, last and their sum, and its state after
 * the end.
 */
#include <errno.h>
#include <string.h>

#include "harness.h"
#include "headroom/test_run.h"
#include "oracle.h"

enum { SRC_STACK, SRC_NULL, SRC_ADDR, SRC_MAP, SRC_CHANGED };

struct bits_rec {
	uint32_t nr_words, src;
	uint64_t addr;
	uint64_t words[4];
	int32_t ret, count;
	int32_t first, last;
	int64_t sum;
	int32_t after, pad;
};

struct bits_case {
	uint32_t nr_words, src;
	uint64_t addr;
	uint64_t words[4];
	int32_t ret, count, first, last;
};

static uint8_t pkt[128];

static void one(struct oracle *o, bool kernel, const struct bits_case *t)
{
	struct oracle_case c = { .obj = "xdp_iter_bits.o",
				 .data = pkt,
				 .size = sizeof(pkt) };
	struct bits_rec in = { .nr_words = t->nr_words,
			       .src = t->src,
			       .addr = t->addr },
			out;
	struct oracle_result r;
	char label[96];

	memcpy(in.words, t->words, sizeof(in.words));
	memset(pkt, 0, sizeof(pkt));
	memcpy(pkt + 14, &in, sizeof(in));
	snprintf(label, sizeof(label), "bits src %u words %u word0 %#llx",
		 t->src, t->nr_words, (unsigned long long)t->words[0]);
	CHECK(oracle_run_headroom(o, &c, &r) == 0 && r.retval == XDP_PASS,
	      "%s: run (retval %u)", label, r.retval);
	memcpy(&out, r.out + 14, sizeof(out));
	CHECK(out.ret == t->ret && out.count == t->count && !out.after,
	      "%s: ret %d count %d after %d", label, out.ret, out.count,
	      out.after);
	if (t->count)
		CHECK(out.first == t->first && out.last == t->last,
		      "%s: bits %d..%d", label, out.first, out.last);
	if (kernel)
		CHECK(oracle_check(o, &c, label) == 1, "%s differs", label);
}

static void cases(struct oracle *o, bool kernel)
{
	static const struct bits_case t[] = {
		{ 1, SRC_STACK, 0, { 0 }, 0, 0 },
		{ 1, SRC_STACK, 0, { 1 }, 0, 1, 0, 0 },
		{ 1, SRC_STACK, 0, { 1ull << 63 }, 0, 1, 63, 63 },
		{ 1, SRC_STACK, 0, { ~0ull }, 0, 64, 0, 63 },
		{ 1, SRC_STACK, 0, { 0x8000000000000101ull }, 0, 3, 0, 63 },
		{ 2, SRC_STACK, 0, { 0, 1ull << 5 }, 0, 1, 69, 69 },
		{ 3, SRC_STACK, 0, { 2, 0, 1ull << 63 }, 0, 2, 1, 191 },
		{ 4,
		  SRC_STACK,
		  0,
		  { ~0ull, ~0ull, ~0ull, ~0ull },
		  0,
		  256,
		  0,
		  255 },
		{ 4, SRC_CHANGED, 0, { 0, 0, 0, 1 }, 0, 1, 192, 192 },
		{ 1, SRC_CHANGED, 0, { 1ull << 9 }, 0, 1, 9, 9 },
		{ 511, SRC_MAP, 0, { 1, 0, 0, 1ull << 63 }, 0, 255, 0, 32512 },
		{ 511,
		  SRC_MAP,
		  0,
		  { ~0ull, ~0ull, ~0ull, ~0ull },
		  0,
		  32704,
		  0,
		  32703 },
		{ 512, SRC_MAP, 0, { 1, 1, 1, 1 }, -E2BIG, 0 },
		{ 0xffffffffu, SRC_MAP, 0, { 1 }, -E2BIG, 0 },
		{ 0, SRC_STACK, 0, { 1 }, -EINVAL, 0 },
		{ 1, SRC_NULL, 0, { 1 }, -EINVAL, 0 },
		{ 512, SRC_NULL, 0, { 1 }, -EINVAL, 0 },
		/* No kernel address: the copy is -ERANGE, which one word
		 * turns into -EFAULT. */
		{ 1, SRC_ADDR, 8, { 1 }, -EFAULT, 0 },
		{ 2, SRC_ADDR, 8, { 1 }, -ERANGE, 0 },
		{ 2, SRC_ADDR, 4095, { 1 }, -ERANGE, 0 },
		/* A user address, none of the program's: never read. */
		{ 1, SRC_ADDR, 0x10000000, { 1 }, -EFAULT, 0 },
	};
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		one(o, kernel, &t[i]);
}

int main(void)
{
	return oracle_main_engines(cases);
}
