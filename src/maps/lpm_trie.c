// SPDX-License-Identifier: MIT
/*
 * BPF_MAP_TYPE_LPM_TRIE, after the kernel's kernel/bpf/lpm_trie.c: a
 * binary trie of prefixes (key: struct bpf_lpm_trie_key_u8, a u32
 * prefixlen then big-endian data), with intermediate nodes that only
 * split two subtrees, the same insertion, deletion and postorder
 * get_next_key as the kernel, so walks come out in the kernel's order.
 *
 * Memory: nodes come from one pool reserved up front (MAP_NORESERVE, so a
 * large max_entries costs only what is used), so one strided region
 * covers every value a lookup can return. Freed nodes go through a FIFO
 * and are reused only after many later allocations, as hash.c explains,
 * standing in for the kernel's RCU-delayed free. One spinlock a trie
 * covers every change and walk (the kernel's trie->lock); a program's
 * lookup takes none, as the kernel's runs under RCU alone: as there, a
 * node is filled before a link to it is published (release), links and
 * the intermediate flag are the only fields changed in a linked node, and
 * a node that leaves the trie keeps its children, so a lookup standing on
 * it still ends in the trie. The fields a lookup reads are written and
 * read with atomics. Unlike RCU, reuse is delayed by distance, not time:
 * a lookup preempted long enough could stand on a node reused meanwhile,
 * so one that raced a change (the trie's seqcount moved) is done again
 * under the lock.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "maps/map.h"
#include "maps/map_impl.h"

#define HR_KMALLOC_MAX_SIZE (1u << 22)
#define HR_LPM_DATA_SIZE_MAX 256u
#define HR_LPM_DATA_SIZE_MIN 1u
#define HR_LPM_NODE_KSIZE 24u /* sizeof(struct lpm_trie_node) */
#define HR_LPM_VAL_SIZE_MAX \
	(HR_KMALLOC_MAX_SIZE - HR_LPM_DATA_SIZE_MAX - HR_LPM_NODE_KSIZE)
#define HR_LPM_VAL_SIZE_MIN 1u
#define HR_LPM_KEY_SIZE(x) (4u + (x))
#define HR_LPM_CREATE_FLAG_MASK \
	(HR_F_NO_PREALLOC | HR_F_NUMA_NODE | HR_F_ACCESS_MASK)
#define HR_LPM_FLAG_IM 1u
/* Address space reserved at most for one trie's nodes. */
#define HR_LPM_POOL_MAX_BYTES (1ull << 36)
/* The reuse distance's floor: a lookup's caller holding the value while
 * a writer churns must keep it for longer than a scheduler tick, even
 * under a sanitizer's slowdown (256 was crossed in test_map_types under
 * ThreadSanitizer on a loaded 2-CPU host). Untouched nodes cost no
 * memory (MAP_NORESERVE). */
#define HR_LPM_RESERVE_MIN 8192u
#define HR_LPM_RESERVE_MAX 65536u

struct hr_lpm_node {
	uint32_t child[2]; /* index + 1, 0: none */
	uint32_t prefixlen;
	uint32_t flags;
	uint32_t next_free;
	uint32_t pad;
	uint8_t data[]; /* data_size bytes padded to 8, then the value */
};

struct hr_lpm {
	struct hr_spin lock;
	uint32_t seq; /* odd while a change is being made */
	uint32_t root;
	uint32_t n_entries;
	uint32_t data_size;
	uint32_t max_prefixlen;
	uint32_t node_size;
	uint32_t val_off;
	uint8_t *pool;
	size_t pool_bytes;
	uint32_t pool_n;
	uint32_t fresh;
	uint32_t fifo_head, fifo_tail;
};

struct hr_lpm_key {
	uint32_t prefixlen;
	uint8_t data[];
};

static bool hr_lpm_access_ok(uint32_t flags)
{
	return (flags & (HR_F_RDONLY_PROG | HR_F_WRONLY_PROG)) !=
	       (HR_F_RDONLY_PROG | HR_F_WRONLY_PROG);
}

