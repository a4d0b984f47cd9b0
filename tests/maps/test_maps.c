// SPDX-License-Identifier: MIT
/*
 * Unit tests of the map core and the ARRAY, PERCPU_ARRAY, HASH and
 * PERCPU_HASH types: creation rules, update flags, full maps, key walks,
 * per-CPU copies, value pointer stability, the helpers, and a concurrent
 * stress (run it under SAN=thread too).
 */
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "headroom/map.h"
#include "helpers/helpers.h"
#include "vm/vm.h"
#include "maps/map.h"

static int create(uint32_t type, uint32_t key, uint32_t value, uint32_t max,
		  uint32_t flags, uint32_t ncpus, struct hr_map **out)
{
	struct hr_map_attr attr = {
		.type = type,
		.key_size = key,
		.value_size = value,
		.max_entries = max,
		.map_flags = flags,
		.ncpus = ncpus,
		.name = "test",
	};
	struct hr_map *map = NULL;
	int ret = hr_map_create(&attr, &map);

	if (out)
		*out = map;
	else
		hr_map_free(map);
	return ret;
}

#define TRY(type, k, v, n, f) create(type, k, v, n, f, 2, NULL)

static void test_create_rules(void)
{
	/* Generic checks of map_create(). */
	CHECK_EQ(TRY(HR_MAP_ARRAY, 4, 4, 1, HR_F_RDONLY | HR_F_WRONLY),
		 -EINVAL);
	CHECK_EQ(TRY(HR_MAP_UNSPEC, 4, 4, 1, 0), -EINVAL);
	CHECK_EQ(TRY(HR_MAP_TYPE__MAX, 4, 4, 1, 0), -EINVAL);
	CHECK_EQ(TRY(200, 4, 4, 1, 0), -EINVAL);
	if (!hr_map_ops_for(HR_MAP_STACK_TRACE))
		CHECK_EQ(TRY(HR_MAP_STACK_TRACE, 4, 8, 1, 0), -EOPNOTSUPP);

	/* ARRAY / PERCPU_ARRAY (array_map_alloc_check). */
	CHECK_EQ(TRY(HR_MAP_ARRAY, 4, 4, 1, 0), 0);
	CHECK_EQ(TRY(HR_MAP_ARRAY, 8, 4, 1, 0), -EINVAL);
	CHECK_EQ(TRY(HR_MAP_ARRAY, 4, 0, 1, 0), -EINVAL);
	CHECK_EQ(TRY(HR_MAP_ARRAY, 4, 4, 0, 0), -EINVAL);
	CHECK_EQ(TRY(HR_MAP_ARRAY, 4, 4, 1, HR_F_NUMA_NODE), 0);
	CHECK_EQ(TRY(HR_MAP_PERCPU_ARRAY, 4, 4, 1, HR_F_NUMA_NODE), -EINVAL);
	CHECK_EQ(TRY(HR_MAP_ARRAY, 4, 4, 1,
		     HR_F_MMAPABLE | HR_F_INNER_MAP | HR_F_RDONLY_PROG |
			     HR_F_RDONLY),
		 0);
	CHECK_EQ(TRY(HR_MAP_ARRAY, 4, 4, 1,
		     HR_F_RDONLY_PROG | HR_F_WRONLY_PROG),
		 -EINVAL);
	CHECK_EQ(TRY(HR_MAP_PERCPU_ARRAY, 4, 4, 1, HR_F_MMAPABLE), -EINVAL);
	CHECK_EQ(TRY(HR_MAP_PERCPU_ARRAY, 4, 4, 1, HR_F_INNER_MAP), -EINVAL);
	CHECK_EQ(TRY(HR_MAP_ARRAY, 4, 4, 1, HR_F_PRESERVE_ELEMS), -EINVAL);
	CHECK_EQ(TRY(HR_MAP_ARRAY, 4, 4, 1, HR_F_NO_PREALLOC), -EINVAL);
	CHECK_EQ(TRY(HR_MAP_ARRAY, 4, 4, 1, HR_F_ZERO_SEED), -EINVAL);
	CHECK_EQ(TRY(HR_MAP_ARRAY, 4, 4, 1, 1u << 20), -EINVAL);
	CHECK_EQ(TRY(HR_MAP_ARRAY, 4, 0x80000000u, 1, 0), -E2BIG);
	CHECK_EQ(TRY(HR_MAP_PERCPU_ARRAY, 4, 32768, 1, 0), 0);
	CHECK_EQ(TRY(HR_MAP_PERCPU_ARRAY, 4, 32761, 1, 0), 0);
	CHECK_EQ(TRY(HR_MAP_PERCPU_ARRAY, 4, 32769, 1, 0), -E2BIG);

	/* HASH / PERCPU_HASH (htab_map_alloc_check, htab_map_alloc). */
	CHECK_EQ(TRY(HR_MAP_HASH, 4, 4, 1, 0), 0);
	CHECK_EQ(TRY(HR_MAP_HASH, 513, 4, 1, 0), 0);
	CHECK_EQ(TRY(HR_MAP_HASH, 0, 4, 1, 0), -EINVAL);
	CHECK_EQ(TRY(HR_MAP_HASH, 4, 0, 1, 0), -EINVAL);
	CHECK_EQ(TRY(HR_MAP_HASH, 4, 4, 0, 0), -EINVAL);
	CHECK_EQ(TRY(HR_MAP_HASH, 4, 4, 1,
		     HR_F_NO_PREALLOC | HR_F_ZERO_SEED | HR_F_NUMA_NODE |
			     HR_F_RDONLY_PROG),
		 0);
	CHECK_EQ(TRY(HR_MAP_HASH, 4, 4, 1, HR_F_NO_COMMON_LRU), -EINVAL);
	CHECK_EQ(TRY(HR_MAP_HASH, 4, 4, 1, HR_F_MMAPABLE), -EINVAL);
	CHECK_EQ(TRY(HR_MAP_HASH, 4, 4, 1, HR_F_INNER_MAP), -EINVAL);
	CHECK_EQ(TRY(HR_MAP_PERCPU_HASH, 4, 4, 1, HR_F_NUMA_NODE), -EINVAL);
	CHECK_EQ(TRY(HR_MAP_PERCPU_HASH, 4, 32768, 1, 0), 0);
	CHECK_EQ(TRY(HR_MAP_PERCPU_HASH, 4, 32769, 1, 0), -E2BIG);
	/* key + value must stay below KMALLOC_MAX_SIZE - 48. */
	CHECK_EQ(TRY(HR_MAP_HASH, 4, 4194251, 1, 0), 0);
	CHECK_EQ(TRY(HR_MAP_HASH, 4, 4194252, 1, 0), -E2BIG);
	CHECK_EQ(TRY(HR_MAP_HASH, 4, 8, (1u << 27) + 1, HR_F_NO_PREALLOC),
		 -E2BIG);
	CHECK_EQ(TRY(HR_MAP_HASH, 4, 8, 0x80000001u, HR_F_NO_PREALLOC), -E2BIG);
}

