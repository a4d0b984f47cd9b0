// SPDX-License-Identifier: MIT
/*
 * bpf_obj_new and bpf_obj_drop (progs/helpers/xdp_obj.bpf.c): an object
 * written and read back, two at once, the largest struct the allocator
 * serves, eight in a loop, and tc's, compared with the kernel's
 * BPF_PROG_TEST_RUN under the interpreter, the JIT and the checked JIT:
 * every return and the packet each case wrote its answers into, and
 * headroom's answers against the values the case must give.
 *
 * Then on headroom alone (progs/helpers/xdp_obj_forged.bpf.c, programs
 * the verifier refuses): a load and a store past the object's end, a load
 * and a store after bpf_obj_drop, a second drop, a drop of a pointer
 * into the object and a run ending holding its object each end the run
 * with their reason under every engine, and the run after is whole.
 * Under ASan (make SAN=1) nothing leaks and no freed byte is touched.
 */
#include <errno.h>
#include <string.h>

#include <bpf/libbpf.h>

#include "forged_runs.h"
#include "harness.h"
#include "headroom/headroom.h"
#include "obj_cases.h"
#include "oracle.h"
#include "vm/vm.h"

ORACLE_LINK_HEADROOM;

#define OBJ "xdp_obj.o"
#define FORGED "xdp_obj_forged.o"

struct obj_rec {
	uint32_t mode;
	uint32_t null;
	uint64_t a;
	uint32_t b;
	uint16_t c;
	uint8_t d[10];
	uint64_t sum, x, y;
} __attribute__((packed));

static const char *const engine_names[] = { "interp", "jit", "jit-checked" };

static uint8_t pkt[14 + sizeof(struct obj_rec) + 8];

/* @c on both sides, compared (headroom's alone without a kernel). */
static void run_case(struct oracle *o, bool kernel, const struct oracle_case *c,
		     const char *label)
{
	static struct oracle_result res;
	int ret;

	if (!kernel) {
		CHECK(oracle_run_headroom(o, c, &res) == 0, "%s: run", label);
		return;
	}
	ret = oracle_check(o, c, label);
	CHECK(ret == 1, "%s: %s", label,
	      ret == 0 ? "differs from the kernel" : "not run");
}

/* What fill() in the program gives for @r and @salt. */
static uint64_t fill_sum(const struct obj_rec *r, uint64_t salt)
{
	uint64_t s = r->a + salt + r->b + r->c;
	int i;

	for (i = 0; i < 10; i++)
		s += (uint64_t)(uint8_t)(r->d[i] + i) << i;
	return s;
}

static void one(struct oracle *o, bool kernel, const char *en, uint32_t mode,
		uint32_t want_ret)
{
	struct oracle_case c = {
		.obj = OBJ, .prog = "xdp_obj", .data = pkt, .size = sizeof(pkt)
	};
	struct obj_rec in = { .mode = mode,
			      .a = 0x1122334455ull * (mode + 1),
			      .b = 0x66778899u + mode,
			      .c = (uint16_t)(0xabcd + mode) },
		       out;
	const struct oracle_result *r;
	uint64_t sum = 0, x = 0, y = 0;
	char label[64];
	int i;

	for (i = 0; i < 10; i++)
		in.d[i] = (uint8_t)(i * 17 + mode);
	memset(pkt, 0, sizeof(pkt));
	memcpy(pkt + 14, &in, sizeof(in));
	snprintf(label, sizeof(label), "%s obj case %u", en, mode);
	run_case(o, kernel, &c, label);
	r = oracle_headroom_result(o);
	memcpy(&out, r->out + 14, sizeof(out));
	switch (mode) {
	case 0:
		sum = fill_sum(&in, 0);
		x = (in.a) ^ in.b;
		break;
	case 1:
		sum = fill_sum(&in, 1) + fill_sum(&in, 2);
		x = in.a + 2;
		y = in.a + 1;
		break;
	case 3:
		x = (uint8_t)in.b + ((uint64_t)(uint8_t)in.c << 8);
		break;
	case 4:
		for (i = 0; i < 8; i++)
			sum += fill_sum(&in, (uint64_t)i);
		break;
	}
	CHECK(r->retval == want_ret && out.null == 0 && out.sum == sum &&
		      out.x == x && out.y == y,
	      "%s: retval %u null %u sum %llx/%llx x %llx/%llx y %llx/%llx",
	      label, r->retval, out.null, (unsigned long long)out.sum,
	      (unsigned long long)sum, (unsigned long long)out.x,
	      (unsigned long long)x, (unsigned long long)out.y,
	      (unsigned long long)y);
}

