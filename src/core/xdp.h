/* SPDX-License-Identifier: MIT */
/*
 * xdp_buff and xdp_frame, with the kernel's rules (include/net/xdp.h,
 * net/core/filter.c) for metadata, head and tail adjustment and for the
 * conversions between the two.
 */
#ifndef HR_CORE_XDP_H
#define HR_CORE_XDP_H

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>

#define HR_XDP_PACKET_HEADROOM 256u
/* SKB_DATA_ALIGN(sizeof(struct skb_shared_info)) on x86-64. */
#define HR_SKB_SHINFO_SIZE 320u
#define HR_ETH_HLEN 14u
/* type_max(skb_shared_info.meta_len) rounded down to 4. */
#define HR_XDP_META_MAX 252u
#define HR_ENOTSUPP 524 /* kernel-internal ENOTSUPP */

struct hr_xdp_buff;

/*
 * RX hints a device can report for the packet in a buff (the kernel's
 * xdp_metadata_ops). Each returns 0, or -ENODATA when this packet has no
 * such hint; a NULL callback means the device has none (-EOPNOTSUPP).
 * A callback writes exactly what the driver's writes, whatever it returns
 * (veth zeroes the tci when it fails): the kfunc passes all of it on.
 * With @std_hints, xdp->hints (when not NULL) is a struct hr_rx_hints and
 * the callbacks give exactly what hr_rx_hint_get() reads from it (a NULL
 * xdp->hints: -ENODATA for every hint); hr_xdp_std_meta_ops are those.
 */
struct hr_xdp_metadata_ops {
	int (*rx_timestamp)(const struct hr_xdp_buff *xdp, uint64_t *ts);
	int (*rx_hash)(const struct hr_xdp_buff *xdp, uint32_t *hash,
		       uint32_t *rss_type);
	int (*rx_vlan_tag)(const struct hr_xdp_buff *xdp, uint16_t *proto,
			   uint16_t *tci);
	bool std_hints;
};

/*
 * The standard per-packet RX hint layout, what a device's RX descriptor
 * says: the values, the hints this packet has (@present) and the ones the
 * device reports at all (@supported). A kfunc answers -EOPNOTSUPP for a
 * hint not supported, -ENODATA for one not present, else 0 and the
 * values. The JIT reads it directly (run->rx_hints), so the layout is
 * fixed (jit_x86.c uses these offsets).
 */
#define HR_RX_HINT_TIMESTAMP (1u << 0)
#define HR_RX_HINT_HASH (1u << 1)
#define HR_RX_HINT_VLAN (1u << 2)
#define HR_RX_HINTS_ALL 7u

struct hr_rx_hints {
	uint64_t timestamp;
	uint32_t hash;
	uint32_t hash_type; /* enum xdp_rss_hash_type */
	uint16_t vlan_proto; /* network byte order, as the kfunc gives it */
	uint16_t vlan_tci;
	uint8_t present; /* HR_RX_HINT_* */
	uint8_t supported; /* HR_RX_HINT_* */
};

_Static_assert(sizeof(struct hr_rx_hints) == 24, "struct hr_rx_hints");

/* What a kfunc answers for hint @bit from @h (not NULL). */
static inline int hr_rx_hint_get(const struct hr_rx_hints *h, unsigned int bit)
{
	if (!(h->supported & bit))
		return -EOPNOTSUPP;
	if (!(h->present & bit))
		return -ENODATA;
	return 0;
}

/* The callbacks of every device whose hints are in the standard layout. */
extern const struct hr_xdp_metadata_ops hr_xdp_std_meta_ops;

struct hr_rxq_info {
	uint32_t ifindex;
	uint32_t queue_index;
	/* The device supports data_meta (drivers that do not set it have
	 * data_meta = data + 1). */
	bool meta_supported;
	void *dev; /* the receiving device, for hints */
	const struct hr_xdp_metadata_ops *meta_ops; /* NULL: no hints */
	/* xdp_rxq_info.frag_size: the size of the buffers fragments live
	 * in, which bounds their growth; 0 when the device does not say
	 * (a multi-buffer tail then cannot grow: -EOPNOTSUPP). */
	uint32_t frag_size;
};

