// SPDX-License-Identifier: MIT
/*
 * The receive path: the device's XDP program on each buff and the action
 * its verdict asks for (a driver's NAPI receive with bpf_prog_run_xdp and
 * the switch after it, as in drivers/net/veth.c veth_xdp_rcv_one).
 */
#include <errno.h>
#include <linux/bpf.h>

#include "core/datapath.h"
#include "core/trace.h"
#include "vm/engine.h"
#include "progs/prog.h"

uint32_t hr_xdp_run_prog(struct hr_worker *w, struct hr_prog *prog,
			 struct hr_xdp_buff *xdp)
{
	struct hr_run *run = w->run;
	struct hr_xdp_ctx c;

	c.xdp = xdp;
	c.md.ingress_ifindex = xdp->rxq ? xdp->rxq->ifindex : 0;
	c.md.rx_queue_index = xdp->rxq ? xdp->rxq->queue_index : 0;
	c.md.egress_ifindex = xdp->egress_ifindex;
	c.redirect_ifindex = 0;
	c.redirect_flags = 0;
	c.redirect_map = NULL;
	c.redirect_key = 0;
	c.ri = &w->ri;
	hr_prog_run_init(prog, run, &c.md);
	run->priv = &c;
	run->cpu = w->id;
	hr_xdp_ctx_sync(&c, run);
	hr_xdp_ctx_hints(&c, run);
	return (uint32_t)hr_engine_run_ctx((enum hr_engine)w->dp->engine, run);
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

static void rx_pass(struct hr_worker *w, struct hr_napi *napi,
		    struct hr_xdp_buff *xdp)
{
	struct hr_skb skb;

	hr_skb_from_buff(&skb, xdp, napi->dev, napi->queue);
	hr_skb_receive(w, &skb);
}

void hr_xdp_rx(struct hr_napi *napi, struct hr_xdp_buff *xdp)
{
	struct hr_worker *w = napi->worker;
	struct hr_dev *dev = napi->dev;
	struct hr_dev_stats *st = &dev->stats[w->id];
	struct hr_queue_stats *qs =
		&dev->qstats[napi->queue % HR_DEV_MAX_QUEUES][w->id];
	uint32_t len = hr_xdp_buff_len(xdp);
	struct hr_prog *prog;
	uint32_t act;

	hr_stat_add(&st->rx_packets, 1);
	hr_stat_add(&st->rx_bytes, len);
	hr_stat_add(&qs->rx_packets, 1);
	hr_stat_add(&qs->rx_bytes, len);
	if (hr_unlikely(hr_trace_on))
		hr_trace_rx(w, dev, napi->queue, xdp);
	/*
	 * Inside the worker's epoch (odd while polling): the program read
	 * here stays alive until this poll ends, as under rcu_read_lock.
	 * Sequentially consistent, to pair with the exchange and the epoch
	 * reads of hr_dp_synchronize (cheap: a plain load on x86).
	 */
	prog = atomic_load(&dev->xdp_prog);
	if (!prog) {
		rx_pass(w, napi, xdp);
		return;
	}
	act = hr_xdp_run_prog(w, prog, xdp);
	if (act > XDP_REDIRECT) {
		/* bpf_warn_invalid_xdp_action, then as XDP_ABORTED. */
		act = XDP_ABORTED;
	}
	if (hr_unlikely(hr_trace_on))
		hr_trace_xdp(w, dev, prog, xdp, act, HR_TRACE_XDP);
	hr_stat_add(&st->xdp[act], 1);
	switch (act) {
	case XDP_PASS:
		rx_pass(w, napi, xdp);
		break;
	case XDP_TX:
		rx_tx(w, dev, st, xdp);
		break;
	case XDP_REDIRECT:
		rx_redirect(w, dev, st, xdp);
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
