// SPDX-License-Identifier: MIT
/*
 * hr_map_lookup_batch() against the live kernel's BPF_MAP_LOOKUP_BATCH
 * (libbpf's bpf_map_lookup_batch): the same map types with the same
 * contents, walked with batches of several sizes, must return the same
 * entries and end the same way; the error cases (bad flags, count 0, NULL
 * buffers, a token past the end, types without batch operations, a
 * write-only map) must give the same codes and counts. Arrays and LPM
 * tries walk in key order, so those walks are compared call by call
 * (return, count, token, entries); hash maps walk in hash order, so they
 * compare the set of entries over the whole walk.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "harness.h"
#include "headroom/map.h"
#include "maps/map.h"

#define MAXN 1024
#define MAXK 8
#define MAXV 64 /* per-CPU user value, all CPUs */

static int ncpus;

struct cfg {
	const char *name;
	uint32_t type, key_size, value_size, max_entries, flags;
	uint32_t fill;
	bool ordered; /* walks in key order: compare call by call */
};

struct pair {
	const struct cfg *c;
	int fd;
	struct hr_map *hm;
	uint32_t vs; /* user value size */
};

static bool is_percpu(uint32_t type)
{
	return type == BPF_MAP_TYPE_PERCPU_ARRAY ||
	       type == BPF_MAP_TYPE_PERCPU_HASH ||
	       type == BPF_MAP_TYPE_LRU_PERCPU_HASH;
}

static void make_key(const struct cfg *c, uint32_t i, uint8_t *key)
{
	memset(key, 0, MAXK);
	if (c->type == BPF_MAP_TYPE_LPM_TRIE) {
		/* 10.0.0.0/8, then /16s and /24s under it. */
		uint32_t plen = i == 0 ? 8 : i % 3 ? 24 : 16;

		memcpy(key, &plen, 4);
		key[4] = 10;
		key[5] = (uint8_t)(plen == 24 ? i / 7 : 100 + i);
		key[6] = plen == 24 ? (uint8_t)(i * 13) : 0;
		return;
	}
	/* Hash keys are spread out; array keys are indexes. */
	i = c->type == BPF_MAP_TYPE_ARRAY ||
			    c->type == BPF_MAP_TYPE_PERCPU_ARRAY ?
		    i :
		    i * 2654435761u;
	memcpy(key, &i, 4);
}

static void make_value(const struct pair *p, uint32_t i, uint8_t *v)
{
	uint32_t j;

	for (j = 0; j < p->vs; j++)
		v[j] = (uint8_t)(i * 31 + j * 7 + 1);
}

static bool pair_open(struct pair *p, const struct cfg *c)
{
	LIBBPF_OPTS(bpf_map_create_opts, o, .map_flags = c->flags);
	struct hr_map_attr a = {
		.type = c->type,
		.key_size = c->key_size,
		.value_size = c->value_size,
		.max_entries = c->max_entries,
		.map_flags = c->flags,
		.ncpus = ncpus,
		.name = "batch",
	};
	int r;

	memset(p, 0, sizeof(*p));
	p->c = c;
	p->fd = bpf_map_create(c->type, NULL, c->key_size, c->value_size,
			       c->max_entries, &o);
	r = hr_map_create(&a, &p->hm);
	CHECK(p->fd >= 0 && r == 0, "%s: create kernel %d headroom %d", c->name,
	      p->fd < 0 ? -errno : 0, r);
	if (p->fd < 0 || r) {
		if (p->fd >= 0)
			close(p->fd);
		if (!r)
			hr_map_free(p->hm);
		return false;
	}
	p->vs = is_percpu(c->type) ? ((c->value_size + 7) & ~7u) * ncpus :
				     c->value_size;
	CHECK_EQ(hr_map_user_value_size(p->hm), p->vs);
	return true;
}

static void pair_fill(struct pair *p)
{
	uint8_t key[MAXK], val[MAXV];
	uint32_t i;
	int kr, hr;

	for (i = 0; i < p->c->fill; i++) {
		make_key(p->c, i, key);
		make_value(p, i, val);
		kr = bpf_map_update_elem(p->fd, key, val, BPF_ANY);
		hr = hr_map_update_elem(p->hm, key, val, BPF_ANY);
		CHECK(kr == 0 && hr == 0, "%s: fill %u kernel %d headroom %d",
		      p->c->name, i, kr, hr);
	}
}

