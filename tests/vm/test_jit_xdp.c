// SPDX-License-Identifier: MIT
/*
 * The XDP calls the JIT inlines (jit_x86.c: the RX hint kfuncs and
 * bpf_xdp_adjust_meta), under both engines from the same buff, context
 * and run, compared on r0, the abort, the buff's data_meta, the context,
 * the run's packet window and every byte of the frame; and the answers
 * checked against the kernel's rules, so a bug shared by both engines
 * shows too (progs/vm/jit_xdp_inline.bpf.c).
 *
 * Hints: the standard layout (struct hr_rx_hints) with every combination
 * of supported and present bits, read directly (run->rx_hints), through
 * the JIT's cold path (rx_hints_ok clear) and through the device ops
 * (rx_hints NULL); without a descriptor; a device with its own layout
 * (ops callbacks); no device. adjust_meta: deltas -256..256 (and a few
 * extremes) from metadata 0/4/32/216, with and without metadata support,
 * from a register, as constants, and as a 64-bit r2.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <linux/bpf.h>

#include "progs/ctx.h"
#include "vm/engine.h"
#include "vm/jit.h"
#include "progs/prog.h"
#include "core/xdp.h"
#include <headroom/object.h>
#include "harness.h"
#include "../../progs/include/hr_progs.h"

#define FRAME 4096
#define HEADROOM 256
#define PKT_LEN 64

/* progs/vm/jit_xdp_inline.bpf.c */
struct jit_hints_out {
	uint64_t ts;
	uint32_t hash;
	uint32_t rss_type;
	uint16_t vlan_proto;
	uint16_t vlan_tci;
	int32_t ret_hash;
	int32_t ret_ts;
	int32_t ret_vlan;
};

/* What one run starts from. */
struct setup {
	uint32_t headroom; /* 0: HEADROOM */
	uint32_t metalen;
	bool meta_ok; /* the device supports data_meta */
	bool no_rxq;
	const struct hr_xdp_metadata_ops *ops;
	const void *hints;
	int hints_mode; /* 0 hr_xdp_ctx_hints, 1 rx_hints_ok cleared,
			 * 2 rx_hints NULL */
	const uint8_t *pkt; /* PKT_LEN bytes */
};

/* What one run leaves. */
struct result {
	uint64_t r0;
	int abort;
	uint32_t abort_pc;
	uint64_t abort_addr;
	intptr_t data_meta, pkt_lo, pkt_hi; /* from the frame */
	struct xdp_md md;
	uint8_t frame[FRAME];
};

static uint8_t *frame;
static struct hr_run *run;

static void run_one(struct hr_prog *prog, int engine, const struct setup *s,
		    struct result *res)
{
	struct hr_rxq_info rxq = {
		.ifindex = 3,
		.queue_index = 1,
		.meta_supported = s->meta_ok,
		.meta_ops = s->ops,
	};
	struct hr_xdp_buff xdp;
	struct hr_xdp_ctx c;
	uintptr_t base = (uintptr_t)frame;
	uint32_t headroom = s->headroom ? s->headroom : HEADROOM;
	unsigned int i;

	for (i = 0; i < FRAME; i++)
		frame[i] = (uint8_t)(i * 7 + 1);
	memcpy(frame + headroom, s->pkt, PKT_LEN);
	hr_xdp_init_buff(&xdp, FRAME, s->no_rxq ? NULL : &rxq);
	hr_xdp_prepare_buff(&xdp, frame, headroom, PKT_LEN, s->meta_ok);
	if (s->meta_ok)
		xdp.data_meta = (uint8_t *)xdp.data - s->metalen;
	xdp.hints = s->hints;
	memset(&c, 0, sizeof(c));
	c.xdp = &xdp;
	c.md.ingress_ifindex = s->no_rxq ? 0 : rxq.ifindex;
	c.md.rx_queue_index = s->no_rxq ? 0 : rxq.queue_index;
	hr_prog_run_init(prog, run, &c.md);
	run->priv = &c;
	hr_xdp_ctx_sync(&c, run);
	hr_xdp_ctx_hints(&c, run);
	if (s->hints_mode == 1) {
		run->rx_hints_ok = 0;
	} else if (s->hints_mode == 2) {
		run->rx_hints = NULL;
		run->rx_hints_ok = 0;
	}
	res->r0 = hr_engine_run((enum hr_engine)engine, run,
				(uint64_t)(uintptr_t)&c.md);
	res->abort = run->abort;
	res->abort_pc = run->abort_pc;
	res->abort_addr = run->abort_addr ? run->abort_addr - base : 0;
	res->data_meta = (intptr_t)((uintptr_t)xdp.data_meta - base);
	res->pkt_lo = (intptr_t)(run->pkt_lo - base);
	res->pkt_hi = (intptr_t)(run->pkt_hi - base);
	res->md = c.md;
	memcpy(res->frame, frame, FRAME);
}

