// SPDX-License-Identifier: MIT
/*
 * BPF_MAP_TYPE_CPUMAP, after the kernel's kernel/bpf/cpumap.c: raw XDP
 * frames moved to another worker. The source worker queues frames in a
 * per (source, entry) bulk of CPU_MAP_BULK_SIZE (8), flushed when full
 * and at the end of its poll into the entry's ring of qsize frames
 * (lock-free, many producers, one consumer; a full ring drops). The
 * entry's NAPI instance on worker[key] stands in for the kernel's
 * kthread: it takes CPUMAP_BATCH (8) frames at a time, runs the entry's
 * BPF_XDP_CPUMAP program if there is one (PASS, DROP and REDIRECT; any
 * other verdict drops), builds skbs and hands them to the PASS path.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "progs/prog.h"
#include "progs/prog_registry.h"
#include "core/datapath.h"
#include "core/trace.h"
#include "dev/ring.h"
#include "headroom/cpumap.h"
#include "maps/map.h"
#include "maps/map_impl.h"
#include "maps/redirect_impl.h"

#define HR_CPUMAP_BATCH 8
#define HR_CPUMAP_QSIZE_MAX 16384
/* CONFIG_NR_CPUS of the reference kernel: the largest max_entries. */
#define HR_NR_CPUS 256
/* How long a removed entry's ring may take to drain on its worker. */
#define HR_CPUMAP_DRAIN_MS 500

/* struct bpf_cpumap_val. */
struct hr_cpumap_val {
	uint32_t qsize;
	uint32_t prog; /* fd on update, id on lookup */
};

struct hr_cpu_entry;

/* xdp_bulk_queue: written by one source worker only. */
struct hr_cpu_bulk {
	struct hr_xdp_frame *q[HR_CPU_MAP_BULK];
	unsigned int count;
	bool queued; /* flush registered for this poll */
	struct hr_cpu_entry *obj;
} __attribute__((aligned(64)));

struct hr_cpu_entry {
	struct hr_cpumap_val value;
	uint32_t cpu; /* key: the worker it runs on */
	struct hr_map *map;
	struct hr_ring *ring;
	struct hr_prog *prog;
	struct hr_worker *worker; /* NULL: no datapath worker (yet) */
	struct hr_napi napi;
	bool napi_added;
	bool idle; /* consumer side only */
	struct hr_cpu_bulk bulkq[HR_MAX_WORKERS];
};

struct hr_cpu_enq_cnt {
	struct hr_cpumap_enq_stats s;
} __attribute__((aligned(32)));

struct hr_cpu_kth_cnt {
	struct hr_cpumap_kthread_stats s;
} __attribute__((aligned(64)));

struct hr_cpumap {
	pthread_mutex_t lock; /* updates and deletes */
	struct hr_cpu_entry *_Atomic *entries;
	/* enq[src * max_entries + key], kth[key]. */
	struct hr_cpu_enq_cnt *enq;
	struct hr_cpu_kth_cnt *kth;
};

static void hr_cpu_napi_detach(struct hr_napi *napi);

static uint64_t hr_cnt_get(const uint64_t *c)
{
	return __atomic_load_n(c, __ATOMIC_RELAXED);
}

/* ------------------------------------------------------------------ */
/* Creation.                                                           */

/* cpu_map_alloc(). */
static int hr_cpumap_check(const struct hr_map_attr *attr)
{
	uint32_t vs = attr->value_size;

	if (attr->max_entries == 0 || attr->key_size != 4 ||
	    (vs != 4 && vs != sizeof(struct hr_cpumap_val)) ||
	    (attr->map_flags & ~HR_F_NUMA_NODE))
		return -EINVAL;
	if (attr->max_entries > HR_NR_CPUS)
		return -E2BIG;
	return 0;
}

static void hr_cpumap_free(struct hr_map *map);

static int hr_cpumap_alloc(struct hr_map *map)
{
	uint32_t n = map->attr.max_entries;
	struct hr_cpumap *c;

	c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	pthread_mutex_init(&c->lock, NULL);
	map->priv = c;
	/* Programs may only redirect into a cpumap. */
	map->rdonly_prog = true;
	c->entries = calloc(n, sizeof(*c->entries));
	c->enq = calloc((size_t)n * HR_MAX_WORKERS, sizeof(*c->enq));
	c->kth = calloc(n, sizeof(*c->kth));
	if (!c->entries || !c->enq || !c->kth) {
		hr_cpumap_free(map);
		return -ENOMEM;
	}
	return 0;
}