static void test_type_names(void)
{
	uint32_t t;

	for (t = 0; t < HR_MAP_TYPE__MAX; t++)
		CHECK(hr_map_type_name(t) != NULL, "type %u has no name", t);
	CHECK(hr_map_type_name(HR_MAP_TYPE__MAX) == NULL, "past the end");
	CHECK(strcmp(hr_map_type_name(HR_MAP_HASH), "BPF_MAP_TYPE_HASH") == 0,
	      "hash name");
	CHECK(strcmp(hr_map_type_name(HR_MAP_DEVMAP_HASH),
		     "BPF_MAP_TYPE_DEVMAP_HASH") == 0,
	      "devmap_hash name");
	CHECK(strcmp(hr_map_type_name(HR_MAP_ARENA), "BPF_MAP_TYPE_ARENA") == 0,
	      "arena name");
	CHECK(hr_map_ops_for(HR_MAP_ARRAY) == &hr_map_ops_array, "array ops");
	CHECK(hr_map_ops_for(HR_MAP_PERCPU_HASH) == &hr_map_ops_percpu_hash,
	      "percpu hash ops");
	CHECK(hr_map_ops_for(HR_MAP_UNSPEC) == NULL, "unspec ops");
}

static void test_array(void)
{
	struct hr_map *map;
	uint32_t key, next;
	uint64_t v = 0, zero = 0;
	uint8_t odd[12] = { 0 };

	CHECK_EQ(create(HR_MAP_ARRAY, 4, 8, 3, 0, 1, &map), 0);
	if (!map)
		return;
	CHECK(strcmp(hr_map_name(map), "test") == 0, "name");
	CHECK_EQ(hr_map_type(map), HR_MAP_ARRAY);
	CHECK_EQ(hr_map_user_value_size(map), 8);
	key = 1;
	/* Zero-initialised. */
	v = 99;
	CHECK_EQ(hr_map_lookup_elem(map, &key, &v), 0);
	CHECK_EQ(v, 0);
	v = 7;
	CHECK_EQ(hr_map_update_elem(map, &key, &v, HR_ANY), 0);
	CHECK_EQ(hr_map_update_elem(map, &key, &v, HR_NOEXIST), -EEXIST);
	CHECK_EQ(hr_map_update_elem(map, &key, &v, HR_EXIST), 0);
	CHECK_EQ(hr_map_update_elem(map, &key, &v, 3), -EINVAL);
	CHECK_EQ(hr_map_update_elem(map, &key, &v, HR_F_LOCK), -EINVAL);
	CHECK_EQ(hr_map_update_elem(map, &key, &v, 1ull << 32), -EINVAL);
	v = 0;
	CHECK_EQ(hr_map_lookup_elem(map, &key, &v), 0);
	CHECK_EQ(v, 7);
	CHECK_EQ(hr_map_delete_elem(map, &key), -EINVAL);
	key = 3;
	CHECK_EQ(hr_map_update_elem(map, &key, &v, HR_ANY), -E2BIG);
	CHECK_EQ(hr_map_update_elem(map, &key, &v, HR_NOEXIST), -E2BIG);
	CHECK_EQ(hr_map_lookup_elem(map, &key, &v), -ENOENT);
	CHECK_EQ(hr_map_delete_elem(map, &key), -EINVAL);
	/* Walk: 0, 1, 2, then -ENOENT; out of range restarts at 0. */
	CHECK_EQ(hr_map_get_next_key(map, NULL, &next), 0);
	CHECK_EQ(next, 0);
	key = 0;
	CHECK_EQ(hr_map_get_next_key(map, &key, &next), 0);
	CHECK_EQ(next, 1);
	key = 1;
	CHECK_EQ(hr_map_get_next_key(map, &key, &next), 0);
	CHECK_EQ(next, 2);
	key = 2;
	CHECK_EQ(hr_map_get_next_key(map, &key, &next), -ENOENT);
	key = 77;
	CHECK_EQ(hr_map_get_next_key(map, &key, &next), 0);
	CHECK_EQ(next, 0);
	/* Program view: 8-byte aligned slots. */
	key = 2;
	CHECK(map->ops->lookup(map, &key, 0) != NULL, "lookup 2");
	CHECK_EQ((uintptr_t)map->ops->lookup(map, &key, 0) % 8, 0);
	key = 3;
	CHECK(map->ops->lookup(map, &key, 0) == NULL, "lookup oob");
	(void)zero;
	hr_map_free(map);

	/* value_size 12: slots of 16, the region keeps the padding out. */
	CHECK_EQ(create(HR_MAP_ARRAY, 4, 12, 4, 0, 1, &map), 0);
	if (!map)
		return;
	{
		struct hr_region r;
		uint8_t *p0, *p1;

		key = 0;
		p0 = map->ops->lookup(map, &key, 0);
		key = 1;
		p1 = map->ops->lookup(map, &key, 0);
		CHECK_EQ(p1 - p0, 16);
		CHECK_EQ(map->ops->regions(map, &r, 1), 1);
		CHECK_EQ(r.start, (uintptr_t)p0);
		CHECK_EQ(r.end - r.start, 64);
		CHECK_EQ(r.stride, 16);
		CHECK_EQ(r.len, 12);
		CHECK_EQ(r.flags, HR_REGION_READ | HR_REGION_WRITE);
		memset(odd, 0xab, sizeof(odd));
		CHECK_EQ(hr_map_update_elem(map, &key, odd, 0), 0);
		CHECK(memcmp(p1, odd, 12) == 0, "value written");
		CHECK_EQ(p1[12], 0);
	}
	hr_map_free(map);
}