/* The JIT and the checked JIT against the interpreter from @s; 0 when
 * all agree (checked), the interpreter's result in @res. */
static int both(struct hr_prog *prog, const struct setup *s, struct result *res,
		const char *what)
{
	static const enum hr_engine jits[2] = { HR_ENGINE_JIT,
						HR_ENGINE_JIT_CHECKED };
	static struct result jit;
	int at = -1, ret = 0;
	unsigned int i, e;

	run_one(prog, HR_ENGINE_INTERP, s, res);
	for (e = 0; e < 2; e++) {
		const char *how = e ? "checked JIT" : "JIT";

		at = -1;
		run_one(prog, jits[e], s, &jit);
		for (i = 0; i < FRAME && at < 0; i++)
			if (res->frame[i] != jit.frame[i])
				at = (int)i;
		CHECK(res->r0 == jit.r0 && res->abort == jit.abort &&
			      res->abort_pc == jit.abort_pc &&
			      res->abort_addr == jit.abort_addr,
		      "%s (%s): r0 %#llx abort %d pc %u addr %#llx vs %#llx "
		      "%d %u %#llx",
		      what, how, (unsigned long long)res->r0, res->abort,
		      res->abort_pc, (unsigned long long)res->abort_addr,
		      (unsigned long long)jit.r0, jit.abort, jit.abort_pc,
		      (unsigned long long)jit.abort_addr);
		CHECK(res->data_meta == jit.data_meta &&
			      res->pkt_lo == jit.pkt_lo &&
			      res->pkt_hi == jit.pkt_hi &&
			      !memcmp(&res->md, &jit.md, sizeof(res->md)),
		      "%s (%s): data_meta %ld pkt [%ld, %ld) md.data_meta %#x "
		      "vs %ld [%ld, %ld) %#x",
		      what, how, (long)res->data_meta, (long)res->pkt_lo,
		      (long)res->pkt_hi, res->md.data_meta, (long)jit.data_meta,
		      (long)jit.pkt_lo, (long)jit.pkt_hi, jit.md.data_meta);
		CHECK(at < 0, "%s (%s): frame byte %d: %#x vs %#x", what, how,
		      at, at < 0 ? 0 : res->frame[at],
		      at < 0 ? 0 : jit.frame[at]);
		if (res->r0 != jit.r0 || at >= 0)
			ret = -1;
	}
	return ret;
}

static struct hr_object *obj;

static struct hr_prog *prog_named(const char *name)
{
	struct hr_prog *p = hr_object_find_prog(obj, name);

	CHECK(p != NULL, "no program %s", name);
	return p;
}

/* Hints. */

static const uint8_t plain_pkt[PKT_LEN] = { 2, 0, 0, 0, 0, 2, 2,
					    0, 0, 0, 0, 1, 8, 0 };

/* What a kfunc answers for @bit with @sup / @pres (kfuncs_xdp.c). */
static int expect_code(unsigned int sup, unsigned int pres, unsigned int bit)
{
	if (!(sup & bit))
		return -EOPNOTSUPP;
	if (!(pres & bit))
		return -ENODATA;
	return 0;
}

/* The tci a failing VLAN op writes, -1 when it writes nothing. */
static int fail_tci = -1;

/* The program's metadata after a run, against the answers expected:
 * @codes for hash, timestamp, vlan; values from @h only with 0, else the
 * program's sentinels (and fail_tci). */
