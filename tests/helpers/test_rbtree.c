// SPDX-License-Identifier: MIT
/*
 * The bpf_rb_root kfuncs (progs/helpers/xdp_rbtree.bpf.c): nodes added
 * with keys from the packet, equal ones among them, the tree's shape
 * read through bpf_rbtree_root, _left, _right and _first after each
 * change, the first node, the root and the root's left child removed
 * (the tree rebalancing), a node added twice through two references
 * (-EINVAL the second time), the first node kept past the unlock with
 * bpf_refcount_acquire, and the tree drained, compared with the
 * kernel's BPF_PROG_TEST_RUN under the interpreter, the JIT and the
 * checked JIT: every return and the packet each case wrote its answers
 * into, and headroom's answers against a model of the tree's contents
 * (the first node, the drain's order and count).
 *
 * Then on headroom alone (progs/helpers/xdp_obj_forged.bpf.c, programs
 * the verifier refuses): an add without the lock, a node read after
 * bpf_spin_unlock, a node of one tree removed under another's lock, a
 * removal of a node out of the tree, a less() that loops and one that
 * reads outside its nodes, a node read after its element is overwritten
 * under the lock each end the run with their reason (or, for
 * the node out of the tree, NULL) under every engine, twice in a row.
 * Under ASan (make SAN=1) nothing leaks and no freed byte is touched.
 */
#include <errno.h>
#include <string.h>

#include <bpf/libbpf.h>

#include "forged_runs.h"
#include "harness.h"
#include "headroom/headroom.h"
#include "oracle.h"
#include "vm/vm.h"

ORACLE_LINK_HEADROOM;

#define OBJ "xdp_rbtree.o"
#define FORGED "xdp_obj_forged.o"

struct rb_rec {
	uint32_t mode;
	uint32_t null;
	uint64_t a, s;
	uint64_t x, y, l, r, f;
};

static const char *const engine_names[] = { "interp", "jit", "jit-checked" };

static uint8_t pkt[14 + sizeof(struct rb_rec) + 8];

/* The tree's contents as headroom must hold them: key << 16 | seq, in
 * the order added. */
static uint64_t model[64];
static unsigned int nmodel;

static void model_del(uint64_t kv)
{
	unsigned int i;

	for (i = 0; i < nmodel; i++)
		if (model[i] == kv) {
			memmove(model + i, model + i + 1,
				(nmodel - i - 1) * sizeof(*model));
			nmodel--;
			return;
		}
	CHECK(0, "removed %llx, not in the tree", (unsigned long long)kv);
}

/* The least key, the first added among equal ones. */
static uint64_t model_first(void)
{
	uint64_t m = 0;
	unsigned int i;

	for (i = 0; i < nmodel; i++)
		if (!i || model[i] >> 16 < m >> 16)
			m = model[i];
	return m;
}

static struct rb_rec one(struct oracle *o, bool kernel, const char *en,
			 uint32_t mode, uint64_t a, uint64_t s, uint32_t ret)
{
	struct oracle_case c = { .obj = OBJ, .data = pkt, .size = sizeof(pkt) };
	struct rb_rec in = { .mode = mode, .a = a, .s = s }, out;
	const struct oracle_result *r;
	static struct oracle_result res;
	char label[80];
	int k;

	memset(pkt, 0, sizeof(pkt));
	memcpy(pkt + 14, &in, sizeof(in));
	snprintf(label, sizeof(label), "%s mode %u a %llu s %llu", en, mode,
		 (unsigned long long)a, (unsigned long long)s);
	if (kernel) {
		k = oracle_check(o, &c, label);
		CHECK(k == 1, "%s: %s", label,
		      k == 0 ? "differs from the kernel" : "not run");
	} else {
		CHECK(oracle_run_headroom(o, &c, &res) == 0, "%s: run", label);
	}
	r = oracle_headroom_result(o);
	memcpy(&out, r->out + 14, sizeof(out));
	CHECK(r->retval == ret, "%s: retval %u, not %u", label, r->retval, ret);
	return out;
}

static void add(struct oracle *o, bool kernel, const char *en, uint64_t key,
		uint64_t seq)
{
	struct rb_rec r = one(o, kernel, en, 0, key, seq, XDP_PASS);

	CHECK(r.null == 0 && r.x == 0 && r.y == key,
	      "%s add %llu: null %u ret %lld key %llu", en,
	      (unsigned long long)key, r.null, (long long)r.x,
	      (unsigned long long)r.y);
	model[nmodel++] = key << 16 | seq;
}

