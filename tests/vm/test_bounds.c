// SPDX-License-Identifier: MIT
/*
 * The load-time bounds analysis (bounds.c) on map values and on
 * packet pointers kept across helper calls: progs/vm/bounds_facts.bpf.c run
 * over the same packets under the interpreter, the interpreter without
 * the analysis' proofs (every access checked), the JIT and the checked
 * JIT (whose every proof is tested at run time: a wrong one is an abort
 * of its own, so a difference), each on its own copy of the object. Every run's verdict, abort, output packet and, at
 * the end, every map must agree; and the proofs must be there (the checks
 * they remove), or the comparison would test nothing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vm/interp.h"
#include "vm/bounds.h"
#include "progs/prog.h"
#include <headroom/map.h>
#include <headroom/object.h>
#include <headroom/test_run.h>
#include "harness.h"

enum mode { M_INTERP, M_PLAIN, M_JIT, M_JIT_CHECKED, M__MAX };

static const char *const progs[] = {
	"vals_array",  "vals_hash",    "vals_counters",
	"vals_rdonly", "vals_globals", "pkt_moved",
};
#define NPROGS (sizeof(progs) / sizeof(progs[0]))

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint32_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)rng;
}

struct result {
	int ret, abort;
	uint32_t retval, abort_pc, out_len;
	uint8_t out[256];
};

static void run_one(struct hr_prog *prog, enum mode m, const uint8_t *pkt,
		    uint32_t len, struct result *r)
{
	struct hr_test_run_opts o = { .sz = sizeof(o) };

	memset(r, 0, sizeof(*r));
	o.data_in = pkt;
	o.data_size_in = len;
	o.data_out = r->out;
	o.data_size_out = sizeof(r->out);
	o.engine = m == M_JIT	      ? HR_ENGINE_JIT :
		   m == M_JIT_CHECKED ? HR_ENGINE_JIT_CHECKED :
					HR_ENGINE_INTERP;
	r->ret = hr_prog_test_run(prog, &o);
	r->retval = o.retval;
	r->abort = o.abort;
	r->abort_pc = o.abort_pc;
	r->out_len = o.data_size_out;
}

static bool same(const struct result *a, const struct result *b)
{
	return a->ret == b->ret && a->retval == b->retval &&
	       a->abort == b->abort && a->abort_pc == b->abort_pc &&
	       a->out_len == b->out_len &&
	       !memcmp(a->out, b->out,
		       a->out_len < sizeof(a->out) ? a->out_len :
						     sizeof(a->out));
}

static size_t rec_size;

static int rec_cmp(const void *a, const void *b)
{
	return memcmp(a, b, rec_size);
}

/* Every key and value of map @i, sorted (hash maps of two objects have
 * other seeds, so other orders), into @buf. */
static size_t map_image(struct hr_object *obj, unsigned int i, uint8_t *buf,
			size_t cap)
{
	struct hr_map *map = hr_object_map(obj, i);
	uint8_t key[64], next[64], val[4096];
	size_t n = 0, ks = 0, vs = 0;
	const void *prev = NULL;

	if (!map)
		return 0;
	ks = hr_map_key_size(map);
	vs = hr_map_user_value_size(map);
	while (ks <= sizeof(key) && vs <= sizeof(val) &&
	       !hr_map_get_next_key(map, prev, next)) {
		memcpy(key, next, ks);
		prev = key;
		if (hr_map_lookup_elem(map, key, val))
			continue;
		if (n + ks + vs > cap)
			break;
		memcpy(buf + n, key, ks);
		memcpy(buf + n + ks, val, vs);
		n += ks + vs;
	}
	rec_size = ks + vs;
	if (n)
		qsort(buf, n / rec_size, rec_size, rec_cmp);
	return n;
}

/* Under facts but no fusion, the slot kind of the instruction at @pc. */
static int slot_kind(struct hr_prog *prog, uint32_t pc)
{
	const void *const *labels = hr_interp_labels();
	struct hr_xcode *xc = hr_xcode_build(&prog->vm, HR_XCODE_NO_FUSE);
	int op, kind = -1;

	if (!xc)
		return -1;
	for (op = 0; op < XOP__MAX; op++)
		if (xc->fast[pc].h == labels[op])
			kind = op;
	hr_xcode_free(xc);
	return kind;
}

