// SPDX-License-Identifier: MIT
/*
 * RPS, receive packet steering (net/core/dev.c get_rps_cpu,
 * enqueue_to_backlog, process_backlog): an skb built on the RX worker
 * goes, by its flow hash, to one of the workers its RX queue lists (the
 * queue's rps_cpus), into that worker's backlog; the target worker's
 * backlog NAPI then runs tc ingress and the stack on it.
 *
 * The kernel's backlog is one locked queue per CPU. Here it is one ring
 * per (source, target) pair, so each has one producer and one consumer
 * and needs no lock: the source writes skbs into free slots and
 * publishes them every HR_RPS_BULK skbs and at the end of its poll (as
 * the kernel sends its RPS IPIs once per net_rx_action); the target
 * takes what is published and hands the slots back a batch at a time.
 * Each ring holds at most max_backlog skbs (netdev_max_backlog, 1000),
 * queued or unpublished; past that the skb is dropped and counted on its
 * device (cpu_backlog), as enqueue_to_backlog's drop. The bound is per
 * source, where the kernel's is per target CPU (all sources together).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <headroom/datapath.h>

#include "core/datapath.h"

#define HR_RPS_BULK 16 /* skbs written before the source publishes */

/* One (source, target) pair's queue. */
struct hr_backlog_ring {
	/* The source's side. */
	uint32_t pend; /* next slot to write; published up to head */
	uint32_t tail_seen; /* tail as last read */
	bool queued; /* flush registered for this poll */
	uint64_t enqueued, dropped; /* read by others: hr_stat_add */
	/* Shared: each written by one side. */
	_Atomic uint32_t head __attribute__((aligned(64)));
	_Atomic uint32_t tail __attribute__((aligned(64)));
	/* The target's side. */
	uint64_t processed;
	uint32_t mask, limit;
	struct hr_skb *slots;
};

/* A target worker's backlog: softnet_data's input queue and its NAPI. */
struct hr_backlog {
	struct hr_napi napi;
	struct hr_backlog_ring *from[HR_MAX_WORKERS];
	unsigned int nfrom;
	unsigned int next; /* the source a poll starts at, for fairness */
};

/* ---- the source side (get_rps_cpu, enqueue_to_backlog) -------------- */

/* The @k-th set bit of @mask (k < popcount). */
static unsigned int nth_bit(uint32_t mask, unsigned int k)
{
	while (k--)
		mask &= mask - 1;
	return (unsigned int)__builtin_ctz(mask);
}

/*
 * get_rps_cpu: the skb's RX queue (queue 0 when none was recorded) names
 * the target workers; the hash picks one of them by reciprocal_scale,
 * so a flow always lands on the same worker. -1: no steering.
 */
static int rps_target(struct hr_datapath *dp, struct hr_skb *skb)
{
	unsigned int q = skb->queue_mapping ? skb->queue_mapping - 1u : 0u;
	uint32_t mask, hash;
	unsigned int n;

	if (!skb->dev || skb->dev->ifindex >= HR_MAX_IFINDEX ||
	    q >= HR_DEV_MAX_QUEUES)
		return -1;
	/* Acquire: the backlogs were set up before the map named them. */
	mask = atomic_load_explicit(&dp->rps_map[skb->dev->ifindex][q],
				    memory_order_acquire);
	if (!mask)
		return -1;
	hash = hr_skb_get_hash(skb);
	if (!hash)
		return -1;
	n = (unsigned int)__builtin_popcount(mask);
	return (int)nth_bit(mask, (unsigned int)(((uint64_t)hash * n) >> 32));
}

/* Makes what was written visible to the target. */
static void ring_publish(struct hr_backlog_ring *r)
{
	atomic_store_explicit(&r->head, r->pend, memory_order_release);
}

static void rps_flush_fn(struct hr_worker *w, void *arg)
{
	struct hr_backlog_ring *r = arg;

	ring_publish(r);
	r->queued = false;
}

