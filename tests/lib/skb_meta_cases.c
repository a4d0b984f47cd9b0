// SPDX-License-Identifier: MIT
/* The skb metadata dynptr cases and their model (skb_meta_cases.h). */
#include "skb_meta_cases.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "headroom/datapath.h"
#include "headroom/devices.h"
#include "headroom/headroom.h"
#include "progs/prog.h"
#include "core/datapath.h"
#include "xdp_tc_run.h"

const uint8_t smd_meta_lens[4] = { 0, 4, 32, SMD_MAX_META };

/* Offset and length pairs around the edges of @m bytes. */
#define NPAIRS 20
static void pairs(uint32_t m, uint32_t p[NPAIRS][2])
{
	const uint32_t v[NPAIRS][2] = {
		{ 0, 0 },	    { 0, 1 },
		{ 0, 4 },	    { 0, m },
		{ 0, m + 1 },	    { 1, m - 1 },
		{ 1, m },	    { m - 1, 1 },
		{ m - 1, 2 },	    { m, 0 },
		{ m, 1 },	    { m + 1, 0 },
		{ m / 2, m / 2 },   { m / 2, m - m / 2 + 1 },
		{ 0xffffffffu, 1 }, { 0xffffffffu, 0 },
		{ 0x80000000u, 0 }, { 0, SMD_RD_MAX },
		{ 4, 28 },	    { m - 4, 4 },
	};

	memcpy(p, v, sizeof(v));
}

/* bpf_dynptr_adjust ranges: inside, at the ends, reversed, past. */
#define NADJ 10
static void adjusts(uint32_t m, uint32_t a[NADJ][2])
{
	const uint32_t v[NADJ][2] = {
		{ 0, m },	  { 1, m },
		{ m, m },	  { 0, 0 },
		{ 2, 1 },	  { 0, m + 1 },
		{ m + 1, m + 1 }, { m / 2, m },
		{ 4, 8 },	  { 0xffffffffu, 0xffffffffu },
	};

	memcpy(a, v, sizeof(v));
}

unsigned int smd_make_cases(struct smd_case *cs)
{
	static const uint64_t flags[3] = { 1, 2, 1ull << 63 };
	unsigned int n = 0, i, j;

	for (i = 0; i < sizeof(smd_meta_lens); i++) {
		uint32_t m = smd_meta_lens[i], p[NPAIRS][2], a[NADJ][2];

		pairs(m, p);
		adjusts(m, a);
		for (j = 0; j < NPAIRS && n < SMD_NRECS; j++, n++) {
			struct smd_case *c = &cs[n];

			memset(c, 0, sizeof(*c));
			c->magic = SMD_MAGIC;
			c->idx = (uint16_t)n;
			c->meta_len = (uint8_t)m;
			c->off = p[j][0];
			c->len = p[j][1];
			c->start = a[(j + i) % NADJ][0];
			c->end = a[(j + i) % NADJ][1];
			c->flags = flags[j % 3];
		}
	}
	return n;
}

uint32_t smd_packet(const struct smd_case *c, uint8_t *buf, bool filler)
{
	static const uint8_t eth[SMD_ETH_HLEN] = {
		0x02, 0, 0, 0, 0,    0x02,	     0x02,
		0,    0, 0, 0, 0x01, SMD_ETH_P >> 8, SMD_ETH_P & 0xff,
	};
	uint8_t *p = buf;
	uint32_t i;

	if (filler) {
		/* A header of its own for the wire, then padding. */
		memset(p, 0, SMD_FILLER);
		memcpy(p, eth, 12);
		p[12] = 0x88;
		p[13] = 0xb7;
		p += SMD_FILLER;
	}
	for (i = 0; i < SMD_PKT_LEN; i++)
		p[i] = (uint8_t)(i * 11u + c->idx * 5u);
	memcpy(p, eth, sizeof(eth));
	memcpy(p + SMD_ETH_HLEN, c, sizeof(*c));
	return filler ? SMD_WIRE_LEN : SMD_PKT_LEN;
}

void smd_pattern(uint8_t *pat)
{
	unsigned int i;

	for (i = 0; i < SMD_RD_MAX; i++)
		pat[i] = SMD_PAT_BYTE(i);
}

/* bpf_dynptr_check_off_len over @size bytes, in u32 arithmetic. */
static int check(uint32_t size, uint32_t off, uint32_t len)
{
	return len > size || off > size - len ? -E2BIG : 0;
}