/* The instruction indexes of @prog's loads of @size bytes at @off from a
 * register that is not r10, after its first call. */
static int find_loads(struct hr_prog *prog, int off, int size, uint32_t *pcs,
		      int max)
{
	bool called = false;
	uint32_t pc;
	int n = 0;

	for (pc = 0; pc < prog->vm.cnt && n < max; pc++) {
		const struct hr_insn *i = &prog->vm.insns[pc];

		if (i->code == (HR_JMP | HR_CALL))
			called = true;
		if (called && HR_CLASS(i->code) == HR_LDX &&
		    HR_MODE(i->code) == HR_MEM && i->src != 10 &&
		    i->off == off && hr_size_bytes(i->code) == size)
			pcs[n++] = pc;
	}
	return n;
}

/* Slots of kinds [lo, hi] whose base register is not r10 (the stack's
 * constant offsets need no proof). */
static int count_kind(struct hr_prog *prog, int lo, int hi)
{
	const void *const *labels = hr_interp_labels();
	struct hr_xcode *xc = hr_xcode_build(&prog->vm, HR_XCODE_NO_FUSE);
	uint32_t pc;
	int op, n = 0;

	if (!xc)
		return -1;
	for (pc = 0; pc < xc->cnt; pc++) {
		const struct hr_insn *i = &prog->vm.insns[pc];
		int base = HR_CLASS(i->code) == HR_LDX ? i->src : i->dst;

		for (op = lo; op <= hi; op++)
			if (xc->fast[pc].h == labels[op] && base != 10)
				n++;
	}
	hr_xcode_free(xc);
	return n;
}

/*
 * ld_imm64 of global data gives values that are never NULL: the constant
 * offsets inside them proven (loads of g_ro and g_bss, the store into
 * g_bss), the store into read-only g_ro and the load one past g_data not.
 */
static void check_globals(struct hr_prog *p)
{
	int loads = 0, stores = 0, unproven = 0;
	struct jb_facts f = { 0 };
	uint32_t pc;

	jb_analyze(&p->vm, jb_fp_fixed(&p->vm), &f);
	for (pc = 0; pc < p->vm.cnt; pc++) {
		const struct hr_insn *i = &p->vm.insns[pc];
		bool st = HR_CLASS(i->code) == HR_STX ||
			  HR_CLASS(i->code) == HR_ST;
		int base = st ? i->dst : i->src;
		const struct jb_reg *r;

		if ((HR_CLASS(i->code) != HR_LDX && !st) ||
		    HR_MODE(i->code) != HR_MEM || base == 10)
			continue;
		r = jb_reg_at(&f, pc, base);
		if (!r || r->t != JB_VALUE)
			continue;
		if (!jb_value_safe(&f, pc, base, i->off,
				   (int)hr_size_bytes(i->code), st))
			unproven++;
		else if (st)
			stores++;
		else
			loads++;
	}
	jb_free(&f);
	CHECK(loads >= 2, "vals_globals: loads of g_ro, g_bss proven: %d",
	      loads);
	CHECK(stores == 1, "vals_globals: the store into g_bss proven: %d",
	      stores);
	CHECK(unproven >= 2,
	      "vals_globals: store into g_ro, load past g_data unproven: %d",
	      unproven);
}

