// SPDX-License-Identifier: MIT
/*
 * Bulk queues and the flush at the end of a poll (kernel/bpf/devmap.c
 * bq_enqueue, bq_xmit_all, dev_map_bpf_prog_run, __dev_flush; veth's
 * XDP_TX bulk). A bulk is per worker and target: only its worker touches
 * it, so nothing here takes a lock.
 */
#include <errno.h>
#include <linux/bpf.h>

#include "core/datapath.h"
#include "core/frame.h"
#include "core/trace.h"
#include "progs/prog.h"

#define HR_XDP_XMIT_FLUSH 1u /* XDP_XMIT_FLUSH */
#define HR_VLAN_HLEN 4u

static void bulk_queue(struct hr_worker *w, struct hr_bulk *bq)
{
	if (bq->queued)
		return;
	bq->queued = true;
	w->flush_list[w->nflush++] = bq;
}

/* xdp_update_frame_from_buff: the frame after an egress program moved
 * the buff; the header at data_hard_start keeps its dev_rx. */
static int update_frame(const struct hr_xdp_buff *xdp,
			struct hr_xdp_frame *frame)
{
	int64_t headroom =
		(uint8_t *)xdp->data - (uint8_t *)xdp->data_hard_start;
	int64_t metasize = (uint8_t *)xdp->data - (uint8_t *)xdp->data_meta;

	if (metasize < 0)
		metasize = 0;
	if (headroom - metasize < (int64_t)sizeof(*frame))
		return -ENOSPC;
	if ((uint8_t *)xdp->data_end > (uint8_t *)hr_xdp_hard_end(xdp))
		return -ENOSPC;
	frame->data = xdp->data;
	frame->len =
		(uint32_t)((uint8_t *)xdp->data_end - (uint8_t *)xdp->data);
	frame->headroom = (uint32_t)(headroom - (int64_t)sizeof(*frame));
	frame->metasize = (uint32_t)metasize;
	frame->frame_sz = xdp->frame_sz;
	frame->flags = xdp->flags;
	return 0;
}

/* dev_map_bpf_prog_run: only PASS keeps a frame; returns how many. */
static unsigned int egress_run(struct hr_worker *w, struct hr_bulk *bq,
			       unsigned int n)
{
	struct hr_dev_stats *st = &bq->dev->stats[w->id];
	struct hr_rxq_info rxq = { 0 };
	struct hr_xdp_buff xdp;
	unsigned int i, kept = 0;

	rxq.dev = bq->dev_rx;
	rxq.ifindex = bq->dev_rx ? bq->dev_rx->ifindex : 0;
	for (i = 0; i < n; i++) {
		struct hr_xdp_frame *frame = bq->q[i];
		uint32_t act;

		hr_xdp_frame_to_buff(frame, &xdp);
		xdp.rxq = &rxq;
		xdp.egress_ifindex = bq->dev->ifindex;
		xdp.hints = NULL;
		act = hr_xdp_run_prog(w, bq->egress_prog, &xdp);
		if (hr_unlikely(hr_trace_on))
			hr_trace_xdp(w, bq->dev, bq->egress_prog, &xdp, act,
				     HR_TRACE_DEVMAP_PROG);
		if (act == XDP_PASS && !update_frame(&xdp, frame)) {
			bq->q[kept++] = frame;
			continue;
		}
		/* Anything but PASS is an exception, DROP excepted. */
		if (act != XDP_PASS && act != XDP_DROP)
			hr_stat_add(&st->xdp_exception, 1);
		hr_stat_add(&st->drops[HR_DROP_EGRESS_PROG], 1);
		hr_xdp_return_frame(frame);
	}
	return kept;
}

/* bq_xmit_all: the egress program, then ndo_xdp_xmit; frames it did not
 * take are freed and counted on the target. */
static void bulk_xmit(struct hr_worker *w, struct hr_bulk *bq,
		      enum hr_drop_reason why, uint32_t flags)
{
	struct hr_dev *dev = bq->dev;
	struct hr_dev_stats *st = &dev->stats[w->id];
	uint32_t len[HR_DEV_BULK];
	uint64_t ids[HR_DEV_BULK];
	unsigned int n = bq->count, i;
	uint64_t bytes = 0;
	int sent = 0;