void smd_expect(const struct smd_case *c, uint32_t m, struct smd_rec *r)
{
	static const uint32_t slens[SMD_SLICES] = { 1, 4, 32, SMD_MAX_META };
	uint32_t len = c->len > SMD_RD_MAX ? SMD_RD_MAX : c->len, off = c->off;
	uint8_t meta[SMD_MAX_META], pkt[SMD_PKT_LEN], pat[SMD_RD_MAX];
	uint32_t cofs = 0, csz = m, i, k;
	bool ok = !check(m, off, len);

	memset(r, 0, sizeof(*r));
	smd_packet(c, pkt, false);
	smd_pattern(pat);
	for (i = 0; i < m; i++)
		meta[i] = SMD_META_BYTE(c->idx, i);
	r->seen = 1;
	r->meta_len = m;
	/* A dynptr over the m bytes (size 0 is still a dynptr). */
	r->size = m;
	r->rd = ok ? 0 : -E2BIG;
	if (ok)
		memcpy(r->rd_bytes, meta + off, len);
	r->rd_flags = -EINVAL; /* flags are checked first */
	for (k = 0; k < SMD_SLICES; k++) {
		if (check(m, off, slens[k]))
			continue;
		r->slice[k] = 1; /* the metadata, never the buffer */
		memcpy(r->slice_bytes[k], meta + off,
		       slens[k] < 4 ? slens[k] : 4);
	}
	/* The range is checked before the flags. */
	r->wr_flags = ok ? -EINVAL : -E2BIG;
	r->wr = ok ? 0 : -E2BIG;
	if (ok)
		memcpy(meta + off, pat, len);
	memcpy(r->meta_mid, meta, m);
	for (k = 0; k < SMD_SLICES; k++) {
		if (check(m, off, slens[k]))
			continue;
		r->slice_rw[k] = 1;
		meta[off] = (uint8_t)(meta[off] + k + 1);
	}

	r->clone_size = m;
	if (c->start > c->end) {
		r->adjust = -EINVAL;
	} else if (c->start > m || c->end > m) {
		r->adjust = -ERANGE;
	} else {
		cofs = c->start;
		csz = c->end - c->start;
	}
	r->adj_size = csz;
	r->orig_size = m;
	r->adj_rd = check(csz, 0, 4);
	if (!r->adj_rd)
		memcpy(r->adj_bytes, meta + cofs, 4);
	r->adj_wr = check(csz, 0, 1);
	if (!r->adj_wr) {
		meta[cofs] = pat[200];
		r->adj_slice = 1;
		r->adj_first = meta[cofs];
	}

	/* Each copy goes through both slices or fails the range check. */
	if (ok && !check(csz, 0, len))
		memmove(meta + off, meta + cofs, len);
	else
		r->copy_mm = -E2BIG;
	if (ok) {
		memmove(pkt + SMD_PKT_OFF, meta + off, len);
		memmove(meta + off, pkt + SMD_PKT_SRC, len);
		memset(meta + off, 0x5a, len);
	} else {
		r->copy_dm = r->copy_md = r->memset = -E2BIG;
	}

	r->n_create = -EINVAL;
	r->n_null = 1;
	r->n_size = (uint32_t)-EINVAL;
	r->n_rd = -EINVAL;
	r->n_wr = -EINVAL;
	r->n_adjust = -EINVAL;
	r->n_clone = -EINVAL;
	r->n_clone_null = 1;
	/* One end null: its read or write says -EINVAL when the other end
	 * has a slice, else the range check of the metadata end fails. */
	r->n_copy_src = len <= m ? -EINVAL : -E2BIG;
	r->n_copy_dst = len <= m ? -EINVAL : -E2BIG;
	r->n_memset = len ? -E2BIG : 0;

	memcpy(r->meta_end, meta, m);
	memcpy(r->pkt, pkt + SMD_PKT_OFF, sizeof(r->pkt));
}

struct field {
	const char *name;
	size_t off, size;
};

#define NAME(f) #f
#define FSIZE(f) sizeof(((struct smd_rec *)0)->f)
#define F(f)                                                   \
	{                                                      \
		NAME(f), offsetof(struct smd_rec, f), FSIZE(f) \
	}

static const struct field fields[] = {
	F(seen),       F(xdp),		F(meta_len),	 F(create),
	F(size),       F(rdonly),	F(is_null),	 F(slice),
	F(slice_rw),   F(clone_rdonly), F(adj_null),	 F(rd),
	F(rd_flags),   F(wr_flags),	F(wr),		 F(clone),
	F(clone_size), F(adjust),	F(adj_size),	 F(orig_size),
	F(adj_rd),     F(adj_wr),	F(adj_slice),	 F(adj_first),
	F(copy_mm),    F(copy_dm),	F(copy_md),	 F(memset),
	F(n_create),   F(n_size),	F(n_null),	 F(n_rdonly),
	F(n_slice),    F(n_slice_rw),	F(n_clone_null), F(n_rd),
	F(n_wr),       F(n_adjust),	F(n_clone),	 F(n_copy_src),
	F(n_copy_dst), F(n_memset),	F(rd_bytes),	 F(slice_bytes),
	F(adj_bytes),  F(meta_mid),	F(meta_end),	 F(pkt),
};

