/* SPDX-License-Identifier: MIT */
/*
 * What veth.c (the frame path: ndo_xdp_xmit, veth_xdp_rcv_one) and
 * veth_skb.c (the skb path: veth_xmit, veth_xdp_rcv_skb, the hint
 * kfuncs) share of drivers/net/veth.c: the private part of a device and
 * the per-queue ring both paths fill.
 *
 * The ring holds frames and skbs in arrival order, as the kernel's
 * ptr_ring does; an skb entry is the frame it lives in with bit 0 set
 * (the kernel tags the frames instead, VETH_XDP_FLAG: here the frame
 * path, the fast one, stays untagged).
 */
#ifndef HR_DEV_VETH_H
#define HR_DEV_VETH_H

#include <stdbool.h>
#include <stdint.h>

#include "headroom/devices.h"
#include "dev/dev.h"
#include "dev/ring.h"

#define VETH_RING_SIZE 256
#define VETH_XDP_BATCH 16
#define VETH_VLAN_HLEN 4u

struct veth_priv {
	struct hr_dev *peer;
	struct hr_ring *ring[HR_DEV_MAX_QUEUES];
	struct hr_veth_stats stats[HR_MAX_WORKERS];
};

#define VETH_SKB_FLAG 1ul

static inline bool veth_is_skb(const void *ptr)
{
	return (uintptr_t)ptr & VETH_SKB_FLAG;
}

/* The peer's NAPI is enabled: it is up and has an XDP program. */
static inline bool veth_napi_enabled(struct hr_dev *rcv)
{
	return atomic_load_explicit(&rcv->up, memory_order_acquire) &&
	       atomic_load_explicit(&rcv->xdp_prog, memory_order_acquire);
}

/* veth_xmit: sends @skb to @dev's peer (hr_dev_ops.start_xmit). */
int veth_start_xmit(struct hr_dev *dev, struct hr_worker *w,
		    struct hr_skb *skb);
/* veth_xdp_rcv_skb for the ring entry @ptr, received on @napi. */
void veth_rcv_skb(struct hr_napi *napi, void *ptr);
/* veth_ptr_free of an skb entry: its frame back to its pool. */
void veth_skb_entry_free(void *ptr);

/* The hint kfuncs: answered from the skb a packet came as, -ENODATA for
 * frames (xdp->hints is the skb, or NULL). */
extern const struct hr_xdp_metadata_ops veth_meta_ops;

#endif /* HR_DEV_VETH_H */
