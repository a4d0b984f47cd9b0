// SPDX-License-Identifier: MIT
/*
 * The receive path: the device's XDP program on each buff and the action
 * its verdict asks for (a driver's NAPI receive with bpf_prog_run_xdp and
 * the switch after it, as in drivers/net/veth.c veth_xdp_rcv_one).
 */
#include <errno.h>
#include <string.h>
#include <linux/bpf.h>

#include "core/datapath.h"
#include "core/trace.h"
#include "vm/engine.h"
#include "progs/prog.h"

/*
 * The context fields a buff's rxq gives, written again only when a buff
 * has another rxq than the last one: an rxq's ifindex, queue and hint
 * callbacks are set when its device is made (dev.c, dev_common.c) and
 * stay while the device lives, and a runner lives for one batch (an
 * hr_xdp_runner user's rxqs keep their fields while it runs, datapath.h),
 * so the copy is what reading them a packet would give.
 */
static __attribute__((noinline)) void runner_rxq(struct hr_xdp_runner *r,
						 const struct hr_rxq_info *rxq)
{
	r->rxq = rxq;
	r->c.md.ingress_ifindex = rxq ? rxq->ifindex : 0;
	r->c.md.rx_queue_index = rxq ? rxq->queue_index : 0;
	r->std_hints = rxq && rxq->meta_ops && rxq->meta_ops->std_hints;
}

static __attribute__((always_inline)) inline bool
run_reusable(const struct hr_xdp_runner *r, const struct hr_run *run)
{
	return r->ready && run->vm == &r->prog->vm && run->priv == &r->c &&
	       run->ctx == &r->c.md &&
	       !(run->abort | run->unwind | run->tail_call_cnt | run->depth |
		 run->nheld) &&
	       !run->tail_call && !run->lock;
}

/* Inlined into the batch loop: its call was a fifth of the set-up. */
static __attribute__((always_inline)) inline struct hr_run *
runner_prepare(struct hr_xdp_runner *r, struct hr_xdp_buff *xdp)
{
	struct hr_run *run = r->w->run;
	struct hr_xdp_ctx *c = &r->c;

	if (!run_reusable(r, run)) {
		hr_prog_run_init(r->prog, run, &c->md);
		run->priv = c;
		run->cpu = r->w->id;
		c->ri = &r->w->ri;
		r->ready = true;
	}
	/* A NULL rxq matches the runner's zeroed copy, which is its. */
	if (hr_unlikely(xdp->rxq != r->rxq))
		runner_rxq(r, xdp->rxq);
	/*
	 * Not written a packet: ingress_ifindex and rx_queue_index
	 * (runner_rxq writes them with its copy; xdp_md is read-only to
	 * programs, prog_xdp.c's xdp_ctx_access as xdp_is_valid_access,
	 * and nothing else writes this runner's md), and the redirect_*
	 * fields, zero from the runner's initialisation: they are tc's
	 * (the XDP redirect helpers record into c->ri), no one sets them
	 * in an XDP context.
	 */
	c->xdp = xdp;
	c->md.egress_ifindex = xdp->egress_ifindex;
	run->budget = HR_DEFAULT_BUDGET;
	run->pc = 0;
	run->pkt_dirty = 0;
	hr_xdp_ctx_sync(c, run);
	/* hr_xdp_ctx_hints, with the rxq's std_hints from the copy. */
	hr_xdp_run_hints(run, r->std_hints ? xdp->hints : NULL);
	return run;
}

static __attribute__((always_inline)) inline uint32_t
runner_run(struct hr_xdp_runner *r, struct hr_xdp_buff *xdp)
{
	struct hr_run *run = runner_prepare(r, xdp);

	if (r->fn)
		return (uint32_t)hr_engine_call_ctx(r->fn, run);
	return (uint32_t)hr_engine_run_ctx((enum hr_engine)r->w->dp->engine,
					   run);
}

