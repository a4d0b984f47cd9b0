// SPDX-License-Identifier: MIT
/*
 * BPF_MAP_TYPE_DEVMAP and BPF_MAP_TYPE_DEVMAP_HASH, after the kernel's
 * kernel/bpf/devmap.c: entries naming a device by ifindex and optionally
 * an egress program (BPF_XDP_DEVMAP); bpf_redirect_map() into them, with
 * BPF_F_BROADCAST and BPF_F_EXCLUDE_INGRESS.
 *
 * Entries are immutable once published. They live in one preallocated
 * slot array (so that the values a program looks up are one memory
 * region, read only, as the kernel forces BPF_F_RDONLY_PROG); an update
 * builds a new slot, publishes it with one atomic store, waits for a grace
 * period and only then recycles the old slot. Updates are serialised by a
 * mutex (control path); the datapath reads without any lock.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "progs/prog.h"
#include "progs/prog_registry.h"
#include "core/datapath.h"
#include "core/pool.h"
#include "maps/map.h"
#include "maps/map_impl.h"
#include "maps/redirect_impl.h"

#define HR_DEV_CREATE_FLAG_MASK (HR_F_NUMA_NODE | HR_F_RDONLY | HR_F_WRONLY)
#define HR_VLAN_HLEN 4u

/* struct bpf_devmap_val: the fd is written, the program id read back. */
struct hr_devmap_val {
	uint32_t ifindex;
	uint32_t prog; /* fd on update, id on lookup */
};

struct hr_dtab_netdev {
	struct hr_devmap_val val; /* first: what programs read */
	struct hr_dev *dev;
	struct hr_prog *prog;
	uint32_t idx;
	struct hr_dtab_netdev *_Atomic next; /* DEVMAP_HASH bucket chain */
	struct hr_dtab_netdev *free_next;
};

struct hr_dtab {
	pthread_mutex_t lock; /* updates and deletes */
	/* max_entries + 1 slots: a replacement exists beside the old. */
	struct hr_dtab_netdev *slots;
	size_t slots_bytes;
	struct hr_dtab_netdev *free_list;
	/* DEVMAP: an entry per key. DEVMAP_HASH: bucket heads. */
	struct hr_dtab_netdev *_Atomic *table;
	size_t table_bytes;
	uint32_t n_buckets;
	uint32_t items;
};

/* ------------------------------------------------------------------ */
/* Shared by the redirect maps.                                        */

struct hr_datapath *hr_redirect_dp(void)
{
	return hr_dp_default();
}

void hr_redirect_synchronize(void)
{
	struct hr_datapath *dp = hr_redirect_dp();

	if (dp)
		hr_dp_synchronize(dp);
}

uint64_t hr_redirect_map_common(struct hr_map *map, uint64_t index,
				uint64_t flags, uint64_t flag_mask,
				void *(*lookup)(struct hr_map *map,
						uint32_t key),
				struct hr_redirect_info *ri)
{
	if (flags & ~(HR_REDIRECT_ACTION_MASK | flag_mask))
		return HR_XDP_ABORTED;
	ri->tgt_value = lookup(map, (uint32_t)index);
	if (!ri->tgt_value && !(flags & HR_F_BROADCAST)) {
		ri->map = NULL;
		ri->map_type = HR_MAP_UNSPEC;
		return flags & HR_REDIRECT_ACTION_MASK;
	}
	ri->tgt_index = (uint32_t)index;
	ri->map_type = map->attr.type;
	ri->map = map;
	ri->flags = (flags & HR_F_BROADCAST) ? flags : 0;
	return HR_XDP_REDIRECT;
}

int hr_redirect_array_next_key(const struct hr_map *map, const void *key,
			       void *next)
{
	uint32_t index = UINT32_MAX, *out = next;

	if (key)
		memcpy(&index, key, sizeof(index));
	if (index >= map->attr.max_entries) {
		*out = 0;
		return 0;
	}
	if (index == map->attr.max_entries - 1)
		return -ENOENT;
	*out = index + 1;
	return 0;
}

/* ------------------------------------------------------------------ */
/* Creation.                                                           */

static bool hr_dtab_is_hash(const struct hr_map *map)
{
	return map->attr.type == HR_MAP_DEVMAP_HASH;
}

