// SPDX-License-Identifier: MIT
/*
 * Per-packet trace (trace.h): which frames are being followed, and one
 * event a stage handed to the caller's emit function. The kernel shows a
 * packet's path through its xdp tracepoints (trace_xdp_redirect,
 * trace_xdp_bulk_tx, trace_xdp_cpumap_enqueue / _kthread); this follows
 * one frame across all of them and adds the hints, metadata and tc.
 *
 * Frames are found by address in an open-addressed table of every frame
 * address seen so far (bounded by the pools' frames): a slot holds the
 * packet's trace id, 0 once its frame went back to its pool. Everything
 * happens under one mutex: tracing is a debugging view, not a fast path.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <linux/bpf.h>

#include "core/datapath.h"
#include "core/trace.h"

#define HR_TRACE_SLOTS (1u << 18)

bool hr_trace_on;

struct slot {
	const void *addr;
	uint64_t id;
};

static struct {
	pthread_mutex_t lock;
	struct hr_trace_opts opts;
	struct slot *slots;
	uint64_t traced;
	unsigned int used;
} tr = { .lock = PTHREAD_MUTEX_INITIALIZER };

static const char *const stage_names[HR_TRACE__MAX] = {
	[HR_TRACE_RX] = "rx",
	[HR_TRACE_XDP] = "xdp",
	[HR_TRACE_REDIRECT_ERR] = "redirect_err",
	[HR_TRACE_BULK] = "bulk",
	[HR_TRACE_FLUSH] = "flush",
	[HR_TRACE_CPUMAP] = "cpumap",
	[HR_TRACE_CPUMAP_PROG] = "cpumap_prog",
	[HR_TRACE_DEVMAP_PROG] = "devmap_prog",
	[HR_TRACE_SKB] = "skb",
	[HR_TRACE_TC] = "tc",
	[HR_TRACE_DELIVER] = "deliver",
	[HR_TRACE_FREE] = "free",
};

const char *hr_trace_stage_name(enum hr_trace_stage s)
{
	return (unsigned int)s < HR_TRACE__MAX ? stage_names[s] : "?";
}

int hr_trace_start(const struct hr_trace_opts *opts)
{
	if (!opts->emit)
		return -EINVAL;
	pthread_mutex_lock(&tr.lock);
	free(tr.slots);
	tr.slots = calloc(HR_TRACE_SLOTS, sizeof(*tr.slots));
	tr.opts = *opts;
	tr.traced = 0;
	tr.used = 0;
	pthread_mutex_unlock(&tr.lock);
	if (!tr.slots)
		return -ENOMEM;
	hr_trace_on = opts->max_packets > 0;
	return 0;
}

void hr_trace_stop(void)
{
	hr_trace_on = false;
	pthread_mutex_lock(&tr.lock);
	free(tr.slots);
	tr.slots = NULL;
	pthread_mutex_unlock(&tr.lock);
}

uint64_t hr_trace_count(void)
{
	uint64_t n;

	pthread_mutex_lock(&tr.lock);
	n = tr.traced;
	pthread_mutex_unlock(&tr.lock);
	return n;
}

/* The slot of @addr, or the empty one where it would go (NULL: full). */
static struct slot *find(const void *addr, bool insert)
{
	uintptr_t h = (uintptr_t)addr;
	unsigned int i, n;

	if (!tr.slots)
		return NULL;
	h ^= h >> 17;
	h *= 0x9e3779b97f4a7c15ull;
	i = (unsigned int)(h >> 40) & (HR_TRACE_SLOTS - 1);
	for (n = 0; n < HR_TRACE_SLOTS;
	     n++, i = (i + 1) & (HR_TRACE_SLOTS - 1)) {
		if (tr.slots[i].addr == addr)
			return &tr.slots[i];
		if (!tr.slots[i].addr) {
			/* Keep a quarter free so that misses stay short. */
			if (!insert || tr.used >= HR_TRACE_SLOTS / 4 * 3)
				return NULL;
			tr.used++;
			tr.slots[i].addr = addr;
			return &tr.slots[i];
		}
	}
	return NULL;
}

