// SPDX-License-Identifier: MIT
/*
 * The PASS path after XDP: tc ingress (the clsact qdisc with a cls_bpf
 * filter in direct-action mode: net/core/dev.c sch_handle_ingress and
 * tc_run, net/sched/cls_bpf.c, net/sched/cls_api.c __tcf_classify), then
 * the device's stack.
 */
#include <string.h>
#include <linux/bpf.h>
#include <linux/pkt_cls.h>

#include "core/datapath.h"
#include "core/trace.h"
#include "vm/engine.h"
#include "progs/prog.h"

/* __tcf_classify: RECLASSIFY restarts the chain at most this often, then
 * the packet is shot ("reclassify loop"). */
#define HR_TC_MAX_RECLASSIFY 16
#define HR_NO_QUEUE_MAPPING 0xffffu

static void tc_ctx_fill(struct hr_tc_ctx *c, struct hr_skb *skb)
{
	struct __sk_buff *s = &c->skb;

	/* Helpers keep state in the context (header offsets, clones). */
	memset(c, 0, sizeof(*c));
	c->s = skb;
	c->head = skb->head;
	c->data = skb->data;
	c->data_end = skb->data + skb->len;
	c->meta_len = skb->meta_len;
	c->meta_len_run = skb->meta_len;
	c->frame_sz = skb->frame_sz;
	c->redirect_ifindex = 0;
	c->redirect_flags = 0;
	s->len = skb->len;
	s->pkt_type = skb->pkt_type;
	s->mark = skb->mark;
	s->queue_mapping = skb->queue_mapping;
	s->protocol = skb->protocol;
	s->vlan_present = skb->vlan_present;
	s->vlan_tci = skb->vlan_tci;
	s->vlan_proto = skb->vlan_proto;
	s->priority = skb->priority;
	s->ingress_ifindex = skb->skb_iif;
	s->ifindex = skb->ifindex;
	s->tc_index = skb->tc_index;
	/* bpf_prog_run_save_cb: the program sees a zeroed cb and what it
	 * writes there is discarded after the run. */
	s->hash = skb->hash;
	c->l4_hash = skb->l4_hash;
	c->sw_hash = skb->sw_hash;
	/* cls_bpf sets tc_classid to the filter's classid (0) first. */
	s->tc_classid = 0;
	s->napi_id = skb->napi_id;
	s->tstamp = skb->tstamp;
	s->wire_len = skb->len; /* qdisc_skb_cb pkt_len */
}

/* What the program may have changed (tc_cls_act_is_valid_access). */
static void tc_ctx_writeback(const struct hr_tc_ctx *c, struct hr_skb *skb)
{
	const struct __sk_buff *s = &c->skb;

	skb->data = c->data;
	skb->len = (uint32_t)(c->data_end - c->data);
	/* What of the metadata is inside the buffer (ctx.h). */
	skb->meta_len = (uint8_t)(c->data - c->head < c->meta_len ?
					  c->data - c->head :
					  c->meta_len);
	/* What skb helpers may have changed (change_proto, vlan_push/pop,
	 * set_hash). */
	skb->protocol = (uint16_t)s->protocol;
	skb->vlan_present = s->vlan_present;
	skb->vlan_tci = (uint16_t)s->vlan_tci;
	skb->vlan_proto = (uint16_t)s->vlan_proto;
	skb->hash = s->hash;
	skb->l4_hash = c->l4_hash;
	skb->sw_hash = c->sw_hash;
	skb->mark = s->mark;
	skb->priority = s->priority;
	skb->tc_index = (uint16_t)s->tc_index;
	skb->tc_classid = s->tc_classid;
	skb->tstamp = s->tstamp;
	/* A store of NO_QUEUE_MAPPING or more is dropped by the rewrite. */
	if (s->queue_mapping < HR_NO_QUEUE_MAPPING)
		skb->queue_mapping = (uint16_t)s->queue_mapping;
}

/* cls_bpf_exec_opcode: anything unknown continues (TC_ACT_UNSPEC). */
static int tc_opcode(int32_t ret)
{
	switch (ret) {
	case TC_ACT_OK:
	case TC_ACT_RECLASSIFY:
	case TC_ACT_SHOT:
	case TC_ACT_PIPE:
	case TC_ACT_STOLEN:
	case TC_ACT_QUEUED:
	case TC_ACT_TRAP:
	case TC_ACT_REDIRECT:
		return ret;
	default:
		return TC_ACT_UNSPEC;
	}
}

static int tc_run(struct hr_worker *w, struct hr_prog *prog, struct hr_skb *skb,
		  uint32_t *rd_ifindex, uint64_t *rd_flags)
{
	struct hr_run *run = w->run;
	struct hr_tc_ctx c;
	int limit = 0, ret;

	for (;;) {
		tc_ctx_fill(&c, skb);
		hr_prog_run_init(prog, run, &c.skb);
		run->priv = &c;
		run->cpu = w->id;
		hr_tc_ctx_sync(&c, run);
		ret = tc_opcode((int32_t)hr_engine_run_ctx(
			(enum hr_engine)w->dp->engine, run));
		tc_ctx_writeback(&c, skb);
		*rd_ifindex = c.redirect_ifindex;
		*rd_flags = c.redirect_flags;
		if (ret != TC_ACT_RECLASSIFY)
			break;
		if (limit++ >= HR_TC_MAX_RECLASSIFY)
			return TC_ACT_SHOT;
	}
	/* tc_run: OK and RECLASSIFY set tc_index from the result's classid
	 * (TC_H_MAJ of the filter's, 0, or'ed with tc_classid). */
	if (ret == TC_ACT_OK)
		skb->tc_index = (uint16_t)TC_H_MIN(skb->tc_classid);
	return ret;
}

