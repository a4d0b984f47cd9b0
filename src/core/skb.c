// SPDX-License-Identifier: MIT
/*
 * skbs on the frame they arrived in: build_skb plus eth_type_trans for a
 * PASSed buff (with the RX hash and VLAN the driver reports), and
 * __xdp_build_skb_from_frame for frames that crossed a cpumap or veth.
 */
#include <string.h>
#include <arpa/inet.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>

#include "core/datapath.h"

#define HR_XDP_RSS_L4 (1u << 3) /* XDP_RSS_L4 */

/* eth_type_trans: pkt_type against the device address, protocol from
 * the EtherType (802.3 / 802.2 below 1536). The skb keeps data at the MAC
 * header; tc programs see it there (the MAC header is pushed back for
 * them). */
static void eth_type_trans(struct hr_skb *skb, const struct hr_dev *dev)
{
	const uint8_t *eth = skb->data;
	uint16_t proto;

	if (skb->len < HR_ETH_HLEN) {
		skb->pkt_type = PACKET_HOST;
		skb->protocol = 0;
		return;
	}
	if (eth[0] & 1) {
		static const uint8_t bcast[ETH_ALEN] = { 0xff, 0xff, 0xff,
							 0xff, 0xff, 0xff };

		skb->pkt_type = memcmp(eth, bcast, ETH_ALEN) ?
					PACKET_MULTICAST :
					PACKET_BROADCAST;
	} else if (dev && memcmp(eth, dev->dev_addr, ETH_ALEN)) {
		skb->pkt_type = PACKET_OTHERHOST;
	} else {
		skb->pkt_type = PACKET_HOST;
	}
	memcpy(&proto, eth + 12, 2);
	if (ntohs(proto) >= ETH_P_802_3_MIN)
		skb->protocol = proto;
	else if (skb->len >= HR_ETH_HLEN + 2 && eth[14] == 0xff &&
		 eth[15] == 0xff)
		skb->protocol = htons(ETH_P_802_3);
	else
		skb->protocol = htons(ETH_P_802_2);
}

static void skb_init(struct hr_skb *skb, uint8_t *head, uint8_t *data,
		     uint32_t len, uint32_t frame_sz, uint32_t meta_len,
		     struct hr_dev *dev)
{
	memset(skb, 0, sizeof(*skb));
	skb->head = head;
	skb->data = data;
	skb->len = len;
	skb->frame_sz = frame_sz;
	skb->meta_len = (uint8_t)meta_len;
	skb->dev = dev;
	skb->ifindex = dev ? dev->ifindex : 0;
	skb->skb_iif = skb->ifindex;
	eth_type_trans(skb, dev);
}

void hr_skb_from_buff(struct hr_skb *skb, const struct hr_xdp_buff *xdp,
		      struct hr_dev *dev, uint32_t queue)
{
	const struct hr_xdp_metadata_ops *ops = xdp->rxq ? xdp->rxq->meta_ops :
							   NULL;
	uint32_t hash, type;
	uint16_t proto, tci;

	skb_init(skb, xdp->data_hard_start, xdp->data,
		 (uint32_t)((uint8_t *)xdp->data_end - (uint8_t *)xdp->data),
		 xdp->frame_sz, hr_xdp_metalen(xdp), dev);
	skb->xdp_flags = xdp->flags;
	/* skb_record_rx_queue stores the queue plus one; __sk_buff reads
	 * skb->queue_mapping as it is. */
	skb->queue_mapping =
		dev && dev->no_rx_queue_record ? 0 : (uint16_t)(queue + 1);
	if (ops && ops->rx_hash && !ops->rx_hash(xdp, &hash, &type)) {
		/* skb_set_hash with PKT_HASH_TYPE_L4 when the type says L4. */
		skb->hash = hash;
		skb->l4_hash = !!(type & HR_XDP_RSS_L4);
		skb->sw_hash = false;
	}
	if (ops && ops->rx_vlan_tag && !ops->rx_vlan_tag(xdp, &proto, &tci)) {
		skb->vlan_present = true;
		skb->vlan_proto = proto;
		skb->vlan_tci = tci;
	}
}

void hr_skb_from_frame(struct hr_skb *skb, const struct hr_xdp_frame *frame,
		       struct hr_dev *dev)
{
	/* The frame header is scrubbed in the kernel (xdp_scrub_frame);
	 * the skb owns the whole frame from here on. */
	skb_init(skb, (uint8_t *)frame, frame->data, frame->len,
		 frame->frame_sz, frame->metasize, dev);
	skb->xdp_flags = frame->flags;
}

void hr_skb_free(struct hr_skb *skb)
{
	struct hr_xdp_buff xdp;

	/* Only what hr_xdp_return_buff reads. */
	xdp.data_hard_start = skb->head;
	xdp.frame_sz = skb->frame_sz;
	xdp.flags = skb->xdp_flags;
	hr_xdp_return_buff(&xdp);
}
