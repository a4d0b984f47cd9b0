// SPDX-License-Identifier: MIT
/*
 * The live kernel as oracle for ARRAY, PERCPU_ARRAY, HASH and PERCPU_HASH:
 * the same creations and the same operations go through the bpf syscall
 * (libbpf's low-level calls) and through headroom's user API, and every
 * return code and every value read back must agree. Hash iteration order
 * is the hash function's, so hash walks compare the set of keys.
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

#define MAX_VAL 4096

static int ncpus;

struct pair {
	int fd;
	struct hr_map *hm;
	uint32_t type, key_size, value_size, max_entries;
	uint32_t user_size;
};

static int kernel_create(uint32_t type, uint32_t k, uint32_t v, uint32_t n,
			 uint32_t flags)
{
	LIBBPF_OPTS(bpf_map_create_opts, opts, .map_flags = flags);

	return bpf_map_create(type, NULL, k, v, n, &opts);
}

static int hr_create(uint32_t type, uint32_t k, uint32_t v, uint32_t n,
		     uint32_t flags, struct hr_map **out)
{
	struct hr_map_attr attr = {
		.type = type,
		.key_size = k,
		.value_size = v,
		.max_entries = n,
		.map_flags = flags,
		.ncpus = ncpus,
		.name = "oracle",
	};

	return hr_map_create(&attr, out);
}

/* Creates both; their results must agree. False when either failed. */
static bool pair_open(struct pair *p, uint32_t type, uint32_t k, uint32_t v,
		      uint32_t n, uint32_t flags)
{
	int kr, hr;

	memset(p, 0, sizeof(*p));
	p->fd = -1;
	kr = kernel_create(type, k, v, n, flags);
	hr = hr_create(type, k, v, n, flags, &p->hm);
	CHECK(kr < 0 ? hr == kr : hr == 0,
	      "create type %u k %u v %u n %u flags %#x: kernel %d headroom %d",
	      type, k, v, n, flags, kr < 0 ? kr : 0, hr);
	if (kr >= 0)
		p->fd = kr;
	p->type = type;
	p->key_size = k;
	p->value_size = v;
	p->max_entries = n;
	p->user_size = v;
	if (type == BPF_MAP_TYPE_PERCPU_ARRAY ||
	    type == BPF_MAP_TYPE_PERCPU_HASH)
		p->user_size = ((v + 7) & ~7u) * ncpus;
	if (p->hm)
		CHECK_EQ(hr_map_user_value_size(p->hm), p->user_size);
	return kr >= 0 && hr == 0;
}

static void pair_close(struct pair *p)
{
	if (p->fd >= 0)
		close(p->fd);
	hr_map_free(p->hm);
	p->fd = -1;
	p->hm = NULL;
}

static void pair_update(struct pair *p, const void *key, const void *val,
			uint64_t flags, const char *what)
{
	int kr = bpf_map_update_elem(p->fd, key, val, flags);
	int hr = hr_map_update_elem(p->hm, key, val, flags);

	CHECK(kr == hr, "%s: update flags %#llx: kernel %d headroom %d", what,
	      (unsigned long long)flags, kr, hr);
}

static void pair_lookup(struct pair *p, const void *key, const char *what)
{
	static uint8_t kv[MAX_VAL * 4], hv[MAX_VAL * 4];
	int kr, hr;

	memset(kv, 0x5a, p->user_size);
	memset(hv, 0x5a, p->user_size);
	kr = bpf_map_lookup_elem(p->fd, key, kv);
	hr = hr_map_lookup_elem(p->hm, key, hv);
	CHECK(kr == hr, "%s: lookup: kernel %d headroom %d", what, kr, hr);
	if (kr == 0 && hr == 0)
		CHECK(memcmp(kv, hv, p->user_size) == 0, "%s: values differ",
		      what);
}

static void pair_delete(struct pair *p, const void *key, const char *what)
{
	int kr = bpf_map_delete_elem(p->fd, key);
	int hr = hr_map_delete_elem(p->hm, key);

	CHECK(kr == hr, "%s: delete: kernel %d headroom %d", what, kr, hr);
}