static void pair_close(struct pair *p)
{
	close(p->fd);
	hr_map_free(p->hm);
}

/* One batch call on either side. */
static int call(struct pair *p, bool kernel, void *in, void *out, void *keys,
		void *vals, uint32_t *count, uint64_t elem_flags)
{
	LIBBPF_OPTS(bpf_map_batch_opts, o, .elem_flags = elem_flags);

	if (kernel)
		return bpf_map_lookup_batch(p->fd, in, out, keys, vals, count,
					    &o);
	return hr_map_lookup_batch(p->hm, in, out, keys, vals, count,
				   elem_flags);
}

struct walk {
	uint8_t *rec; /* key || value records */
	uint32_t n, calls;
	int last;
};

static int rec_cmp_sz;

static int rec_cmp(const void *a, const void *b)
{
	return memcmp(a, b, rec_cmp_sz);
}

/*
 * Walks the whole map with batches of @batch (growing a batch that
 * -ENOSPC refuses, as user space must); records every entry.
 */
static void walk(struct pair *p, bool kernel, uint32_t batch, struct walk *w)
{
	uint32_t ks = p->c->key_size, rs = ks + p->vs;
	uint8_t tok_in[MAXK], tok_out[MAXK];
	uint8_t *keys = malloc((size_t)MAXN * ks);
	uint8_t *vals = malloc((size_t)MAXN * p->vs);
	bool first = true;

	memset(w, 0, sizeof(*w));
	w->rec = malloc((size_t)MAXN * rs);
	while (w->calls < 4 * MAXN) {
		uint32_t cnt = batch, i;
		int r;

		r = call(p, kernel, first ? NULL : tok_in, tok_out, keys, vals,
			 &cnt, 0);
		w->calls++;
		if (r == -ENOSPC && cnt == 0 && batch < MAXN) {
			batch *= 2;
			continue;
		}
		for (i = 0; i < cnt && w->n < MAXN; i++, w->n++) {
			memcpy(w->rec + (size_t)w->n * rs, keys + i * ks, ks);
			memcpy(w->rec + (size_t)w->n * rs + ks,
			       vals + (size_t)i * p->vs, p->vs);
		}
		w->last = r;
		if (r)
			break;
		memcpy(tok_in, tok_out, sizeof(tok_in));
		first = false;
	}
	free(keys);
	free(vals);
}

static void compare_walks(struct pair *p, uint32_t batch)
{
	uint32_t rs = p->c->key_size + p->vs;
	struct walk k, h;

	walk(p, true, batch, &k);
	walk(p, false, batch, &h);
	CHECK(k.last == -ENOENT && h.last == -ENOENT,
	      "%s batch %u: walk ends kernel %d headroom %d", p->c->name, batch,
	      k.last, h.last);
	CHECK(k.n == p->c->fill && h.n == p->c->fill,
	      "%s batch %u: entries kernel %u headroom %u (filled %u)",
	      p->c->name, batch, k.n, h.n, p->c->fill);
	rec_cmp_sz = rs;
	qsort(k.rec, k.n, rs, rec_cmp);
	qsort(h.rec, h.n, rs, rec_cmp);
	CHECK(k.n == h.n && !memcmp(k.rec, h.rec, (size_t)k.n * rs),
	      "%s batch %u: different entries", p->c->name, batch);
	free(k.rec);
	free(h.rec);
}