static bool ring_full(struct hr_backlog_ring *r)
{
	if (r->pend - r->tail_seen < r->limit)
		return false;
	/* Acquire: the target is done with the slots it handed back. */
	r->tail_seen = atomic_load_explicit(&r->tail, memory_order_acquire);
	return r->pend - r->tail_seen >= r->limit;
}

static void enqueue_to_backlog(struct hr_worker *w, struct hr_skb *skb,
			       unsigned int target)
{
	struct hr_backlog_ring *r = w->dp->backlog[target]->from[w->id];

	if (ring_full(r)) {
		hr_stat_add(&skb->dev->stats[w->id].drops[HR_DROP_BACKLOG], 1);
		hr_stat_add(&r->dropped, 1);
		hr_skb_free(skb);
		return;
	}
	r->slots[r->pend & r->mask] = *skb;
	r->pend++;
	hr_stat_add(&r->enqueued, 1);
	if (r->pend - atomic_load_explicit(&r->head, memory_order_relaxed) >=
	    HR_RPS_BULK)
		ring_publish(r);
	if (!r->queued) {
		r->queued = true;
		hr_worker_add_flush(w, rps_flush_fn, r);
	}
}

void hr_netif_receive_skb(struct hr_worker *w, struct hr_skb *skb)
{
	int target = -1;

	/* One flag for the datapath, as the kernel's rps_needed key, so
	 * that queues without RPS pay one load. */
	if (atomic_load_explicit(&w->dp->rps_needed, memory_order_relaxed))
		target = rps_target(w->dp, skb);
	if (target < 0)
		hr_skb_receive(w, skb);
	else
		enqueue_to_backlog(w, skb, (unsigned int)target);
}

/* ---- the target side (process_backlog) ------------------------------ */

/* Up to @quota skbs of one source, in order; how many. */
static int ring_drain(struct hr_worker *w, struct hr_backlog_ring *r, int quota)
{
	uint32_t head = atomic_load_explicit(&r->head, memory_order_acquire);
	uint32_t t = atomic_load_explicit(&r->tail, memory_order_relaxed);
	int n = 0;

	while (t != head && n < quota) {
		hr_skb_receive(w, &r->slots[t & r->mask]);
		t++;
		n++;
	}
	if (n) {
		/* Release: the slots are free once the skbs were taken. */
		atomic_store_explicit(&r->tail, t, memory_order_release);
		hr_stat_add(&r->processed, (uint64_t)n);
	}
	return n;
}

static int backlog_poll(struct hr_napi *napi, int budget)
{
	struct hr_backlog *b = napi->priv;
	unsigned int i;
	int done = 0;

	for (i = 0; i < b->nfrom && done < budget; i++)
		done += ring_drain(napi->worker,
				   b->from[(b->next + i) % b->nfrom],
				   budget - done);
	b->next = (b->next + 1) % b->nfrom;
	return done;
}

/* ---- set-up and teardown (control path, under dp->lock) ------------- */

static void ring_free(struct hr_backlog_ring *r)
{
	if (!r)
		return;
	free(r->slots);
	free(r);
}

static struct hr_backlog_ring *ring_new(unsigned int limit)
{
	struct hr_backlog_ring *r;
	uint32_t cap = 1;

	if (posix_memalign((void **)&r, 64, sizeof(*r)))
		return NULL;
	memset(r, 0, sizeof(*r));
	while (cap < limit)
		cap <<= 1;
	r->slots = calloc(cap, sizeof(*r->slots));
	if (!r->slots) {
		free(r);
		return NULL;
	}
	r->mask = cap - 1;
	r->limit = limit;
	return r;
}

static void backlog_free(struct hr_backlog *b)
{
	unsigned int i;

	if (!b)
		return;
	for (i = 0; i < b->nfrom; i++)
		ring_free(b->from[i]);
	free(b);
}

static struct hr_backlog *backlog_new(struct hr_datapath *dp)
{
	struct hr_backlog *b = calloc(1, sizeof(*b));
	unsigned int i;