/* xdp_obj_ref: two references to one object, each written, read
 * through the second after the first is dropped. */
static void ref_one(struct oracle *o, bool kernel, const char *en)
{
	struct oracle_case c = { .obj = OBJ,
				 .prog = "xdp_obj_ref",
				 .data = pkt,
				 .size = sizeof(pkt) };
	struct obj_rec in = { .a = 0x1234567890ull, .b = 0xabcdef }, out;
	const struct oracle_result *r;
	char label[64];

	memset(pkt, 0, sizeof(pkt));
	memcpy(pkt + 14, &in, sizeof(in));
	snprintf(label, sizeof(label), "%s obj refcount", en);
	run_case(o, kernel, &c, label);
	r = oracle_headroom_result(o);
	memcpy(&out, r->out + 14, sizeof(out));
	CHECK(r->retval == XDP_PASS && out.null == 0 && out.x == in.a + in.b &&
		      out.y == (in.a ^ in.b),
	      "%s: retval %u null %u x %llx y %llx", label, r->retval, out.null,
	      (unsigned long long)out.x, (unsigned long long)out.y);
}

static void tc_one(struct oracle *o, bool kernel, const char *en)
{
	struct oracle_case c = {
		.obj = OBJ, .prog = "tc_obj", .data = pkt, .size = sizeof(pkt)
	};
	struct __sk_buff skb;
	char label[64];

	memset(pkt, 0, sizeof(pkt));
	oracle_skb_cb(&skb, 1000, 20, 3, 0);
	c.skb = &skb;
	snprintf(label, sizeof(label), "%s tc obj", en);
	run_case(o, kernel, &c, label);
	CHECK(oracle_headroom_result(o)->retval == 1000 * 3 + 20 * 5 + 3,
	      "%s: retval %u", label, oracle_headroom_result(o)->retval);
}

struct kptr_rec {
	uint32_t mode;
	uint32_t null;
	uint64_t a;
	uint64_t x, y;
};

/* One run of @obj (xdp_kptr.o, xdp_list.o, whose records are alike):
 * @mode with a = @a, and the answers it must give. */
static void rec_one(struct oracle *o, bool kernel, const char *obj,
		    const char *en, uint32_t mode, uint64_t a, uint32_t null,
		    uint64_t x, uint64_t y, uint32_t ret)
{
	struct oracle_case c = { .obj = obj, .data = pkt, .size = sizeof(pkt) };
	struct kptr_rec in = { .mode = mode, .a = a }, out;
	const struct oracle_result *r;
	char label[80];

	memset(pkt, 0, sizeof(pkt));
	memcpy(pkt + 14, &in, sizeof(in));
	snprintf(label, sizeof(label), "%s %s mode %u a %llx", en, obj, mode,
		 (unsigned long long)a);
	run_case(o, kernel, &c, label);
	r = oracle_headroom_result(o);
	memcpy(&out, r->out + 14, sizeof(out));
	CHECK(out.null == null && out.x == x && out.y == y && r->retval == ret,
	      "%s: retval %u null %u/%u x %llx/%llx y %llx/%llx", label,
	      r->retval, out.null, null, (unsigned long long)out.x,
	      (unsigned long long)x, (unsigned long long)out.y,
	      (unsigned long long)y);
}