static void test_percpu_array(void)
{
	uint8_t buf[4 * 8], one[4] = { 1, 2, 3, 4 };
	struct hr_map *map;
	uint32_t key = 1, i;
	uint8_t *p;

	CHECK_EQ(create(HR_MAP_PERCPU_ARRAY, 4, 4, 2, 0, 4, &map), 0);
	if (!map)
		return;
	CHECK(hr_map_is_percpu(map), "is percpu");
	CHECK_EQ(hr_map_user_value_size(map), 32);
	for (i = 0; i < sizeof(buf); i++)
		buf[i] = i;
	CHECK_EQ(hr_map_update_elem(map, &key, buf, HR_ANY), 0);
	CHECK_EQ(hr_map_update_elem(map, &key, buf, HR_NOEXIST), -EEXIST);
	CHECK_EQ(hr_map_update_elem(map, &key, buf, HR_F_LOCK), -EINVAL);
	memset(buf, 0, sizeof(buf));
	CHECK_EQ(hr_map_lookup_elem(map, &key, buf), 0);
	for (i = 0; i < sizeof(buf); i++)
		CHECK_EQ(buf[i], i);
	/* Each CPU sees its own copy. */
	p = map->ops->lookup(map, &key, 2);
	CHECK(p && p[0] == 16, "cpu 2 copy");
	CHECK(map->ops->lookup(map, &key, 4) == NULL, "cpu out of range");
	/* A program's update touches only its CPU's value_size bytes. */
	CHECK_EQ(map->ops->update(map, &key, one, HR_ANY, 3), 0);
	CHECK_EQ(hr_map_lookup_elem(map, &key, buf), 0);
	CHECK_EQ(buf[24], 1);
	CHECK_EQ(buf[27], 4);
	CHECK_EQ(buf[28], 28);
	CHECK_EQ(buf[16], 16);
	CHECK_EQ(hr_map_delete_elem(map, &key), -EINVAL);
	hr_map_free(map);
}