/* trie_alloc()'s sanity checks. */
static int hr_lpm_check(const struct hr_map_attr *attr)
{
	if (attr->max_entries == 0 || !(attr->map_flags & HR_F_NO_PREALLOC) ||
	    (attr->map_flags & ~HR_LPM_CREATE_FLAG_MASK) ||
	    !hr_lpm_access_ok(attr->map_flags) ||
	    attr->key_size < HR_LPM_KEY_SIZE(HR_LPM_DATA_SIZE_MIN) ||
	    attr->key_size > HR_LPM_KEY_SIZE(HR_LPM_DATA_SIZE_MAX) ||
	    attr->value_size < HR_LPM_VAL_SIZE_MIN ||
	    attr->value_size > HR_LPM_VAL_SIZE_MAX)
		return -EINVAL;
	return 0;
}

static int hr_lpm_alloc(struct hr_map *map)
{
	struct hr_lpm *t = calloc(1, sizeof(*t));
	uint64_t n, reserve = map->attr.max_entries;
	void *p;

	if (!t)
		return -ENOMEM;
	t->data_size = map->attr.key_size - 4;
	t->max_prefixlen = t->data_size * 8;
	t->val_off = sizeof(struct hr_lpm_node) + HR_ROUND8(t->data_size);
	t->node_size = t->val_off + HR_ROUND8(map->attr.value_size);
	if (reserve < HR_LPM_RESERVE_MIN)
		reserve = HR_LPM_RESERVE_MIN;
	if (reserve > HR_LPM_RESERVE_MAX)
		reserve = HR_LPM_RESERVE_MAX;
	/* Leaves plus intermediate nodes plus the reuse distance. */
	n = 2ull * map->attr.max_entries + reserve;
	if (n * t->node_size > HR_LPM_POOL_MAX_BYTES)
		n = HR_LPM_POOL_MAX_BYTES / t->node_size;
	if (n > UINT32_MAX - 1)
		n = UINT32_MAX - 1;
	t->pool_n = (uint32_t)n;
	t->pool_bytes = (size_t)n * t->node_size;
	p = mmap(NULL, t->pool_bytes, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (p == MAP_FAILED) {
		free(t);
		return -ENOMEM;
	}
	t->pool = p;
	map->priv = t;
	return 0;
}

static void hr_lpm_free(struct hr_map *map)
{
	struct hr_lpm *t = map->priv;

	if (!t)
		return;
	munmap(t->pool, t->pool_bytes);
	free(t);
	map->priv = NULL;
}

/* A link (root or child) read by a lockless lookup, and its publication. */
static uint32_t hr_link(const uint32_t *p)
{
	return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}

static void hr_set_link(uint32_t *p, uint32_t v)
{
	__atomic_store_n(p, v, __ATOMIC_RELEASE);
}

static uint32_t hr_get32(const uint32_t *p)
{
	return __atomic_load_n(p, __ATOMIC_RELAXED);
}

static void hr_set32(uint32_t *p, uint32_t v)
{
	__atomic_store_n(p, v, __ATOMIC_RELAXED);
}

static struct hr_lpm_node *hr_node(const struct hr_lpm *t, uint32_t idx1)
{
	return idx1 ? (struct hr_lpm_node *)(t->pool + (size_t)(idx1 - 1) *
							       t->node_size) :
		      NULL;
}

/* With the lock: a node (value copied in when given), or 0. */
static uint32_t hr_node_alloc(struct hr_map *map, const void *value)
{
	struct hr_lpm *t = map->priv;
	struct hr_lpm_node *n;
	uint32_t idx1;

	if (t->fresh < t->pool_n) {
		idx1 = ++t->fresh;
	} else if (t->fifo_head) {
		idx1 = t->fifo_head;
		t->fifo_head = hr_node(t, idx1)->next_free;
		if (!t->fifo_head)
			t->fifo_tail = 0;
	} else {
		return 0;
	}
	n = hr_node(t, idx1);
	hr_set32(&n->child[0], 0);
	hr_set32(&n->child[1], 0);
	hr_set32(&n->flags, 0);
	if (value)
		hr_map_value_store((uint8_t *)n + t->val_off, value,
				   map->attr.value_size);
	return idx1;
}

/* Prefix and data of a node not yet linked (lookups may still stand on
 * it from an earlier use). */
static void hr_node_set_key(const struct hr_lpm *t, struct hr_lpm_node *n,
			    uint32_t prefixlen, const uint8_t *data)
{
	uint32_t i;

	hr_set32(&n->prefixlen, prefixlen);
	for (i = 0; i < t->data_size; i++)
		__atomic_store_n(&n->data[i], data[i], __ATOMIC_RELAXED);
}

static void hr_node_put(struct hr_lpm *t, uint32_t idx1)
{
	if (!idx1)
		return;
	hr_node(t, idx1)->next_free = 0;
	if (t->fifo_tail)
		hr_node(t, t->fifo_tail)->next_free = idx1;
	else
		t->fifo_head = idx1;
	t->fifo_tail = idx1;
}

static int hr_extract_bit(const uint8_t *data, size_t index)
{
	return !!(data[index / 8] & (1 << (7 - (index % 8))));
}

/* longest_prefix_match(): matching leading bits of @node and @key. */
static uint32_t hr_lpm_match(const struct hr_lpm *t,
			     const struct hr_lpm_node *node,
			     const struct hr_lpm_key *key)
{
	uint32_t plen = hr_get32(&node->prefixlen);
	uint32_t limit = plen < key->prefixlen ? plen : key->prefixlen;
	uint32_t i, len = 0;

	for (i = 0; i < t->data_size; i++) {
		uint8_t diff =
			__atomic_load_n(&node->data[i], __ATOMIC_RELAXED) ^
			key->data[i];

		if (diff) {
			len += __builtin_clz((uint32_t)diff) - 24;
			break;
		}
		len += 8;
		if (len >= limit)
			break;
	}
	return len < limit ? len : limit;
}

static uint8_t *hr_node_value(const struct hr_lpm *t, struct hr_lpm_node *n)
{
	return (uint8_t *)n + t->val_off;
}

/* The longest match for @key: its node, or NULL. */
static struct hr_lpm_node *hr_lpm_walk(const struct hr_lpm *t,
				       const struct hr_lpm_key *key)
{
	struct hr_lpm_node *node, *found = NULL;
	uint32_t steps = 0;

	for (node = hr_node(t, hr_link(&t->root)); node;) {
		uint32_t matchlen = hr_lpm_match(t, node, key);
		uint32_t plen = hr_get32(&node->prefixlen);

		if (matchlen == t->max_prefixlen) {
			found = node;
			break;
		}
		/* plen < max: a reused node could say otherwise, and the
		 * bit index must stay inside the key. */
		if (matchlen < plen || plen >= t->max_prefixlen)
			break;
		if (!(hr_get32(&node->flags) & HR_LPM_FLAG_IM))
			found = node;
		/* Prefixes grow down a trie: more steps, a reused node. */
		if (++steps > t->max_prefixlen)
			break;
		node = hr_node(
			t,
			hr_link(&node->child[hr_extract_bit(key->data, plen)]));
	}
	return found;
}

static void *hr_lpm_lookup(struct hr_map *map, const void *_key,
			   unsigned int cpu)
{
	struct hr_lpm *t = map->priv;
	const struct hr_lpm_key *key = _key;
	struct hr_lpm_node *found;
	uint32_t seq;

	if (key->prefixlen > t->max_prefixlen)
		return NULL;
	seq = hr_seq_read_begin(&t->seq);
	found = hr_lpm_walk(t, key);
	if (hr_seq_read_retry(&t->seq, seq)) {
		hr_spin_lock(&t->lock);
		found = hr_lpm_walk(t, key);
		hr_spin_unlock(&t->lock);
	}
	return found ? hr_node_value(t, found) : NULL;
}

static int hr_lpm_copy_value(struct hr_map *map, const void *key, void *value)
{
	void *v = hr_lpm_lookup(map, key, 0);

	if (!v)
		return -ENOENT;
	hr_map_value_load(value, v, map->attr.value_size);
	return 0;
}

/* trie_check_add_elem(). */
static int hr_lpm_add_check(struct hr_map *map, uint64_t flags)
{
	struct hr_lpm *t = map->priv;

	if (flags == HR_EXIST)
		return -ENOENT;
	if (t->n_entries == map->attr.max_entries)
		return -ENOSPC;
	t->n_entries++;
	return 0;
}

/* With the lock: trie_update_elem() from the slot walk on. */
static int hr_lpm_insert(struct hr_map *map, const struct hr_lpm_key *key,
			 uint32_t new1, uint64_t flags, uint32_t *free1)
{
	struct hr_lpm *t = map->priv;
	struct hr_lpm_node *node = NULL, *im, *new_node = hr_node(t, new1);
	uint32_t *slot = &t->root, matchlen = 0, im1;
	int ret;

	while ((node = hr_node(t, *slot))) {
		matchlen = hr_lpm_match(t, node, key);
		if (node->prefixlen != matchlen ||
		    node->prefixlen == key->prefixlen)
			break;
		slot = &node->child[hr_extract_bit(key->data, node->prefixlen)];
	}
	if (!node) {
		ret = hr_lpm_add_check(map, flags);
		if (!ret)
			hr_set_link(slot, new1);
		return ret;
	}
	if (node->prefixlen == matchlen) {
		if (!(node->flags & HR_LPM_FLAG_IM)) {
			if (flags == HR_NOEXIST)
				return -EEXIST;
		} else {
			ret = hr_lpm_add_check(map, flags);
			if (ret)
				return ret;
		}
		hr_set32(&new_node->child[0], node->child[0]);
		hr_set32(&new_node->child[1], node->child[1]);
		*free1 = *slot;
		hr_set_link(slot, new1);
		return 0;
	}
	ret = hr_lpm_add_check(map, flags);
	if (ret)
		return ret;
	if (matchlen == key->prefixlen) {
		hr_set32(&new_node->child[hr_extract_bit(node->data, matchlen)],
			 *slot);
		hr_set_link(slot, new1);
		return 0;
	}
	im1 = hr_node_alloc(map, NULL);
	if (!im1) {
		t->n_entries--;
		return -ENOMEM;
	}
	im = hr_node(t, im1);
	hr_node_set_key(t, im, matchlen, node->data);
	hr_set32(&im->flags, HR_LPM_FLAG_IM);
	if (hr_extract_bit(key->data, matchlen)) {
		hr_set32(&im->child[0], *slot);
		hr_set32(&im->child[1], new1);
	} else {
		hr_set32(&im->child[0], new1);
		hr_set32(&im->child[1], *slot);
	}
	hr_set_link(slot, im1);
	return 0;
}

static int hr_lpm_update(struct hr_map *map, const void *_key,
			 const void *value, uint64_t flags, unsigned int cpu)
{
	struct hr_lpm *t = map->priv;
	const struct hr_lpm_key *key = _key;
	uint32_t new1, free1 = 0;
	int ret;

	if (flags > HR_EXIST)
		return -EINVAL;
	if (key->prefixlen > t->max_prefixlen)
		return -EINVAL;
	hr_spin_lock(&t->lock);
	new1 = hr_node_alloc(map, value);
	if (!new1) {
		hr_spin_unlock(&t->lock);
		return -ENOMEM;
	}
	hr_seq_write_begin(&t->seq);
	hr_node_set_key(t, hr_node(t, new1), key->prefixlen, key->data);
	ret = hr_lpm_insert(map, key, new1, flags, &free1);
	hr_node_put(t, ret ? new1 : free1);
	hr_seq_write_end(&t->seq);
	hr_spin_unlock(&t->lock);
	return ret;
}

static int hr_lpm_update_user(struct hr_map *map, const void *key,
			      const void *value, uint64_t flags)
{
	return hr_lpm_update(map, key, value, flags, 0);
}

/* With the lock: trie_delete_elem(). */
static int hr_lpm_remove(struct hr_lpm *t, const struct hr_lpm_key *key)
{
	struct hr_lpm_node *node, *parent = NULL;
	uint32_t *trim = &t->root, *trim2 = trim, matchlen = 0, idx1;

	while ((node = hr_node(t, *trim))) {
		matchlen = hr_lpm_match(t, node, key);
		if (node->prefixlen != matchlen ||
		    node->prefixlen == key->prefixlen)
			break;
		parent = node;
		trim2 = trim;
		trim = &node->child[hr_extract_bit(key->data, node->prefixlen)];
	}
	if (!node || node->prefixlen != key->prefixlen ||
	    node->prefixlen != matchlen || (node->flags & HR_LPM_FLAG_IM))
		return -ENOENT;
	t->n_entries--;
	if (node->child[0] && node->child[1]) {
		hr_set32(&node->flags, node->flags | HR_LPM_FLAG_IM);
		return 0;
	}
	idx1 = *trim;
	if (parent && (parent->flags & HR_LPM_FLAG_IM) && !node->child[0] &&
	    !node->child[1]) {
		uint32_t parent1 = *trim2;

		hr_set_link(trim2,
			    parent->child[parent->child[0] == idx1 ? 1 : 0]);
		hr_node_put(t, parent1);
		hr_node_put(t, idx1);
		return 0;
	}
	hr_set_link(trim, node->child[0] ? node->child[0] : node->child[1]);
	hr_node_put(t, idx1);
	return 0;
}

static int hr_lpm_delete(struct hr_map *map, const void *_key)
{
	struct hr_lpm *t = map->priv;
	const struct hr_lpm_key *key = _key;
	int ret;

	if (key->prefixlen > t->max_prefixlen)
		return -EINVAL;
	hr_spin_lock(&t->lock);
	hr_seq_write_begin(&t->seq);
	ret = hr_lpm_remove(t, key);
	hr_seq_write_end(&t->seq);
	hr_spin_unlock(&t->lock);
	return ret;
}

/* The leftmost non-intermediate node under @search (never 0). */
static struct hr_lpm_node *hr_lpm_leftmost(struct hr_lpm *t,
					   struct hr_lpm_node *node)
{
	struct hr_lpm_node *next = NULL;

	while (node) {
		if (node->flags & HR_LPM_FLAG_IM) {
			node = hr_node(t, node->child[0]);
		} else {
			next = node;
			node = hr_node(t, node->child[0]);
			if (!node)
				node = hr_node(t, next->child[1]);
		}
	}
	return next;
}

/* With the lock: trie_get_next_key()'s postorder successor. */
static struct hr_lpm_node *hr_lpm_next(struct hr_lpm *t,
				       const struct hr_lpm_key *key, int *err)
{
	struct hr_lpm_node *stack[HR_LPM_DATA_SIZE_MAX * 8 + 1];
	struct hr_lpm_node *node, *parent, *root = hr_node(t, t->root);
	uint32_t matchlen = 0;
	int sp = -1;

	*err = 0;
	if (!root) {
		*err = -ENOENT;
		return NULL;
	}
	if (!key || key->prefixlen > t->max_prefixlen)
		return hr_lpm_leftmost(t, root);
	for (node = root; node;) {
		stack[++sp] = node;
		matchlen = hr_lpm_match(t, node, key);
		if (node->prefixlen != matchlen ||
		    node->prefixlen == key->prefixlen)
			break;
		node = hr_node(
			t,
			node->child[hr_extract_bit(key->data, node->prefixlen)]);
	}
	if (!node || node->prefixlen != matchlen ||
	    (node->flags & HR_LPM_FLAG_IM))
		return hr_lpm_leftmost(t, root);
	node = stack[sp];
	while (sp > 0) {
		parent = stack[sp - 1];
		if (hr_node(t, parent->child[0]) == node && parent->child[1])
			return hr_lpm_leftmost(t, hr_node(t, parent->child[1]));
		if (!(parent->flags & HR_LPM_FLAG_IM))
			return parent;
		node = parent;
		sp--;
	}
	*err = -ENOENT;
	return NULL;
}

static int hr_lpm_get_next_key(struct hr_map *map, const void *_key,
			       void *_next)
{
	struct hr_lpm *t = map->priv;
	struct hr_lpm_key *next = _next;
	struct hr_lpm_node *node;
	int err;

	hr_spin_lock(&t->lock);
	node = hr_lpm_next(t, _key, &err);
	if (node) {
		next->prefixlen = node->prefixlen;
		memcpy(next->data, node->data, t->data_size);
	}
	hr_spin_unlock(&t->lock);
	return err;
}

static unsigned int hr_lpm_regions(struct hr_map *map, struct hr_region *out,
				   unsigned int max)
{
	const struct hr_lpm *t = map->priv;

	if (!max)
		return 0;
	memset(out, 0, sizeof(*out));
	out->start = (uintptr_t)t->pool;
	out->end = out->start + t->pool_bytes;
	out->stride = t->node_size;
	out->off = t->val_off;
	out->len = map->attr.value_size;
	out->flags = hr_map_region_flags(map);
	return 1;
}

const struct hr_map_ops hr_map_ops_lpm_trie = {
	.check = hr_lpm_check,
	.alloc = hr_lpm_alloc,
	.free = hr_lpm_free,
	.lookup = hr_lpm_lookup,
	.update = hr_lpm_update,
	.delete = hr_lpm_delete,
	.get_next_key = hr_lpm_get_next_key,
	.copy_value = hr_lpm_copy_value,
	.update_user = hr_lpm_update_user,
	.regions = hr_lpm_regions,
};