static void check_hints(const struct result *res, const int codes[3],
			const struct hr_rx_hints *h, const char *what)
{
	struct jit_hints_out o;

	CHECK(res->r0 == XDP_PASS && !res->abort, "%s: r0 %llu abort %d", what,
	      (unsigned long long)res->r0, res->abort);
	memcpy(&o, res->frame + HEADROOM - sizeof(o), sizeof(o));
	CHECK(o.ret_hash == codes[0] && o.ret_ts == codes[1] &&
		      o.ret_vlan == codes[2],
	      "%s: codes %d %d %d, expected %d %d %d", what, o.ret_hash,
	      o.ret_ts, o.ret_vlan, codes[0], codes[1], codes[2]);
	CHECK(codes[0] ? o.hash == 0x22222222 && o.rss_type == 0x33333333 :
			 o.hash == h->hash && o.rss_type == h->hash_type,
	      "%s: hash %#x type %#x", what, o.hash, o.rss_type);
	CHECK(codes[1] ? o.ts == 0x1111111111111111ull : o.ts == h->timestamp,
	      "%s: ts %#llx", what, (unsigned long long)o.ts);
	CHECK(codes[2] ?
		      o.vlan_proto == 0x4444 &&
			      o.vlan_tci == (fail_tci < 0 ? 0x5555 : fail_tci) :
		      o.vlan_proto == h->vlan_proto &&
			      o.vlan_tci == h->vlan_tci,
	      "%s: vlan %#x %#x", what, o.vlan_proto, o.vlan_tci);
}

/* The standard layout: every supported x present combination, read each
 * way, under both engines. */
static void test_std_hints(void)
{
	struct hr_prog *p = prog_named("jit_hints");
	static struct result res;
	struct hr_rx_hints h = {
		.timestamp = 0x0102030405060708ull,
		.hash = 0xa1b2c3d4,
		.hash_type = 0x19,
		.vlan_proto = 0x0081,
		.vlan_tci = 0x0123,
	};
	struct setup s = {
		.meta_ok = true,
		.ops = &hr_xdp_std_meta_ops,
		.hints = &h,
		.pkt = plain_pkt,
	};
	unsigned int sup, pres;
	int mode, codes[3];
	char what[96];

	if (!p)
		return;
	for (sup = 0; sup < 8; sup++) {
		for (pres = 0; pres < 8; pres++) {
			h.supported = (uint8_t)sup;
			h.present = (uint8_t)pres;
			codes[0] = expect_code(sup, pres, HR_RX_HINT_HASH);
			codes[1] = expect_code(sup, pres, HR_RX_HINT_TIMESTAMP);
			codes[2] = expect_code(sup, pres, HR_RX_HINT_VLAN);
			for (mode = 0; mode < 3; mode++) {
				snprintf(what, sizeof(what),
					 "std sup %u pres %u mode %d", sup,
					 pres, mode);
				s.hints_mode = mode;
				both(p, &s, &res, what);
				check_hints(&res, codes, &h, what);
			}
		}
	}
	/* A device with the layout, no descriptor for this packet. */
	s.hints = NULL;
	codes[0] = codes[1] = codes[2] = -ENODATA;
	s.hints_mode = 0;
	both(p, &s, &res, "std without a descriptor");
	check_hints(&res, codes, &h, "std without a descriptor");
}

/* A device with its own layout: the ops answer and write what the
 * driver writes, which the kfunc passes on whatever they return: on
 * failure the VLAN op writes only the tci, as veth's does (0 there). */
static unsigned int ops_mode;
#define T_FAIL_TCI 0x0bad

static int t_ts(const struct hr_xdp_buff *xdp, uint64_t *ts)
{
	if (ops_mode == 1)
		return -ENODATA;
	*ts = 0x8877665544332211ull;
	return 0;
}

static int t_hash(const struct hr_xdp_buff *xdp, uint32_t *hash, uint32_t *type)
{
	if (ops_mode == 1)
		return -ENODATA;
	*hash = 0xdeadbeef;
	*type = 0x29;
	return 0;
}

static int t_vlan(const struct hr_xdp_buff *xdp, uint16_t *proto, uint16_t *tci)
{
	if (ops_mode) {
		*tci = T_FAIL_TCI;
		return -ENODATA;
	}
	*proto = 0xa888;
	*tci = 0x0fed;
	return 0;
}