/* A breakdown run's stand-in for runner_run: the set-up, no program. */
static uint32_t runner_skip(struct hr_xdp_runner *r, struct hr_xdp_buff *xdp)
{
	/* Its stores are to the worker's run, so they stay. */
	runner_prepare(r, xdp);
	return r->w->dp->bench_verdict;
}

uint32_t hr_xdp_run_prog(struct hr_worker *w, struct hr_prog *prog,
			 struct hr_xdp_buff *xdp)
{
	struct hr_xdp_runner r = { .w = w, .prog = prog };

	return runner_run(&r, xdp);
}

/* The JIT's entry is read with the program, as rx_bulk reads it: its
 * code lives as long as the program, which the caller holds. */
void hr_xdp_runner_init(struct hr_xdp_runner *r, struct hr_worker *w,
			struct hr_prog *prog)
{
	memset(r, 0, sizeof(*r));
	r->w = w;
	r->prog = prog;
	r->fn = hr_engine_ctx_entry((enum hr_engine)w->dp->engine, &prog->vm);
}

uint32_t hr_xdp_runner_run(struct hr_xdp_runner *r, struct hr_xdp_buff *xdp)
{
	return runner_run(r, xdp);
}

static void count_drop(struct hr_dev_stats *st, enum hr_drop_reason why)
{
	hr_stat_add(&st->drops[why], 1);
}

static void rx_tx(struct hr_worker *w, struct hr_dev *dev,
		  struct hr_dev_stats *st, struct hr_xdp_buff *xdp)
{
	struct hr_xdp_frame *frame = hr_xdp_buff_to_frame(xdp);

	/* veth_xdp_tx: a buff that cannot become a frame (-EOVERFLOW) is
	 * dropped. */
	if (!frame) {
		count_drop(st, HR_DROP_TX_ERROR);
		hr_xdp_return_buff(xdp);
		return;
	}
	if (hr_xdp_tx_enqueue(w, dev, frame)) {
		count_drop(st, HR_DROP_TX_ERROR);
		hr_xdp_return_frame(frame);
	}
}

static void rx_redirect(struct hr_worker *w, struct hr_dev *dev,
			struct hr_dev_stats *st, struct hr_xdp_buff *xdp)
{
	int err = hr_xdp_do_redirect(w, dev, xdp);

	if (!err)
		return;
	if (hr_unlikely(hr_trace_on))
		hr_trace_redirect_err(w, xdp->data_hard_start, err);
	if (-err > 0 && -err < HR_ERRNO_MAX)
		hr_stat_add(&st->redirect_err[-err], 1);
	count_drop(st, HR_DROP_REDIRECT_ERROR);
	hr_xdp_return_buff(xdp);
}

/* @skb: the skb the buff was built around (an skb-path receive), which
 * goes on as it is, else NULL: an skb is built on the buff's frame. */
static void rx_pass(struct hr_worker *w, struct hr_napi *napi,
		    struct hr_xdp_buff *xdp, struct hr_skb *skb)
{
	struct hr_skb built;

	if (skb) {
		hr_skb_after_xdp(skb, xdp, napi->dev);
		hr_netif_receive_skb(w, skb);
		return;
	}
	hr_skb_from_buff(&built, xdp, napi->dev, napi->queue);
	hr_netif_receive_skb(w, &built);
}

static void rx_act(struct hr_worker *w, struct hr_napi *napi,
		   struct hr_dev_stats *st, struct hr_xdp_buff *xdp,
		   uint32_t act, struct hr_skb *skb)
{
	switch (act) {
	case XDP_PASS:
		rx_pass(w, napi, xdp, skb);
		break;
	case XDP_TX:
		rx_tx(w, napi->dev, st, xdp);
		break;
	case XDP_REDIRECT:
		rx_redirect(w, napi->dev, st, xdp);
		break;
	case XDP_ABORTED:
		/* trace_xdp_exception */
		hr_stat_add(&st->xdp_exception, 1);
		hr_xdp_return_buff(xdp);
		break;
	default: /* XDP_DROP */
		hr_xdp_return_buff(xdp);
		break;
	}
}