static int count_keys(struct hr_map *map, uint32_t *seen, uint32_t n)
{
	uint32_t key, next;
	int cnt = 0, ret;
	void *prev = NULL;

	memset(seen, 0, n * sizeof(*seen));
	while ((ret = hr_map_get_next_key(map, prev, &next)) == 0) {
		if (next < n)
			seen[next]++;
		key = next;
		prev = &key;
		if (++cnt > 10000)
			break;
	}
	CHECK_EQ(ret, -ENOENT);
	return cnt;
}

static void test_hash(uint32_t flags)
{
	uint32_t key, next, seen[64], i;
	struct hr_map *map;
	uint64_t v;

	CHECK_EQ(create(HR_MAP_HASH, 4, 8, 8, flags, 1, &map), 0);
	if (!map)
		return;
	key = 5;
	v = 50;
	CHECK_EQ(hr_map_lookup_elem(map, &key, &v), -ENOENT);
	CHECK_EQ(hr_map_get_next_key(map, NULL, &next), -ENOENT);
	CHECK_EQ(hr_map_update_elem(map, &key, &v, HR_EXIST), -ENOENT);
	CHECK_EQ(hr_map_update_elem(map, &key, &v, HR_NOEXIST), 0);
	CHECK_EQ(hr_map_update_elem(map, &key, &v, HR_NOEXIST), -EEXIST);
	CHECK_EQ(hr_map_update_elem(map, &key, &v, 3), -EINVAL);
	CHECK_EQ(hr_map_update_elem(map, &key, &v, HR_F_LOCK), -EINVAL);
	v = 51;
	CHECK_EQ(hr_map_update_elem(map, &key, &v, HR_EXIST), 0);
	v = 0;
	CHECK_EQ(hr_map_lookup_elem(map, &key, &v), 0);
	CHECK_EQ(v, 51);
	/* Fill to max_entries; one more is -E2BIG. */
	for (i = 0; i < 8; i++) {
		key = i;
		v = i * 10;
		CHECK_EQ(hr_map_update_elem(map, &key, &v, HR_ANY), 0);
	}
	key = 8;
	CHECK_EQ(hr_map_update_elem(map, &key, &v, HR_ANY), -E2BIG);
	CHECK_EQ(hr_map_update_elem(map, &key, &v, HR_NOEXIST), -E2BIG);
	CHECK_EQ(hr_map_update_elem(map, &key, &v, HR_EXIST), -ENOENT);
	/* Replacing a present key in a full map works, many times. */
	for (i = 0; i < 200; i++) {
		key = 3;
		v = 1000 + i;
		CHECK_EQ(hr_map_update_elem(map, &key, &v, HR_ANY), 0);
	}
	v = 0;
	CHECK_EQ(hr_map_lookup_elem(map, &key, &v), 0);
	CHECK_EQ(v, 1199);
	CHECK_EQ(count_keys(map, seen, 64), 8);
	for (i = 0; i < 8; i++)
		CHECK_EQ(seen[i], 1);
	/* A missing key restarts the walk at the first key. */
	key = 40;
	CHECK_EQ(hr_map_get_next_key(map, &key, &next), 0);
	CHECK(next < 8, "restart gave %u", next);
	key = 8;
	CHECK_EQ(hr_map_delete_elem(map, &key), -ENOENT);
	key = 2;
	CHECK_EQ(hr_map_delete_elem(map, &key), 0);
	CHECK_EQ(hr_map_delete_elem(map, &key), -ENOENT);
	CHECK_EQ(hr_map_lookup_elem(map, &key, &v), -ENOENT);
	key = 8;
	CHECK_EQ(hr_map_update_elem(map, &key, &v, HR_NOEXIST), 0);
	CHECK_EQ(count_keys(map, seen, 64), 8);
	CHECK_EQ(seen[2], 0);
	CHECK_EQ(seen[8], 1);
	/* Churn through the pool many times over. */
	for (i = 0; i < 1000; i++) {
		key = 100;
		CHECK_EQ(hr_map_delete_elem(map, &(uint32_t){ 8 }) == 0 ||
				 i > 0,
			 1);
		CHECK_EQ(hr_map_update_elem(map, &key, &v, HR_NOEXIST), 0);
		CHECK_EQ(hr_map_delete_elem(map, &key), 0);
	}
	CHECK_EQ(count_keys(map, seen, 64), 7);
	hr_map_free(map);
}