static void test_other_hints(void)
{
	static const struct hr_xdp_metadata_ops own = {
		.rx_timestamp = t_ts,
		.rx_hash = t_hash,
		.rx_vlan_tag = t_vlan,
	},
						no_vlan = {
							.rx_timestamp = t_ts,
							.rx_hash = t_hash,
						},
						none = { 0 };
	static const struct hr_rx_hints vals = {
		.timestamp = 0x8877665544332211ull,
		.hash = 0xdeadbeef,
		.hash_type = 0x29,
		.vlan_proto = 0xa888,
		.vlan_tci = 0x0fed,
	};
	/* A descriptor in the standard layout that must not be read: the
	 * device does not say it uses that layout. */
	static const struct hr_rx_hints decoy = {
		.present = HR_RX_HINTS_ALL,
		.supported = HR_RX_HINTS_ALL,
	};
	struct hr_prog *p = prog_named("jit_hints");
	static struct result res;
	struct setup s = { .meta_ok = true, .hints = &decoy, .pkt = plain_pkt };
	int codes[3];

	if (!p)
		return;
	s.ops = &own;
	for (ops_mode = 0; ops_mode < 3; ops_mode++) {
		char what[64];

		codes[0] = codes[1] = ops_mode == 1 ? -ENODATA : 0;
		codes[2] = ops_mode ? -ENODATA : 0;
		snprintf(what, sizeof(what), "own layout mode %u", ops_mode);
		both(p, &s, &res, what);
		fail_tci = ops_mode ? T_FAIL_TCI : -1;
		check_hints(&res, codes, &vals, what);
		fail_tci = -1;
	}
	ops_mode = 0;
	s.ops = &no_vlan;
	codes[0] = codes[1] = 0;
	codes[2] = -EOPNOTSUPP;
	both(p, &s, &res, "own layout without vlan");
	check_hints(&res, codes, &vals, "own layout without vlan");
	codes[0] = codes[1] = codes[2] = -EOPNOTSUPP;
	s.ops = &none;
	both(p, &s, &res, "ops without callbacks");
	check_hints(&res, codes, &vals, "ops without callbacks");
	s.ops = NULL;
	both(p, &s, &res, "device without ops");
	check_hints(&res, codes, &vals, "device without ops");
	s.no_rxq = true;
	both(p, &s, &res, "no device");
	check_hints(&res, codes, &vals, "no device");
}

/* adjust_meta. */

/* hr_xdp_adjust_meta on the buff @s starts from: the expected return. */
static int expect_adjust(const struct setup *s, int delta)
{
	struct hr_xdp_buff xdp;
	struct hr_rxq_info rxq = { .meta_supported = s->meta_ok };

	hr_xdp_init_buff(&xdp, FRAME, &rxq);
	hr_xdp_prepare_buff(&xdp, frame, s->headroom ? s->headroom : HEADROOM,
			    PKT_LEN, s->meta_ok);
	if (s->meta_ok)
		xdp.data_meta = (uint8_t *)xdp.data - s->metalen;
	return hr_xdp_adjust_meta(&xdp, delta);
}

/* A buff with @metalen bytes of metadata (none without support): past
 * 216 only fits a larger headroom (the frame header takes 40 of it). */
static struct setup meta_setup(uint32_t metalen, bool ok, const uint8_t *pkt)
{
	struct setup s = {
		.headroom = metalen > 216 ? 512 : HEADROOM,
		.metalen = ok ? metalen : 0,
		.meta_ok = ok,
		.pkt = pkt,
	};

	return s;
}

static void put32(uint8_t *p, int32_t v)
{
	memcpy(p, &v, sizeof(v));
}

/* Deltas from the packet (a register): xdp_adjust_meta.o, one call or
 * two, and the marks it writes into the new metadata. */
