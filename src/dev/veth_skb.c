// SPDX-License-Identifier: MIT
/*
 * veth's skb path (drivers/net/veth.c): an skb sent on one end (a tc
 * redirect out of it: veth_xmit, veth_forward_skb) goes to the peer as
 * it is, onto the peer's ring when the peer's NAPI runs (it has an XDP
 * program), else straight to the peer's stack (__netif_rx). The peer's
 * NAPI runs its XDP program on an xdp_buff built around the skb
 * (veth_xdp_rcv_skb, veth_convert_skb_to_xdp_buff), and the hint
 * kfuncs answer from that skb (veth_xdp_rx_timestamp, _rx_hash,
 * _rx_vlan_tag): its hardware timestamp, its flow hash, its VLAN tag.
 *
 * The skb struct travels in the frame's headroom, in front of the
 * XDP_PACKET_HEADROOM every skb gets here before it goes on the ring
 * (the kernel makes that room on the peer's side, copying the skb into a
 * page_pool page; making it here has the same outcome, since nothing
 * else sees the skb in between). The copy starts a new shared info, so
 * the skb loses its hardware timestamp, as the kernel's copy does.
 */
#include <errno.h>
#include <string.h>

#include "core/datapath.h"
#include "dev/veth.h"

#define VETH_RSS_TYPE_L4_ANY (1u << 3) /* XDP_RSS_TYPE_L4_ANY */
/* __netif_rx defers to the backlog; delivering here instead nests, so
 * bound it as the kernel bounds redirects (XMIT_RECURSION_LIMIT). */
#define VETH_MAX_NEST 8

_Static_assert(sizeof(struct hr_skb) <= HR_XDP_PACKET_HEADROOM,
	       "the skb fits in front of the packet");

static __thread unsigned int veth_nest;

static void count_drop(struct hr_dev *dev, struct hr_worker *w,
		       enum hr_drop_reason why)
{
	hr_stat_add(&dev->stats[w->id].drops[why], 1);
}

/* skb->len: the linear part and the fragments. */
static uint32_t skb_len(const struct hr_skb *skb)
{
	const struct hr_xdp_shinfo *sh;

	if (!(skb->xdp_flags & HR_XDP_FLAGS_HAS_FRAGS))
		return skb->len;
	sh = (const struct hr_xdp_shinfo *)(skb->head + skb->frame_sz -
					    HR_SKB_SHINFO_SIZE);
	return skb->len + sh->frags_size;
}

/*
 * netdev_core_pick_tx for a device without XPS or a socket: queue 0 of
 * one, else skb_tx_hash: the recorded RX queue, or the flow hash scaled
 * to the queues (reciprocal_scale).
 */
static unsigned int pick_tx(const struct hr_dev *dev, struct hr_skb *skb)
{
	unsigned int n = dev->nrxq ? dev->nrxq : 1;

	if (n == 1)
		return 0;
	if (skb->queue_mapping)
		return (skb->queue_mapping - 1u) % n;
	return (unsigned int)(((uint64_t)hr_skb_get_hash(skb) * n) >> 32);
}

/* veth_convert_skb_to_xdp_buff's copy: XDP_PACKET_HEADROOM in front of
 * the data; -ENOMEM when the frame cannot hold it. */
static int make_headroom(struct hr_skb *skb)
{
	uint32_t room = (uint32_t)(skb->data - skb->head);

	if (room >= HR_XDP_PACKET_HEADROOM &&
	    !(skb->xdp_flags & HR_XDP_FLAGS_HAS_FRAGS))
		return 0;
	if (room < HR_XDP_PACKET_HEADROOM &&
	    HR_XDP_PACKET_HEADROOM + skb->len >
		    skb->frame_sz - HR_SKB_SHINFO_SIZE)
		return -ENOMEM;
	if (room < HR_XDP_PACKET_HEADROOM) {
		memmove(skb->head + HR_XDP_PACKET_HEADROOM, skb->data,
			skb->len);
		skb->data = skb->head + HR_XDP_PACKET_HEADROOM;
	}
	skb->hwtstamp = 0;
	return 0;
}

/* __netif_rx: the peer's stack, with no NAPI (no XDP program) to run. */
static int to_stack(struct hr_worker *w, struct hr_skb *skb)
{
	if (veth_nest >= VETH_MAX_NEST) {
		count_drop(skb->dev, w, HR_DROP_BACKLOG);
		hr_skb_free(skb);
		return -ELOOP;
	}
	veth_nest++;
	hr_netif_receive_skb(w, skb);
	veth_nest--;
	return 0;
}

