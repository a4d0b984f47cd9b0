// SPDX-License-Identifier: MIT
/*
 * xdp_buff adjustment and the buff <-> frame conversions, with the checks,
 * error codes and their order as in net/core/filter.c and include/net/xdp.h
 * (multi-buffer tails and bpf_xdp_pull_data are in xdp_frags.c).
 *
 * Bounds are computed on signed 64-bit addresses rather than pointers: a
 * program may pass any int, and an out-of-range pointer sum is undefined
 * in C where the kernel's is merely rejected by the comparison after it.
 */
#include <errno.h>
#include <string.h>

#include "core/xdp.h"

static inline int64_t addr(const void *p)
{
	return (int64_t)(uintptr_t)p;
}

static inline void *ptr(int64_t a)
{
	return (void *)(uintptr_t)a;
}

int hr_xdp_adjust_meta(struct hr_xdp_buff *xdp, int delta)
{
	int64_t frame_end = addr(xdp->data_hard_start) +
			    (int64_t)sizeof(struct hr_xdp_frame);
	int64_t meta = addr(xdp->data_meta) + delta;
	int64_t data = addr(xdp->data);

	if (hr_xdp_meta_unsupported(xdp))
		return -HR_ENOTSUPP;
	if (meta < frame_end || meta > data)
		return -EINVAL;
	if (hr_xdp_metalen_invalid((unsigned long)(data - meta)))
		return -EACCES;
	xdp->data_meta = ptr(meta);
	return 0;
}

int hr_xdp_adjust_head(struct hr_xdp_buff *xdp, int offset)
{
	uint32_t metalen = hr_xdp_metalen(xdp);
	int64_t data_start = addr(xdp->data_hard_start) +
			     (int64_t)sizeof(struct hr_xdp_frame) + metalen;
	int64_t data = addr(xdp->data) + offset;

	if (data < data_start || data > addr(xdp->data_end) - HR_ETH_HLEN)
		return -EINVAL;
	/* The metadata stays just before data; the new bytes are not
	 * cleared. data_meta moves even when unsupported, so that it stays
	 * data + 1. */
	if (metalen)
		memmove(ptr(addr(xdp->data_meta) + offset), xdp->data_meta,
			metalen);
	xdp->data_meta = ptr(addr(xdp->data_meta) + offset);
	xdp->data = ptr(data);
	return 0;
}

int hr_xdp_adjust_tail(struct hr_xdp_buff *xdp, int offset)
{
	int64_t data_end = addr(xdp->data_end) + offset;

	/* A multi-buffer packet's tail is its last fragment's. */
	if (hr_xdp_has_frags(xdp))
		return hr_xdp_frags_adjust_tail(xdp, offset);
	/* The hard end already leaves room for skb_shared_info. */
	if (data_end > addr(hr_xdp_hard_end(xdp)))
		return -EINVAL;
	if (data_end < addr(xdp->data) + HR_ETH_HLEN)
		return -EINVAL;
	/* Grown bytes may hold an earlier packet's data: clear them. */
	if (offset > 0)
		memset(xdp->data_end, 0, (size_t)offset);
	xdp->data_end = ptr(data_end);
	return 0;
}

/* The standard layout's callbacks: the same answers as the kfuncs give
 * from run->rx_hints (kfuncs_xdp.c), so that both ways agree. */
static int std_rx_timestamp(const struct hr_xdp_buff *xdp, uint64_t *ts)
{
	const struct hr_rx_hints *h = xdp->hints;
	int ret = h ? hr_rx_hint_get(h, HR_RX_HINT_TIMESTAMP) : -ENODATA;

	if (!ret)
		*ts = h->timestamp;
	return ret;
}

static int std_rx_hash(const struct hr_xdp_buff *xdp, uint32_t *hash,
		       uint32_t *rss_type)
{
	const struct hr_rx_hints *h = xdp->hints;
	int ret = h ? hr_rx_hint_get(h, HR_RX_HINT_HASH) : -ENODATA;

	if (!ret) {
		*hash = h->hash;
		*rss_type = h->hash_type;
	}
	return ret;
}

static int std_rx_vlan_tag(const struct hr_xdp_buff *xdp, uint16_t *proto,
			   uint16_t *tci)
{
	const struct hr_rx_hints *h = xdp->hints;
	int ret = h ? hr_rx_hint_get(h, HR_RX_HINT_VLAN) : -ENODATA;

	if (!ret) {
		*proto = h->vlan_proto;
		*tci = h->vlan_tci;
	}
	return ret;
}

const struct hr_xdp_metadata_ops hr_xdp_std_meta_ops = {
	.rx_timestamp = std_rx_timestamp,
	.rx_hash = std_rx_hash,
	.rx_vlan_tag = std_rx_vlan_tag,
	.std_hints = true,
};