	if (!b)
		return NULL;
	b->napi.poll = backlog_poll;
	b->napi.priv = b;
	for (i = 0; i < dp->nworkers; i++) {
		b->from[i] = ring_new(dp->max_backlog);
		if (!b->from[i]) {
			backlog_free(b);
			return NULL;
		}
		b->nfrom = i + 1;
	}
	return b;
}

/* The backlog of worker @t, made and polled there on first use. */
static int backlog_get(struct hr_datapath *dp, unsigned int t)
{
	struct hr_backlog *b;
	int err;

	if (dp->backlog[t])
		return 0;
	b = backlog_new(dp);
	if (!b)
		return -ENOMEM;
	err = hr_worker_add_napi(dp->workers[t], &b->napi);
	if (err) {
		backlog_free(b);
		return err;
	}
	dp->backlog[t] = b;
	return 0;
}

int hr_dev_set_rps(struct hr_dev *dev, unsigned int queue, uint32_t workers)
{
	struct hr_datapath *dp = dev ? dev->dp : NULL;
	unsigned int t;
	int err = 0;

	if (!dp || queue >= dev->nrxq || dev->ifindex >= HR_MAX_IFINDEX ||
	    (dp->nworkers < 32 && workers >> dp->nworkers))
		return -EINVAL;
	for (t = 0; t < dp->nworkers && !err; t++)
		if (workers & (1u << t))
			err = backlog_get(dp, t);
	if (err)
		return err;
	/* Release: a worker that reads the map finds the backlogs. */
	atomic_store_explicit(&dp->rps_map[dev->ifindex][queue], workers,
			      memory_order_release);
	if (workers)
		atomic_store(&dp->rps_needed, true);
	return 0;
}

/* What a ring still holds is dropped, counted as a full backlog's (the
 * kernel's flush_backlog drops them too when a device goes). */
static void ring_drop_all(struct hr_datapath *dp, struct hr_backlog_ring *r,
			  unsigned int src)
{
	uint32_t t = atomic_load(&r->tail);
	struct hr_skb *skb;

	for (; t != r->pend; t++) {
		skb = &r->slots[t & r->mask];
		hr_stat_add(&skb->dev->stats[src].drops[HR_DROP_BACKLOG], 1);
		hr_stat_add(&r->dropped, 1);
		hr_skb_free(skb);
	}
	atomic_store(&r->tail, t);
	atomic_store(&r->head, t);
}

void hr_rps_destroy(struct hr_datapath *dp)
{
	struct hr_backlog *b;
	unsigned int t, s;

	atomic_store(&dp->rps_needed, false);
	for (t = 0; t < HR_MAX_WORKERS; t++) {
		b = dp->backlog[t];
		if (!b)
			continue;
		hr_worker_del_napi(dp->workers[t], &b->napi);
		for (s = 0; s < b->nfrom; s++)
			ring_drop_all(dp, b->from[s], s);
		dp->backlog[t] = NULL;
		backlog_free(b);
	}
}

int hr_dp_get_backlog_stats(const struct hr_datapath *dp, unsigned int worker,
			    struct hr_backlog_stats *out)
{
	struct hr_backlog_stats full = { 0 };
	const struct hr_backlog *b;
	unsigned int s;
	size_t sz;

	if (!dp || !out || out->sz < sizeof(size_t) || worker >= dp->nworkers)
		return -EINVAL;
	b = dp->backlog[worker];
	for (s = 0; b && s < b->nfrom; s++) {
		const struct hr_backlog_ring *r = b->from[s];

		full.enqueued +=
			__atomic_load_n(&r->enqueued, __ATOMIC_RELAXED);
		full.dropped += __atomic_load_n(&r->dropped, __ATOMIC_RELAXED);
		full.processed +=
			__atomic_load_n(&r->processed, __ATOMIC_RELAXED);
	}
	sz = out->sz < sizeof(full) ? out->sz : sizeof(full);
	memcpy((char *)out + sizeof(size_t), (char *)&full + sizeof(size_t),
	       sz - sizeof(size_t));
	return 0;
}
