/* SPDX-License-Identifier: MIT */
/*
 * The skb: what a PASSed packet becomes, built on the same frame as the
 * xdp_buff it came from (the kernel's build_skb / __xdp_build_skb_from_frame),
 * keeping the metadata in front of data.
 */
#ifndef HR_CORE_SKB_H
#define HR_CORE_SKB_H

#include <stdbool.h>
#include <stdint.h>

struct hr_dev;
struct hr_xdp_buff;
struct hr_xdp_frame;

struct hr_skb {
	uint8_t *head; /* start of the frame */
	uint8_t *data; /* MAC header: what tc programs see first */
	uint32_t len; /* data .. end */
	uint32_t frame_sz;
	uint8_t meta_len; /* skb_metadata_len: bytes right before data */
	uint8_t pkt_type; /* PACKET_HOST ... (eth_type_trans) */
	uint16_t protocol; /* network order, as skb->protocol */
	uint32_t hash;
	bool l4_hash;
	bool sw_hash;
	bool vlan_present;
	uint16_t vlan_proto; /* network order */
	uint16_t vlan_tci;
	uint16_t queue_mapping; /* the RX queue, as skb_record_rx_queue */
	uint32_t mark;
	uint32_t priority;
	uint32_t tc_index;
	uint32_t tc_classid;
	uint32_t cb[5];
	uint64_t tstamp;
	/* skb_hwtstamps(skb)->hwtstamp: the RX timestamp the device
	 * reported, in the shared info (so a copy of the head loses it). */
	uint64_t hwtstamp;
	uint32_t ifindex; /* skb->dev */
	uint32_t skb_iif; /* where it was received */
	uint32_t napi_id;
	struct hr_dev *dev;
	/* The buff's flags (HR_XDP_FLAGS_HAS_FRAGS: fragments described in
	 * the frame's shinfo, freed with it). */
	uint32_t xdp_flags;
};

/*
 * Builds an skb on the frame of @xdp, received on @dev queue @queue:
 * metadata kept (meta_len = data - data_meta), protocol and pkt_type from
 * the Ethernet header as eth_type_trans, hash and l4_hash from the RX hash
 * hint when the device has one for this packet, VLAN from the VLAN hint.
 */
void hr_skb_from_buff(struct hr_skb *skb, const struct hr_xdp_buff *xdp,
		      struct hr_dev *dev, uint32_t queue);

/*
 * eth_type_trans: @dev receives the skb (skb->dev, ifindex, skb_iif);
 * pkt_type against @dev's address and protocol from the Ethernet header
 * at skb->data, which stays at the MAC header.
 */
void hr_skb_eth_type_trans(struct hr_skb *skb, struct hr_dev *dev);

/*
 * After XDP_PASS on a buff built around @skb (veth_xdp_rcv_skb): data,
 * length and fragments as the program left them (bpf_xdp_adjust_head,
 * _tail), eth_type_trans for @dev again, and the metadata the program
 * made, if any, kept (skb_metadata_set).
 */
void hr_skb_after_xdp(struct hr_skb *skb, const struct hr_xdp_buff *xdp,
		      struct hr_dev *dev);

/* The same for a frame that crossed a cpumap or veth (no hints). */
void hr_skb_from_frame(struct hr_skb *skb, const struct hr_xdp_frame *frame,
		       struct hr_dev *dev);

/*
 * The flow hash of the Ethernet frame @p .. @end (__skb_get_hash's
 * dissected fields, with a fixed key; never 0); @l4 says whether ports
 * were part of it.
 */
uint32_t hr_skb_flow_hash(const uint8_t *p, const uint8_t *end, bool *l4);
/* skb_get_hash: the skb's hash, dissected and kept when it has none. */
uint32_t hr_skb_get_hash(struct hr_skb *skb);

/* Frees the skb's frame (and fragments) back to its pool (kfree_skb);
 * sinks call it after they took what they need. */
void hr_skb_free(struct hr_skb *skb);

#endif /* HR_CORE_SKB_H */