static void shape(struct oracle *o, bool kernel, const char *en)
{
	struct rb_rec r = one(o, kernel, en, 1, 0, 0, XDP_PASS);

	CHECK(r.f == model_first(), "%s: first %llx, not %llx", en,
	      (unsigned long long)r.f, (unsigned long long)model_first());
	CHECK(!nmodel == !r.x, "%s: root %llx with %u nodes", en,
	      (unsigned long long)r.x, nmodel);
}

static void take(struct oracle *o, bool kernel, const char *en, uint32_t mode)
{
	struct rb_rec r = one(o, kernel, en, mode, 0, 0, XDP_TX);

	CHECK(r.null == 0, "%s take %u: null %u", en, mode, r.null);
	if (mode == 2)
		CHECK(r.x << 16 == (model_first() & ~0xffffull) &&
			      r.y == (model_first() & 0xffff),
		      "%s: first removed %llu/%llu", en,
		      (unsigned long long)r.x, (unsigned long long)r.y);
	model_del(r.x << 16 | r.y);
}

static void drain(struct oracle *o, bool kernel, const char *en)
{
	struct rb_rec r = one(o, kernel, en, 5, 0, 0, XDP_PASS);
	uint64_t fold = 0, f;
	unsigned int n = 0;

	while (nmodel && n < 16) {
		f = model_first();
		fold = fold * 31 + ((f >> 16) << 8 | (f & 0xffff));
		model_del(f);
		n++;
	}
	CHECK(r.x == n && r.y == fold,
	      "%s drain: %llu nodes fold %llx, not "
	      "%u %llx",
	      en, (unsigned long long)r.x, (unsigned long long)r.y, n,
	      (unsigned long long)fold);
}

static void cases(struct oracle *o, bool kernel, size_t e)
{
	static const uint64_t keys[] = { 50, 30, 70, 20, 40, 60, 80, 10,
					 25, 35, 30, 30, 5,  90, 45 };
	const char *en = engine_names[e];
	struct rb_rec r;
	unsigned int i;

	nmodel = 0;
	/* Empty: nothing to read or take. */
	shape(o, kernel, en);
	r = one(o, kernel, en, 2, 0, 0, XDP_PASS);
	CHECK(r.null == 1, "%s: first of an empty tree", en);
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		add(o, kernel, en, keys[i], i + 1);
		shape(o, kernel, en);
	}
	take(o, kernel, en, 3);
	shape(o, kernel, en);
	take(o, kernel, en, 4);
	shape(o, kernel, en);
	take(o, kernel, en, 2);
	shape(o, kernel, en);
	take(o, kernel, en, 3);
	shape(o, kernel, en);
	take(o, kernel, en, 3);
	shape(o, kernel, en);
	add(o, kernel, en, 30, 40);
	add(o, kernel, en, 1, 41);
	/* The same node twice, through two references. */
	r = one(o, kernel, en, 6, 33, 42, XDP_PASS);
	CHECK(r.x == 0 && r.y == (uint64_t)-EINVAL, "%s: adds %lld %lld", en,
	      (long long)r.x, (long long)r.y);
	model[nmodel++] = 33ull << 16 | 42;
	shape(o, kernel, en);
	/* The first node kept past the unlock through a counted reference. */
	r = one(o, kernel, en, 7, 0, 0, XDP_PASS);
	CHECK(r.null == 0 && r.x << 16 == (model_first() & ~0xffffull) &&
		      r.y == (model_first() & 0xffff),
	      "%s: kept %llu/%llu", en, (unsigned long long)r.x,
	      (unsigned long long)r.y);
	shape(o, kernel, en);
	shape(o, kernel, en);
	drain(o, kernel, en);
	shape(o, kernel, en);
	drain(o, kernel, en);
	shape(o, kernel, en);
}

static const struct t_forged forged[] = {
	{ "rb_no_lock", HR_ABORT_HELPER_ARG },
	{ "rb_unlocked", HR_ABORT_OOB_LOAD },
	{ "rb_other_tree", HR_ABORT_HELPER_ARG },
	{ "rb_not_in_tree", HR_ABORT_NONE },
	{ "rb_less_loops", HR_ABORT_BUDGET },
	{ "rb_less_oob", HR_ABORT_OOB_LOAD },
	{ "rb_less_unlock", HR_ABORT_HELPER_ARG },
	{ "rb_overwrite", HR_ABORT_LOCK_RECURSION },
};

/* Each misuse ends its run with its reason, twice in a row (the first
 * run's tree still there), under every engine. */
static void misuse(void)
{
	uint8_t in[64] = { 0 };

	t_forged_runs(FORGED, forged, sizeof(forged) / sizeof(forged[0]), in);
}

int main(void)
{
	misuse();
	return oracle_main_engines3(cases);
}