/* Ordered walks: every call gives the same result on both sides. */
static void compare_calls(struct pair *p, uint32_t batch)
{
	uint32_t ks = p->c->key_size;
	uint8_t kt[MAXK], ht[MAXK], kout[MAXK], hout[MAXK];
	uint8_t *kk = calloc(MAXN, ks), *hk = calloc(MAXN, ks);
	uint8_t *kv = calloc(MAXN, p->vs), *hv = calloc(MAXN, p->vs);
	bool first = true;
	unsigned int n;

	for (n = 0; n < 2 * MAXN; n++) {
		uint32_t kc = batch, hc = batch;
		int kr, hr;

		memset(kout, 0, sizeof(kout));
		memset(hout, 0, sizeof(hout));
		kr = call(p, true, first ? NULL : kt, kout, kk, kv, &kc, 0);
		hr = call(p, false, first ? NULL : ht, hout, hk, hv, &hc, 0);
		CHECK(kr == hr && kc == hc,
		      "%s batch %u call %u: kernel %d/%u headroom %d/%u",
		      p->c->name, batch, n, kr, kc, hr, hc);
		if (kr != hr || kc != hc)
			break;
		CHECK(!memcmp(kk, hk, (size_t)kc * ks) &&
			      !memcmp(kv, hv, (size_t)kc * p->vs),
		      "%s batch %u call %u: entries differ", p->c->name, batch,
		      n);
		if (kc)
			CHECK(!memcmp(kout, hout, ks),
			      "%s batch %u call %u: tokens differ", p->c->name,
			      batch, n);
		if (kr)
			break;
		memcpy(kt, kout, sizeof(kt));
		memcpy(ht, hout, sizeof(ht));
		first = false;
	}
	free(kk);
	free(hk);
	free(kv);
	free(hv);
}

/* One call with the same odd arguments on both sides. */
static void compare_one(struct pair *p, const char *what, void *in,
			bool null_out, bool null_keys, bool null_vals,
			uint32_t count, uint64_t elem_flags)
{
	static uint8_t keys[MAXN * MAXK], vals[MAXN * MAXV];
	uint8_t out[MAXK];
	uint32_t kc = count, hc = count;
	int kr, hr;

	kr = call(p, true, in, null_out ? NULL : out, null_keys ? NULL : keys,
		  null_vals ? NULL : vals, &kc, elem_flags);
	hr = call(p, false, in, null_out ? NULL : out, null_keys ? NULL : keys,
		  null_vals ? NULL : vals, &hc, elem_flags);
	CHECK(kr == hr && kc == hc,
	      "%s %s: kernel %d count %u, headroom %d count %u", p->c->name,
	      what, kr, kc, hr, hc);
}

static void errors(struct pair *p)
{
	uint8_t past[MAXK];
	uint32_t big = 0x7fffffff;
	uint32_t n = p->c->ordered ? 4 : MAXN;

	compare_one(p, "elem_flags 1", NULL, false, false, false, 4, 1);
	compare_one(p, "BPF_F_LOCK", NULL, false, false, false, 4, BPF_F_LOCK);
	compare_one(p, "elem_flags 1<<40", NULL, false, false, false, 4,
		    1ull << 40);
	compare_one(p, "count 0", NULL, false, false, false, 0, 0);
	compare_one(p, "count 0, NULL buffers", NULL, true, true, true, 0, 0);
	/*
	 * The kernel's hash walk refuses with -ENOSPC, before it copies
	 * anything out, a first bucket holding more entries than the count;
	 * with a random hash seed that bucket may hold 5 of a full map's 64.
	 * A count no bucket exceeds makes the copy, and its -EFAULT, certain.
	 */
	compare_one(p, "NULL keys", NULL, false, true, false, n, 0);
	compare_one(p, "NULL values", NULL, false, false, true, n, 0);
	compare_one(p, "NULL out_batch", NULL, true, false, false, n, 0);
	compare_one(p, "NULL out_batch, all", NULL, true, false, false, MAXN,
		    0);
	compare_one(p, "exact count", NULL, false, false, false, p->c->fill, 0);
	/* The kernel's hash walk hands out whole buckets: a batch of one
	 * may be -ENOSPC there, never here (see src/maps/batch.c). */
	if (p->c->ordered)
		compare_one(p, "count 1", NULL, false, false, false, 1, 0);
	if (p->c->type != BPF_MAP_TYPE_LPM_TRIE) {
		/* A token past the end: -ENOENT for hash maps, a walk from
		 * the start for arrays (get_next_key of a bad index). */
		memset(past, 0, sizeof(past));
		memcpy(past, &big, sizeof(big));
		compare_one(p, "token past the end", past, false, false, false,
			    4, 0);
	}
}