/* The id of the packet in the frame at @addr (lock held); 0: untraced. */
static uint64_t id_of(const void *addr)
{
	struct slot *s = find(addr, false);

	return s ? s->id : 0;
}

static void ev_init(struct hr_trace_event *ev, enum hr_trace_stage stage,
		    struct hr_worker *w, struct hr_dev *dev)
{
	memset(ev, 0, sizeof(*ev));
	ev->stage = stage;
	ev->worker = w ? w->id : -1u;
	if (dev) {
		ev->dev = dev->name;
		ev->ifindex = dev->ifindex;
	}
}

static void ev_meta(struct hr_trace_event *ev, const uint8_t *meta,
		    uint32_t len)
{
	ev->meta_len = len;
	memcpy(ev->meta, meta,
	       len < HR_TRACE_META_MAX ? len : HR_TRACE_META_MAX);
}

static void emit(struct hr_trace_event *ev)
{
	tr.opts.emit(tr.opts.arg, ev);
}

void hr_trace_rx(struct hr_worker *w, struct hr_dev *dev, unsigned int queue,
		 const struct hr_xdp_buff *xdp)
{
	const struct hr_xdp_metadata_ops *ops = xdp->rxq ? xdp->rxq->meta_ops :
							   NULL;
	struct hr_trace_event ev;
	struct slot *s;
	uint16_t proto;

	ev_init(&ev, HR_TRACE_RX, w, dev);
	ev.queue = queue;
	ev.len = (uint32_t)((const uint8_t *)xdp->data_end -
			    (const uint8_t *)xdp->data);
	if (ops && ops->rx_hash)
		ev.has_hash = !ops->rx_hash(xdp, &ev.hash, &ev.rss_type);
	if (ops && ops->rx_timestamp)
		ev.has_ts = !ops->rx_timestamp(xdp, &ev.timestamp);
	if (ops && ops->rx_vlan_tag)
		ev.has_vlan = !ops->rx_vlan_tag(xdp, &proto, &ev.vlan_tci);
	pthread_mutex_lock(&tr.lock);
	/* Already followed: the same packet arriving at a veth peer. */
	ev.id = id_of(xdp->data_hard_start);
	if (!ev.id && tr.traced < tr.opts.max_packets &&
	    (!tr.opts.filter || tr.opts.filter(tr.opts.arg, &ev))) {
		s = find(xdp->data_hard_start, true);
		if (s) {
			s->id = ++tr.traced;
			ev.id = s->id;
		}
	}
	if (ev.id)
		emit(&ev);
	pthread_mutex_unlock(&tr.lock);
}

static const char *map_kind(uint32_t map_type)
{
	switch (map_type) {
	case 0:
		return "ifindex";
	case BPF_MAP_TYPE_DEVMAP:
	case BPF_MAP_TYPE_DEVMAP_HASH:
		return "devmap";
	case BPF_MAP_TYPE_CPUMAP:
		return "cpumap";
	case BPF_MAP_TYPE_XSKMAP:
		return "xskmap";
	default:
		return "map";
	}
}

void hr_trace_xdp(struct hr_worker *w, struct hr_dev *dev, struct hr_prog *prog,
		  const struct hr_xdp_buff *xdp, uint32_t act,
		  enum hr_trace_stage stage)
{
	const uint8_t *meta = xdp->data_meta, *data = xdp->data;
	struct hr_trace_event ev;

