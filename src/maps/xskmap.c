// SPDX-License-Identifier: MIT
/*
 * BPF_MAP_TYPE_XSKMAP (net/xdp/xskmap.c) and the in-process sockets it
 * holds (include/headroom/xsk.h), with the copy-mode receive path of
 * net/xdp/xsk.c: xsk_rcv_check() (bound: -ENXIO; same device and queue:
 * -EINVAL), then __xsk_rcv(): too long for a frame -ENOSPC, no fill entry
 * -ENOMEM, RX ring full -ENOBUFS; the metadata is copied in front of the
 * data; RX descriptors and fill-ring progress are published at the flush.
 *
 * Rings are the kernel's xsk_queue: a producer and a consumer index, each
 * side working on a cached copy of the other's and publishing its own
 * with a release store.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "headroom/xsk.h"
#include "core/datapath.h"
#include "maps/map.h"
#include "maps/map_impl.h"
#include "maps/redirect_impl.h"

#define HR_XSK_MAX 1024
#define HR_XSK_MAX_MAPS 16

struct hr_xsk_ring {
	_Atomic uint32_t producer __attribute__((aligned(64)));
	_Atomic uint32_t consumer __attribute__((aligned(64)));
	/* The producer side's and the consumer side's private indexes. */
	uint32_t cached_prod __attribute__((aligned(64)));
	uint32_t cached_cons_p; /* producer's view of consumer */
	uint32_t cached_cons __attribute__((aligned(64)));
	uint32_t cached_prod_c; /* consumer's view of producer */
	uint32_t mask;
	uint32_t size;
	void *entries; /* uint64_t (fill) or struct hr_xdp_desc (RX) */
};

struct hr_xsk_map_node {
	struct hr_map *map;
	uint32_t key;
};

struct hr_xsk {
	int fd;
	uint8_t *umem;
	uint64_t umem_size;
	uint32_t frame_size;
	uint32_t headroom;
	uint32_t ifindex;
	uint32_t queue_id;
	struct hr_xsk_ring fq;
	struct hr_xsk_ring rx;
	/* Frames taken from the fill ring but not used (the kernel's
	 * pool free list); worker side only. */
	uint64_t *stash;
	uint32_t nstash;
	bool flush_queued;
	/* Worker-side counters. */
	struct hr_xsk_stats st;
	/* Maps holding the socket (under hr_xsk_lock). */
	struct hr_xsk_map_node nodes[HR_XSK_MAX_MAPS];
	unsigned int nnodes;
};

/* The map's own memory: what a program's lookup points to. */
struct hr_xsk_slot {
	uint32_t queue_id; /* struct bpf_xdp_sock */
	uint32_t pad;
};

struct hr_xskmap {
	struct hr_xsk *_Atomic *socks;
	struct hr_xsk_slot *slots;
	size_t slots_bytes;
};

static pthread_mutex_t hr_xsk_lock = PTHREAD_MUTEX_INITIALIZER;
static struct hr_xsk *hr_xsk_table[HR_XSK_MAX];

/* ------------------------------------------------------------------ */
/* Rings.                                                              */

static bool hr_pow2(uint32_t n)
{
	return n && !(n & (n - 1));
}

static int hr_xsk_ring_init(struct hr_xsk_ring *r, uint32_t n, size_t esz)
{
	memset(r, 0, sizeof(*r));
	r->entries = calloc(n, esz);
	if (!r->entries)
		return -ENOMEM;
	r->size = n;
	r->mask = n - 1;
	return 0;
}

/* Producer: free room, refreshing the consumer index when short. */
static uint32_t hr_xsk_prod_free(struct hr_xsk_ring *r, uint32_t want)
{
	uint32_t room = r->size - (r->cached_prod - r->cached_cons_p);

	if (room >= want)
		return room;
	r->cached_cons_p =
		atomic_load_explicit(&r->consumer, memory_order_acquire);
	return r->size - (r->cached_prod - r->cached_cons_p);
}

static void hr_xsk_prod_submit(struct hr_xsk_ring *r)
{
	atomic_store_explicit(&r->producer, r->cached_prod,
			      memory_order_release);
}

/* Consumer: entries available, refreshing the producer index. */
static uint32_t hr_xsk_cons_avail(struct hr_xsk_ring *r)
{
	uint32_t n = r->cached_prod_c - r->cached_cons;

	if (n)
		return n;
	r->cached_prod_c =
		atomic_load_explicit(&r->producer, memory_order_acquire);
	return r->cached_prod_c - r->cached_cons;
}