static struct hr_cpumap_enq_stats *hr_enq_cnt(struct hr_cpumap *c,
					      const struct hr_map *map,
					      unsigned int src, uint32_t key)
{
	return &c->enq[(size_t)src * map->attr.max_entries + key].s;
}

/* ------------------------------------------------------------------ */
/* The source side: bulk queue and flush (bq_enqueue, bq_flush_to_queue). */

static void hr_cpu_bq_flush(struct hr_cpu_bulk *bq, unsigned int src)
{
	struct hr_cpu_entry *e = bq->obj;
	struct hr_cpumap_enq_stats *st;
	uint64_t ids[HR_CPU_MAP_BULK];
	unsigned int n, i;

	if (!bq->count)
		return;
	if (hr_unlikely(hr_trace_on))
		for (i = 0; i < bq->count; i++)
			ids[i] = hr_trace_id(bq->q[i]);
	n = hr_ring_produce_bulk(e->ring, (void *const *)bq->q, bq->count);
	/* After the hand-off the remote worker may already have taken
	 * them: the ids were read before. */
	if (hr_unlikely(hr_trace_on))
		for (i = 0; i < bq->count; i++)
			hr_trace_flush(NULL, ids[i], "cpumap", e->cpu, NULL,
				       i < n);
	/* The kernel's ptr_ring full: the rest are dropped. */
	for (i = n; i < bq->count; i++)
		hr_xdp_return_frame(bq->q[i]);
	st = hr_enq_cnt(e->map->priv, e->map, src, e->cpu);
	hr_stat_add(&st->processed, bq->count);
	hr_stat_add(&st->drops, bq->count - n);
	hr_stat_add(&st->bulks, 1);
	bq->count = 0;
}

static void hr_cpu_flush_fn(struct hr_worker *w, void *arg)
{
	struct hr_cpu_bulk *bq = arg;

	hr_cpu_bq_flush(bq, w->id);
	bq->queued = false;
}

/* cpu_map_enqueue(): never fails once the frame exists. */
static int hr_cpumap_xdp_enqueue(struct hr_map *map, struct hr_worker *w,
				 const struct hr_redirect_info *ri,
				 struct hr_xdp_buff *xdp, struct hr_dev *dev_rx)
{
	struct hr_cpu_entry *e = ri->tgt_value;
	struct hr_xdp_frame *f;
	struct hr_cpu_bulk *bq;