/*
 * The counters of a batch, added once for it: each is this worker's own
 * (read by others only as a sum, hr_dev_get_counters), so nothing is
 * lost by adding later within the poll.
 */
static void rx_count(struct hr_napi *napi, struct hr_dev_stats *st,
		     uint64_t pkts, uint64_t bytes)
{
	struct hr_worker *w = napi->worker;
	struct hr_queue_stats *qs =
		&napi->dev->qstats[napi->queue % HR_DEV_MAX_QUEUES][w->id];

	hr_stat_add(&st->rx_packets, pkts);
	hr_stat_add(&st->rx_bytes, bytes);
	hr_stat_add(&qs->rx_packets, pkts);
	hr_stat_add(&qs->rx_bytes, bytes);
}

/*
 * Whether the frame of the run just done is as its device gave it: the
 * engines set run->pkt_dirty before anything that may write a packet
 * byte, the interpreter always (vm.h), and nothing else between the
 * device and a DROP writes the frame. A breakdown run that leaves the
 * program out writes nothing either. Its pool then keeps what the device
 * noted of the bytes (a generator's flow, pool.h), and the device need
 * not write them again.
 */
static __attribute__((always_inline)) inline bool rx_clean(struct hr_worker *w,
							   unsigned int skip)
{
	return (skip & HR_BENCH_SKIP_PROG) || !w->run->pkt_dirty;
}

/*
 * The batch loop, inlined twice: with @skip a constant 0 (every batch
 * but a breakdown run's, the checks compiled out) and with the bench's
 * stages to leave out.
 */
static __attribute__((always_inline)) inline void
rx_bulk(struct hr_napi *napi, struct hr_xdp_buff *xdp, unsigned int n,
	unsigned int skip, struct hr_rx_recycle *rc)
{
	struct hr_worker *w = napi->worker;
	struct hr_dev *dev = napi->dev;
	struct hr_dev_stats *st = &dev->stats[w->id];
	uint64_t acts[XDP_REDIRECT + 1] = { 0 }, bytes = 0;
	struct hr_xdp_runner r = { .w = w };
	void *dropbuf[HR_NAPI_BUDGET], **drop = rc ? rc->q : dropbuf;
	unsigned int i, ndrop = 0;
	uint64_t clean = 0;
	uint32_t act;
	bool trace;

	if (!(skip & HR_BENCH_SKIP_STATS)) {
		for (i = 0; i < n; i++)
			bytes += hr_xdp_buff_len(&xdp[i]);
		rx_count(napi, st, n, bytes);
	}
	/*
	 * Inside the worker's epoch (odd while polling): the program read
	 * here stays alive until this poll ends, as under rcu_read_lock,
	 * so one read serves the batch (a driver's NAPI poll reads
	 * rq->xdp_prog once too). Sequentially consistent, to pair with
	 * the exchange and the epoch reads of hr_dp_synchronize (cheap: a
	 * plain load on x86).
	 */
	r.prog = atomic_load(&dev->xdp_prog);
	/* Read with the program, for the same batch: its code lives as
	 * long as the program does. */
	if (r.prog)
		r.fn = hr_engine_ctx_entry((enum hr_engine)w->dp->engine,
					   &r.prog->vm);
	/* Read once a batch: a trace switched on or off takes effect at a
	 * batch's start, so each packet is traced whole or not at all. */
	trace = hr_unlikely(hr_trace_on);
	for (i = 0; i < n; i++) {
		if (hr_unlikely(trace))
			hr_trace_rx(w, dev, napi->queue, &xdp[i]);
		if (!r.prog) {
			rx_pass(w, napi, &xdp[i], NULL);
			continue;
		}
		if (skip & HR_BENCH_SKIP_CTX)
			act = w->dp->bench_verdict;
		else if (skip & HR_BENCH_SKIP_PROG)
			act = runner_skip(&r, &xdp[i]);
		else
			act = runner_run(&r, &xdp[i]);
		if (act > XDP_REDIRECT) {
			/* bpf_warn_invalid_xdp_action, then as XDP_ABORTED. */
			act = XDP_ABORTED;
		}
		if (hr_unlikely(trace))
			hr_trace_xdp(w, dev, r.prog, &xdp[i], act,
				     HR_TRACE_XDP);
		acts[act]++;
		/*
		 * Dropped frames go back together after the loop, as a
		 * driver's NAPI poll recycles into its page pool: nothing in
		 * this batch reads them again, a frame with fragments has
		 * more to free and a trace shows each free where it happens,
		 * so those go one by one.
		 */
		if (act == XDP_DROP && !hr_xdp_has_frags(&xdp[i]) && !trace &&
		    ndrop < HR_NAPI_BUDGET) {
			clean |= (uint64_t)rx_clean(w, skip) << ndrop;
			if (rc)
				rc->from[ndrop] = (uint8_t)i;
			drop[ndrop++] = xdp[i].data_hard_start;
			continue;
		}
		rx_act(w, napi, st, &xdp[i], act, NULL);
	}
	/* A recycling device takes its drops back itself: they are its
	 * pool's frames (hr_xdp_rx_bulk_recycle's contract), none with
	 * fragments, and nothing else holds them. */
	if (rc) {
		rc->n = ndrop;
		rc->clean = clean;
	} else if (ndrop) {
		hr_xdp_return_bulk(drop, ndrop, clean);
	}
	if (skip & HR_BENCH_SKIP_STATS)
		return;
	for (act = 0; act <= XDP_REDIRECT; act++)
		if (acts[act])
			hr_stat_add(&st->xdp[act], acts[act]);
}