struct hr_xdp_buff {
	void *data;
	void *data_end;
	void *data_meta;
	void *data_hard_start;
	struct hr_rxq_info *rxq;
	uint32_t egress_ifindex;
	uint32_t frame_sz;
	uint32_t flags;
	/* The device's per-packet hint state (its RX descriptor). */
	const void *hints;
};

/* Same layout and size (40 bytes) as the kernel's struct xdp_frame; it is
 * written at data_hard_start when a buff becomes a frame. */
struct hr_xdp_frame {
	void *data;
	uint32_t len;
	uint32_t headroom;
	uint32_t metasize;
	uint32_t mem_type;
	void *dev_rx;
	uint32_t frame_sz;
	uint32_t flags;
};

_Static_assert(sizeof(struct hr_xdp_frame) == 40, "struct xdp_frame is 40");

/* Multi-buffer packets (xdp.frags): the fragments beyond the linear part
 * are described where the kernel keeps skb_shared_info, in the frame's
 * tailroom, each fragment a frame of its own. */
#define HR_MAX_SKB_FRAGS 17
#define HR_XDP_FLAGS_HAS_FRAGS (1u << 0) /* XDP_FLAGS_HAS_FRAGS */

struct hr_xdp_frag {
	uint8_t *addr; /* the frame it lives in (what goes back to a pool) */
	uint32_t size;
	uint32_t off; /* skb_frag_off: its data starts at addr + off */
};

/* skb_frag_address */
static inline uint8_t *hr_xdp_frag_data(const struct hr_xdp_frag *frag)
{
	return frag->addr + frag->off;
}

struct hr_xdp_shinfo {
	uint32_t nr_frags;
	uint32_t frags_size; /* xdp_frags_size: bytes in all fragments */
	struct hr_xdp_frag frags[HR_MAX_SKB_FRAGS];
};

_Static_assert(sizeof(struct hr_xdp_shinfo) <= HR_SKB_SHINFO_SIZE,
	       "fragment list fits the shinfo tailroom");

static inline void hr_xdp_init_buff(struct hr_xdp_buff *xdp, uint32_t frame_sz,
				    struct hr_rxq_info *rxq)
{
	xdp->frame_sz = frame_sz;
	xdp->rxq = rxq;
	xdp->flags = 0;
	xdp->egress_ifindex = 0;
}

/* The buff's hints when its device gives them in the standard layout,
 * else NULL (another layout, or no hints). */
static inline const struct hr_rx_hints *
hr_xdp_std_hints(const struct hr_xdp_buff *xdp)
{
	const struct hr_rxq_info *rxq = xdp->rxq;

	if (!rxq || !rxq->meta_ops || !rxq->meta_ops->std_hints)
		return NULL;
	return xdp->hints;
}

/* Places @data_len bytes at @headroom into @hard_start (xdp_prepare_buff). */
static inline void hr_xdp_prepare_buff(struct hr_xdp_buff *xdp,
				       void *hard_start, uint32_t headroom,
				       uint32_t data_len, bool meta_valid)
{
	uint8_t *data = (uint8_t *)hard_start + headroom;

	xdp->data_hard_start = hard_start;
	xdp->data = data;
	xdp->data_end = data + data_len;
	xdp->data_meta = meta_valid ? data : data + 1;
}

static inline bool hr_xdp_meta_unsupported(const struct hr_xdp_buff *xdp)
{
	return (uint8_t *)xdp->data_meta > (uint8_t *)xdp->data;
}

static inline uint32_t hr_xdp_metalen(const struct hr_xdp_buff *xdp)
{
	return hr_xdp_meta_unsupported(xdp) ?
		       0 :
		       (uint32_t)((uint8_t *)xdp->data -
				  (uint8_t *)xdp->data_meta);
}

static inline void *hr_xdp_hard_end(const struct hr_xdp_buff *xdp)
{
	return (uint8_t *)xdp->data_hard_start + xdp->frame_sz -
	       HR_SKB_SHINFO_SIZE;
}