static void test_hash_odd_sizes(void)
{
	uint8_t key[13], val[5], out[5];
	struct hr_map *map;
	struct hr_region r;
	uint8_t *p;

	CHECK_EQ(create(HR_MAP_HASH, 13, 5, 4, 0, 1, &map), 0);
	if (!map)
		return;
	memset(key, 0x11, sizeof(key));
	memset(val, 0x22, sizeof(val));
	CHECK_EQ(hr_map_update_elem(map, key, val, 0), 0);
	key[12] = 0x12;
	CHECK_EQ(hr_map_lookup_elem(map, key, out), -ENOENT);
	key[12] = 0x11;
	CHECK_EQ(hr_map_lookup_elem(map, key, out), 0);
	CHECK(memcmp(out, val, 5) == 0, "value");
	p = map->ops->lookup(map, key, 0);
	CHECK(p != NULL, "program lookup");
	CHECK_EQ((uintptr_t)p % 8, 0);
	CHECK_EQ(map->ops->regions(map, &r, 1), 1);
	CHECK(p && (uintptr_t)p >= r.start && (uintptr_t)p + 5 <= r.end,
	      "inside region");
	CHECK(p && ((uintptr_t)p - r.start) % r.stride == r.off,
	      "at value offset");
	CHECK_EQ(r.len, 5);
	hr_map_free(map);
}

static void test_percpu_hash(void)
{
	uint8_t buf[3 * 8], one[4] = { 9, 9, 9, 9 };
	struct hr_map *map;
	uint32_t key = 7, i, k2 = 8;
	struct hr_region r;
	uint8_t *p;

	CHECK_EQ(create(HR_MAP_PERCPU_HASH, 4, 4, 2, 0, 3, &map), 0);
	if (!map)
		return;
	CHECK_EQ(hr_map_user_value_size(map), 24);
	for (i = 0; i < sizeof(buf); i++)
		buf[i] = i + 1;
	CHECK_EQ(hr_map_update_elem(map, &key, buf, HR_NOEXIST), 0);
	memset(buf, 0, sizeof(buf));
	CHECK_EQ(hr_map_lookup_elem(map, &key, buf), 0);
	for (i = 0; i < sizeof(buf); i++)
		CHECK_EQ(buf[i], i + 1);
	p = map->ops->lookup(map, &key, 1);
	CHECK(p && p[0] == 9, "cpu 1 copy");
	CHECK(map->ops->lookup(map, &key, 3) == NULL, "no cpu 3");
	/* In place on one CPU for a present key. */
	CHECK_EQ(map->ops->update(map, &key, one, HR_EXIST, 2), 0);
	CHECK_EQ(hr_map_lookup_elem(map, &key, buf), 0);
	CHECK_EQ(buf[16], 9);
	CHECK_EQ(buf[8], 9);
	CHECK_EQ(buf[0], 1);
	/* A new key from a program: other CPUs start at zero. */
	CHECK_EQ(map->ops->update(map, &k2, one, HR_ANY, 1), 0);
	CHECK_EQ(hr_map_lookup_elem(map, &k2, buf), 0);
	CHECK_EQ(buf[0], 0);
	CHECK_EQ(buf[8], 9);
	CHECK_EQ(buf[11], 9);
	CHECK_EQ(buf[12], 0);
	CHECK_EQ(buf[16], 0);
	i = 9;
	CHECK_EQ(hr_map_update_elem(map, &i, buf, HR_ANY), -E2BIG);
	CHECK_EQ(map->ops->regions(map, &r, 1), 1);
	p = map->ops->lookup(map, &k2, 2);
	CHECK(p && (uintptr_t)p >= r.start && (uintptr_t)p + 4 <= r.end,
	      "inside region");
	CHECK_EQ(r.stride, 8);
	CHECK_EQ(r.len, 4);
	CHECK_EQ(hr_map_delete_elem(map, &k2), 0);
	CHECK_EQ(hr_map_update_elem(map, &i, buf, HR_ANY), 0);
	hr_map_free(map);
}