static void hr_xsk_cons_release(struct hr_xsk_ring *r)
{
	atomic_store_explicit(&r->consumer, r->cached_cons,
			      memory_order_release);
}

/* ------------------------------------------------------------------ */
/* Sockets.                                                            */

static void hr_xsk_free_mem(struct hr_xsk *xs)
{
	free(xs->fq.entries);
	free(xs->rx.entries);
	free(xs->stash);
	if (xs->umem)
		hr_map_area_free(xs->umem, xs->umem_size);
	free(xs);
}

int hr_xsk_create(const struct hr_xsk_opts *opts, struct hr_xsk **out)
{
	uint32_t fsz = HR_OPTS_GET(opts, frame_size, 0) ?: 4096;
	uint32_t cnt = HR_OPTS_GET(opts, frame_count, 0) ?: 4096;
	uint32_t rxn = HR_OPTS_GET(opts, rx_size, 0) ?: 2048;
	uint32_t fqn = HR_OPTS_GET(opts, fill_size, 0) ?: 2048;
	uint32_t hr = HR_OPTS_GET(opts, headroom, 0);
	struct hr_xsk *xs;
	int i, err;

	*out = NULL;
	if ((fsz != 2048 && fsz != 4096) || !hr_pow2(rxn) || !hr_pow2(fqn) ||
	    hr + HR_XDP_PACKET_HEADROOM >= fsz)
		return -EINVAL;
	xs = calloc(1, sizeof(*xs));
	if (!xs)
		return -ENOMEM;
	xs->frame_size = fsz;
	xs->headroom = hr;
	xs->ifindex = HR_OPTS_GET(opts, ifindex, 0);
	xs->queue_id = HR_OPTS_GET(opts, queue_id, 0);
	xs->umem_size = (uint64_t)fsz * cnt;
	xs->umem = hr_map_area_alloc(xs->umem_size);
	xs->stash = calloc(fqn, sizeof(*xs->stash));
	err = -ENOMEM;
	if (!xs->umem || !xs->stash ||
	    hr_xsk_ring_init(&xs->fq, fqn, sizeof(uint64_t)) ||
	    hr_xsk_ring_init(&xs->rx, rxn, sizeof(struct hr_xdp_desc)))
		goto fail;
	err = -EMFILE;
	pthread_mutex_lock(&hr_xsk_lock);
	for (i = 0; i < HR_XSK_MAX; i++) {
		if (!hr_xsk_table[i]) {
			hr_xsk_table[i] = xs;
			xs->fd = i + 1;
			break;
		}
	}
	pthread_mutex_unlock(&hr_xsk_lock);
	if (!xs->fd)
		goto fail;
	*out = xs;
	return 0;
fail:
	hr_xsk_free_mem(xs);
	return err;
}

static void hr_xskmap_drop_sock(struct hr_map *map, uint32_t key,
				struct hr_xsk *xs);
static void hr_xsk_node_del(struct hr_xsk *xs, struct hr_map *map,
			    uint32_t key);

void hr_xsk_destroy(struct hr_xsk *xs)
{
	unsigned int i;

	if (!xs)
		return;
	pthread_mutex_lock(&hr_xsk_lock);
	for (i = 0; i < xs->nnodes; i++)
		hr_xskmap_drop_sock(xs->nodes[i].map, xs->nodes[i].key, xs);
	xs->nnodes = 0;
	hr_xsk_table[xs->fd - 1] = NULL;
	pthread_mutex_unlock(&hr_xsk_lock);
	/* No worker may still be copying into it. */
	hr_redirect_synchronize();
	hr_xsk_free_mem(xs);
}

int hr_xsk_fd(const struct hr_xsk *xs)
{
	return xs ? xs->fd : -EBADF;
}

void *hr_xsk_umem(struct hr_xsk *xs)
{
	return xs->umem;
}

uint64_t hr_xsk_umem_size(const struct hr_xsk *xs)
{
	return xs->umem_size;
}

uint32_t hr_xsk_frame_size(const struct hr_xsk *xs)
{
	return xs->frame_size;
}

unsigned int hr_xsk_fill(struct hr_xsk *xs, const uint64_t *addrs,
			 unsigned int n)
{
	struct hr_xsk_ring *r = &xs->fq;
	uint64_t *e = r->entries;
	uint32_t room = hr_xsk_prod_free(r, n), i;

	if (n > room)
		n = room;
	for (i = 0; i < n; i++)
		e[(r->cached_prod + i) & r->mask] = addrs[i];
	r->cached_prod += n;
	hr_xsk_prod_submit(r);
	return n;
}