static inline struct hr_xdp_shinfo *hr_xdp_shinfo(const struct hr_xdp_buff *xdp)
{
	return (struct hr_xdp_shinfo *)hr_xdp_hard_end(xdp);
}

static inline bool hr_xdp_has_frags(const struct hr_xdp_buff *xdp)
{
	return xdp->flags & HR_XDP_FLAGS_HAS_FRAGS;
}

/* Linear part plus fragments (xdp_get_buff_len). */
static inline uint32_t hr_xdp_buff_len(const struct hr_xdp_buff *xdp)
{
	uint32_t len =
		(uint32_t)((uint8_t *)xdp->data_end - (uint8_t *)xdp->data);

	if (hr_xdp_has_frags(xdp))
		len += hr_xdp_shinfo(xdp)->frags_size;
	return len;
}

static inline bool hr_xdp_metalen_invalid(unsigned long metalen)
{
	return (metalen & 3) || metalen > HR_XDP_META_MAX;
}

/* bpf_xdp_adjust_meta, _head, _tail: 0 or the kernel's error. */
int hr_xdp_adjust_meta(struct hr_xdp_buff *xdp, int delta);
int hr_xdp_adjust_head(struct hr_xdp_buff *xdp, int offset);
int hr_xdp_adjust_tail(struct hr_xdp_buff *xdp, int offset);
/* bpf_xdp_adjust_tail on a multi-buffer buff (xdp_frags.c). */
int hr_xdp_frags_adjust_tail(struct hr_xdp_buff *xdp, int offset);
/* bpf_xdp_pull_data: the first @len bytes made linear (xdp_frags.c). */
int hr_xdp_pull_data(struct hr_xdp_buff *xdp, uint32_t len);

/*
 * xdp_convert_buff_to_frame: NULL when the headroom cannot hold the frame
 * header and the metadata (the redirect path then fails -EOVERFLOW).
 * Inline, as the kernel's is: every TX, redirect and veth or cpumap
 * receive converts a packet, and the call cost more than the stores.
 * Bounds on signed 64-bit addresses, as xdp.c's adjustments compute them.
 */
static inline struct hr_xdp_frame *hr_xdp_buff_to_frame(struct hr_xdp_buff *xdp)
{
	struct hr_xdp_frame *frame = xdp->data_hard_start;
	int64_t data = (int64_t)(uintptr_t)xdp->data;
	int64_t headroom = data - (int64_t)(uintptr_t)xdp->data_hard_start;
	int64_t metasize = data - (int64_t)(uintptr_t)xdp->data_meta;

	/* An unsupported data_meta (data + 1) carries no metadata. */
	if (metasize < 0)
		metasize = 0;
	if (headroom - metasize < (int64_t)sizeof(*frame))
		return NULL;
	/* A driver that left no tailroom for skb_shared_info. */
	if ((int64_t)(uintptr_t)xdp->data_end >
	    (int64_t)(uintptr_t)hr_xdp_hard_end(xdp))
		return NULL;
	frame->data = xdp->data;
	frame->len = (uint32_t)((int64_t)(uintptr_t)xdp->data_end - data);
	frame->headroom = (uint32_t)(headroom - (int64_t)sizeof(*frame));
	frame->metasize = (uint32_t)metasize;
	frame->frame_sz = xdp->frame_sz;
	frame->flags = xdp->flags;
	/* MEM_TYPE_PAGE_SHARED: every headroom frame returns to a pool. */
	frame->mem_type = 0;
	frame->dev_rx = xdp->rxq ? xdp->rxq->dev : NULL;
	return frame;
}

/* xdp_convert_frame_to_buff; restores data_meta = data - metasize. */
static inline void hr_xdp_frame_to_buff(const struct hr_xdp_frame *frame,
					struct hr_xdp_buff *xdp)
{
	uint8_t *data = frame->data;

	xdp->data_hard_start = data - frame->headroom - sizeof(*frame);
	xdp->data = data;
	xdp->data_end = data + frame->len;
	xdp->data_meta = data - frame->metasize;
	xdp->frame_sz = frame->frame_sz;
	xdp->flags = frame->flags;
}

#endif /* HR_CORE_XDP_H */