bool smd_same(const struct smd_rec *a, const struct smd_rec *b, char *why,
	      size_t whysz)
{
	const uint8_t *x = (const void *)a, *y = (const void *)b;
	size_t i, j;

	if (!memcmp(a, b, sizeof(*a)))
		return true;
	for (i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
		const struct field *f = &fields[i];
		int32_t va = 0, vb = 0;

		if (!memcmp(x + f->off, y + f->off, f->size))
			continue;
		if (f->size == 4) {
			memcpy(&va, x + f->off, 4);
			memcpy(&vb, y + f->off, 4);
			snprintf(why, whysz, "%s: %d vs %d", f->name, va, vb);
			return false;
		}
		for (j = 0; j < f->size && x[f->off + j] == y[f->off + j]; j++)
			;
		snprintf(why, whysz, "%s[%zu]: %#x vs %#x", f->name, j,
			 x[f->off + j], y[f->off + j]);
		return false;
	}
	snprintf(why, whysz, "padding differs");
	return false;
}

void smd_expect_all(const struct smd_case *cs, unsigned int n, bool test_run,
		    struct smd_rec *recs)
{
	unsigned int i;

	memset(recs, 0, SMD_NRECS * sizeof(*recs));
	for (i = 0; i < n; i++)
		smd_expect(&cs[i], test_run ? 0 : cs[i].meta_len,
			   &recs[cs[i].idx]);
}

void smd_compare(const char *who, const struct smd_case *cs, unsigned int n,
		 const struct smd_rec *got, const struct smd_rec *want)
{
	unsigned int i, bad = 0;
	char why[160];

	for (i = 0; i < n; i++) {
		const struct smd_case *c = &cs[i];

		if (smd_same(&got[c->idx], &want[c->idx], why, sizeof(why))) {
			t_passed++;
			continue;
		}
		t_failed++;
		if (bad++ < 8)
			fprintf(stderr,
				"FAIL %s: case %u (meta %u off %#x len %u "
				"adjust %#x..%#x): %s\n",
				who, c->idx, c->meta_len, c->off, c->len,
				c->start, c->end, why);
	}
}

const char *smd_obj = SMD_OBJ;

static struct hr_object *open_obj(void)
{
	char path[512], err[256] = "";
	HR_OPTS(hr_object_open_opts, oo, .errbuf = err,
		.errbuf_sz = sizeof(err), .ncpus = 1);
	struct hr_object *o = NULL;

	snprintf(path, sizeof(path), "%s/%s", t_progs_dir(), smd_obj);
	if (hr_object_open(path, &oo, &o))
		CHECK(0, "headroom: open %s: %s", path, err);
	return o;
}

static int set_pattern(struct hr_object *o)
{
	uint8_t pat[SMD_RD_MAX];
	uint32_t key = 0;

	smd_pattern(pat);
	return hr_map_update_elem(hr_object_find_map(o, "smd_pat"), &key, pat,
				  0);
}

static int read_recs(struct hr_object *o, struct smd_rec *recs)
{
	struct hr_map *m = hr_object_find_map(o, "smd_recs");
	uint32_t i;

	for (i = 0; i < SMD_NRECS; i++)
		if (hr_map_lookup_elem(m, &i, &recs[i]))
			return -1;
	return 0;
}

static uint32_t wire_frame(void *arg, unsigned int i, uint8_t *buf)
{
	const struct smd_case *cs = arg;

	return smd_packet(&cs[i], buf, true);
}

int smd_run_datapath(enum hr_engine engine, const struct smd_case *cs,
		     unsigned int n, struct smd_rec *recs)
{
	struct t_frames f = { .n = n, .frame = wire_frame, .arg = (void *)cs };
	struct hr_dev_counters dc;
	struct hr_object *o = open_obj();
	int rc = -1;

	if (!o)
		return -1;
	if (set_pattern(o)) {
		CHECK(0, "headroom: pattern");
	} else if (!t_dp_xdp_tc(engine, o, "smd_xdp", "smd_tc", &f, &dc)) {
		/* Every case through XDP_PASS to tc, which shot it. */
		CHECK_EQ(dc.xdp_pass, n);
		CHECK_EQ(dc.drops[HR_DROP_TC_SHOT], n);
		rc = read_recs(o, recs);
		CHECK_EQ(rc, 0);
	}
	hr_object_close(o);
	return rc;
}

int smd_run_test_run(enum hr_engine engine, const struct smd_case *c,
		     struct smd_rec *rec)
{
	struct hr_test_run_opts opts = { .sz = sizeof(opts) };
	struct hr_object *o = open_obj();
	uint8_t pkt[SMD_PKT_LEN];
	uint32_t key = c->idx;
	struct hr_prog *p;
	int rc = -1;

	if (!o)
		return -1;
	p = hr_object_find_prog(o, "smd_tc");
	if (!p || set_pattern(o))
		goto out;
	opts.data_in = pkt;
	opts.data_size_in = smd_packet(c, pkt, false);
	opts.engine = engine;
	if (hr_prog_test_run(p, &opts) || opts.abort ||
	    opts.retval != 2 /* TC_ACT_SHOT */) {
		CHECK(0, "case %u: test run aborted (%s) or retval %u", c->idx,
		      hr_abort_str(opts.abort), opts.retval);
		goto out;
	}
	rc = hr_map_lookup_elem(hr_object_find_map(o, "smd_recs"), &key, rec);
out:
	hr_object_close(o);
	return rc;
}