/* A value pointer a program holds is not handed to another key soon. */
static void test_pointer_stability(void)
{
	struct hr_map *map;
	uint32_t key = 1, other, i;
	uint64_t v = 0x1111, *p;

	CHECK_EQ(create(HR_MAP_HASH, 4, 8, 4, HR_F_NO_PREALLOC, 1, &map), 0);
	if (!map)
		return;
	CHECK_EQ(hr_map_update_elem(map, &key, &v, 0), 0);
	p = map->ops->lookup(map, &key, 0);
	CHECK(p && *p == 0x1111, "lookup");
	CHECK_EQ(hr_map_delete_elem(map, &key), 0);
	/* 240 allocations: fewer than the pool's 256 + 4 - 1 free ones. */
	for (i = 0; i < 120; i++) {
		other = 100 + i;
		v = 0x2222;
		CHECK_EQ(hr_map_update_elem(map, &other, &v, 0), 0);
		v = 0x3333;
		CHECK_EQ(hr_map_update_elem(map, &other, &v, 0), 0);
		CHECK_EQ(hr_map_delete_elem(map, &other), 0);
	}
	CHECK(p && *p == 0x1111, "stale value pointer reused");
	/* Replacing a key leaves the old pointer's value alone too. */
	key = 2;
	v = 0x4444;
	CHECK_EQ(hr_map_update_elem(map, &key, &v, 0), 0);
	p = map->ops->lookup(map, &key, 0);
	v = 0x5555;
	CHECK_EQ(hr_map_update_elem(map, &key, &v, 0), 0);
	CHECK(p && *p == 0x4444, "old element rewritten");
	hr_map_free(map);
}

static void test_access_flags(void)
{
	struct hr_map *map;
	uint32_t key = 0, next;
	uint64_t v = 1;
	struct hr_region r;

	CHECK_EQ(create(HR_MAP_ARRAY, 4, 8, 2, HR_F_RDONLY, 1, &map), 0);
	if (map) {
		CHECK_EQ(hr_map_update_elem(map, &key, &v, 0), -EPERM);
		CHECK_EQ(hr_map_delete_elem(map, &key), -EPERM);
		CHECK_EQ(hr_map_lookup_elem(map, &key, &v), 0);
		CHECK_EQ(hr_map_get_next_key(map, NULL, &next), 0);
		hr_map_free(map);
	}
	CHECK_EQ(create(HR_MAP_HASH, 4, 8, 2, HR_F_WRONLY, 1, &map), 0);
	if (map) {
		CHECK_EQ(hr_map_update_elem(map, &key, &v, 0), 0);
		CHECK_EQ(hr_map_lookup_elem(map, &key, &v), -EPERM);
		CHECK_EQ(hr_map_get_next_key(map, NULL, &next), -EPERM);
		CHECK_EQ(hr_map_delete_elem(map, &key), 0);
		hr_map_free(map);
	}
	CHECK_EQ(create(HR_MAP_ARRAY, 4, 8, 2, HR_F_RDONLY_PROG, 1, &map), 0);
	if (map) {
		CHECK(map->rdonly_prog, "rdonly_prog set");
		CHECK_EQ(map->ops->regions(map, &r, 1), 1);
		CHECK_EQ(r.flags, HR_REGION_READ);
		CHECK_EQ(hr_map_update_elem(map, &key, &v, 0), 0);
		hr_map_free(map);
	}
	CHECK_EQ(create(HR_MAP_HASH, 4, 8, 2, HR_F_WRONLY_PROG, 1, &map), 0);
	if (map) {
		CHECK_EQ(map->ops->regions(map, &r, 1), 1);
		CHECK_EQ(r.flags, HR_REGION_WRITE);
		hr_map_free(map);
	}
}

/* The helpers, called as a program would, with key and value on the
 * program's stack. */
static uint64_t call(const struct hr_helper *h, struct hr_run *run, uint64_t r1,
		     uint64_t r2, uint64_t r3, uint64_t r4)
{
	return h->fn(r1, r2, r3, r4, 0, run);
}