static void kptr_one(struct oracle *o, bool kernel, const char *en,
		     uint32_t mode, uint64_t a, uint32_t null, uint64_t x,
		     uint64_t y)
{
	rec_one(o, kernel, "xdp_kptr.o", en, mode, a, null, x, y,
		y ? XDP_TX : XDP_PASS);
}

/* An object into kptrs[0] and out again, the one before it coming back;
 * one left in kptrs[1] that a user space update frees. The last
 * engine's stays there for the map's end to free (ASan). */
static void kptr_cases(struct oracle *o, bool kernel, const char *en)
{
	kptr_one(o, kernel, en, 1, 0, 1, 0, 0);
	kptr_one(o, kernel, en, 0, 0x100, 2, 0, 0);
	kptr_one(o, kernel, en, 0, 0x200, 0, 0, 0x100 + 0x101);
	/* Through the field, in place: read, written, read again. */
	rec_one(o, kernel, "xdp_kptr.o", en, 4, 5, 0, 0x200, 0x206, XDP_PASS);
	rec_one(o, kernel, "xdp_kptr.o", en, 4, 7, 0, 0x200, 0x20d, XDP_PASS);
	kptr_one(o, kernel, en, 0, 0x300, 0, 0, 0x200 + 0x20d);
	kptr_one(o, kernel, en, 1, 0, 0, 0x300, 0);
	rec_one(o, kernel, "xdp_kptr.o", en, 4, 5, 4, 0, 0, XDP_PASS);
	kptr_one(o, kernel, en, 1, 0, 1, 0, 0);
	t_kptr_elem(o, kernel, "xdp_kptr.o", "kptrs", 1, true);
	kptr_one(o, kernel, en, 2, 0x300, 2, 0, 0);
	t_kptr_elem(o, kernel, "xdp_kptr.o", "kptrs", 1, false);
	t_kptr_elem(o, kernel, "xdp_kptr.o", "kptrs", 1, true);
	kptr_one(o, kernel, en, 2, 0x400, 2, 0, 0);
	t_kptr_elem(o, kernel, "xdp_kptr.o", "kptrs", 0, false);
	t_kptr_elem(o, kernel, "xdp_kptr.o", "kptrs", 1, false);
	t_kptr_delete(o, kernel, "xdp_kptr.o", "hkptrs", 1);
	kptr_one(o, kernel, en, 3, 0x500, 2, 0, 0);
	kptr_one(o, kernel, en, 3, 0x600, 0, 0, 0x500 + 0x501);
	t_kptr_delete(o, kernel, "xdp_kptr.o", "hkptrs", 1);
	kptr_one(o, kernel, en, 3, 0x700, 2, 0, 0);
}

static void list_one(struct oracle *o, bool kernel, const char *en,
		     uint32_t mode, uint64_t a, uint32_t null, uint64_t x,
		     uint64_t y, uint32_t ret)
{
	rec_one(o, kernel, "xdp_list.o", en, mode, a, null, x, y, ret);
}

/* Pushes at both ends, reads of both ends, pops from both ends down to
 * empty; the last engine leaves two elements for the map's end to free
 * (ASan). */