void hr_xdp_rx_bulk(struct hr_napi *napi, struct hr_xdp_buff *xdp,
		    unsigned int n)
{
	unsigned int skip = napi->worker->dp->bench_skip;

	if (hr_unlikely(skip))
		rx_bulk(napi, xdp, n, skip, NULL);
	else
		rx_bulk(napi, xdp, n, 0, NULL);
}

void hr_xdp_rx_bulk_recycle(struct hr_napi *napi, struct hr_xdp_buff *xdp,
			    unsigned int n, struct hr_rx_recycle *rc)
{
	unsigned int skip = napi->worker->dp->bench_skip;

	rc->n = 0;
	rc->clean = 0;
	if (hr_unlikely(skip))
		rx_bulk(napi, xdp, n, skip, rc);
	else
		rx_bulk(napi, xdp, n, 0, rc);
}

void hr_xdp_rx(struct hr_napi *napi, struct hr_xdp_buff *xdp)
{
	hr_xdp_rx_bulk(napi, xdp, 1);
}

void hr_xdp_rx_skb(struct hr_napi *napi, struct hr_xdp_buff *xdp,
		   struct hr_skb *skb)
{
	struct hr_worker *w = napi->worker;
	struct hr_dev *dev = napi->dev;
	struct hr_dev_stats *st = &dev->stats[w->id];
	struct hr_xdp_runner r = { .w = w };
	uint32_t act;

	rx_count(napi, st, 1, hr_xdp_buff_len(xdp));
	r.prog = atomic_load(&dev->xdp_prog);
	if (hr_unlikely(hr_trace_on))
		hr_trace_rx(w, dev, napi->queue, xdp);
	if (!r.prog) {
		rx_pass(w, napi, xdp, skb);
		return;
	}
	act = runner_run(&r, xdp);
	if (act > XDP_REDIRECT)
		act = XDP_ABORTED;
	if (hr_unlikely(hr_trace_on))
		hr_trace_xdp(w, dev, r.prog, xdp, act, HR_TRACE_XDP);
	hr_stat_add(&st->xdp[act], 1);
	/* TX and REDIRECT take the buff as a frame, as veth_xdp_rcv_skb
	 * after consume_skb; DROP and ABORTED free the skb's frame. */
	rx_act(w, napi, st, xdp, act, skb);
}
