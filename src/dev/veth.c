// SPDX-License-Identifier: MIT
/*
 * veth pairs with the kernel veth's XDP behaviour (drivers/net/veth.c):
 * transmitting on one end (ndo_xdp_xmit for redirects, the XDP_TX bulk
 * for XDP_TX) puts frames on the peer's per-queue ring of 256, the peer's
 * NAPI takes them in batches of 16 and runs the peer's XDP program.
 * skbs sent on an end (veth_skb.c) share the ring, in order.
 *
 * The peer's NAPI only runs while it has an XDP program and is up; until
 * then xdp_xmit fails with -ENXIO. Frames longer than the peer's MTU +
 * Ethernet header + VLAN tag, or meeting a full ring, stop the transmit
 * there, as in veth_xdp_xmit: the caller frees and counts the rest.
 *
 * A veth produces nothing of its own (no rx_done): frames on its rings
 * make its NAPI busy, which is what the datapath's idle check sees.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "headroom/devices.h"
#include "core/datapath.h"
#include "core/pool.h"
#include "dev/dev.h"
#include "dev/dev_common.h"
#include "dev/veth.h"

#define VETH_POOL_DEFAULT 4096

/* xdp_get_frame_len: the linear part and the fragments. */
static uint32_t frame_len(const struct hr_xdp_frame *frame)
{
	const struct hr_xdp_shinfo *sh;

	if (!(frame->flags & HR_XDP_FLAGS_HAS_FRAGS))
		return frame->len;
	sh = (const struct hr_xdp_shinfo *)((const uint8_t *)frame +
					    frame->frame_sz -
					    HR_SKB_SHINFO_SIZE);
	return frame->len + sh->frags_size;
}

static void veth_stat(uint64_t *c, uint64_t v)
{
	if (v)
		hr_stat_add(c, v);
}

static int veth_xdp_xmit(struct hr_dev *dev, struct hr_worker *w,
			 struct hr_xdp_frame **frames, int n, uint32_t flags)
{
	struct veth_priv *p = dev->priv;
	struct hr_veth_stats *st = &p->stats[w->id];
	struct hr_dev *rcv = p->peer;
	struct veth_priv *rp;
	uint32_t max_len;
	unsigned int fit, nxmit;

	if (flags & ~HR_XDP_XMIT_FLUSH)
		return -EINVAL;
	if (!rcv || !veth_napi_enabled(rcv)) {
		veth_stat(&st->xmit_err_enxio, (uint64_t)n);
		return -ENXIO;
	}
	rp = rcv->priv;
	/* veth_select_rxq: the sending CPU picks the peer's queue. */
	max_len = rcv->mtu + HR_ETH_HLEN + VETH_VLAN_HLEN;
	for (fit = 0; fit < (unsigned int)n; fit++)
		if (frame_len(frames[fit]) > max_len)
			break;
	nxmit = hr_ring_produce_bulk(rp->ring[w->id % rcv->nrxq],
				     (void *const *)frames, fit);
	veth_stat(&st->xmit, nxmit);
	if (nxmit < fit)
		veth_stat(&st->xmit_err_ring_full, (uint64_t)n - nxmit);
	else
		veth_stat(&st->xmit_err_mtu, (uint64_t)n - nxmit);
	return (int)nxmit;
}

/*
 * veth_xdp_rcv: up to @budget frames, taken off the ring VETH_XDP_BATCH
 * at a time, and run through XDP as one batch of up to the whole budget
 * (the receive path's set-up, counters and program read once for it,
 * where they were once a ring batch): the same runs in the same order,
 * the ring's slots freed no later than before, and an skb still lets
 * the frames before it go first.
 */
static int veth_poll(struct hr_dev *dev, struct hr_napi *napi, int budget)
{
	struct veth_priv *p = dev->priv;
	struct hr_ring *ring = p->ring[napi->queue];
	struct hr_xdp_buff xdp[HR_NAPI_BUDGET];
	void *frames[VETH_XDP_BATCH];
	unsigned int k, i, nf = 0;
	int done = 0;

	if (budget > HR_NAPI_BUDGET)
		budget = HR_NAPI_BUDGET;
	while (done < budget) {
		k = budget - done < VETH_XDP_BATCH ?
			    (unsigned int)(budget - done) :
			    VETH_XDP_BATCH;
		k = hr_ring_consume_bulk(ring, frames, k);
		if (!k)
			break;
		/*
		 * The frames were written on the peer's worker: ask for
		 * every header line of the batch at once, so their misses
		 * overlap instead of coming one per frame, and for the
		 * packet's first line, where a frame's data usually starts
		 * (a hint only: an address off the mark costs nothing).
		 */
		for (i = 0; i < k; i++) {
			__builtin_prefetch(frames[i], 0);
			__builtin_prefetch((uint8_t *)frames[i] +
						   HR_XDP_PACKET_HEADROOM,
					   1);
		}
		/* Frames go as a batch; an skb first lets the frames before
		 * it go, so that the ring's order holds. */
		for (i = 0; i < k; i++) {
			if (veth_is_skb(frames[i])) {
				if (nf)
					hr_xdp_rx_bulk(napi, xdp, nf);
				nf = 0;
				veth_rcv_skb(napi, frames[i]);
				continue;
			}
			hr_xdp_frame_to_buff(frames[i], &xdp[nf]);
			xdp[nf].rxq = &dev->rxq[napi->queue];
			xdp[nf].egress_ifindex = 0;
			/* No skb: every hint kfunc says -ENODATA. */
			xdp[nf].hints = NULL;
			nf++;
		}
		done += (int)k;
	}
	if (nf)
		hr_xdp_rx_bulk(napi, xdp, nf);
	return done;
}