static void list_cases(struct oracle *o, bool kernel, const char *en)
{
	list_one(o, kernel, en, 2, 0, 1, 0, 0, XDP_PASS);
	list_one(o, kernel, en, 0, 1, 0, 0, 1, XDP_PASS);
	list_one(o, kernel, en, 1, 2, 0, 0, 2, XDP_PASS);
	list_one(o, kernel, en, 0, 3, 0, 0, 3, XDP_PASS);
	list_one(o, kernel, en, 4, 0, 0, 2, 3, XDP_PASS);
	list_one(o, kernel, en, 2, 0, 0, 2, 0, XDP_TX);
	list_one(o, kernel, en, 3, 0, 0, 3, 0, XDP_TX);
	list_one(o, kernel, en, 4, 0, 0, 1, 1, XDP_PASS);
	list_one(o, kernel, en, 3, 0, 0, 1, 0, XDP_TX);
	list_one(o, kernel, en, 2, 0, 1, 0, 0, XDP_PASS);
	list_one(o, kernel, en, 3, 0, 1, 0, 0, XDP_PASS);
	list_one(o, kernel, en, 4, 0, 0, 0, 0, XDP_PASS);
	list_one(o, kernel, en, 0, 7, 0, 0, 7, XDP_PASS);
	list_one(o, kernel, en, 1, 8, 0, 0, 8, XDP_PASS);
	list_one(o, kernel, en, 4, 0, 0, 8, 7, XDP_PASS);
}

static void cases(struct oracle *o, bool kernel, size_t e)
{
	/* The list the engine before left (none before the first). */
	list_one(o, kernel, engine_names[e], 2, 0, !e, e ? 8 : 0, 0,
		 e ? XDP_TX : XDP_PASS);
	list_one(o, kernel, engine_names[e], 2, 0, !e, e ? 7 : 0, 0,
		 e ? XDP_TX : XDP_PASS);
	list_cases(o, kernel, engine_names[e]);
	kptr_cases(o, kernel, engine_names[e]);
	one(o, kernel, engine_names[e], 0, XDP_PASS);
	one(o, kernel, engine_names[e], 1, XDP_TX);
	one(o, kernel, engine_names[e], 3, XDP_PASS);
	one(o, kernel, engine_names[e], 4, XDP_PASS);
	tc_one(o, kernel, engine_names[e]);
	ref_one(o, kernel, engine_names[e]);
}

static const struct t_forged forged[] = {
	{ "obj_past", HR_ABORT_OOB_LOAD },
	{ "obj_past_store", HR_ABORT_OOB_STORE },
	{ "obj_uaf", HR_ABORT_OOB_LOAD },
	{ "obj_uaf_store", HR_ABORT_OOB_STORE },
	{ "obj_double_drop", HR_ABORT_HELPER_ARG },
	{ "obj_drop_inner", HR_ABORT_HELPER_ARG },
	{ "obj_leak", HR_ABORT_OBJ_LEAK },
	{ "kptr_not_field", HR_ABORT_HELPER_ARG },
	{ "kptr_not_owned", HR_ABORT_HELPER_ARG },
	{ "kptr_forged", HR_ABORT_NONE },
	{ "ref_not_counted", HR_ABORT_HELPER_ARG },
	{ "ref_uaf", HR_ABORT_OOB_LOAD },
	{ "ref_forged", HR_ABORT_NONE },
	{ "list_no_lock", HR_ABORT_HELPER_ARG },
	{ "list_unlocked", HR_ABORT_OOB_LOAD },
	{ "list_forged", HR_ABORT_NONE },
};

/* Each misuse ends its run with its reason, twice in a row (the first
 * run's state gone), under every engine. */
static void misuse(void)
{
	uint8_t in[64] = { 0 };

	in[14] = 24; /* sizeof(struct thing): one byte past its end */
	t_forged_runs(FORGED, forged, sizeof(forged) / sizeof(forged[0]), in);
}

/* The structs the loader refuses to allocate, each with its reason. */
static void refused(void)
{
	static const char *const cases[][2] = {
		{ "obj_big", "bpf_obj_new type size (4089) is more than the "
			     "allocator serves" },
		{ "obj_wq", "not implemented yet: bpf_obj_new of struct "
			    "wq_thing, whose bpf_wq field" },
	};

	t_refused_loads("xdp_obj_refused.o", cases,
			sizeof(cases) / sizeof(cases[0]));
}

int main(void)
{
	refused();
	misuse();
	return oracle_main_engines3(cases);
}