static const struct cfg cfgs[] = {
	{ "ARRAY", BPF_MAP_TYPE_ARRAY, 4, 8, 100, 0, 100, true },
	{ "ARRAY v13", BPF_MAP_TYPE_ARRAY, 4, 13, 37, 0, 37, true },
	{ "PERCPU_ARRAY", BPF_MAP_TYPE_PERCPU_ARRAY, 4, 12, 50, 0, 50, true },
	{ "HASH", BPF_MAP_TYPE_HASH, 4, 8, 512, 0, 300, false },
	{ "HASH full", BPF_MAP_TYPE_HASH, 4, 12, 64, 0, 64, false },
	{ "HASH empty", BPF_MAP_TYPE_HASH, 4, 8, 64, 0, 0, false },
	{ "HASH no prealloc", BPF_MAP_TYPE_HASH, 8, 8, 256, BPF_F_NO_PREALLOC,
	  200, false },
	{ "PERCPU_HASH", BPF_MAP_TYPE_PERCPU_HASH, 4, 12, 256, 0, 150, false },
	{ "LRU_HASH", BPF_MAP_TYPE_LRU_HASH, 4, 8, 1024, 0, 100, false },
	{ "LRU_PERCPU_HASH", BPF_MAP_TYPE_LRU_PERCPU_HASH, 4, 8, 1024, 0, 100,
	  false },
	{ "LPM_TRIE", BPF_MAP_TYPE_LPM_TRIE, 8, 8, 256, BPF_F_NO_PREALLOC, 90,
	  true },
};

/* Types without batch operations, and a map user space may not read. */
static void unsupported(void)
{
	static const struct cfg other[] = {
		{ "QUEUE", BPF_MAP_TYPE_QUEUE, 0, 8, 16, 0, 0, false },
		{ "STACK", BPF_MAP_TYPE_STACK, 0, 8, 16, 0, 0, false },
		{ "PROG_ARRAY", BPF_MAP_TYPE_PROG_ARRAY, 4, 4, 4, 0, 0, false },
		{ "RINGBUF", BPF_MAP_TYPE_RINGBUF, 0, 0, 4096, 0, 0, false },
		{ "ARRAY wronly", BPF_MAP_TYPE_ARRAY, 4, 8, 4, BPF_F_WRONLY, 0,
		  false },
		{ "HASH wronly", BPF_MAP_TYPE_HASH, 4, 8, 4, BPF_F_WRONLY, 0,
		  false },
	};
	unsigned int i;

	for (i = 0; i < sizeof(other) / sizeof(other[0]); i++) {
		struct pair p;

		if (!pair_open(&p, &other[i]))
			continue;
		compare_one(&p, "lookup", NULL, false, false, false, 4, 0);
		compare_one(&p, "count 0", NULL, false, false, false, 0, 0);
		compare_one(&p, "bad flags", NULL, false, false, false, 4, 1);
		pair_close(&p);
	}
	CHECK_EQ(hr_map_lookup_batch(NULL, NULL, NULL, NULL, NULL, NULL, 0),
		 -EBADF);
}

int main(void)
{
	static const uint32_t batches[] = { 1, 2, 3, 7, 64, MAXN };
	char why[256];
	unsigned int i, j;

	if (!t_have_kernel(why, sizeof(why)))
		return t_skip(why);
	ncpus = libbpf_num_possible_cpus();
	CHECK(ncpus > 0 && ncpus * 16 <= MAXV, "possible cpus %d", ncpus);
	if (ncpus <= 0 || ncpus * 16 > MAXV)
		return t_done();

	for (i = 0; i < sizeof(cfgs) / sizeof(cfgs[0]); i++) {
		struct pair p;

		if (!pair_open(&p, &cfgs[i]))
			continue;
		pair_fill(&p);
		for (j = 0; j < sizeof(batches) / sizeof(batches[0]); j++) {
			compare_walks(&p, batches[j]);
			if (cfgs[i].ordered)
				compare_calls(&p, batches[j]);
		}
		errors(&p);
		pair_close(&p);
	}
	unsupported();
	return t_done();
}