	if (!e || w->id >= HR_MAX_WORKERS)
		return -EINVAL;
	f = hr_xdp_buff_to_frame(xdp);
	if (!f)
		return -EOVERFLOW;
	/* What the remote side needs to build the skb. */
	f->dev_rx = dev_rx;
	bq = &e->bulkq[w->id];
	if (bq->count == HR_CPU_MAP_BULK)
		hr_cpu_bq_flush(bq, w->id);
	bq->q[bq->count++] = f;
	if (hr_unlikely(hr_trace_on))
		hr_trace_bulk(w, f, "cpumap", e->cpu, NULL, bq->count);
	if (!bq->queued) {
		bq->queued = true;
		hr_worker_add_flush(w, hr_cpu_flush_fn, bq);
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* The remote side (cpu_map_kthread_run, cpu_map_bpf_prog_run_xdp).    */

/* Runs the entry's program on @n frames; keeps the PASSed ones in
 * @frames and returns how many. */
static unsigned int hr_cpu_run_prog(struct hr_cpu_entry *e, struct hr_worker *w,
				    void **frames, unsigned int n,
				    struct hr_cpumap_kthread_stats *st)
{
	unsigned int i, kept = 0, redirects = 0, nrxq = 0;
	struct hr_rxq_info rxq[HR_CPUMAP_BATCH];
	struct hr_xdp_runner r;
	struct hr_xdp_buff xdp;

	/* One runner for the batch: the run prepared in full once, not a
	 * packet (hr_xdp_runner). Each device the batch's frames came from
	 * has its rxq slot, written once before its first run and kept
	 * for the batch, as the runner asks. */
	hr_xdp_runner_init(&r, w, e->prog);
	for (i = 0; i < n; i++) {
		struct hr_xdp_frame *f = frames[i], *nf;
		struct hr_dev *dev_rx = f->dev_rx;
		uint32_t act;

		/* The kernel reports the device, not the queue (a TODO
		 * there), and no hints: the frame has no descriptor. */
		if (!nrxq || rxq[nrxq - 1].dev != dev_rx) {
			memset(&rxq[nrxq], 0, sizeof(rxq[nrxq]));
			rxq[nrxq].dev = dev_rx;
			rxq[nrxq].ifindex = dev_rx ? dev_rx->ifindex : 0;
			rxq[nrxq].meta_supported = true;
			nrxq++;
		}
		hr_xdp_frame_to_buff(f, &xdp);
		xdp.rxq = &rxq[nrxq - 1];
		xdp.egress_ifindex = 0;
		xdp.hints = NULL;
		act = hr_xdp_runner_run(&r, &xdp);
		if (hr_unlikely(hr_trace_on))
			hr_trace_xdp(w, dev_rx, e->prog, &xdp, act,
				     HR_TRACE_CPUMAP_PROG);
		switch (act) {
		case HR_XDP_PASS:
			nf = hr_xdp_buff_to_frame(&xdp);
			if (!nf) {
				hr_xdp_return_buff(&xdp);
				st->xdp_drop++;
				break;
			}
			nf->dev_rx = dev_rx;
			frames[kept++] = nf;
			st->xdp_pass++;
			break;
		case HR_XDP_REDIRECT:
			if (hr_xdp_do_redirect(w, dev_rx, &xdp)) {
				hr_xdp_return_buff(&xdp);
				st->xdp_drop++;
			} else {
				st->xdp_redirect++;
				redirects++;
			}
			break;
		default:
			/* bpf_warn_invalid_xdp_action(): ABORTED, TX and
			 * unknown verdicts are invalid here. */
			st->exceptions++;
			/* fallthrough */
		case HR_XDP_DROP:
			hr_xdp_return_buff(&xdp);
			st->xdp_drop++;
			break;
		}
	}
	if (redirects)
		hr_xdp_do_flush(w);
	return kept;
}

static void hr_cpu_stats_publish(struct hr_cpumap_kthread_stats *dst,
				 const struct hr_cpumap_kthread_stats *src)
{
	/* processed and drops are also added to by the control thread when
	 * an entry is torn down: atomic adds (once a batch) lose neither. */
	__atomic_fetch_add(&dst->processed, src->processed, __ATOMIC_RELAXED);
	__atomic_fetch_add(&dst->drops, src->drops, __ATOMIC_RELAXED);
	hr_stat_add(&dst->sched, src->sched);
	hr_stat_add(&dst->xdp_pass, src->xdp_pass);
	hr_stat_add(&dst->xdp_drop, src->xdp_drop);
	hr_stat_add(&dst->xdp_redirect, src->xdp_redirect);
	hr_stat_add(&dst->exceptions, src->exceptions);
	hr_stat_add(&dst->delivered, src->delivered);
}

static void hr_cpu_batch(struct hr_cpu_entry *e, struct hr_worker *w,
			 void **frames, unsigned int n,
			 struct hr_cpumap_kthread_stats *st)
{
	unsigned int i, kept = n;
	struct hr_skb skb;

	st->processed += n;
	if (hr_unlikely(hr_trace_on))
		for (i = 0; i < n; i++)
			hr_trace_cpumap(w, frames[i], e->cpu);
	if (e->prog)
		kept = hr_cpu_run_prog(e, w, frames, n, st);
	for (i = 0; i < kept; i++) {
		struct hr_xdp_frame *f = frames[i];

		hr_skb_from_frame(&skb, f, f->dev_rx);
		hr_skb_receive(w, &skb);
		st->delivered++;
	}
}

static int hr_cpu_poll(struct hr_napi *napi, int budget)
{
	struct hr_cpu_entry *e = napi->priv;
	struct hr_cpumap *c = e->map->priv;
	struct hr_cpumap_kthread_stats st = { 0 };
	struct hr_worker *w = napi->worker ? napi->worker : e->worker;
	void *frames[HR_CPUMAP_BATCH];
	int done = 0;

	while (done < budget) {
		unsigned int n =
			hr_ring_consume_bulk(e->ring, frames, HR_CPUMAP_BATCH);

		if (!n)
			break;
		hr_cpu_batch(e, w, frames, n, &st);
		done += (int)n;
	}
	/* The kthread's sched: it slept on an empty ring and woke up. */
	if (!done) {
		e->idle = true;
		return 0;
	}
	if (e->idle) {
		st.sched = 1;
		e->idle = false;
	}
	hr_cpu_stats_publish(&c->kth[e->cpu].s, &st);
	return done;
}

/* ------------------------------------------------------------------ */
/* Entries (control path, under the map's lock).                       */

static unsigned int hr_cpumap_possible_cpus(struct hr_datapath *dp)
{
	long n;

	if (dp && dp->nworkers)
		return dp->nworkers;
	/* No datapath yet: the host's CPUs, as the kernel's nr_cpu_ids. */
	n = sysconf(_SC_NPROCESSORS_CONF);
	return n > 0 ? (unsigned int)n : 1;
}

static void hr_cpu_entry_destroy(struct hr_cpu_entry *e)
{
	if (!e)
		return;
	hr_ring_destroy(e->ring);
	free(e);
}

/* __cpu_map_entry_alloc(): NULL (-ENOMEM) for every failure, a bad
 * program included, as the kernel. */
static struct hr_cpu_entry *hr_cpu_entry_alloc(struct hr_map *map,
					       const struct hr_cpumap_val *v,
					       uint32_t cpu,
					       struct hr_datapath *dp)
{
	struct hr_cpu_entry *e;
	unsigned int i;

	if (posix_memalign((void **)&e, 64, sizeof(*e)))
		return NULL;
	memset(e, 0, sizeof(*e));
	e->map = map;
	e->cpu = cpu;
	for (i = 0; i < HR_MAX_WORKERS; i++)
		e->bulkq[i].obj = e;
	if (hr_ring_create(v->qsize, &e->ring))
		goto fail;
	e->value.qsize = v->qsize;
	if ((int32_t)v->prog > 0) {
		struct hr_prog *prog = hr_prog_from_fd((int)v->prog);

		if (!prog || !prog->type ||
		    prog->type->kernel_type != HR_KPROG_XDP ||
		    prog->expected_attach != HR_ATTACH_XDP_CPUMAP)
			goto fail;
		e->prog = prog;
		e->value.prog = (uint32_t)hr_prog_fd(prog);
	}
	e->napi.poll = hr_cpu_poll;
	e->napi.detach = hr_cpu_napi_detach;
	e->napi.priv = e;
	e->idle = true;
	if (dp && cpu < dp->nworkers && dp->workers[cpu]) {
		e->worker = dp->workers[cpu];
		e->napi.worker = e->worker;
		if (hr_worker_add_napi(e->worker, &e->napi))
			goto fail;
		e->napi_added = true;
	}
	return e;
fail:
	hr_cpu_entry_destroy(e);
	return NULL;
}

/* The datapath is going: frames still on the ring go back to their pools
 * now (counted as drops), and the entry forgets its worker. */
static void hr_cpu_napi_detach(struct hr_napi *napi)
{
	struct hr_cpu_entry *e = napi->priv;
	uint64_t drops = 0;
	unsigned int i;
	void *f;

	for (i = 0; i < HR_MAX_WORKERS; i++)
		hr_cpu_bq_flush(&e->bulkq[i], i);
	while ((f = hr_ring_consume(e->ring))) {
		hr_xdp_return_frame(f);
		drops++;
	}
	if (drops && e->map) {
		struct hr_cpumap *c = e->map->priv;

		__atomic_fetch_add(&c->kth[e->cpu].s.processed, drops,
				   __ATOMIC_RELAXED);
		__atomic_fetch_add(&c->kth[e->cpu].s.drops, drops,
				   __ATOMIC_RELAXED);
	}
	e->napi_added = false;
	e->worker = NULL;
	e->napi.worker = NULL;
}

static void hr_sleep_ms(unsigned int ms)
{
	struct timespec ts = { .tv_sec = 0, .tv_nsec = (long)ms * 1000000 };

	nanosleep(&ts, NULL);
}

/*
 * __cpu_map_entry_free() after its grace period: no source can queue any
 * more and every bulk was flushed; the worker drains what is in the ring
 * (as kthread_stop lets the kthread finish), then the NAPI goes and what
 * is left, if the worker is not running, is dropped and counted.
 */
static void hr_cpu_entry_release(struct hr_map *map, struct hr_cpu_entry *e)
{
	struct hr_cpumap *c = map->priv;
	unsigned int i, waited = 0;
	uint64_t drops = 0;
	void *f;

	hr_redirect_synchronize();
	/* Defensive: sources flush at the end of each poll. */
	for (i = 0; i < HR_MAX_WORKERS; i++)
		hr_cpu_bq_flush(&e->bulkq[i], i);
	while (e->napi_added && e->worker && e->worker->started &&
	       !atomic_load(&e->worker->stop) && !hr_ring_empty(e->ring) &&
	       waited < HR_CPUMAP_DRAIN_MS) {
		hr_sleep_ms(1);
		waited++;
	}
	if (e->napi_added)
		hr_worker_del_napi(e->worker, &e->napi);
	while ((f = hr_ring_consume(e->ring))) {
		hr_xdp_return_frame(f);
		drops++;
	}
	if (drops) {
		/* The control thread adds to counters the entry's worker
		 * also writes: an atomic add loses neither. */
		__atomic_fetch_add(&c->kth[e->cpu].s.processed, drops,
				   __ATOMIC_RELAXED);
		__atomic_fetch_add(&c->kth[e->cpu].s.drops, drops,
				   __ATOMIC_RELAXED);
	}
	hr_cpu_entry_destroy(e);
}

static void hr_cpu_entry_replace(struct hr_map *map, uint32_t key,
				 struct hr_cpu_entry *e)
{
	struct hr_cpumap *c = map->priv;
	struct hr_cpu_entry *old;

	old = atomic_exchange_explicit(&c->entries[key], e,
				       memory_order_acq_rel);
	if (old)
		hr_cpu_entry_release(map, old);
}

/* cpu_map_update_elem(), in the kernel's order of checks. */
static int hr_cpumap_update_user(struct hr_map *map, const void *key,
				 const void *value, uint64_t flags)
{
	struct hr_datapath *dp = hr_redirect_dp();
	struct hr_cpumap *c = map->priv;
	struct hr_cpumap_val v = { 0 };
	struct hr_cpu_entry *e = NULL;
	uint32_t k;

	memcpy(&k, key, sizeof(k));
	memcpy(&v, value, map->attr.value_size);
	if (flags > HR_EXIST)
		return -EINVAL;
	if (k >= map->attr.max_entries)
		return -E2BIG;
	if (flags == HR_NOEXIST)
		return -EEXIST;
	if (v.qsize > HR_CPUMAP_QSIZE_MAX)
		return -EOVERFLOW;
	if (k >= hr_cpumap_possible_cpus(dp))
		return -ENODEV;
	pthread_mutex_lock(&c->lock);
	if (v.qsize) {
		e = hr_cpu_entry_alloc(map, &v, k, dp);
		if (!e) {
			pthread_mutex_unlock(&c->lock);
			return -ENOMEM;
		}
	}
	/* qsize 0 is the same as deleting. */
	hr_cpu_entry_replace(map, k, e);
	pthread_mutex_unlock(&c->lock);
	return 0;
}

static int hr_cpumap_update(struct hr_map *map, const void *key,
			    const void *value, uint64_t flags, unsigned int cpu)
{
	return hr_cpumap_update_user(map, key, value, flags);
}

static int hr_cpumap_delete(struct hr_map *map, const void *key)
{
	struct hr_cpumap *c = map->priv;
	uint32_t k;

	memcpy(&k, key, sizeof(k));
	if (k >= map->attr.max_entries)
		return -EINVAL;
	pthread_mutex_lock(&c->lock);
	hr_cpu_entry_replace(map, k, NULL);
	pthread_mutex_unlock(&c->lock);
	return 0;
}

static void hr_cpumap_free(struct hr_map *map)
{
	struct hr_cpumap *c = map->priv;
	uint32_t i;

	if (!c)
		return;
	if (c->entries)
		for (i = 0; i < map->attr.max_entries; i++)
			hr_cpu_entry_replace(map, i, NULL);
	free(c->entries);
	free(c->enq);
	free(c->kth);
	pthread_mutex_destroy(&c->lock);
	free(c);
	map->priv = NULL;
}

/* ------------------------------------------------------------------ */
/* Lookups.                                                            */

static struct hr_cpu_entry *hr_cpumap_entry(struct hr_map *map, uint32_t key)
{
	struct hr_cpumap *c = map->priv;

	if (key >= map->attr.max_entries)
		return NULL;
	return atomic_load_explicit(&c->entries[key], memory_order_acquire);
}

/* The verifier lets programs only redirect into a cpumap. */
static void *hr_cpumap_lookup(struct hr_map *map, const void *key,
			      unsigned int cpu)
{
	return NULL;
}

static int hr_cpumap_copy_value(struct hr_map *map, const void *key,
				void *value)
{
	struct hr_cpu_entry *e;
	uint32_t k;

	memcpy(&k, key, sizeof(k));
	e = hr_cpumap_entry(map, k);
	if (!e)
		return -ENOENT;
	memcpy(value, &e->value, map->attr.value_size);
	return 0;
}

static int hr_cpumap_get_next_key(struct hr_map *map, const void *key,
				  void *next)
{
	return hr_redirect_array_next_key(map, key, next);
}

static void *hr_cpumap_redirect_lookup(struct hr_map *map, uint32_t key)
{
	return hr_cpumap_entry(map, key);
}

static uint64_t hr_cpumap_redirect(struct hr_map *map, uint64_t key,
				   uint64_t flags, struct hr_redirect_info *ri)
{
	return hr_redirect_map_common(map, key, flags, 0,
				      hr_cpumap_redirect_lookup, ri);
}

/* ------------------------------------------------------------------ */
/* Counters.                                                           */

int hr_cpumap_enqueue_stats(struct hr_map *map, unsigned int src, uint32_t key,
			    struct hr_cpumap_enq_stats *out)
{
	const struct hr_cpumap_enq_stats *s;

	if (!map || map->attr.type != HR_MAP_CPUMAP || src >= HR_MAX_WORKERS ||
	    key >= map->attr.max_entries)
		return -EINVAL;
	s = hr_enq_cnt(map->priv, map, src, key);
	out->processed = hr_cnt_get(&s->processed);
	out->drops = hr_cnt_get(&s->drops);
	out->bulks = hr_cnt_get(&s->bulks);
	return 0;
}

int hr_cpumap_kthread_stats(struct hr_map *map, uint32_t key,
			    struct hr_cpumap_kthread_stats *out)
{
	const struct hr_cpumap_kthread_stats *s;
	struct hr_cpumap *c;

	if (!map || map->attr.type != HR_MAP_CPUMAP ||
	    key >= map->attr.max_entries)
		return -EINVAL;
	c = map->priv;
	s = &c->kth[key].s;
	out->processed = hr_cnt_get(&s->processed);
	out->drops = hr_cnt_get(&s->drops);
	out->sched = hr_cnt_get(&s->sched);
	out->xdp_pass = hr_cnt_get(&s->xdp_pass);
	out->xdp_drop = hr_cnt_get(&s->xdp_drop);
	out->xdp_redirect = hr_cnt_get(&s->xdp_redirect);
	out->exceptions = hr_cnt_get(&s->exceptions);
	out->delivered = hr_cnt_get(&s->delivered);
	return 0;
}

const struct hr_map_ops hr_map_ops_cpumap = {
	.check = hr_cpumap_check,
	.alloc = hr_cpumap_alloc,
	.free = hr_cpumap_free,
	.lookup = hr_cpumap_lookup,
	.update = hr_cpumap_update,
	.delete = hr_cpumap_delete,
	.get_next_key = hr_cpumap_get_next_key,
	.copy_value = hr_cpumap_copy_value,
	.update_user = hr_cpumap_update_user,
	.redirect = hr_cpumap_redirect,
	.xdp_enqueue = hr_cpumap_xdp_enqueue,
};