/* Frames still on the rings go back to their pools (veth_ptr_free): at
 * stop, when no poll or transmit can still see the device up, and at
 * destroy. */
static void veth_drain(struct hr_dev *dev)
{
	struct veth_priv *p = dev->priv;
	void *f;
	uint64_t n = 0;
	unsigned int q;

	for (q = 0; q < HR_DEV_MAX_QUEUES; q++) {
		if (!p->ring[q])
			continue;
		while ((f = hr_ring_consume(p->ring[q]))) {
			if (veth_is_skb(f))
				veth_skb_entry_free(f);
			else
				hr_xdp_return_frame(f);
			n++;
		}
	}
	/* The peer counted them sent: count them here, as dropped because
	 * the device went down. Only this control path writes the counter,
	 * so an atomic add on worker 0's slot cannot race a worker's. */
	if (n)
		__atomic_fetch_add(&dev->stats[0].drops[HR_DROP_DEV_DOWN], n,
				   __ATOMIC_RELAXED);
}

static void veth_destroy(struct hr_dev *dev)
{
	struct veth_priv *p = dev->priv;
	unsigned int q;

	if (p) {
		veth_drain(dev);
		if (p->peer)
			((struct veth_priv *)p->peer->priv)->peer = NULL;
		for (q = 0; q < HR_DEV_MAX_QUEUES; q++)
			if (p->ring[q])
				hr_ring_destroy(p->ring[q]);
		free(p);
	}
	hr_dev_common_free(dev);
}

static const struct hr_dev_ops veth_ops = {
	.kind = "veth",
	.poll = veth_poll,
	.xdp_xmit = veth_xdp_xmit,
	.start_xmit = veth_start_xmit,
	.stop = veth_drain,
	.destroy = veth_destroy,
};

struct hr_dev *hr_dev_veth_peer(struct hr_dev *dev)
{
	if (!dev || dev->ops != &veth_ops)
		return NULL;
	return ((struct veth_priv *)dev->priv)->peer;
}

void hr_dev_veth_stats(struct hr_dev *dev, struct hr_veth_stats *out)
{
	struct veth_priv *p;
	unsigned int w;

	memset(out, 0, sizeof(*out));
	if (!dev || dev->ops != &veth_ops)
		return;
	p = dev->priv;
	for (w = 0; w < HR_MAX_WORKERS; w++) {
		const struct hr_veth_stats *s = &p->stats[w];

		out->xmit += __atomic_load_n(&s->xmit, __ATOMIC_RELAXED);
		out->xmit_err_mtu +=
			__atomic_load_n(&s->xmit_err_mtu, __ATOMIC_RELAXED);
		out->xmit_err_ring_full += __atomic_load_n(
			&s->xmit_err_ring_full, __ATOMIC_RELAXED);
		out->xmit_err_enxio +=
			__atomic_load_n(&s->xmit_err_enxio, __ATOMIC_RELAXED);
	}
}

static int veth_new(const char *name, unsigned int nrxq, uint32_t mtu,
		    struct hr_dev **out)
{
	struct hr_dev *dev = calloc(1, sizeof(*dev));
	struct veth_priv *p = aligned_alloc(64, (sizeof(*p) + 63) & ~63ul);
	unsigned int q;
	int err;

	if (!dev || !p) {
		free(dev);
		free(p);
		return -ENOMEM;
	}
	memset(p, 0, sizeof(*p));
	dev->priv = p;
	hr_dev_init(dev, name, &veth_ops, nrxq);
	dev->no_rx_queue_record = true;
	if (mtu)
		dev->mtu = mtu;
	hr_dev_common_setup(dev, true, &veth_meta_ops);
	for (q = 0; q < dev->nrxq; q++) {
		err = hr_ring_create(VETH_RING_SIZE, &p->ring[q]);
		if (err) {
			veth_destroy(dev);
			return err;
		}
	}
	*out = dev;
	return 0;
}

int hr_dev_veth_create_pair(struct hr_datapath *dp, const char *name_a,
			    const char *name_b, const struct hr_veth_opts *opts,
			    struct hr_dev **a, struct hr_dev **b)
{
	unsigned int nrxq = HR_OPTS_GET(opts, nrxq, 0);
	uint32_t mtu = HR_OPTS_GET(opts, mtu, 0);
	uint32_t frames = HR_OPTS_GET(opts, pool_frames, 0);
	struct hr_dev *da = NULL, *db = NULL;
	int err;

	if (!name_a || !name_b || !a || !b || nrxq > HR_DEV_MAX_QUEUES)
		return -EINVAL;
	if (!frames)
		frames = VETH_POOL_DEFAULT;
	err = veth_new(name_a, nrxq, mtu, &da);
	if (err)
		return err;
	err = veth_new(name_b, nrxq, mtu, &db);
	if (err) {
		veth_destroy(da);
		return err;
	}
	((struct veth_priv *)da->priv)->peer = db;
	((struct veth_priv *)db->priv)->peer = da;
	err = hr_dev_common_register(dp, da, frames);
	if (err)
		goto fail;
	err = hr_dev_common_register(dp, db, frames);
	if (err)
		goto fail;
	*a = da;
	*b = db;
	return 0;
fail:
	/* TODO: unregister @da when registering @db failed. */
	veth_destroy(da);
	veth_destroy(db);
	return err;
}