unsigned int hr_xsk_fill_pending(struct hr_xsk *xs)
{
	return atomic_load_explicit(&xs->fq.producer, memory_order_acquire) -
	       atomic_load_explicit(&xs->fq.consumer, memory_order_acquire);
}

unsigned int hr_xsk_rx(struct hr_xsk *xs, struct hr_xdp_desc *descs,
		       unsigned int n)
{
	struct hr_xsk_ring *r = &xs->rx;
	struct hr_xdp_desc *e = r->entries;
	uint32_t avail = hr_xsk_cons_avail(r), i;

	if (n > avail)
		n = avail;
	for (i = 0; i < n; i++)
		descs[i] = e[(r->cached_cons + i) & r->mask];
	r->cached_cons += n;
	hr_xsk_cons_release(r);
	return n;
}

void hr_xsk_get_stats(const struct hr_xsk *xs, struct hr_xsk_stats *st)
{
	st->rx_dropped = __atomic_load_n(&xs->st.rx_dropped, __ATOMIC_RELAXED);
	st->rx_invalid_descs =
		__atomic_load_n(&xs->st.rx_invalid_descs, __ATOMIC_RELAXED);
	st->rx_ring_full =
		__atomic_load_n(&xs->st.rx_ring_full, __ATOMIC_RELAXED);
	st->rx_fill_ring_empty_descs = __atomic_load_n(
		&xs->st.rx_fill_ring_empty_descs, __ATOMIC_RELAXED);
	st->rx_packets = __atomic_load_n(&xs->st.rx_packets, __ATOMIC_RELAXED);
}

/* ------------------------------------------------------------------ */
/* Receive (worker side).                                              */

/* xp_alloc(): a frame from the stash or the fill ring, its address
 * masked to the frame start; entries outside the umem are skipped. */
static bool hr_xsk_alloc(struct hr_xsk *xs, uint64_t *chunk)
{
	struct hr_xsk_ring *r = &xs->fq;
	const uint64_t *e = r->entries;

	if (xs->nstash) {
		*chunk = xs->stash[--xs->nstash];
		return true;
	}
	while (hr_xsk_cons_avail(r)) {
		uint64_t a = e[r->cached_cons & r->mask];

		r->cached_cons++;
		a &= ~(uint64_t)(xs->frame_size - 1);
		if (a >= xs->umem_size) {
			hr_stat_add(&xs->st.rx_invalid_descs, 1);
			continue;
		}
		*chunk = a;
		return true;
	}
	hr_stat_add(&xs->st.rx_fill_ring_empty_descs, 1);
	return false;
}

static void hr_xsk_copy(struct hr_xsk *xs, uint8_t *to,
			const struct hr_xdp_buff *xdp, uint32_t metalen)
{
	uint32_t lin =
		(uint32_t)((uint8_t *)xdp->data_end - (uint8_t *)xdp->data);

	memcpy(to - metalen, (uint8_t *)xdp->data - metalen, lin + metalen);
	if (hr_xdp_has_frags(xdp)) {
		const struct hr_xdp_shinfo *si = hr_xdp_shinfo(xdp);
		uint32_t i, off = lin;

		for (i = 0; i < si->nr_frags; i++) {
			memcpy(to + off, hr_xdp_frag_data(&si->frags[i]),
			       si->frags[i].size);
			off += si->frags[i].size;
		}
	}
}

static void hr_xsk_flush(struct hr_xsk *xs)
{
	hr_xsk_prod_submit(&xs->rx);
	hr_xsk_cons_release(&xs->fq);
}

static void hr_xsk_flush_fn(struct hr_worker *w, void *arg)
{
	struct hr_xsk *xs = arg;

	hr_xsk_flush(xs);
	xs->flush_queued = false;
}

/* __xsk_rcv(), copy mode. */
static int hr_xsk_rcv(struct hr_xsk *xs, struct hr_xdp_buff *xdp)
{
	uint32_t len = hr_xdp_buff_len(xdp), metalen = hr_xdp_metalen(xdp);
	uint32_t off = xs->headroom + HR_XDP_PACKET_HEADROOM;
	struct hr_xdp_desc *d;
	uint64_t chunk;

	if (len > xs->frame_size - off) {
		hr_stat_add(&xs->st.rx_dropped, 1);
		return -ENOSPC;
	}
	if (!hr_xsk_alloc(xs, &chunk)) {
		hr_stat_add(&xs->st.rx_dropped, 1);
		return -ENOMEM;
	}
	hr_xsk_copy(xs, xs->umem + chunk + off, xdp, metalen);
	if (!hr_xsk_prod_free(&xs->rx, 1)) {
		/* xskq_prod_reserve_desc(): the frame goes back. */
		xs->stash[xs->nstash++] = chunk;
		hr_stat_add(&xs->st.rx_ring_full, 1);
		return -ENOBUFS;
	}
	d = (struct hr_xdp_desc *)xs->rx.entries +
	    (xs->rx.cached_prod & xs->rx.mask);
	d->addr = chunk + off;
	d->len = len;
	d->options = 0;
	xs->rx.cached_prod++;
	hr_stat_add(&xs->st.rx_packets, 1);
	return 0;
}

