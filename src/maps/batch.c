// SPDX-License-Identifier: MIT
/*
 * hr_map_lookup_batch(): BPF_MAP_LOOKUP_BATCH as bpf_map_do_batch() in
 * kernel/bpf/syscall.c dispatches it.
 *
 * Arrays, LPM tries and ARRAY_OF_MAPS take generic_map_lookup_batch(): the
 * token is the last key returned (key_size bytes), the walk follows
 * get_next_key, entries that vanish between the two steps are skipped, and
 * -ENOENT marks the end (with the count copied so far). A full batch is 0.
 *
 * The hash maps (HASH, PERCPU_HASH, LRU_HASH, LRU_PERCPU_HASH,
 * HASH_OF_MAPS) take __htab_map_lookup_and_delete_batch(): the token is a
 * uint32_t cursor, a token at or past the end is -ENOENT at once, the
 * walk goes on until the batch is full or the map ends (-ENOENT, also when
 * the last entry filled the batch exactly), -ENOSPC when not even the
 * first unit fits, and the token is always written (a NULL out_batch is
 * -EFAULT with count 0). The kernel's unit is a bucket; headroom's map
 * operations expose no buckets, so here every entry is its own unit and
 * the cursor counts entries in get_next_key order (the hash map's bucket
 * order). A walk over a map that changes between calls may then repeat or
 * miss entries, as the kernel's may when a bucket changes.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "headroom/map.h"
#include "maps/map.h"

#ifndef ENOTSUPP
#define ENOTSUPP 524
#endif

enum hr_batch_kind {
	HR_BATCH_NONE,
	HR_BATCH_GENERIC,
	HR_BATCH_HTAB,
};

static enum hr_batch_kind hr_batch_kind(uint32_t type)
{
	switch (type) {
	case HR_MAP_ARRAY:
	case HR_MAP_PERCPU_ARRAY:
	case HR_MAP_LPM_TRIE:
	case HR_MAP_ARRAY_OF_MAPS:
		return HR_BATCH_GENERIC;
	case HR_MAP_HASH:
	case HR_MAP_PERCPU_HASH:
	case HR_MAP_LRU_HASH:
	case HR_MAP_LRU_PERCPU_HASH:
	case HR_MAP_HASH_OF_MAPS:
		return HR_BATCH_HTAB;
	default:
		return HR_BATCH_NONE;
	}
}

static void hr_swap(uint8_t **a, uint8_t **b)
{
	uint8_t *t = *a;

	*a = *b;
	*b = t;
}

static int hr_batch_generic(struct hr_map *map, const void *in_batch,
			    void *out_batch, uint8_t *keys, uint8_t *values,
			    uint32_t *count)
{
	uint32_t ks = map->attr.key_size, vs = hr_map_user_value_size(map);
	uint32_t max_count = *count, cp = 0;
	uint8_t *prev = NULL, *key, *buf;
	int err = 0;

	buf = malloc(2 * (size_t)ks + vs + 1);
	if (!buf)
		return -ENOMEM;
	*count = 0;
	key = buf;
	if (in_batch) {
		prev = buf + ks;
		memcpy(prev, in_batch, ks);
	}
	while (cp < max_count) {
		uint8_t *value = buf + 2 * (size_t)ks;

		err = map->ops->get_next_key(map, prev, key);
		if (err)
			break;
		err = map->ops->copy_value(map, key, value);
		if (err && err != -ENOENT)
			goto out;
		if (!err) {
			if (!keys || !values) {
				err = -EFAULT;
				goto out;
			}
			memcpy(keys + (size_t)cp * ks, key, ks);
			memcpy(values + (size_t)cp * vs, value, vs);
			cp++;
		}
		/* The key just visited is the next walk's start. */
		if (!prev) {
			prev = key;
			key = buf + ks;
		} else {
			hr_swap(&prev, &key);
		}
	}
	*count = cp;
	if (cp) {
		if (!out_batch)
			err = -EFAULT;
		else
			memcpy(out_batch, prev, ks);
	}
out:
	free(buf);
	return err;
}

static int hr_batch_htab(struct hr_map *map, const void *in_batch,
			 void *out_batch, uint8_t *keys, uint8_t *values,
			 uint32_t *count)
{
	uint32_t ks = map->attr.key_size, vs = hr_map_user_value_size(map);
	uint32_t max_count = *count, total = 0, pos = 0, start = 0;
	uint8_t *buf, *key, *next, *value;
	bool have;
	int err;

	*count = 0;
	if (in_batch)
		memcpy(&start, in_batch, sizeof(start));
	buf = malloc(2 * (size_t)ks + vs + 1);
	if (!buf)
		return -ENOMEM;
	key = buf;
	next = buf + ks;
	value = buf + 2 * (size_t)ks;

	/* Skip to the cursor; a cursor past the end is -ENOENT at once. */
	err = map->ops->get_next_key(map, NULL, key);
	have = !err;
	while (have && pos < start) {
		have = !map->ops->get_next_key(map, key, next);
		if (have)
			hr_swap(&key, &next);
		pos++;
	}
	if (!have && start) {
		free(buf);
		return -ENOENT;
	}
	/* An empty map still writes the token, as the kernel's walk. */
	err = -ENOENT;
	while (have) {
		err = map->ops->copy_value(map, key, value);
		if (err && err != -ENOENT)
			goto out;
		if (!err) {
			/* A unit that does not fit ends the batch. */
			if (total == max_count) {
				err = 0;
				break;
			}
			if (!keys || !values) {
				err = -EFAULT;
				goto out;
			}
			memcpy(keys + (size_t)total * ks, key, ks);
			memcpy(values + (size_t)total * vs, value, vs);
			total++;
		}
		pos++;
		if (map->ops->get_next_key(map, key, next)) {
			err = -ENOENT;
			break;
		}
		hr_swap(&key, &next);
	}
	if (!out_batch) {
		err = -EFAULT;
		goto out;
	}
	memcpy(out_batch, &pos, sizeof(pos));
	*count = total;
out:
	free(buf);
	return err;
}

int hr_map_lookup_batch(struct hr_map *map, void *in_batch, void *out_batch,
			void *keys, void *values, uint32_t *count,
			uint64_t elem_flags)
{
	enum hr_batch_kind kind;

	if (!map)
		return -EBADF;
	if (map->attr.map_flags & HR_F_WRONLY)
		return -EPERM;
	kind = hr_batch_kind(map->attr.type);
	if (kind == HR_BATCH_NONE || !map->ops->get_next_key ||
	    !map->ops->copy_value)
		return -ENOTSUPP;
	/* Only BPF_F_LOCK is defined, and no headroom map value holds a
	 * bpf_spin_lock, so it is refused too. */
	if (elem_flags)
		return -EINVAL;
	if (!count)
		return -EFAULT;
	if (!*count)
		return 0;
	if (kind == HR_BATCH_GENERIC)
		return hr_batch_generic(map, in_batch, out_batch, keys, values,
					count);
	return hr_batch_htab(map, in_batch, out_batch, keys, values, count);
}