	pthread_mutex_lock(&tr.lock);
	ev_init(&ev, stage, w, dev);
	ev.id = id_of(xdp->data_hard_start);
	if (!ev.id)
		goto out;
	ev.len = (uint32_t)((const uint8_t *)xdp->data_end - data);
	ev.verdict = act;
	ev.prog = prog;
	if (meta < data)
		ev_meta(&ev, meta, (uint32_t)(data - meta));
	/* bpf_redirect_info before xdp_do_redirect reads and clears it. */
	if (act == XDP_REDIRECT && stage == HR_TRACE_XDP) {
		ev.target_kind = map_kind(w->ri.map_type);
		ev.target = w->ri.tgt_index;
		if (!w->ri.map_type) {
			struct hr_dev *to =
				hr_dev_get_by_index(w->dp, w->ri.tgt_index);

			ev.target_dev = to ? to->name : NULL;
		}
	}
	emit(&ev);
out:
	pthread_mutex_unlock(&tr.lock);
}

void hr_trace_redirect_err(struct hr_worker *w, const void *hard_start, int err)
{
	struct hr_trace_event ev;

	pthread_mutex_lock(&tr.lock);
	ev_init(&ev, HR_TRACE_REDIRECT_ERR, w, NULL);
	ev.id = id_of(hard_start);
	ev.err = err;
	if (ev.id)
		emit(&ev);
	pthread_mutex_unlock(&tr.lock);
}

uint64_t hr_trace_id(const void *hard_start)
{
	uint64_t id;

	pthread_mutex_lock(&tr.lock);
	id = id_of(hard_start);
	pthread_mutex_unlock(&tr.lock);
	return id;
}

static void queue_event(enum hr_trace_stage stage, struct hr_worker *w,
			uint64_t id, const char *kind, uint32_t target,
			struct hr_dev *to, unsigned int count, bool sent)
{
	struct hr_trace_event ev;

	pthread_mutex_lock(&tr.lock);
	ev_init(&ev, stage, w, NULL);
	ev.id = id;
	ev.target_kind = kind;
	ev.target = target;
	ev.target_dev = to ? to->name : NULL;
	ev.bulk_count = count;
	ev.sent = sent;
	if (ev.id)
		emit(&ev);
	pthread_mutex_unlock(&tr.lock);
}

void hr_trace_bulk(struct hr_worker *w, const void *hard_start,
		   const char *kind, uint32_t target, struct hr_dev *to,
		   unsigned int count)
{
	queue_event(HR_TRACE_BULK, w, hr_trace_id(hard_start), kind, target, to,
		    count, false);
}

void hr_trace_flush(struct hr_worker *w, uint64_t id, const char *kind,
		    uint32_t target, struct hr_dev *to, bool sent)
{
	queue_event(HR_TRACE_FLUSH, w, id, kind, target, to, 0, sent);
}

void hr_trace_cpumap(struct hr_worker *w, const void *hard_start, uint32_t key)
{
	queue_event(HR_TRACE_CPUMAP, w, hr_trace_id(hard_start), "cpumap", key,
		    NULL, 0, true);
}

void hr_trace_skb(struct hr_worker *w, const struct hr_skb *skb,
		  enum hr_trace_stage stage, int64_t verdict,
		  struct hr_prog *prog)
{
	struct hr_trace_event ev;

	pthread_mutex_lock(&tr.lock);
	ev_init(&ev, stage, w, skb->dev);
	ev.id = id_of(skb->head);
	if (!ev.id)
		goto out;
	ev.len = skb->len;
	ev.queue = skb->queue_mapping;
	ev.has_hash = skb->hash != 0;
	ev.hash = skb->hash;
	ev.mark = skb->mark;
	ev.verdict = verdict;
	ev.prog = prog;
	ev_meta(&ev, skb->data - skb->meta_len, skb->meta_len);
	emit(&ev);
out:
	pthread_mutex_unlock(&tr.lock);
}

void hr_trace_free(const void *hard_start)
{
	struct hr_trace_event ev;
	struct slot *s;

	pthread_mutex_lock(&tr.lock);
	s = find(hard_start, false);
	if (s && s->id) {
		ev_init(&ev, HR_TRACE_FREE, NULL, NULL);
		ev.id = s->id;
		s->id = 0;
		emit(&ev);
	}
	pthread_mutex_unlock(&tr.lock);
}