/* Array walks must match step by step, including from bad keys. */
static void pair_next_exact(struct pair *p, const void *key, const char *what)
{
	uint8_t kn[64] = { 0 }, hn[64] = { 0 };
	int kr = bpf_map_get_next_key(p->fd, key, kn);
	int hr = hr_map_get_next_key(p->hm, key, hn);

	CHECK(kr == hr, "%s: next: kernel %d headroom %d", what, kr, hr);
	if (kr == 0 && hr == 0)
		CHECK(memcmp(kn, hn, p->key_size) == 0, "%s: next keys differ",
		      what);
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* Walks a map of u32 keys from NULL; returns the sorted keys' count. */
static int walk(int fd, struct hr_map *hm, uint32_t *keys, int max)
{
	uint32_t cur, next;
	int n = 0, ret;

	for (;;) {
		if (fd >= 0)
			ret = bpf_map_get_next_key(fd, n ? &cur : NULL, &next);
		else
			ret = hr_map_get_next_key(hm, n ? &cur : NULL, &next);
		if (ret)
			break;
		if (n == max)
			return -1;
		keys[n++] = next;
		cur = next;
	}
	CHECK_EQ(ret, -ENOENT);
	qsort(keys, n, sizeof(*keys), cmp_u32);
	return n;
}

static void pair_same_keys(struct pair *p, const char *what)
{
	static uint32_t kk[8192], hk[8192];
	int kn = walk(p->fd, NULL, kk, 8192);
	int hn = walk(-1, p->hm, hk, 8192);

	CHECK(kn == hn, "%s: key count: kernel %d headroom %d", what, kn, hn);
	if (kn == hn && kn > 0)
		CHECK(memcmp(kk, hk, kn * sizeof(*kk)) == 0,
		      "%s: key sets differ", what);
}

static void fill_value(uint8_t *buf, uint32_t size, uint32_t seed)
{
	uint32_t i;

	for (i = 0; i < size; i++)
		buf[i] = (uint8_t)(seed * 31 + i * 7 + 1);
}

struct create_case {
	uint32_t type, k, v, n, flags;
};

static const struct create_case create_cases[] = {
	{ BPF_MAP_TYPE_ARRAY, 4, 4, 1, 0 },
	{ BPF_MAP_TYPE_ARRAY, 8, 4, 1, 0 },
	{ BPF_MAP_TYPE_ARRAY, 4, 0, 1, 0 },
	{ BPF_MAP_TYPE_ARRAY, 4, 4, 0, 0 },
	{ BPF_MAP_TYPE_ARRAY, 4, 4194305, 1, 0 },
	{ BPF_MAP_TYPE_ARRAY, 4, 0x80000000u, 1, 0 },
	{ BPF_MAP_TYPE_ARRAY, 4, 4, 1, BPF_F_NUMA_NODE },
	{ BPF_MAP_TYPE_ARRAY, 4, 4, 1, BPF_F_RDONLY | BPF_F_WRONLY },
	{ BPF_MAP_TYPE_ARRAY, 4, 4, 1, BPF_F_RDONLY_PROG | BPF_F_WRONLY_PROG },
	{ BPF_MAP_TYPE_ARRAY, 4, 4, 1,
	  BPF_F_MMAPABLE | BPF_F_INNER_MAP | BPF_F_RDONLY_PROG | BPF_F_RDONLY },
	{ BPF_MAP_TYPE_ARRAY, 4, 4, 1, BPF_F_WRONLY | BPF_F_WRONLY_PROG },
	{ BPF_MAP_TYPE_ARRAY, 4, 4, 1, BPF_F_PRESERVE_ELEMS },
	{ BPF_MAP_TYPE_ARRAY, 4, 4, 1, BPF_F_NO_PREALLOC },
	{ BPF_MAP_TYPE_ARRAY, 4, 4, 1, BPF_F_ZERO_SEED },
	{ BPF_MAP_TYPE_ARRAY, 4, 4, 1, BPF_F_NO_COMMON_LRU },
	{ BPF_MAP_TYPE_ARRAY, 4, 4, 1, 1u << 20 },
	{ BPF_MAP_TYPE_PERCPU_ARRAY, 4, 4, 1, 0 },
	{ BPF_MAP_TYPE_PERCPU_ARRAY, 4, 4, 1, BPF_F_NUMA_NODE },
	{ BPF_MAP_TYPE_PERCPU_ARRAY, 4, 4, 1, BPF_F_MMAPABLE },
	{ BPF_MAP_TYPE_PERCPU_ARRAY, 4, 4, 1, BPF_F_INNER_MAP },
	{ BPF_MAP_TYPE_PERCPU_ARRAY, 4, 4, 1, BPF_F_RDONLY_PROG },
	{ BPF_MAP_TYPE_PERCPU_ARRAY, 4, 32768, 1, 0 },
	{ BPF_MAP_TYPE_PERCPU_ARRAY, 4, 32761, 1, 0 },
	{ BPF_MAP_TYPE_PERCPU_ARRAY, 4, 32769, 1, 0 },
	{ BPF_MAP_TYPE_PERCPU_ARRAY, 2, 8, 1, 0 },
	{ BPF_MAP_TYPE_HASH, 4, 4, 1, 0 },
	{ BPF_MAP_TYPE_HASH, 512, 4, 1, 0 },
	{ BPF_MAP_TYPE_HASH, 513, 4, 1, 0 },
	{ BPF_MAP_TYPE_HASH, 0, 4, 1, 0 },
	{ BPF_MAP_TYPE_HASH, 4, 0, 1, 0 },
	{ BPF_MAP_TYPE_HASH, 4, 4, 0, 0 },
	{ BPF_MAP_TYPE_HASH, 4, 4, 1,
	  BPF_F_NO_PREALLOC | BPF_F_ZERO_SEED | BPF_F_NUMA_NODE |
		  BPF_F_RDONLY_PROG },
	{ BPF_MAP_TYPE_HASH, 4, 4, 1, BPF_F_NO_COMMON_LRU },
	{ BPF_MAP_TYPE_HASH, 4, 4, 1, BPF_F_MMAPABLE },
	{ BPF_MAP_TYPE_HASH, 4, 4, 1, BPF_F_INNER_MAP },
	{ BPF_MAP_TYPE_HASH, 4, 4, 1, BPF_F_PRESERVE_ELEMS },
	{ BPF_MAP_TYPE_HASH, 4, 4, 1, BPF_F_RDONLY_PROG | BPF_F_WRONLY_PROG },
	{ BPF_MAP_TYPE_HASH, 4, 4, 1, BPF_F_RDONLY | BPF_F_WRONLY },
	{ BPF_MAP_TYPE_HASH, 4, 4, 1, 1u << 20 },
	{ BPF_MAP_TYPE_HASH, 4, 4194251, 1, 0 },
	{ BPF_MAP_TYPE_HASH, 4, 4194252, 1, 0 },
	{ BPF_MAP_TYPE_HASH, 4194252, 4, 1, 0 },
	{ BPF_MAP_TYPE_HASH, 4, 8, (1u << 27) + 1, BPF_F_NO_PREALLOC },
	{ BPF_MAP_TYPE_HASH, 4, 8, 0x80000001u, BPF_F_NO_PREALLOC },
	{ BPF_MAP_TYPE_PERCPU_HASH, 4, 4, 1, 0 },
	{ BPF_MAP_TYPE_PERCPU_HASH, 4, 4, 1, BPF_F_NUMA_NODE },
	{ BPF_MAP_TYPE_PERCPU_HASH, 4, 4, 1, BPF_F_NO_PREALLOC },
	{ BPF_MAP_TYPE_PERCPU_HASH, 4, 32768, 1, 0 },
	{ BPF_MAP_TYPE_PERCPU_HASH, 4, 32769, 1, 0 },
	{ BPF_MAP_TYPE_PERCPU_HASH, 4, 4194200, 1, 0 },
	{ BPF_MAP_TYPE_UNSPEC, 4, 4, 1, 0 },
	{ HR_MAP_TYPE__MAX, 4, 4, 1, 0 },
	{ 200, 4, 4, 1, 0 },
};

static void test_create(void)
{
	unsigned int i;

	for (i = 0; i < sizeof(create_cases) / sizeof(create_cases[0]); i++) {
		const struct create_case *c = &create_cases[i];
		struct pair p;

		pair_open(&p, c->type, c->k, c->v, c->n, c->flags);
		pair_close(&p);
	}
}

static const uint64_t update_flags[] = { BPF_ANY, BPF_NOEXIST, BPF_EXIST,
					 3,	  BPF_F_LOCK,  5,
					 8,	  1ull << 32 };

/* The fixed sequence every type goes through. */
static void script(uint32_t type, uint32_t value_size, uint32_t flags)
{
	static uint8_t val[MAX_VAL * 4];
	uint32_t key, i, max = 8;
	bool hash = type == BPF_MAP_TYPE_HASH ||
		    type == BPF_MAP_TYPE_PERCPU_HASH;
	struct pair p;
	char what[96];

	snprintf(what, sizeof(what), "%s v%u flags %#x", hr_map_type_name(type),
		 value_size, flags);
	if (!pair_open(&p, type, 4, value_size, max, flags)) {
		pair_close(&p);
		return;
	}
	key = 3;
	pair_lookup(&p, &key, what);
	pair_next_exact(&p, NULL, what);
	for (i = 0; i < sizeof(update_flags) / sizeof(update_flags[0]); i++) {
		fill_value(val, p.user_size, i);
		pair_update(&p, &key, val, update_flags[i], what);
		pair_lookup(&p, &key, what);
	}
	/* Fill to max_entries, one more, then replace in the full map. */
	for (key = 0; key <= max; key++) {
		fill_value(val, p.user_size, key + 100);
		pair_update(&p, &key, val, BPF_NOEXIST, what);
		pair_update(&p, &key, val, BPF_ANY, what);
		pair_lookup(&p, &key, what);
	}
	key = max + 1;
	pair_update(&p, &key, val, BPF_EXIST, what);
	key = 2;
	fill_value(val, p.user_size, 7);
	pair_update(&p, &key, val, BPF_EXIST, what);
	pair_update(&p, &key, val, BPF_ANY, what);
	pair_lookup(&p, &key, what);
	if (hash) {
		pair_same_keys(&p, what);
	} else {
		for (key = 0; key <= max + 1; key++)
			pair_next_exact(&p, &key, what);
		key = UINT32_MAX;
		pair_next_exact(&p, &key, what);
	}
	for (key = 0; key <= max; key += 2)
		pair_delete(&p, &key, what);
	for (key = 0; key <= max; key++) {
		pair_lookup(&p, &key, what);
		pair_delete(&p, &key, what);
	}
	if (hash) {
		pair_same_keys(&p, what);
		pair_next_exact(&p, NULL, what);
		key = 1;
		pair_next_exact(&p, &key, what);
	}
	pair_close(&p);
}

/* Random operations on a small map, comparing as they go. */
static void random_ops(uint32_t type, uint32_t value_size, uint32_t flags,
		       unsigned int seed)
{
	static uint8_t val[MAX_VAL * 4];
	bool hash = type == BPF_MAP_TYPE_HASH ||
		    type == BPF_MAP_TYPE_PERCPU_HASH;
	uint32_t key, max = 16, i;
	struct pair p;
	char what[96];

	snprintf(what, sizeof(what), "random %s v%u flags %#x",
		 hr_map_type_name(type), value_size, flags);
	if (!pair_open(&p, type, 4, value_size, max, flags)) {
		pair_close(&p);
		return;
	}
	for (i = 0; i < 3000; i++) {
		unsigned int op = rand_r(&seed) % 6;

		key = rand_r(&seed) % (max + max / 2);
		switch (op) {
		case 0:
		case 1:
			fill_value(val, p.user_size, rand_r(&seed));
			pair_update(&p, &key, val,
				    update_flags[rand_r(&seed) % 4], what);
			break;
		case 2:
		case 3:
			pair_lookup(&p, &key, what);
			break;
		case 4:
			pair_delete(&p, &key, what);
			break;
		default:
			if (hash)
				pair_same_keys(&p, what);
			else
				pair_next_exact(&p, &key, what);
			break;
		}
	}
	pair_same_keys(&p, what);
	pair_close(&p);
}

/* BPF_F_RDONLY / BPF_F_WRONLY: the syscall's permission errors. */
static void test_access(void)
{
	static const uint32_t types[] = { BPF_MAP_TYPE_ARRAY,
					  BPF_MAP_TYPE_HASH };
	uint8_t val[8 * 64] = { 1 };
	uint32_t key = 0, i;
	struct pair p;

	for (i = 0; i < 2; i++) {
		if (pair_open(&p, types[i], 4, 8, 4, BPF_F_RDONLY)) {
			pair_update(&p, &key, val, BPF_ANY, "rdonly");
			pair_delete(&p, &key, "rdonly");
			pair_lookup(&p, &key, "rdonly");
			pair_next_exact(&p, NULL, "rdonly");
		}
		pair_close(&p);
		if (pair_open(&p, types[i], 4, 8, 4, BPF_F_WRONLY)) {
			pair_update(&p, &key, val, BPF_ANY, "wronly");
			pair_lookup(&p, &key, "wronly");
			pair_next_exact(&p, NULL, "wronly");
			pair_delete(&p, &key, "wronly");
		}
		pair_close(&p);
	}
}

int main(void)
{
	static const uint32_t types[] = { BPF_MAP_TYPE_ARRAY,
					  BPF_MAP_TYPE_PERCPU_ARRAY,
					  BPF_MAP_TYPE_HASH,
					  BPF_MAP_TYPE_PERCPU_HASH };
	static const uint32_t sizes[] = { 4, 8, 13, 64 };
	char why[256];
	unsigned int t, s;

	if (!t_have_kernel(why, sizeof(why)))
		return t_skip(why);
	ncpus = libbpf_num_possible_cpus();
	CHECK(ncpus > 0, "possible cpus %d", ncpus);
	if (ncpus <= 0 || ncpus > 4)
		return t_skip("needs 1..4 possible CPUs for the value buffers");
	test_create();
	for (t = 0; t < 4; t++) {
		for (s = 0; s < 4; s++) {
			script(types[t], sizes[s], 0);
			random_ops(types[t], sizes[s], 0, t * 10 + s);
		}
	}
	script(BPF_MAP_TYPE_HASH, 8, BPF_F_NO_PREALLOC);
	random_ops(BPF_MAP_TYPE_HASH, 8, BPF_F_NO_PREALLOC, 99);
	script(BPF_MAP_TYPE_PERCPU_HASH, 12, BPF_F_NO_PREALLOC);
	random_ops(BPF_MAP_TYPE_PERCPU_HASH, 12, BPF_F_NO_PREALLOC, 98);
	script(BPF_MAP_TYPE_ARRAY, 16, BPF_F_MMAPABLE);
	test_access();
	return t_done();
}