	if (!n)
		return;
	if (hr_unlikely(w->dp->bench_skip & HR_BENCH_SKIP_XMIT)) {
		for (i = 0; i < n; i++)
			hr_xdp_return_frame(bq->q[i]);
		bq->count = 0;
		return;
	}
	if (bq->egress_prog)
		n = egress_run(w, bq, n);
	/* Lengths before the hand-off: a frame xdp_xmit took may already be
	 * another worker's (a veth peer's ring). */
	for (i = 0; i < n; i++)
		len[i] = bq->q[i]->len;
	if (hr_unlikely(hr_trace_on))
		for (i = 0; i < n; i++)
			ids[i] = hr_trace_id(bq->q[i]);
	if (n) {
		sent = dev->ops->xdp_xmit ? dev->ops->xdp_xmit(dev, w, bq->q,
							       (int)n, flags) :
					    -EOPNOTSUPP;
		if (sent < 0)
			sent = 0;
		if ((unsigned int)sent > n)
			sent = (int)n;
	}
	for (i = 0; i < (unsigned int)sent; i++)
		bytes += len[i];
	if (hr_unlikely(hr_trace_on))
		for (i = 0; i < n; i++)
			hr_trace_flush(w, ids[i], "dev", dev->ifindex, dev,
				       i < (unsigned int)sent);
	hr_stat_add(&st->tx_packets, (uint64_t)sent);
	hr_stat_add(&st->tx_bytes, bytes);
	for (i = (unsigned int)sent; i < n; i++) {
		hr_stat_add(&st->drops[why], 1);
		hr_xdp_return_frame(bq->q[i]);
	}
	bq->count = 0;
}

int hr_xdp_tx_enqueue(struct hr_worker *w, struct hr_dev *dev,
		      struct hr_xdp_frame *frame)
{
	struct hr_bulk *bq;

	if (!dev->ifindex || dev->ifindex >= HR_MAX_IFINDEX)
		return -EINVAL;
	bq = &w->tx_bulk[dev->ifindex];
	if (bq->count == HR_XDP_TX_BULK)
		bulk_xmit(w, bq, HR_DROP_TX_ERROR, 0);
	if (!bq->queued) {
		bq->dev = dev;
		bq->dev_rx = dev;
		bq->egress_prog = NULL;
		bulk_queue(w, bq);
	}
	bq->q[bq->count++] = frame;
	if (hr_unlikely(hr_trace_on))
		hr_trace_bulk(w, frame, "tx", dev->ifindex, dev, bq->count);
	return 0;
}

/* __xdp_enqueue: the checks of xdp_ok_fwd_dev, then bq_enqueue. */
int hr_dev_enqueue(struct hr_worker *w, struct hr_dev *dev,
		   struct hr_dev *dev_rx, struct hr_xdp_frame *frame,
		   struct hr_prog *egress_prog)
{
	struct hr_bulk *bq;

	if (!dev->ops->xdp_xmit)
		return -EOPNOTSUPP;
	if (!atomic_load_explicit(&dev->up, memory_order_relaxed))
		return -ENETDOWN;
	if (frame->len > dev->mtu + HR_ETH_HLEN + HR_VLAN_HLEN)
		return -EMSGSIZE;
	if (!dev->ifindex || dev->ifindex >= HR_MAX_IFINDEX)
		return -EINVAL;
	bq = &w->dev_bulk[dev->ifindex];
	if (bq->count == HR_DEV_BULK)
		bulk_xmit(w, bq, HR_DROP_XMIT_ERROR, 0);
	/* dev_rx and the egress program are those of the first frame of
	 * the bulk until it is flushed, as in the kernel. */
	if (!bq->queued) {
		bq->dev = dev;
		bq->dev_rx = dev_rx;
		bq->egress_prog = egress_prog;
		bulk_queue(w, bq);
	}
	bq->q[bq->count++] = frame;
	if (hr_unlikely(hr_trace_on))
		hr_trace_bulk(w, frame, "dev", dev->ifindex, dev, bq->count);
	return 0;
}

void hr_worker_add_flush(struct hr_worker *w,
			 void (*fn)(struct hr_worker *w, void *arg), void *arg)
{
	unsigned int i;

	for (i = 0; i < w->nflush_fn; i++)
		if (w->flush_arg[i] == arg && w->flush_fn[i] == fn)
			return;
	if (w->nflush_fn == HR_MAX_NAPI) {
		/* No room to defer: flush this one now. */
		fn(w, arg);
		return;
	}
	w->flush_fn[w->nflush_fn] = fn;
	w->flush_arg[w->nflush_fn] = arg;
	w->nflush_fn++;
}

void hr_xdp_do_flush(struct hr_worker *w)
{
	unsigned int i;

	/* __dev_flush first, then the other kinds (cpumap, xsk), as
	 * xdp_do_flush orders them. */
	for (i = 0; i < w->nflush; i++) {
		struct hr_bulk *bq = w->flush_list[i];
		bool tx = bq >= w->tx_bulk && bq < w->tx_bulk + HR_MAX_IFINDEX;

		bulk_xmit(w, bq, tx ? HR_DROP_TX_ERROR : HR_DROP_XMIT_ERROR,
			  HR_XDP_XMIT_FLUSH);
		bq->queued = false;
		bq->dev_rx = NULL;
		bq->egress_prog = NULL;
	}
	w->nflush = 0;
	/* A hook may register another: run until none is left. */
	for (i = 0; i < w->nflush_fn; i++)
		w->flush_fn[i](w, w->flush_arg[i]);
	w->nflush_fn = 0;
	hr_frame_cache_flush();
}