static void test_adjust_reg(void)
{
	static const uint32_t metas[] = { 0, 4, 32, 216, 248, 252 };
	static const int32_t extremes[] = {
		INT32_MIN, INT32_MIN + 1, -4096, 4096, INT32_MAX - 3, INT32_MAX
	};
	char path[4200], what[96];
	struct hr_object_open_opts oo = { .sz = sizeof(oo) };
	struct hr_object *o;
	struct hr_prog *p;
	static struct result res;
	uint8_t pkt[PKT_LEN];
	unsigned int i, k;
	int d, ok, want;

	snprintf(path, sizeof(path), "%s/xdp_adjust_meta.o", t_progs_dir());
	if (hr_object_open(path, &oo, &o)) {
		CHECK(0, "open %s", path);
		return;
	}
	p = hr_object_find_prog(o, NULL);
	memcpy(pkt, plain_pkt, sizeof(pkt));
	for (ok = 1; ok >= 0; ok--) {
		for (i = 0; i < sizeof(metas) / sizeof(metas[0]); i++) {
			struct setup s = meta_setup(metas[i], ok, pkt);
			long hr = (long)s.headroom;

			if (!ok && i)
				break;
			for (d = -256 - 8; d <= 256 + 8 + 6; d++) {
				int32_t dv = d <= 264 ? d : extremes[d - 265];

				put32(pkt + HR_ADJ_DELTA1_OFF, dv);
				put32(pkt + HR_ADJ_DELTA2_OFF, 0);
				snprintf(what, sizeof(what),
					 "adjust reg meta %u ok %d delta %d",
					 s.metalen, ok, dv);
				both(p, &s, &res, what);
				want = expect_adjust(&s, dv);
				CHECK(res.r0 == (want ? HR_ADJ_RET_ERR1(want) :
							XDP_PASS),
				      "%s: r0 %#llx, expected error %d", what,
				      (unsigned long long)res.r0, want);
				CHECK(res.data_meta ==
					      (want ? (ok ? hr - (long)s.metalen :
							    hr + 1) :
						      hr - (long)s.metalen +
							       dv),
				      "%s: data_meta %ld", what,
				      (long)res.data_meta);
			}
			/* Two calls: grow, then give back or grow more. */
			for (k = 0; k < 40; k++) {
				put32(pkt + HR_ADJ_DELTA1_OFF, -16);
				put32(pkt + HR_ADJ_DELTA2_OFF,
				      (int32_t)k * 3 - 60);
				snprintf(what, sizeof(what),
					 "adjust reg twice meta %u ok %d %u",
					 s.metalen, ok, k);
				both(p, &s, &res, what);
			}
		}
	}
	hr_object_close(o);
}

/* Constant deltas (the JIT's immediate form) and a 64-bit r2. */
static void test_adjust_const(void)
{
	static const uint32_t metas[] = { 0, 4, 8, 32, 216, 244, 252 };
	static const uint64_t wide[] = {
		0xfffffffffffffff0ull, 0x00000000fffffff0ull,
		0x00000001fffffff0ull, 0x8000000000000000ull,
		0xffffffff00000004ull, 0x0000000100000000ull,
		0x7fffffff80000000ull, 0xfffffffffffffffdull,
	};
	struct hr_prog *seq = prog_named("jit_meta_seq");
	struct hr_prog *w = prog_named("jit_meta_wide");
	static struct result res;
	uint8_t pkt[PKT_LEN];
	unsigned int i, k;
	char what[96];
	int ok;

	if (!seq || !w)
		return;
	memcpy(pkt, plain_pkt, sizeof(pkt));
	for (ok = 1; ok >= 0; ok--) {
		for (i = 0; i < sizeof(metas) / sizeof(metas[0]); i++) {
			struct setup s = meta_setup(metas[i], ok, pkt);

			snprintf(what, sizeof(what), "adjust seq meta %u ok %d",
				 s.metalen, ok);
			both(seq, &s, &res, what);
			for (k = 0; k < sizeof(wide) / sizeof(wide[0]); k++) {
				int want;

				memcpy(pkt, &wide[k], 8);
				want = expect_adjust(&s,
						     (int)(uint32_t)wide[k]);
				snprintf(what, sizeof(what),
					 "adjust wide meta %u ok %d r2 %#llx",
					 s.metalen, ok,
					 (unsigned long long)wide[k]);
				both(w, &s, &res, what);
				CHECK((int)(uint32_t)res.r0 ==
					      (want ? want : XDP_PASS),
				      "%s: r0 %#llx, expected %d", what,
				      (unsigned long long)res.r0, want);
			}
			memcpy(pkt, plain_pkt, 8);
		}
	}
}

int main(void)
{
	char path[4200];
	struct hr_object_open_opts oo = { .sz = sizeof(oo) };

	frame = mmap(NULL, FRAME, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS | MAP_32BIT, -1, 0);
	run = aligned_alloc(64, (sizeof(*run) + 63) & ~(size_t)63);
	snprintf(path, sizeof(path), "%s/jit_xdp_inline.o", t_progs_dir());
	if (frame == MAP_FAILED || !run || hr_object_open(path, &oo, &obj)) {
		CHECK(0, "setup (%s)", path);
		return t_done();
	}
	test_std_hints();
	test_other_hints();
	test_adjust_reg();
	test_adjust_const();
	CHECK(prog_named("jit_hints")->vm.jit != NULL, "jit_hints compiled");
	CHECK(prog_named("jit_meta_seq")->vm.jit != NULL,
	      "jit_meta_seq compiled");
	hr_object_close(obj);
	free(run);
	munmap(frame, FRAME);
	return t_done();
}
