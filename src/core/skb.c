// SPDX-License-Identifier: MIT
/*
 * skbs on the frame they arrived in: build_skb plus eth_type_trans for a
 * PASSed buff (with the RX hash and VLAN the driver reports), and
 * __xdp_build_skb_from_frame for frames that crossed a cpumap or veth,
 * and the flow hash of an skb the device gave none (skb_get_hash).
 *
 * The kernel's flow hash (__skb_get_hash) is keyed with a random secret
 * drawn at boot, so no value of it can be reproduced: headroom hashes the
 * same dissected fields (addresses, ports, protocol) with a fixed key, so
 * that a flow keeps one non-zero hash and l4_hash is set exactly when the
 * kernel sets it; tests compare everything but the value.
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
	uint64_t ts;

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
	/* A driver with RX timestamping puts the descriptor's stamp in
	 * skb_hwtstamps. */
	if (ops && ops->rx_timestamp && !ops->rx_timestamp(xdp, &ts))
		skb->hwtstamp = ts;
}

void hr_skb_eth_type_trans(struct hr_skb *skb, struct hr_dev *dev)
{
	skb->dev = dev;
	skb->ifindex = dev ? dev->ifindex : 0;
	skb->skb_iif = skb->ifindex;
	eth_type_trans(skb, dev);
}

void hr_skb_after_xdp(struct hr_skb *skb, const struct hr_xdp_buff *xdp,
		      struct hr_dev *dev)
{
	uint32_t metalen = hr_xdp_metalen(xdp);

	skb->data = xdp->data;
	skb->len = (uint32_t)((uint8_t *)xdp->data_end - (uint8_t *)xdp->data);
	skb->xdp_flags = xdp->flags;
	hr_skb_eth_type_trans(skb, dev);
	if (metalen)
		skb->meta_len = (uint8_t)metalen;
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

static uint32_t rd32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | p[1] << 16 | p[2] << 8 | p[3];
}

static uint32_t mix(uint32_t h, uint32_t v)
{
	h ^= v;
	h *= 0x9e3779b1u;
	return h ^ h >> 15;
}

uint32_t hr_skb_flow_hash(const uint8_t *p, const uint8_t *end, bool *l4)
{
	const uint8_t *l3;
	uint32_t h = 0x6b43a9b5u, ihl, i;
	uint16_t proto;
	uint8_t ipproto = 0;

	*l4 = false;
	if (end - p < ETH_HLEN)
		return 1;
	proto = (uint16_t)(p[12] << 8 | p[13]);
	l3 = p + ETH_HLEN;
	while ((proto == ETH_P_8021Q || proto == ETH_P_8021AD) &&
	       end - l3 >= 4) {
		proto = (uint16_t)(l3[2] << 8 | l3[3]);
		l3 += 4;
	}
	h = mix(h, proto);
	if (proto == ETH_P_IP && end - l3 >= 20) {
		ihl = (l3[0] & 0xfu) * 4u;
		ipproto = l3[9];
		h = mix(mix(h, rd32(l3 + 12)), rd32(l3 + 16));
		/* A fragment after the first carries no ports. */
		if ((l3[6] & 0x3f) || l3[7] || ihl < 20)
			ipproto = 0;
		l3 += ihl;
	} else if (proto == ETH_P_IPV6 && end - l3 >= 40) {
		ipproto = l3[6];
		for (i = 8; i < 40; i += 4)
			h = mix(h, rd32(l3 + i));
		l3 += 40;
	} else {
		return h ? h : 1;
	}
	h = mix(h, ipproto);
	if ((ipproto == 6 || ipproto == 17 || ipproto == 132 ||
	     ipproto == 136) &&
	    end - l3 >= 4) {
		h = mix(h, rd32(l3));
		*l4 = true;
	}
	return h ? h : 1;
}

uint32_t hr_skb_get_hash(struct hr_skb *skb)
{
	bool l4;

	/* Dissected once: the hash stays with the skb, for tc's
	 * bpf_get_hash_recalc on the CPU RPS chose too. */
	if (!skb->l4_hash && !skb->sw_hash) {
		skb->hash =
			hr_skb_flow_hash(skb->data, skb->data + skb->len, &l4);
		skb->l4_hash = l4;
		skb->sw_hash = true;
	}
	return skb->hash;
}