static void test_helpers(void)
{
	static struct hr_vm_prog vm;
	static struct hr_run run;
	struct hr_map *maps[2] = { NULL, NULL };
	uint64_t ret, *val;
	uint8_t *stack;
	uintptr_t m, k, v;

	CHECK_EQ(create(HR_MAP_HASH, 4, 8, 4, 0, 2, &maps[0]), 0);
	CHECK_EQ(create(HR_MAP_PERCPU_ARRAY, 4, 8, 4, 0, 2, &maps[1]), 0);
	if (!maps[0] || !maps[1])
		goto out;
	hr_run_init(&run, &vm, NULL);
	run.maps = maps;
	run.nmaps = 2;
	run.cpu = 1;
	stack = run.stack + sizeof(run.stack) - 64;
	k = (uintptr_t)stack;
	v = (uintptr_t)stack + 8;
	m = (uintptr_t)maps[0];
	memcpy(stack, &(uint32_t){ 42 }, 4);
	memcpy(stack + 8, &(uint64_t){ 4242 }, 8);
	CHECK_EQ(call(&hr_helper_map_lookup_elem, &run, m, k, 0, 0), 0);
	CHECK_EQ(call(&hr_helper_map_update_elem, &run, m, k, v, HR_NOEXIST),
		 0);
	CHECK_EQ((int64_t)call(&hr_helper_map_update_elem, &run, m, k, v,
			       HR_NOEXIST),
		 -EEXIST);
	ret = call(&hr_helper_map_lookup_elem, &run, m, k, 0, 0);
	val = (uint64_t *)(uintptr_t)ret;
	CHECK(val && *val == 4242, "lookup value");
	CHECK_EQ(call(&hr_helper_map_delete_elem, &run, m, k, 0, 0), 0);
	CHECK_EQ((int64_t)call(&hr_helper_map_delete_elem, &run, m, k, 0, 0),
		 -ENOENT);
	CHECK_EQ(run.abort, HR_ABORT_NONE);
	/* Per-CPU: the program's CPU picks the copy. */
	m = (uintptr_t)maps[1];
	memcpy(stack, &(uint32_t){ 3 }, 4);
	CHECK_EQ(call(&hr_helper_map_update_elem, &run, m, k, v, 0), 0);
	ret = call(&hr_helper_map_lookup_elem, &run, m, k, 0, 0);
	CHECK(ret && ret == (uintptr_t)maps[1]->ops->lookup(maps[1], stack, 1),
	      "this cpu's copy");
	ret = call(&hr_helper_map_lookup_percpu_elem, &run, m, k, 0, 0);
	CHECK(ret && *(uint64_t *)(uintptr_t)ret == 0, "cpu 0 untouched");
	CHECK_EQ(call(&hr_helper_map_lookup_percpu_elem, &run, m, k, 2, 0), 0);
	/* Read-only for programs: update refused at run time. */
	maps[1]->rdonly_prog = true;
	CHECK_EQ((int64_t)call(&hr_helper_map_update_elem, &run, m, k, v, 0),
		 -EPERM);
	maps[1]->rdonly_prog = false;
	CHECK_EQ(run.abort, HR_ABORT_NONE);
	/* A map the program was not given, or a key outside its memory,
	 * aborts the run. */
	CHECK_EQ(call(&hr_helper_map_lookup_elem, &run, 0x1234, k, 0, 0), 0);
	CHECK_EQ(run.abort, HR_ABORT_HELPER_ARG);
	run.abort = HR_ABORT_NONE;
	CHECK_EQ(call(&hr_helper_map_update_elem, &run, m, 0x10, v, 0), 0);
	CHECK_EQ(run.abort, HR_ABORT_HELPER_ARG);
out:
	hr_map_free(maps[0]);
	hr_map_free(maps[1]);
}

/*
 * Stress: two threads update, look up and delete overlapping keys of a
 * small map (so it is often full), checking every value they read is the
 * one some thread wrote for that key.
 */
struct stress_arg {
	struct hr_map *map;
	unsigned int seed;
	unsigned int bad;
	unsigned int ops;
};

static void *stress_thread(void *p)
{
	struct stress_arg *a = p;
	unsigned int i, n = hr_map_user_value_size(a->map) / 8;
	uint64_t val[8], *pv;

	for (i = 0; i < 200000; i++) {
		uint32_t key = rand_r(&a->seed) % 24, next;
		unsigned int op = rand_r(&a->seed) % 5, j;
		int ret;

		switch (op) {
		case 0:
		case 1:
			for (j = 0; j < n; j++)
				val[j] = key * 1000 + j;
			ret = hr_map_update_elem(a->map, &key, val, HR_ANY);
			if (ret && ret != -E2BIG)
				a->bad++;
			break;
		case 2:
			ret = hr_map_lookup_elem(a->map, &key, val);
			if (ret == 0 && val[0] != key * 1000)
				a->bad++;
			else if (ret && ret != -ENOENT)
				a->bad++;
			break;
		case 3:
			ret = hr_map_delete_elem(a->map, &key);
			if (ret && ret != -ENOENT)
				a->bad++;
			break;
		default:
			/*
			 * The program view: the pointer must stay readable
			 * map memory holding a value some thread wrote. As
			 * in the kernel's preallocated hash maps, an element
			 * deleted meanwhile may already hold another key's
			 * value (RCU keeps the memory, not the contents).
			 */
			pv = a->map->ops->lookup(a->map, &key, 0);
			if (pv) {
				uint64_t v =
					__atomic_load_n(pv, __ATOMIC_RELAXED);

				if (v % 1000 || v / 1000 >= 24)
					a->bad++;
			}
			ret = hr_map_get_next_key(a->map, &key, &next);
			if (ret && ret != -ENOENT)
				a->bad++;
			break;
		}
		a->ops++;
	}
	return NULL;
}