/* XMIT_RECURSION_LIMIT: redirects into another device's ingress nest. */
#define HR_TC_MAX_NEST 8
static __thread unsigned int tc_nest;

/*
 * skb_do_redirect: to the target's ingress (BPF_F_INGRESS), which runs
 * its tc ingress and stack as a new reception, or out of the target:
 * its start_xmit when it has one (veth, which counts its own drops),
 * else the skb becomes a frame on the target's transmit bulk. Returns
 * false when the skb was dropped (counted by the caller).
 */
static bool tc_redirect(struct hr_worker *w, struct hr_skb *skb,
			uint32_t ifindex, uint64_t flags)
{
	struct hr_dev *to = hr_dev_get_by_index(w->dp, ifindex);
	struct hr_xdp_frame *f;
	uint32_t headroom;

	if (!to || !atomic_load_explicit(&to->up, memory_order_acquire))
		return false;
	/* 6.18's BPF_F_PEER path drops the skb unless the target's peer is
	 * up in another network namespace (net_eq): a datapath is a single
	 * namespace, so every peer redirect is dropped there. */
	if (flags & HR_REDIRECT_F_PEER)
		return false;
	if (flags & BPF_F_INGRESS) {
		if (tc_nest >= HR_TC_MAX_NEST)
			return false;
		skb->dev = to;
		skb->ifindex = to->ifindex;
		tc_nest++;
		hr_skb_receive(w, skb);
		tc_nest--;
		return true;
	}
	/* Out of the device: no metadata travels with a transmitted skb,
	 * and __bpf_tx_skb clears its timestamp (skb_clear_tstamp). */
	if (to->ops->start_xmit) {
		skb->meta_len = 0;
		skb->tstamp = 0;
		to->ops->start_xmit(to, w, skb);
		return true;
	}
	headroom = (uint32_t)(skb->data - skb->head);
	if (headroom < sizeof(*f))
		return false;
	f = (struct hr_xdp_frame *)skb->head;
	memset(f, 0, sizeof(*f));
	f->data = skb->data;
	f->len = skb->len;
	f->headroom = headroom - (uint32_t)sizeof(*f);
	f->frame_sz = skb->frame_sz;
	f->flags = skb->xdp_flags;
	f->dev_rx = skb->dev;
	/* Refused (down, too big for the MTU): the caller frees the skb,
	 * the same frame, and counts it. */
	return hr_dev_enqueue(w, to, skb->dev, f, NULL) == 0;
}

void hr_skb_receive(struct hr_worker *w, struct hr_skb *skb)
{
	struct hr_dev *dev = skb->dev;
	struct hr_dev_stats *st = &dev->stats[w->id];
	struct hr_prog *prog = atomic_load(&dev->tc_ingress);
	uint32_t rd_ifindex = 0;
	uint64_t rd_flags = 0;
	int act;

	if (hr_unlikely(hr_trace_on))
		hr_trace_skb(w, skb, HR_TRACE_SKB, 0, NULL);
	if (prog) {
		act = tc_run(w, prog, skb, &rd_ifindex, &rd_flags);
		if (hr_unlikely(hr_trace_on))
			hr_trace_skb(w, skb, HR_TRACE_TC, act, prog);
		switch (act) {
		case TC_ACT_SHOT:
			hr_stat_add(&st->drops[HR_DROP_TC_SHOT], 1);
			hr_skb_free(skb);
			return;
		case TC_ACT_STOLEN:
		case TC_ACT_QUEUED:
		case TC_ACT_TRAP:
			/* consume_skb: gone, not a drop. */
			hr_stat_add(&st->tc_stolen, 1);
			hr_skb_free(skb);
			return;
		case TC_ACT_REDIRECT:
			hr_stat_add(&st->tc_redirect, 1);
			if (!tc_redirect(w, skb, rd_ifindex, rd_flags)) {
				hr_stat_add(&st->drops[HR_DROP_REDIRECT_ERROR],
					    1);
				hr_skb_free(skb);
			}
			return;
		default: /* OK, PIPE, UNSPEC: on to the stack */
			break;
		}
	}
	/* Counted here, on the receiving device; the stack's deliver owns
	 * the skb and frees it with hr_skb_free(). */
	hr_stat_add(&st->delivered, 1);
	if (hr_unlikely(hr_trace_on))
		hr_trace_skb(w, skb, HR_TRACE_DELIVER, 0, NULL);
	if (dev->stack && dev->stack->deliver)
		dev->stack->deliver(dev->stack, w, skb);
	else
		hr_skb_free(skb);
}