/* The proofs the comparison relies on are made, and the wrong ones not. */
static void check_proofs(struct hr_object *obj)
{
	struct hr_prog *p;
	uint32_t pcs[4];
	int n, i;

	p = hr_object_find_prog(obj, "vals_array");
	CHECK(p && count_kind(p, XOP_AADD_W, XOP_AFADD_DW) == 1,
	      "vals_array: the atomic add on the value is proven");
	CHECK(p && count_kind(p, XOP_STXU_B, XOP_STU_DW) >= 2,
	      "vals_array: value stores are proven");
	/* The store one past the value stays checked. */
	CHECK(p && count_kind(p, XOP_STX_B, XOP_ST_DW) >= 1,
	      "vals_array: the store past the value is checked");
	p = hr_object_find_prog(obj, "vals_hash");
	n = p ? find_loads(p, 2, 1, pcs, 4) + find_loads(p, 3, 1, pcs + 1, 3) :
		0;
	CHECK(n >= 2, "vals_hash: packet loads after the lookup: %d", n);
	for (i = 0; p && i < n && i < 2; i++)
		CHECK(slot_kind(p, pcs[i]) == XOP_LDXU_B,
		      "vals_hash: packet load at pc %u kept its proof", pcs[i]);
	p = hr_object_find_prog(obj, "vals_rdonly");
	CHECK(p && count_kind(p, XOP_STXU_B, XOP_STU_DW) == 0,
	      "vals_rdonly: no store into the read-only value is proven");
	p = hr_object_find_prog(obj, "vals_globals");
	CHECK(p != NULL, "vals_globals");
	if (p)
		check_globals(p);
	p = hr_object_find_prog(obj, "pkt_moved");
	n = p ? find_loads(p, 40, 1, pcs, 4) : 0;
	CHECK(n == 1, "pkt_moved: one load at +40 after the call: %d", n);
	if (n == 1)
		CHECK(slot_kind(p, pcs[0]) == XOP_LDX_B,
		      "pkt_moved: the load after adjust_head is checked");
}

static struct hr_object *open_obj(const char *path)
{
	struct hr_object_open_opts oo = { .sz = sizeof(oo) };
	struct hr_object *obj = NULL;
	int ret = hr_object_open(path, &oo, &obj);

	CHECK(!ret, "open %s: %d", path, ret);
	return ret ? NULL : obj;
}

int main(void)
{
	struct hr_object *obj[M__MAX] = { 0 };
	static struct result r[M__MAX];
	static uint8_t img[M__MAX][1 << 16];
	char path[512];
	uint8_t pkt[128];
	unsigned int i, n, k, bad = 0;
	size_t len[M__MAX];
	int m;

	snprintf(path, sizeof(path), "%s/bounds_facts.o", t_progs_dir());
	for (m = 0; m < M__MAX; m++)
		if (!(obj[m] = open_obj(path)))
			return t_done();
	check_proofs(obj[M_INTERP]);
	/* M_PLAIN runs code prepared without the analysis. */
	for (i = 0; i < NPROGS; i++) {
		struct hr_prog *p = hr_object_find_prog(obj[M_PLAIN], progs[i]);

		CHECK(p != NULL, "%s", progs[i]);
		if (p)
			p->vm.xcode = hr_xcode_build(&p->vm, HR_XCODE_NO_FACTS);
	}
	for (n = 0; n < 3000; n++) {
		uint32_t plen = rnd() % 4 ? 4 + rnd() % 90 : rnd() % 8;
		const char *name = progs[rnd() % NPROGS];

		for (k = 0; k < sizeof(pkt); k++)
			pkt[k] = (uint8_t)rnd();
		pkt[0] %= 4;
		pkt[1] %= 8; /* few keys: hits, misses, updates */
		for (m = 0; m < M__MAX; m++)
			run_one(hr_object_find_prog(obj[m], name), m, pkt, plen,
				&r[m]);
		for (m = 1; m < M__MAX; m++) {
			if (same(&r[0], &r[m]))
				continue;
			if (++bad <= 5)
				CHECK(0,
				      "%s len %u sel %u mode %d: ret %d/%d "
				      "retval %u/%u abort %d/%d pc %u/%u",
				      name, plen, pkt[0], m, r[0].ret, r[m].ret,
				      r[0].retval, r[m].retval, r[0].abort,
				      r[m].abort, r[0].abort_pc, r[m].abort_pc);
		}
	}
	CHECK(bad == 0, "%u runs differ", bad);
	for (i = 0; i < hr_object_map_count(obj[0]); i++) {
		for (m = 0; m < M__MAX; m++)
			len[m] = map_image(obj[m], i, img[m], sizeof(img[m]));
		for (m = 1; m < M__MAX; m++)
			CHECK(len[m] == len[0] &&
				      !memcmp(img[m], img[0], len[0]),
			      "map %u differs under mode %d", i, m);
		CHECK(len[0] > 0, "map %u was used", i);
	}
	for (m = 0; m < M__MAX; m++)
		hr_object_close(obj[m]);
	return t_done();
}