int veth_start_xmit(struct hr_dev *dev, struct hr_worker *w, struct hr_skb *skb)
{
	struct veth_priv *p = dev->priv;
	struct hr_dev *rcv = p->peer;
	struct hr_dev_stats *st = &dev->stats[w->id];
	uint32_t len = skb_len(skb);
	unsigned int q;
	int err;

	if (!rcv || skb->len < HR_ETH_HLEN) {
		count_drop(dev, w, HR_DROP_TX_ERROR);
		hr_skb_free(skb);
		return -ENXIO;
	}
	/* __is_skb_forwardable: the peer up, the frame within its MTU;
	 * a failure counts on the peer (rx_dropped). */
	if (!atomic_load_explicit(&rcv->up, memory_order_acquire)) {
		count_drop(rcv, w, HR_DROP_DEV_DOWN);
		hr_skb_free(skb);
		return -ENETDOWN;
	}
	if (len > rcv->mtu + HR_ETH_HLEN + VETH_VLAN_HLEN) {
		count_drop(rcv, w, HR_DROP_MTU);
		hr_skb_free(skb);
		return -EMSGSIZE;
	}
	q = pick_tx(dev, skb);
	skb->queue_mapping = (uint16_t)q;
	/* skb_scrub_packet within one namespace, then priority 0 and
	 * eth_type_trans on the peer. */
	skb->priority = 0;
	hr_skb_eth_type_trans(skb, rcv);
	if (q >= rcv->nrxq || !veth_napi_enabled(rcv)) {
		hr_stat_add(&st->tx_packets, 1);
		hr_stat_add(&st->tx_bytes, len);
		return to_stack(w, skb);
	}
	err = make_headroom(skb);
	if (err) {
		count_drop(rcv, w, HR_DROP_NO_FRAME);
		hr_skb_free(skb);
		return err;
	}
	memcpy(skb->head, skb, sizeof(*skb));
	err = hr_ring_produce(((struct veth_priv *)rcv->priv)->ring[q],
			      (void *)((uintptr_t)skb->head | VETH_SKB_FLAG));
	if (err) {
		/* veth_xmit with noqueue: NETDEV_TX_BUSY becomes a drop. */
		count_drop(dev, w, HR_DROP_RING_FULL);
		hr_skb_free(skb);
		return err;
	}
	hr_stat_add(&st->tx_packets, 1);
	hr_stat_add(&st->tx_bytes, len);
	return 0;
}

static struct hr_skb *entry_skb(void *ptr)
{
	return (struct hr_skb *)((uintptr_t)ptr & ~VETH_SKB_FLAG);
}

void veth_rcv_skb(struct hr_napi *napi, void *ptr)
{
	struct hr_dev *dev = napi->dev;
	struct hr_xdp_buff xdp;
	struct hr_skb skb;

	/* Out of the headroom first: the program may move data_meta and
	 * data down over it. */
	memcpy(&skb, entry_skb(ptr), sizeof(skb));
	hr_xdp_init_buff(&xdp, skb.frame_sz, &dev->rxq[napi->queue]);
	hr_xdp_prepare_buff(&xdp, skb.head, (uint32_t)(skb.data - skb.head),
			    skb.len, true);
	xdp.flags = skb.xdp_flags;
	xdp.hints = &skb;
	hr_xdp_rx_skb(napi, &xdp, &skb);
}

void veth_skb_entry_free(void *ptr)
{
	struct hr_skb skb;

	memcpy(&skb, entry_skb(ptr), sizeof(skb));
	hr_skb_free(&skb);
}

/* ---- the hint kfuncs (veth_xdp_metadata_ops) ------------------------ */

static int rx_timestamp(const struct hr_xdp_buff *xdp, uint64_t *ts)
{
	const struct hr_skb *skb = xdp->hints;

	if (!skb)
		return -ENODATA;
	*ts = skb->hwtstamp;
	return 0;
}

static int rx_hash(const struct hr_xdp_buff *xdp, uint32_t *hash,
		   uint32_t *rss_type)
{
	/* skb_get_hash dissects and keeps the hash on the skb, as the
	 * kernel's does on the skb behind the buff. */
	struct hr_skb *skb = (struct hr_skb *)xdp->hints;

	if (!skb)
		return -ENODATA;
	*hash = hr_skb_get_hash(skb);
	*rss_type = skb->l4_hash ? VETH_RSS_TYPE_L4_ANY : 0;
	return 0;
}

static int rx_vlan_tag(const struct hr_xdp_buff *xdp, uint16_t *proto,
		       uint16_t *tci)
{
	const struct hr_skb *skb = xdp->hints;

	if (!skb)
		return -ENODATA;
	/* __vlan_hwaccel_get_tag: only a tag the skb carries aside; without
	 * one it zeroes *vlan_tci and leaves *vlan_proto alone. */
	if (!skb->vlan_present) {
		*tci = 0;
		return -ENODATA;
	}
	*proto = skb->vlan_proto;
	*tci = skb->vlan_tci;
	return 0;
}

const struct hr_xdp_metadata_ops veth_meta_ops = {
	.rx_timestamp = rx_timestamp,
	.rx_hash = rx_hash,
	.rx_vlan_tag = rx_vlan_tag,
};