static void stress(uint32_t type, uint32_t ncpus)
{
	struct stress_arg args[2];
	pthread_t th[2];
	struct hr_map *map;
	uint32_t seen[64];
	int i;

	CHECK_EQ(create(type, 4, 8, 16, 0, ncpus, &map), 0);
	if (!map)
		return;
	for (i = 0; i < 2; i++) {
		args[i] = (struct stress_arg){ .map = map, .seed = 17 + i };
		CHECK_EQ(pthread_create(&th[i], NULL, stress_thread, &args[i]),
			 0);
	}
	for (i = 0; i < 2; i++) {
		pthread_join(th[i], NULL);
		CHECK_EQ(args[i].bad, 0);
		CHECK_EQ(args[i].ops, 200000);
	}
	CHECK(count_keys(map, seen, 64) <= 16, "at most max_entries keys");
	hr_map_free(map);
}

/*
 * A program's hash lookup takes no lock: while one thread replaces a key
 * that is always present and inserts and deletes others (sharing its
 * bucket: 4 buckets), lookups of that key on another thread must always
 * find it, and of a key never inserted never.
 */
struct present_arg {
	struct hr_map *map;
	uint32_t key_size;
	int done;
	unsigned int misses, ghosts, lookups;
};

static void fill_key(uint8_t *k, uint32_t size, uint32_t n)
{
	memset(k, 0, size);
	memcpy(k + size - 4, &n, 4); /* differ in the last word */
}

static void *present_writer(void *p)
{
	struct present_arg *a = p;
	uint8_t key[16];
	uint64_t val = 0;
	unsigned int i, seed = 5;

	for (i = 0; i < 200000; i++) {
		uint32_t k = 1 + rand_r(&seed) % 12;

		val++;
		if (i % 3 == 0) {
			fill_key(key, a->key_size, 0);
			hr_map_update_elem(a->map, key, &val, HR_ANY);
		} else if (i % 3 == 1) {
			fill_key(key, a->key_size, k);
			hr_map_update_elem(a->map, key, &val, HR_ANY);
		} else {
			fill_key(key, a->key_size, k);
			hr_map_delete_elem(a->map, key);
		}
	}
	__atomic_store_n(&a->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

static void *present_reader(void *p)
{
	struct present_arg *a = p;
	uint8_t key[16], ghost[16];

	fill_key(key, a->key_size, 0);
	fill_key(ghost, a->key_size, 99);
	while (!__atomic_load_n(&a->done, __ATOMIC_ACQUIRE)) {
		if (!a->map->ops->lookup(a->map, key, 0))
			a->misses++;
		if (a->map->ops->lookup(a->map, ghost, 0))
			a->ghosts++;
		a->lookups++;
	}
	return NULL;
}

static void test_lockless_lookup(uint32_t key_size)
{
	struct present_arg a = { .key_size = key_size };
	pthread_t w, r;
	uint8_t key[16];
	uint64_t val = 1;

	CHECK_EQ(create(HR_MAP_HASH, key_size, 8, 4, 0, 1, &a.map), 0);
	if (!a.map)
		return;
	fill_key(key, key_size, 0);
	CHECK_EQ(hr_map_update_elem(a.map, key, &val, HR_NOEXIST), 0);
	CHECK_EQ(pthread_create(&r, NULL, present_reader, &a), 0);
	CHECK_EQ(pthread_create(&w, NULL, present_writer, &a), 0);
	pthread_join(w, NULL);
	pthread_join(r, NULL);
	CHECK(a.lookups > 0, "the reader ran");
	CHECK(a.misses == 0,
	      "key %u bytes: %u of %u lookups missed a present key", key_size,
	      a.misses, a.lookups);
	CHECK(a.ghosts == 0, "key %u bytes: %u lookups found an absent key",
	      key_size, a.ghosts);
	hr_map_free(a.map);
}

int main(void)
{
	test_create_rules();
	test_type_names();
	test_array();
	test_percpu_array();
	test_hash(0);
	test_hash(HR_F_NO_PREALLOC);
	test_hash_odd_sizes();
	test_percpu_hash();
	test_pointer_stability();
	test_access_flags();
	test_helpers();
	stress(HR_MAP_HASH, 1);
	stress(HR_MAP_PERCPU_HASH, 3);
	test_lockless_lookup(4);
	test_lockless_lookup(12);
	return t_done();
}