static int hr_xskmap_xdp_enqueue(struct hr_map *map, struct hr_worker *w,
				 const struct hr_redirect_info *ri,
				 struct hr_xdp_buff *xdp, struct hr_dev *dev_rx)
{
	struct hr_xsk *xs = ri->tgt_value;
	int err;

	if (!xs)
		return -EINVAL;
	/* xsk_rcv_check(). */
	if (!xs->ifindex)
		return -ENXIO;
	if (!xdp->rxq || xdp->rxq->ifindex != xs->ifindex ||
	    xdp->rxq->queue_index != xs->queue_id)
		return -EINVAL;
	err = hr_xsk_rcv(xs, xdp);
	if (err)
		return err;
	/* Copied: the buffer is done with (xdp_return_buff). */
	hr_xdp_return_buff(xdp);
	if (!w) {
		hr_xsk_flush(xs);
	} else if (!xs->flush_queued) {
		xs->flush_queued = true;
		hr_worker_add_flush(w, hr_xsk_flush_fn, xs);
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* The map.                                                            */

/* xsk_map_alloc(). */
static int hr_xskmap_check(const struct hr_map_attr *attr)
{
	if (attr->max_entries == 0 || attr->key_size != 4 ||
	    attr->value_size != 4 ||
	    (attr->map_flags & ~(HR_F_NUMA_NODE | HR_F_RDONLY | HR_F_WRONLY)))
		return -EINVAL;
	return 0;
}

static void hr_xskmap_free(struct hr_map *map)
{
	struct hr_xskmap *m = map->priv;
	uint32_t i;

	if (!m)
		return;
	pthread_mutex_lock(&hr_xsk_lock);
	if (m->socks)
		for (i = 0; i < map->attr.max_entries; i++) {
			struct hr_xsk *xs = atomic_load(&m->socks[i]);

			if (xs) {
				hr_xskmap_drop_sock(map, i, xs);
				hr_xsk_node_del(xs, map, i);
			}
		}
	pthread_mutex_unlock(&hr_xsk_lock);
	hr_redirect_synchronize();
	free(m->socks);
	hr_map_area_free(m->slots, m->slots_bytes);
	free(m);
	map->priv = NULL;
}

static int hr_xskmap_alloc(struct hr_map *map)
{
	struct hr_xskmap *m;

	m = calloc(1, sizeof(*m));
	if (!m)
		return -ENOMEM;
	map->priv = m;
	map->rdonly_prog = true;
	m->socks = calloc(map->attr.max_entries, sizeof(*m->socks));
	m->slots_bytes = (size_t)map->attr.max_entries * sizeof(*m->slots);
	m->slots = hr_map_area_alloc(m->slots_bytes);
	if (!m->socks || !m->slots) {
		hr_xskmap_free(map);
		return -ENOMEM;
	}
	return 0;
}

static struct hr_xsk *hr_xskmap_entry(struct hr_map *map, uint32_t key)
{
	struct hr_xskmap *m = map->priv;

	if (key >= map->attr.max_entries)
		return NULL;
	return atomic_load_explicit(&m->socks[key], memory_order_acquire);
}

/* Program lookups: a struct bpf_xdp_sock (queue_id) or NULL. */
static void *hr_xskmap_lookup(struct hr_map *map, const void *key,
			      unsigned int cpu)
{
	struct hr_xskmap *m = map->priv;
	uint32_t k;

	memcpy(&k, key, sizeof(k));
	return hr_xskmap_entry(map, k) ? &m->slots[k] : NULL;
}

/* xsk_map_lookup_elem_sys_only(). */
static int hr_xskmap_copy_value(struct hr_map *map, const void *key,
				void *value)
{
	return -EOPNOTSUPP;
}

/* Removes @xs's node for (@map, @key); hr_xsk_lock held. */
static void hr_xsk_node_del(struct hr_xsk *xs, struct hr_map *map, uint32_t key)
{
	unsigned int i;

	for (i = 0; i < xs->nnodes; i++) {
		if (xs->nodes[i].map == map && xs->nodes[i].key == key) {
			xs->nodes[i] = xs->nodes[--xs->nnodes];
			return;
		}
	}
}

/* Clears (@map, @key) if it still holds @xs; hr_xsk_lock held. */
static void hr_xskmap_drop_sock(struct hr_map *map, uint32_t key,
				struct hr_xsk *xs)
{
	struct hr_xskmap *m = map->priv;
	struct hr_xsk *cur = xs;

	atomic_compare_exchange_strong(&m->socks[key], &cur, NULL);
}

/* xsk_map_update_elem(), in the kernel's order of checks. */
static int hr_xskmap_update_user(struct hr_map *map, const void *key,
				 const void *value, uint64_t flags)
{
	struct hr_xskmap *m = map->priv;
	struct hr_xsk *xs, *old;
	int32_t fd;
	uint32_t k;
	int err = 0;

	memcpy(&k, key, sizeof(k));
	memcpy(&fd, value, sizeof(fd));
	if (flags > HR_EXIST)
		return -EINVAL;
	if (k >= map->attr.max_entries)
		return -E2BIG;
	pthread_mutex_lock(&hr_xsk_lock);
	xs = fd > 0 && fd <= HR_XSK_MAX ? hr_xsk_table[fd - 1] : NULL;
	if (!xs) {
		err = -EBADF;
		goto out;
	}
	old = atomic_load(&m->socks[k]);
	if (old == xs)
		goto out;
	if (old && flags == HR_NOEXIST) {
		err = -EEXIST;
		goto out;
	}
	if (!old && flags == HR_EXIST) {
		err = -ENOENT;
		goto out;
	}
	if (xs->nnodes == HR_XSK_MAX_MAPS) {
		err = -ENOMEM;
		goto out;
	}
	xs->nodes[xs->nnodes++] = (struct hr_xsk_map_node){ map, k };
	hr_map_value_store(&m->slots[k], &xs->queue_id, sizeof(uint32_t));
	atomic_store_explicit(&m->socks[k], xs, memory_order_release);
	if (old)
		hr_xsk_node_del(old, map, k);
out:
	pthread_mutex_unlock(&hr_xsk_lock);
	return err;
}

static int hr_xskmap_update(struct hr_map *map, const void *key,
			    const void *value, uint64_t flags, unsigned int cpu)
{
	return hr_xskmap_update_user(map, key, value, flags);
}

static int hr_xskmap_delete(struct hr_map *map, const void *key)
{
	struct hr_xskmap *m = map->priv;
	struct hr_xsk *old;
	uint32_t k;

	memcpy(&k, key, sizeof(k));
	if (k >= map->attr.max_entries)
		return -EINVAL;
	pthread_mutex_lock(&hr_xsk_lock);
	old = atomic_exchange(&m->socks[k], NULL);
	if (old)
		hr_xsk_node_del(old, map, k);
	pthread_mutex_unlock(&hr_xsk_lock);
	return 0;
}

static int hr_xskmap_get_next_key(struct hr_map *map, const void *key,
				  void *next)
{
	return hr_redirect_array_next_key(map, key, next);
}

static unsigned int hr_xskmap_regions(struct hr_map *map, struct hr_region *out,
				      unsigned int max)
{
	struct hr_xskmap *m = map->priv;

	if (!max)
		return 0;
	memset(out, 0, sizeof(*out));
	out->start = (uintptr_t)m->slots;
	out->end = out->start + m->slots_bytes;
	out->flags = HR_REGION_READ;
	return 1;
}

static void *hr_xskmap_redirect_lookup(struct hr_map *map, uint32_t key)
{
	return hr_xskmap_entry(map, key);
}

static uint64_t hr_xskmap_redirect(struct hr_map *map, uint64_t key,
				   uint64_t flags, struct hr_redirect_info *ri)
{
	return hr_redirect_map_common(map, key, flags, 0,
				      hr_xskmap_redirect_lookup, ri);
}

const struct hr_map_ops hr_map_ops_xskmap = {
	.check = hr_xskmap_check,
	.alloc = hr_xskmap_alloc,
	.free = hr_xskmap_free,
	.lookup = hr_xskmap_lookup,
	.update = hr_xskmap_update,
	.delete = hr_xskmap_delete,
	.get_next_key = hr_xskmap_get_next_key,
	.copy_value = hr_xskmap_copy_value,
	.update_user = hr_xskmap_update_user,
	.regions = hr_xskmap_regions,
	.redirect = hr_xskmap_redirect,
	.xdp_enqueue = hr_xskmap_xdp_enqueue,
};