/* dev_map_alloc_check(). */
static int hr_dtab_check(const struct hr_map_attr *attr)
{
	uint32_t vs = attr->value_size;

	if (attr->max_entries == 0 || attr->key_size != 4 ||
	    (vs != 4 && vs != sizeof(struct hr_devmap_val)) ||
	    (attr->map_flags & ~HR_DEV_CREATE_FLAG_MASK))
		return -EINVAL;
	if (attr->type == HR_MAP_DEVMAP_HASH && attr->max_entries > 1UL << 31)
		return -EINVAL;
	return 0;
}

static uint32_t hr_roundup_pow2(uint32_t n)
{
	uint32_t p = 1;

	while (p < n)
		p <<= 1;
	return p;
}

static void hr_dtab_free(struct hr_map *map)
{
	struct hr_dtab *d = map->priv;

	if (!d)
		return;
	/* Programs that used the map are gone; wait for their last runs. */
	hr_redirect_synchronize();
	hr_map_area_free(d->table, d->table_bytes);
	hr_map_area_free(d->slots, d->slots_bytes);
	pthread_mutex_destroy(&d->lock);
	free(d);
	map->priv = NULL;
}

static int hr_dtab_alloc(struct hr_map *map)
{
	uint32_t n = map->attr.max_entries, i;
	struct hr_dtab *d;

	d = calloc(1, sizeof(*d));
	if (!d)
		return -ENOMEM;
	pthread_mutex_init(&d->lock, NULL);
	map->priv = d;
	/* Lookups return a pointer into the entry: programs may not write. */
	map->attr.map_flags |= HR_F_RDONLY_PROG;
	map->rdonly_prog = true;
	if (hr_dtab_is_hash(map)) {
		d->n_buckets = hr_roundup_pow2(n);
		d->table_bytes = (size_t)d->n_buckets * sizeof(*d->table);
	} else {
		d->table_bytes = (size_t)n * sizeof(*d->table);
	}
	d->table = hr_map_area_alloc(d->table_bytes);
	d->slots_bytes = ((size_t)n + 1) * sizeof(*d->slots);
	d->slots = hr_map_area_alloc(d->slots_bytes);
	if (!d->table || !d->slots) {
		hr_dtab_free(map);
		return -ENOMEM;
	}
	/* Lowest slots first, so a small map touches few pages. */
	for (i = n + 1; i-- > 0;) {
		d->slots[i].free_next = d->free_list;
		d->free_list = &d->slots[i];
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* Lookups (lock-free, from programs and the datapath).                */

static struct hr_dtab_netdev *hr_dtab_entry(struct hr_map *map, uint32_t key)
{
	struct hr_dtab *d = map->priv;

	if (key >= map->attr.max_entries)
		return NULL;
	return atomic_load_explicit(&d->table[key], memory_order_acquire);
}

static struct hr_dtab_netdev *hr_dhash_entry(struct hr_map *map, uint32_t key)
{
	struct hr_dtab *d = map->priv;
	struct hr_dtab_netdev *e;

	e = atomic_load_explicit(&d->table[key & (d->n_buckets - 1)],
				 memory_order_acquire);
	for (; e; e = atomic_load_explicit(&e->next, memory_order_acquire))
		if (e->idx == key)
			return e;
	return NULL;
}

static void *hr_dtab_lookup_any(struct hr_map *map, uint32_t key)
{
	return hr_dtab_is_hash(map) ? hr_dhash_entry(map, key) :
				      hr_dtab_entry(map, key);
}

static void *hr_dtab_lookup(struct hr_map *map, const void *key,
			    unsigned int cpu)
{
	struct hr_dtab_netdev *e;
	uint32_t k;

	(void)cpu;
	memcpy(&k, key, sizeof(k));
	e = hr_dtab_lookup_any(map, k);
	return e ? &e->val : NULL;
}

static int hr_dtab_copy_value(struct hr_map *map, const void *key, void *value)
{
	struct hr_devmap_val *v = hr_dtab_lookup(map, key, 0);

	if (!v)
		return -ENOENT;
	memcpy(value, v, map->attr.value_size);
	return 0;
}

/* ------------------------------------------------------------------ */
/* Updates (control path, under d->lock).                              */

static struct hr_dtab_netdev *hr_dtab_slot_get(struct hr_dtab *d)
{
	struct hr_dtab_netdev *e = d->free_list;

	if (e)
		d->free_list = e->free_next;
	return e;
}

/* Recycles @e once no worker can hold it any more. */
static void hr_dtab_slot_put(struct hr_dtab *d, struct hr_dtab_netdev *e,
			     bool published)
{
	if (!e)
		return;
	if (published)
		hr_redirect_synchronize();
	memset(&e->val, 0, sizeof(e->val));
	e->dev = NULL;
	e->prog = NULL;
	atomic_store_explicit(&e->next, NULL, memory_order_relaxed);
	e->free_next = d->free_list;
	d->free_list = e;
}

/* __dev_map_alloc_node(): the device must exist, the program must be an
 * XDP program for BPF_XDP_DEVMAP; -EINVAL otherwise. */
#define HR_LO_IFINDEX 1

static int hr_dtab_fill_node(struct hr_dtab_netdev *e,
			     const struct hr_devmap_val *val, uint32_t idx)
{
	struct hr_datapath *dp = hr_redirect_dp();
	struct hr_prog *prog = NULL;

	e->dev = dp ? hr_dev_get_by_index(dp, val->ifindex) : NULL;
	/* Without a datapath, test runs stand in for the kernel's, whose
	 * namespace has lo at ifindex 1: an entry naming it is kept, with no
	 * device to send to. */
	if (!e->dev && (dp || val->ifindex != HR_LO_IFINDEX))
		return -EINVAL;
	if ((int32_t)val->prog > 0) {
		prog = hr_prog_from_fd((int)val->prog);
		if (!prog || !prog->type ||
		    prog->type->kernel_type != HR_KPROG_XDP ||
		    prog->expected_attach != HR_ATTACH_XDP_DEVMAP)
			return -EINVAL;
	}
	e->idx = idx;
	e->prog = prog;
	e->val.ifindex = val->ifindex;
	/* The kernel reads back the program's id; ours is its handle. */
	e->val.prog = prog ? (uint32_t)hr_prog_fd(prog) : 0;
	return 0;
}

static void hr_dtab_read_val(const struct hr_map *map, const void *value,
			     struct hr_devmap_val *val)
{
	memset(val, 0, sizeof(*val));
	memcpy(val, value, map->attr.value_size);
}

/* __dev_map_update_elem(). */
static int hr_dtab_update_array(struct hr_map *map, uint32_t i,
				const struct hr_devmap_val *val, uint64_t flags)
{
	struct hr_dtab *d = map->priv;
	struct hr_dtab_netdev *e = NULL, *old;
	int err;

	if (flags > HR_EXIST)
		return -EINVAL;
	if (i >= map->attr.max_entries)
		return -E2BIG;
	if (flags == HR_NOEXIST)
		return -EEXIST;
	if (!val->ifindex) {
		/* No program without a device. */
		if ((int32_t)val->prog > 0)
			return -EINVAL;
	} else {
		e = hr_dtab_slot_get(d);
		if (!e)
			return -ENOMEM;
		err = hr_dtab_fill_node(e, val, i);
		if (err) {
			hr_dtab_slot_put(d, e, false);
			return err;
		}
	}
	old = atomic_exchange_explicit(&d->table[i], e, memory_order_acq_rel);
	if (old)
		hr_dtab_slot_put(d, old, true);
	else
		d->items++;
	/* An ifindex of 0 stores an empty entry the kernel still counts. */
	return 0;
}

/* Unlinks @e from its bucket (readers on it still see its next). */
static void hr_dhash_unlink(struct hr_dtab *d, struct hr_dtab_netdev *e)
{
	struct hr_dtab_netdev *_Atomic *pp =
		&d->table[e->idx & (d->n_buckets - 1)];
	struct hr_dtab_netdev *cur;

	while ((cur = atomic_load_explicit(pp, memory_order_relaxed))) {
		if (cur == e) {
			atomic_store_explicit(
				pp,
				atomic_load_explicit(&e->next,
						     memory_order_relaxed),
				memory_order_release);
			return;
		}
		pp = &cur->next;
	}
}

static void hr_dhash_add_head(struct hr_dtab *d, struct hr_dtab_netdev *e)
{
	struct hr_dtab_netdev *_Atomic *head =
		&d->table[e->idx & (d->n_buckets - 1)];

	atomic_store_explicit(&e->next,
			      atomic_load_explicit(head, memory_order_relaxed),
			      memory_order_relaxed);
	atomic_store_explicit(head, e, memory_order_release);
}

/* __dev_map_hash_update_elem(). */
static int hr_dtab_update_hash(struct hr_map *map, uint32_t idx,
			       const struct hr_devmap_val *val, uint64_t flags)
{
	struct hr_dtab *d = map->priv;
	struct hr_dtab_netdev *e, *old;
	int err;

	if (flags > HR_EXIST || !val->ifindex)
		return -EINVAL;
	old = hr_dhash_entry(map, idx);
	if (old && (flags & HR_NOEXIST))
		return -EEXIST;
	e = hr_dtab_slot_get(d);
	if (!e)
		return -ENOMEM;
	err = hr_dtab_fill_node(e, val, idx);
	if (err) {
		hr_dtab_slot_put(d, e, false);
		return err;
	}
	if (old) {
		hr_dhash_unlink(d, old);
	} else if (d->items >= map->attr.max_entries) {
		hr_dtab_slot_put(d, e, false);
		return -E2BIG;
	} else {
		d->items++;
	}
	hr_dhash_add_head(d, e);
	if (old)
		hr_dtab_slot_put(d, old, true);
	return 0;
}

static int hr_dtab_update_user(struct hr_map *map, const void *key,
			       const void *value, uint64_t flags)
{
	struct hr_dtab *d = map->priv;
	struct hr_devmap_val val;
	uint32_t k;
	int ret;

	memcpy(&k, key, sizeof(k));
	hr_dtab_read_val(map, value, &val);
	pthread_mutex_lock(&d->lock);
	if (hr_dtab_is_hash(map))
		ret = hr_dtab_update_hash(map, k, &val, flags);
	else
		ret = hr_dtab_update_array(map, k, &val, flags);
	pthread_mutex_unlock(&d->lock);
	return ret;
}

static int hr_dtab_update(struct hr_map *map, const void *key,
			  const void *value, uint64_t flags, unsigned int cpu)
{
	(void)cpu;
	return hr_dtab_update_user(map, key, value, flags);
}

/* dev_map_delete_elem() / dev_map_hash_delete_elem(). */
static int hr_dtab_delete(struct hr_map *map, const void *key)
{
	struct hr_dtab *d = map->priv;
	struct hr_dtab_netdev *old;
	int ret = 0;
	uint32_t k;

	memcpy(&k, key, sizeof(k));
	pthread_mutex_lock(&d->lock);
	if (hr_dtab_is_hash(map)) {
		old = hr_dhash_entry(map, k);
		if (old) {
			hr_dhash_unlink(d, old);
			d->items--;
			hr_dtab_slot_put(d, old, true);
		} else {
			ret = -ENOENT;
		}
	} else if (k >= map->attr.max_entries) {
		ret = -EINVAL;
	} else {
		old = atomic_exchange_explicit(&d->table[k], NULL,
					       memory_order_acq_rel);
		if (old) {
			d->items--;
			hr_dtab_slot_put(d, old, true);
		}
	}
	pthread_mutex_unlock(&d->lock);
	return ret;
}

/* dev_map_hash_get_next_key(): bucket order, then chain order. */
static int hr_dhash_next_key(struct hr_map *map, const void *key, void *next)
{
	struct hr_dtab *d = map->priv;
	struct hr_dtab_netdev *e, *n;
	uint32_t idx, i = 0, *out = next;

	if (key) {
		memcpy(&idx, key, sizeof(idx));
		e = hr_dhash_entry(map, idx);
		if (e) {
			n = atomic_load_explicit(&e->next,
						 memory_order_acquire);
			if (n) {
				*out = n->idx;
				return 0;
			}
			i = (idx & (d->n_buckets - 1)) + 1;
		}
	}
	for (; i < d->n_buckets; i++) {
		n = atomic_load_explicit(&d->table[i], memory_order_acquire);
		if (n) {
			*out = n->idx;
			return 0;
		}
	}
	return -ENOENT;
}

static int hr_dtab_get_next_key(struct hr_map *map, const void *key, void *next)
{
	if (hr_dtab_is_hash(map))
		return hr_dhash_next_key(map, key, next);
	return hr_redirect_array_next_key(map, key, next);
}

static unsigned int hr_dtab_regions(struct hr_map *map, struct hr_region *out,
				    unsigned int max)
{
	struct hr_dtab *d = map->priv;

	if (!max)
		return 0;
	memset(out, 0, sizeof(*out));
	out->start = (uintptr_t)d->slots;
	out->end = out->start + d->slots_bytes;
	out->stride = sizeof(struct hr_dtab_netdev);
	out->off = 0;
	out->len = map->attr.value_size;
	out->flags = HR_REGION_READ;
	return 1;
}

/* ------------------------------------------------------------------ */
/* Redirect.                                                           */

static void *hr_dtab_redirect_lookup(struct hr_map *map, uint32_t key)
{
	return hr_dtab_lookup_any(map, key);
}

static uint64_t hr_dtab_redirect(struct hr_map *map, uint64_t key,
				 uint64_t flags, struct hr_redirect_info *ri)
{
	return hr_redirect_map_common(map, key, flags,
				      HR_F_BROADCAST | HR_F_EXCLUDE_INGRESS,
				      hr_dtab_redirect_lookup, ri);
}

static uint32_t hr_frame_len(const struct hr_xdp_frame *f)
{
	uint32_t len = f->len;

	if (f->flags & HR_XDP_FLAGS_HAS_FRAGS) {
		const uint8_t *hard = (const uint8_t *)f;
		const struct hr_xdp_shinfo *si =
			(const void *)(hard + f->frame_sz - HR_SKB_SHINFO_SIZE);

		len += si->frags_size;
	}
	return len;
}

/* is_valid_dst(): broadcast skips targets that cannot take the frame. */
static bool hr_dtab_valid_dst(const struct hr_dtab_netdev *e,
			      const struct hr_xdp_frame *f)
{
	const struct hr_dev *dev = e->dev;

	if (!dev || !dev->ops || !dev->ops->xdp_xmit)
		return false;
	/* xdp_ok_fwd_dev(): up, and within MTU + Ethernet + VLAN header. */
	if (!atomic_load_explicit(&dev->up, memory_order_acquire))
		return false;
	return hr_frame_len(f) <= dev->mtu + HR_ETH_HLEN + HR_VLAN_HLEN;
}

/* xdpf_clone(): the frame header, headroom (so the metadata) and data
 * copied into a fresh frame from @pool. Fragments are not cloned. */
static struct hr_xdp_frame *hr_xdpf_clone(const struct hr_xdp_frame *f,
					  struct hr_pool *pool)
{
	uint32_t head = f->headroom + sizeof(*f);
	struct hr_xdp_frame *n;
	uint8_t *addr;

	if (!pool || (f->flags & HR_XDP_FLAGS_HAS_FRAGS) ||
	    head + f->len > HR_FRAME_SIZE - HR_SKB_SHINFO_SIZE)
		return NULL;
	addr = hr_pool_get(pool);
	if (!addr)
		return NULL;
	memcpy(addr, f, head + f->len);
	n = (struct hr_xdp_frame *)addr;
	n->data = addr + head;
	n->frame_sz = HR_FRAME_SIZE;
	n->mem_type = 0;
	n->flags = 0;
	return n;
}

static bool hr_dtab_excluded(const struct hr_dtab_netdev *e,
			     const struct hr_dev *dev_rx, bool exclude)
{
	return exclude && dev_rx && e->dev &&
	       e->dev->ifindex == dev_rx->ifindex;
}

/* A broadcast copy @e's device refused (it went down after the check):
 * freed and counted on that device, never lost silently. */
static void hr_dtab_refused(struct hr_worker *w, struct hr_dtab_netdev *e,
			    struct hr_xdp_frame *f)
{
	hr_stat_add(&e->dev->stats[w->id].drops[HR_DROP_XMIT_ERROR], 1);
	hr_xdp_return_frame(f);
}

/* Queues a clone of @f for @e; -ENOMEM when none can be made. */
static int hr_dtab_enqueue_clone(struct hr_worker *w, struct hr_dtab_netdev *e,
				 struct hr_dev *dev_rx,
				 const struct hr_xdp_frame *f)
{
	struct hr_xdp_frame *n;

	n = hr_xdpf_clone(f, dev_rx ? dev_rx->pool : NULL);
	if (!n)
		return -ENOMEM;
	if (hr_dev_enqueue(w, e->dev, dev_rx, n, e->prog))
		hr_dtab_refused(w, e, n);
	return 0;
}

/* One step of dev_map_enqueue_multi(): n - 1 clones, the original last. */
static int hr_dtab_multi_step(struct hr_worker *w, struct hr_dtab_netdev *e,
			      struct hr_dtab_netdev **last,
			      struct hr_dev *dev_rx, struct hr_xdp_frame *f,
			      bool exclude)
{
	if (!e || !hr_dtab_valid_dst(e, f) ||
	    hr_dtab_excluded(e, dev_rx, exclude))
		return 0;
	if (*last) {
		int err = hr_dtab_enqueue_clone(w, *last, dev_rx, f);

		if (err)
			return err;
	}
	*last = e;
	return 0;
}

static int hr_dtab_enqueue_multi(struct hr_map *map, struct hr_worker *w,
				 struct hr_xdp_frame *f, struct hr_dev *dev_rx,
				 bool exclude)
{
	struct hr_dtab *d = map->priv;
	struct hr_dtab_netdev *e, *last = NULL;
	uint32_t i, n;
	int err;

	n = hr_dtab_is_hash(map) ? d->n_buckets : map->attr.max_entries;
	for (i = 0; i < n; i++) {
		e = atomic_load_explicit(&d->table[i], memory_order_acquire);
		if (!hr_dtab_is_hash(map)) {
			err = hr_dtab_multi_step(w, e, &last, dev_rx, f,
						 exclude);
			if (err)
				return err;
			continue;
		}
		for (; e;
		     e = atomic_load_explicit(&e->next, memory_order_acquire)) {
			err = hr_dtab_multi_step(w, e, &last, dev_rx, f,
						 exclude);
			if (err)
				return err;
		}
	}
	if (!last) {
		/* Nobody to send to: consumed, as the kernel does. */
		hr_xdp_return_frame(f);
		return 0;
	}
	if (hr_dev_enqueue(w, last->dev, dev_rx, f, last->prog))
		hr_dtab_refused(w, last, f);
	return 0;
}

static int hr_dtab_xdp_enqueue(struct hr_map *map, struct hr_worker *w,
			       const struct hr_redirect_info *ri,
			       struct hr_xdp_buff *xdp, struct hr_dev *dev_rx)
{
	struct hr_dtab_netdev *e = ri->tgt_value;
	struct hr_xdp_frame *f;

	if (!(ri->flags & HR_F_BROADCAST) && !e)
		return -EINVAL;
	f = hr_xdp_buff_to_frame(xdp);
	if (!f)
		return -EOVERFLOW;
	if (ri->flags & HR_F_BROADCAST)
		return hr_dtab_enqueue_multi(map, w, f, dev_rx,
					     ri->flags & HR_F_EXCLUDE_INGRESS);
	if (!e->dev)
		return -ENETDOWN; /* the test-run lo stand-in */
	return hr_dev_enqueue(w, e->dev, dev_rx, f, e->prog);
}

const struct hr_map_ops hr_map_ops_devmap = {
	.check = hr_dtab_check,
	.alloc = hr_dtab_alloc,
	.free = hr_dtab_free,
	.lookup = hr_dtab_lookup,
	.update = hr_dtab_update,
	.delete = hr_dtab_delete,
	.get_next_key = hr_dtab_get_next_key,
	.copy_value = hr_dtab_copy_value,
	.update_user = hr_dtab_update_user,
	.regions = hr_dtab_regions,
	.redirect = hr_dtab_redirect,
	.xdp_enqueue = hr_dtab_xdp_enqueue,
};

/* The same operations: hr_dtab_is_hash() tells the types apart. */
extern const struct hr_map_ops hr_map_ops_devmap_hash
	__attribute__((alias("hr_map_ops_devmap")));
