// SPDX-License-Identifier: MIT
/*
 * The tc skb helpers (net/core/filter.c): loads, stores, checksum fixes,
 * head and tail changes, room adjustment, VLAN push/pop, protocol change
 * and the redirects. r1 is the program's __sk_buff; the skb behind it is
 * reached through run->priv (struct hr_tc_ctx).
 *
 * The skb is linear and lives in one frame: head .. head + frame_sz,
 * minus the shinfo tailroom. Where the kernel would reallocate the head
 * (skb_cow, pskb_expand_head) the packet is moved inside its frame, so a
 * program sees the same success; growth past the whole frame reallocates
 * the head as pskb_expand_head does where the skb's owner can
 * (hr_tc_ctx.expand_head: test runs), and fails with -ENOMEM where it
 * cannot (the datapath's pool frames). The skb
 * is CHECKSUM_NONE, as those of BPF_PROG_TEST_RUN and of XDP_PASS are, so
 * skb->csum bookkeeping has nothing to do.
 *
 * The metadata (skb_metadata_len bytes, which __sk_buff->data_meta shows in
 * front of data and the skb_meta dynptr in front of the MAC header) is
 * what Linux 6.18 makes of it, before the helpers learnt to carry it
 * (6.19's skb_data_move): it stays where XDP left it in the headroom
 * while skb_push / skb_pull move data, so that data_meta = data -
 * meta_len then shows other bytes, and pskb_expand_head clears it
 * (skb_metadata_clear) whenever the head is reallocated: a push past the
 * headroom (skb_cow / skb_cow_head), growth past the tailroom (__skb_grow)
 * and the unclone after a clone was sent (bpf_clone_redirect).
 */
#include <errno.h>
#include <limits.h>
#include <string.h>
#include <arpa/inet.h>
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <linux/pkt_cls.h>

#include "progs/ctx.h"
#include "helpers/helpers.h"
#include "helpers/helpers_skb.h"
#include "core/skb.h"
#include "dev/dev.h"

#ifndef ENOTSUPP
#define ENOTSUPP 524
#endif

#define HR_IPV4_HLEN 20u
#define HR_IPV6_HLEN 40u
#define HR_VLAN_HLEN 4u
#define HR_TRANSPORT_UNSET 0xffffu
/* SKB_MAX_ALLOC: four pages minus the shinfo. */
#define HR_SKB_MAX_LEN (16384u - HR_SKB_SHINFO_SIZE)
#define HR_CSUM_MANGLED_0 0xffffu
/* NET_SKB_PAD: max(32, L1_CACHE_BYTES), 64 on x86-64. */
#define HR_NET_SKB_PAD 64u
/* BPF_F_IPV6 of bpf_l4_csum_replace (6.16): only skb->csum cares. */
#define HR_F_IPV6 (1ull << 7)

/* Flags the 6.1 UAPI header may lack. */
#define HR_ADJ_ROOM_DECAP_L3_IPV4 (1ull << 7)
#define HR_ADJ_ROOM_DECAP_L3_IPV6 (1ull << 8)
#define HR_ADJ_ROOM_DECAP_L3_MASK \
	(HR_ADJ_ROOM_DECAP_L3_IPV4 | HR_ADJ_ROOM_DECAP_L3_IPV6)
#define HR_ADJ_ROOM_ENCAP_L3_MASK \
	(BPF_F_ADJ_ROOM_ENCAP_L3_IPV4 | BPF_F_ADJ_ROOM_ENCAP_L3_IPV6)
#define HR_ADJ_ROOM_MASK                                             \
	(BPF_F_ADJ_ROOM_FIXED_GSO | HR_ADJ_ROOM_ENCAP_L3_MASK |      \
	 BPF_F_ADJ_ROOM_ENCAP_L4_GRE | BPF_F_ADJ_ROOM_ENCAP_L4_UDP | \
	 BPF_F_ADJ_ROOM_ENCAP_L2_ETH | (0xffull << 56) |             \
	 HR_ADJ_ROOM_DECAP_L3_MASK)

static struct hr_tc_ctx *tc_ctx(struct hr_run *run)
{
	struct hr_tc_ctx *c = run->priv;

	if (!c->hdr_init) {
		c->mac_header = (uint16_t)(c->data - c->head);
		c->network_header = (uint16_t)(c->mac_header + ETH_HLEN);
		c->transport_header = HR_TRANSPORT_UNSET;
		c->hdr_init = 1;
	}
	return c;
}

uint8_t *hr_skb_mac_header(const struct hr_tc_ctx *c)
{
	return c->hdr_init ? c->head + c->mac_header : c->data;
}

uint8_t *hr_skb_network_header(struct hr_run *run)
{
	struct hr_tc_ctx *c = tc_ctx(run);

	return c->head + c->network_header;
}

static uint64_t ret_int(int v)
{
	return (uint64_t)(int64_t)v;
}

/* bpf_compute_data_pointers, then the helper's result. */
static uint64_t done(struct hr_run *run, int err)
{
	hr_tc_ctx_sync(run->priv, run);
	return ret_int(err);
}

static uint32_t skb_len(const struct hr_tc_ctx *c)
{
	return (uint32_t)(c->data_end - c->data);
}

static uint32_t data_off(const struct hr_tc_ctx *c)
{
	return (uint32_t)(c->data - c->head);
}

static int network_offset(const struct hr_tc_ctx *c)
{
	return (int)c->network_header - (int)data_off(c);
}

static uint32_t mac_header_len(const struct hr_tc_ctx *c)
{
	return (uint32_t)(c->network_header - c->mac_header);
}

static bool skb_is_gso(const struct hr_tc_ctx *c)
{
	return c->skb.gso_size != 0;
}

static uint8_t *hard_end(const struct hr_tc_ctx *c)
{
	return c->head + c->frame_sz - HR_SKB_SHINFO_SIZE;
}

static void shift_headers(struct hr_tc_ctx *c, long delta)
{
	c->mac_header = (uint16_t)(c->mac_header + delta);
	c->network_header = (uint16_t)(c->network_header + delta);
	if (c->transport_header != HR_TRANSPORT_UNSET)
		c->transport_header = (uint16_t)(c->transport_header + delta);
}

/* pskb_expand_head past the frame, where the skb's owner can give it a
 * bigger head: @nhead rounded up to NET_SKB_PAD, as __skb_cow asks. */
static int skb_expand_head(struct hr_tc_ctx *c, uint64_t nhead, uint64_t ntail)
{
	int err;

	nhead = (nhead + HR_NET_SKB_PAD - 1) & ~(uint64_t)(HR_NET_SKB_PAD - 1);
	if (!c->expand_head || nhead > INT_MAX || ntail > INT_MAX)
		return -ENOMEM;
	err = c->expand_head(c, (uint32_t)nhead, (uint32_t)ntail);
	if (err)
		return err;
	c->meta_len = 0; /* skb_metadata_clear */
	shift_headers(c, (long)nhead);
	return 0;
}

/*
 * __skb_cow / __skb_grow: @head bytes of headroom (skb_headroom(), data -
 * head: the metadata is part of it) and @tail bytes of tailroom. When one
 * side is short the kernel reallocates the head (pskb_expand_head), which
 * in 6.18 clears the metadata; here the packet then moves inside its
 * frame, and when the frame cannot hold it the head is reallocated as the
 * kernel's callers ask: the headroom short by @head rounded up to
 * NET_SKB_PAD (__skb_cow), the tailroom short by exactly @tail
 * (__skb_grow).
 */
static int skb_room(struct hr_tc_ctx *c, uint32_t head, uint32_t tail)
{
	size_t hroom = (size_t)(c->data - c->head);
	size_t troom = (size_t)(hard_end(c) - c->data_end);
	size_t new_h;
	long delta;

	if (hroom >= head && troom >= tail)
		return 0;
	if (hroom + troom < (size_t)head + tail)
		return skb_expand_head(c, hroom < head ? head - hroom : 0,
				       troom < tail ? tail - troom : 0);
	c->meta_len = 0; /* skb_metadata_clear */
	new_h = hroom < head ? head : hroom - (tail - troom);
	delta = (long)new_h - (long)hroom;
	memmove(c->data + delta, c->data, (size_t)(c->data_end - c->data));
	c->data += delta;
	c->data_end += delta;
	shift_headers(c, delta);
	return 0;
}

/* bpf_skb_generic_push: @len zeroed bytes at @off, data moves back. */
static int skb_push_at(struct hr_tc_ctx *c, uint32_t off, uint32_t len)
{
	int err = skb_room(c, len, 0);

	if (err)
		return err;
	c->data -= len;
	memmove(c->data, c->data + len, off);
	memset(c->data + off, 0, len);
	return 0;
}

/* bpf_skb_generic_pop: removes @len bytes at @off. */
static int skb_pop_at(struct hr_tc_ctx *c, uint32_t off, uint32_t len)
{
	if ((uint64_t)off + len > skb_len(c))
		return -ENOMEM;
	memmove(c->data + len, c->data, off);
	c->data += len;
	return 0;
}

/* bpf_skb_net_hdr_push / _pop: the MAC header moves with data, the
 * network header points at the new (or remaining) bytes. */
static int net_hdr_push(struct hr_tc_ctx *c, uint32_t off, uint32_t len)
{
	bool trans_same = c->transport_header == c->network_header;
	int err = skb_push_at(c, off, len);

	if (err)
		return err;
	c->mac_header -= len;
	c->network_header -= len;
	if (trans_same)
		c->transport_header = c->network_header;
	return 0;
}

static int net_hdr_pop(struct hr_tc_ctx *c, uint32_t off, uint32_t len)
{
	bool trans_same = c->transport_header == c->network_header;
	int err = skb_pop_at(c, off, len);

	if (err)
		return err;
	c->mac_header += len;
	c->network_header += len;
	if (trans_same)
		c->transport_header = c->network_header;
	return 0;
}

/* ---- loads and stores ---- */

static uint64_t skb_load_bytes(uint64_t r1, uint64_t offset, uint64_t to,
			       uint64_t len, uint64_t r5, struct hr_run *run)
{
	struct hr_tc_ctx *c = tc_ctx(run);
	uint32_t off = (uint32_t)offset, n = (uint32_t)len;
	uint8_t *dst = hr_run_mem(run, to, n, true);

	if (!dst)
		return 0;
	if (off > INT_MAX || (uint64_t)off + n > skb_len(c)) {
		memset(dst, 0, n);
		return ret_int(-EFAULT);
	}
	memmove(dst, c->data + off, n);
	return 0;
}

/*
 * bpf_skb_load_bytes_relative(skb, off, to, len, start): from the MAC or
 * the network header (a tc skb always has its MAC header set), zeroed
 * with -EFAULT when it passes the tail or off is past 64 KiB.
 */
static uint64_t skb_load_bytes_relative(uint64_t r1, uint64_t offset,
					uint64_t to, uint64_t len,
					uint64_t start_header,
					struct hr_run *run)
{
	struct hr_tc_ctx *c = tc_ctx(run);
	uint32_t off = (uint32_t)offset, n = (uint32_t)len;
	uint8_t *dst = hr_run_mem(run, to, n, true);
	const uint8_t *start;

	if (!dst)
		return 0;
	switch ((uint32_t)start_header) {
	case BPF_HDR_START_MAC:
		start = hr_skb_mac_header(c);
		break;
	case BPF_HDR_START_NET:
		start = hr_skb_network_header(run);
		break;
	default:
		start = NULL;
	}
	/* In 64 bits: start + off + n never wraps, and a network header a
	 * helper moved past the tail is caught as well. */
	if (!start || off > 0xffff ||
	    (uint64_t)(start - c->head) + off + n >
		    (uint64_t)(c->data_end - c->head)) {
		memset(dst, 0, n);
		return ret_int(-EFAULT);
	}
	memmove(dst, start + off, n);
	return 0;
}

/* bpf_skb_change_type(skb, type): between PACKET_HOST and
 * PACKET_OTHERHOST only, from and to. */
static uint64_t skb_change_type(uint64_t r1, uint64_t type, uint64_t r3,
				uint64_t r4, uint64_t r5, struct hr_run *run)
{
	struct hr_tc_ctx *c = tc_ctx(run);

	if (c->skb.pkt_type > PACKET_OTHERHOST ||
	    (uint32_t)type > PACKET_OTHERHOST)
		return ret_int(-EINVAL);
	c->skb.pkt_type = (uint32_t)type;
	return 0;
}

/* __bpf_skb_store_bytes, shared with bpf_dynptr_write. */
int hr_skb_store_bytes(struct hr_tc_ctx *c, uint32_t off, const void *from,
		       uint32_t len, uint64_t flags)
{
	if (flags & ~(uint64_t)(BPF_F_RECOMPUTE_CSUM | BPF_F_INVALIDATE_HASH))
		return -EINVAL;
	if (off > INT_MAX)
		return -EFAULT;
	if ((uint64_t)off + len > skb_len(c))
		return -EFAULT;
	memmove(c->data + off, from, len);
	if (flags & BPF_F_INVALIDATE_HASH)
		c->skb.hash = 0;
	return 0;
}

/* __bpf_skb_load_bytes for bpf_dynptr_read. */
int hr_skb_load_bytes(struct hr_tc_ctx *c, uint32_t off, void *to, uint32_t len)
{
	if (off > INT_MAX || (uint64_t)off + len > skb_len(c)) {
		if (len)
			memset(to, 0, len);
		return -EFAULT;
	}
	/* A zero-length read may come with no buffer at all. */
	if (len)
		memmove(to, c->data + off, len);
	return 0;
}

static uint64_t skb_store_bytes(uint64_t r1, uint64_t offset, uint64_t from,
				uint64_t len, uint64_t flags,
				struct hr_run *run)
{
	struct hr_tc_ctx *c = tc_ctx(run);
	const void *src = hr_run_mem(run, from, (uint32_t)len, false);

	if (!src)
		return 0;
	return done(run, hr_skb_store_bytes(c, (uint32_t)offset, src,
					    (uint32_t)len, flags));
}

static uint64_t skb_pull_data(uint64_t r1, uint64_t len, uint64_t r3,
			      uint64_t r4, uint64_t r5, struct hr_run *run)
{
	struct hr_tc_ctx *c = tc_ctx(run);

	/* Linear already: only a pull past the end fails (pskb_may_pull). */
	return done(run, (uint32_t)len > skb_len(c) ? -ENOMEM : 0);
}

/* ---- checksums (include/net/checksum.h, x86-64 csum_fold) ---- */

static uint32_t csum_add(uint32_t a, uint32_t b)
{
	uint32_t r = a + b;

	return r + (r < b);
}

static uint32_t csum_sub(uint32_t a, uint32_t b)
{
	return csum_add(a, ~b);
}

static uint16_t csum_fold(uint32_t sum)
{
	uint32_t hi = sum & 0xffff0000u, lo = sum << 16;
	uint32_t r = hi + lo;
	uint32_t carry = r < hi;

	r = r + 0xffffu + carry;
	return (uint16_t)(~r >> 16);
}

static uint16_t csum16_add(uint16_t csum, uint16_t addend)
{
	uint16_t r = (uint16_t)(csum + addend);

	return (uint16_t)(r + (r < addend));
}

static void csum_replace4(uint16_t *sum, uint32_t from, uint32_t to)
{
	uint32_t tmp = csum_sub(~(uint32_t)*sum, from);

	*sum = csum_fold(csum_add(tmp, to));
}

static void csum_replace2(uint16_t *sum, uint16_t from, uint16_t to)
{
	*sum = (uint16_t)~csum16_add(
		csum16_add((uint16_t) ~*sum, (uint16_t)~from), to);
}

static void csum_replace_by_diff(uint16_t *sum, uint32_t diff)
{
	*sum = csum_fold(csum_add(diff, ~(uint32_t)*sum));
}

/*
 * The replacement both csum helpers make, by the field size in @flags: 0
 * adds a csum_diff result (from must be 0), 2 and 4 swap a field (l4's 2
 * goes through the 4-byte form, as inet_proto_csum_replace2 does).
 */
static int csum_update(uint16_t *sum, uint64_t from, uint64_t to,
		       uint64_t flags, bool l4)
{
	switch (flags & BPF_F_HDR_FIELD_MASK) {
	case 0:
		if (from)
			return -EINVAL;
		csum_replace_by_diff(sum, (uint32_t)to);
		return 0;
	case 2:
		if (l4)
			csum_replace4(sum, (uint16_t)from, (uint16_t)to);
		else
			csum_replace2(sum, (uint16_t)from, (uint16_t)to);
		return 0;
	case 4:
		csum_replace4(sum, (uint32_t)from, (uint32_t)to);
		return 0;
	default:
		return -EINVAL;
	}
}

/* Offset checks of both csum helpers; the field, or NULL with *err. */
static uint8_t *csum_field(struct hr_tc_ctx *c, uint32_t off, int *err)
{
	if (off > 0xffff || (off & 1)) {
		*err = -EFAULT;
		return NULL;
	}
	if (off + 2 > skb_len(c)) {
		*err = -EFAULT;
		return NULL;
	}
	return c->data + off;
}

static int l3_csum_replace(struct hr_tc_ctx *c, uint32_t off, uint64_t from,
			   uint64_t to, uint64_t flags)
{
	uint8_t *p;
	uint16_t sum;
	int err = 0;

	if (flags & ~(uint64_t)BPF_F_HDR_FIELD_MASK)
		return -EINVAL;
	p = csum_field(c, off, &err);
	if (!p)
		return err;
	memcpy(&sum, p, 2);
	err = csum_update(&sum, from, to, flags, false);
	if (err)
		return err;
	memcpy(p, &sum, 2);
	return 0;
}

/*
 * inet_proto_csum_replace*: for a CHECKSUM_NONE skb the field is updated
 * whether or not the pseudo header is involved (BPF_F_PSEUDO_HDR and
 * BPF_F_IPV6 only matter to skb->csum and CHECKSUM_PARTIAL).
 */
static int l4_csum_replace(struct hr_tc_ctx *c, uint32_t off, uint64_t from,
			   uint64_t to, uint64_t flags)
{
	bool mmzero = flags & BPF_F_MARK_MANGLED_0;
	bool mforce = flags & BPF_F_MARK_ENFORCE;
	uint8_t *p;
	uint16_t sum;
	int err = 0;

	if (flags &
	    ~(uint64_t)(BPF_F_MARK_MANGLED_0 | BPF_F_MARK_ENFORCE |
			BPF_F_PSEUDO_HDR | HR_F_IPV6 | BPF_F_HDR_FIELD_MASK))
		return -EINVAL;
	p = csum_field(c, off, &err);
	if (!p)
		return err;
	memcpy(&sum, p, 2);
	if (mmzero && !mforce && !sum)
		return 0;
	err = csum_update(&sum, from, to, flags, true);
	if (err)
		return err;
	if (mmzero && !sum)
		sum = HR_CSUM_MANGLED_0;
	memcpy(p, &sum, 2);
	return 0;
}

static uint64_t skb_l3_csum_replace(uint64_t r1, uint64_t off, uint64_t from,
				    uint64_t to, uint64_t flags,
				    struct hr_run *run)
{
	return done(run, l3_csum_replace(tc_ctx(run), (uint32_t)off, from, to,
					 flags));
}

static uint64_t skb_l4_csum_replace(uint64_t r1, uint64_t off, uint64_t from,
				    uint64_t to, uint64_t flags,
				    struct hr_run *run)
{
	return done(run, l4_csum_replace(tc_ctx(run), (uint32_t)off, from, to,
					 flags));
}

/* ---- head, tail, room ---- */

static int change_head(struct hr_tc_ctx *c, uint32_t head_room, uint64_t flags)
{
	uint32_t new_len = skb_len(c) + head_room;
	int err;

	if (flags || (!skb_is_gso(c) && new_len > HR_SKB_MAX_LEN) ||
	    new_len < skb_len(c))
		return -EINVAL;
	err = skb_room(c, head_room, 0);
	if (err)
		return err;
	c->data -= head_room;
	memset(c->data, 0, head_room);
	c->mac_header = (uint16_t)data_off(c);
	return 0;
}

static uint64_t skb_change_head(uint64_t r1, uint64_t head_room, uint64_t flags,
				uint64_t r4, uint64_t r5, struct hr_run *run)
{
	return done(run, change_head(tc_ctx(run), (uint32_t)head_room, flags));
}

/* __bpf_skb_min_len: the tail may not cut into the headers. */
static uint32_t skb_min_len(const struct hr_tc_ctx *c)
{
	int min_len = network_offset(c);

	if (c->transport_header != HR_TRANSPORT_UNSET)
		min_len = (int)c->transport_header - (int)data_off(c);
	return (uint32_t)min_len;
}

static int change_tail(struct hr_tc_ctx *c, uint32_t new_len, uint64_t flags)
{
	uint32_t len = skb_len(c);
	int err;

	if (flags || new_len > HR_SKB_MAX_LEN || new_len < skb_min_len(c))
		return -EINVAL;
	if (c->encapsulation)
		return -ENOTSUPP;
	if (new_len > len) {
		err = skb_room(c, 0, new_len - len);
		if (err)
			return err;
		memset(c->data_end, 0, new_len - len);
	}
	c->data_end = c->data + new_len;
	if (skb_is_gso(c)) {
		/* skb_gso_reset */
		c->skb.gso_size = 0;
		c->skb.gso_segs = 0;
	}
	return 0;
}

static uint64_t skb_change_tail(uint64_t r1, uint64_t new_len, uint64_t flags,
				uint64_t r4, uint64_t r5, struct hr_run *run)
{
	return done(run, change_tail(tc_ctx(run), (uint32_t)new_len, flags));
}

static uint32_t net_base_len(const struct hr_tc_ctx *c)
{
	if (c->skb.protocol == htons(ETH_P_IP))
		return HR_IPV4_HLEN;
	if (c->skb.protocol == htons(ETH_P_IPV6))
		return HR_IPV6_HLEN;
	return ~0u;
}

/* The GSO part of bpf_skb_net_grow/_shrink: UDP GSO is not modelled. */
static int gso_check(const struct hr_tc_ctx *c)
{
	/* gso_type is 0 here (not settable by a test run), so any GSO skb
	 * is neither TCP nor UDP_L4. */
	return skb_is_gso(c) ? -ENOTSUPP : 0;
}

static int net_grow(struct hr_tc_ctx *c, uint32_t off, uint32_t len_diff,
		    uint64_t flags)
{
	uint8_t inner_mac_len = (uint8_t)(flags >> 56);
	bool encap = flags & HR_ADJ_ROOM_ENCAP_L3_MASK;
	uint32_t mac_len = 0;
	int err;

	err = gso_check(c);
	if (err)
		return err;
	err = skb_room(c, len_diff, 0);
	if (err)
		return err;
	if (encap) {
		if (c->skb.protocol != htons(ETH_P_IP) &&
		    c->skb.protocol != htons(ETH_P_IPV6))
			return -ENOTSUPP;
		if ((flags & HR_ADJ_ROOM_ENCAP_L3_MASK) ==
		    HR_ADJ_ROOM_ENCAP_L3_MASK)
			return -EINVAL;
		if ((flags & BPF_F_ADJ_ROOM_ENCAP_L4_GRE) &&
		    (flags & BPF_F_ADJ_ROOM_ENCAP_L4_UDP))
			return -EINVAL;
		if ((flags & BPF_F_ADJ_ROOM_ENCAP_L2_ETH) &&
		    inner_mac_len < ETH_HLEN)
			return -EINVAL;
		if (c->encapsulation)
			return -EALREADY;
		mac_len = mac_header_len(c);
		if (inner_mac_len > len_diff)
			return -EINVAL;
	}
	err = net_hdr_push(c, off, len_diff);
	if (err)
		return err;
	if (!encap)
		return 0;
	c->encapsulation = 1;
	c->network_header = (uint16_t)(data_off(c) + mac_len);
	if (flags & (BPF_F_ADJ_ROOM_ENCAP_L4_GRE | BPF_F_ADJ_ROOM_ENCAP_L4_UDP))
		c->transport_header =
			(uint16_t)(c->network_header +
				   (flags & BPF_F_ADJ_ROOM_ENCAP_L3_IPV6 ?
					    HR_IPV6_HLEN :
					    HR_IPV4_HLEN));
	if (c->skb.protocol == htons(ETH_P_IP) &&
	    (flags & BPF_F_ADJ_ROOM_ENCAP_L3_IPV6))
		c->skb.protocol = htons(ETH_P_IPV6);
	else if (c->skb.protocol == htons(ETH_P_IPV6) &&
		 (flags & BPF_F_ADJ_ROOM_ENCAP_L3_IPV4))
		c->skb.protocol = htons(ETH_P_IP);
	return 0;
}

static int net_shrink(struct hr_tc_ctx *c, uint32_t off, uint32_t len_diff,
		      uint64_t flags)
{
	int err;

	if (flags &
	    ~(uint64_t)(BPF_F_ADJ_ROOM_FIXED_GSO | HR_ADJ_ROOM_DECAP_L3_MASK |
			BPF_F_ADJ_ROOM_NO_CSUM_RESET))
		return -EINVAL;
	err = gso_check(c);
	if (err)
		return err;
	err = net_hdr_pop(c, off, len_diff);
	if (err)
		return err;
	if (c->skb.protocol == htons(ETH_P_IP) &&
	    (flags & HR_ADJ_ROOM_DECAP_L3_IPV6))
		c->skb.protocol = htons(ETH_P_IPV6);
	else if (c->skb.protocol == htons(ETH_P_IPV6) &&
		 (flags & HR_ADJ_ROOM_DECAP_L3_IPV4))
		c->skb.protocol = htons(ETH_P_IP);
	return 0;
}

static int adjust_room(struct hr_tc_ctx *c, int32_t len_diff, uint32_t mode,
		       uint64_t flags)
{
	uint32_t abs_diff = len_diff < 0 ? -(uint32_t)len_diff :
					   (uint32_t)len_diff;
	uint32_t len_min = net_base_len(c), len_cur, off;
	bool shrink = len_diff < 0;

	if (flags & ~(HR_ADJ_ROOM_MASK | BPF_F_ADJ_ROOM_NO_CSUM_RESET))
		return -EINVAL;
	if (abs_diff > 0xfff)
		return -EFAULT;
	if (c->skb.protocol != htons(ETH_P_IP) &&
	    c->skb.protocol != htons(ETH_P_IPV6))
		return -ENOTSUPP;
	off = mac_header_len(c);
	switch (mode) {
	case BPF_ADJ_ROOM_NET:
		off += net_base_len(c);
		break;
	case BPF_ADJ_ROOM_MAC:
		break;
	default:
		return -ENOTSUPP;
	}
	if ((shrink && (flags & HR_ADJ_ROOM_DECAP_L3_MASK) ==
			       HR_ADJ_ROOM_DECAP_L3_MASK) ||
	    (!shrink && (flags & HR_ADJ_ROOM_DECAP_L3_MASK)))
		return -EINVAL;
	if (shrink) {
		if (flags & HR_ADJ_ROOM_DECAP_L3_IPV6)
			len_min = HR_IPV6_HLEN;
		else if (flags & HR_ADJ_ROOM_DECAP_L3_IPV4)
			len_min = HR_IPV4_HLEN;
	}
	len_cur = skb_len(c) - (uint32_t)network_offset(c);
	if ((shrink && (abs_diff >= len_cur || len_cur - abs_diff < len_min)) ||
	    (!shrink && skb_len(c) + abs_diff > HR_SKB_MAX_LEN &&
	     !skb_is_gso(c)))
		return -ENOTSUPP;
	return shrink ? net_shrink(c, off, abs_diff, flags) :
			net_grow(c, off, abs_diff, flags);
}

static uint64_t skb_adjust_room(uint64_t r1, uint64_t len_diff, uint64_t mode,
				uint64_t flags, uint64_t r5, struct hr_run *run)
{
	struct hr_tc_ctx *c = tc_ctx(run);
	int err = adjust_room(c, (int32_t)len_diff, (uint32_t)mode, flags);

	if (!err && !(flags & BPF_F_ADJ_ROOM_NO_CSUM_RESET))
		hr_skb_csum_reset_unnecessary(c);
	return done(run, err);
}

/* ---- protocol change ---- */

static int change_proto(struct hr_tc_ctx *c, uint16_t proto, uint64_t flags)
{
	const uint32_t diff = HR_IPV6_HLEN - HR_IPV4_HLEN;
	int err;

	if (flags)
		return -EINVAL;
	if (c->skb.protocol == htons(ETH_P_IP) && proto == htons(ETH_P_IPV6)) {
		err = net_hdr_push(c, mac_header_len(c), diff);
		if (err)
			return err;
		c->skb.protocol = htons(ETH_P_IPV6);
	} else if (c->skb.protocol == htons(ETH_P_IPV6) &&
		   proto == htons(ETH_P_IP)) {
		err = net_hdr_pop(c, mac_header_len(c), diff);
		if (err)
			return err;
		c->skb.protocol = htons(ETH_P_IP);
	} else {
		return -ENOTSUPP;
	}
	c->skb.hash = 0; /* skb_clear_hash */
	return 0;
}

static uint64_t skb_change_proto(uint64_t r1, uint64_t proto, uint64_t flags,
				 uint64_t r4, uint64_t r5, struct hr_run *run)
{
	return done(run, change_proto(tc_ctx(run), (uint16_t)proto, flags));
}

/* ---- VLAN ---- */

static bool eth_type_vlan(uint32_t proto)
{
	return proto == htons(ETH_P_8021Q) || proto == htons(ETH_P_8021AD);
}

static void vlan_hwaccel_put(struct hr_tc_ctx *c, uint16_t proto, uint16_t tci)
{
	c->skb.vlan_proto = proto;
	c->skb.vlan_tci = tci;
	/* skb_vlan_tag_present is vlan_all != 0. */
	c->skb.vlan_present = proto || tci;
}

/* __vlan_insert_tag of the accelerated tag, as skb_vlan_push does. */
static int vlan_insert(struct hr_tc_ctx *c)
{
	uint16_t proto = (uint16_t)c->skb.vlan_proto;
	uint16_t tci = htons((uint16_t)c->skb.vlan_tci);
	int err;

	if (c->mac_header != data_off(c))
		return -EINVAL;
	err = skb_room(c, HR_VLAN_HLEN, 0);
	if (err)
		return -ENOMEM;
	c->data -= HR_VLAN_HLEN;
	memmove(c->data, c->data + HR_VLAN_HLEN, 2 * ETH_ALEN);
	c->mac_header -= HR_VLAN_HLEN;
	memcpy(c->data + 2 * ETH_ALEN, &proto, 2);
	memcpy(c->data + 2 * ETH_ALEN + 2, &tci, 2);
	c->skb.protocol = proto;
	c->network_header -= HR_VLAN_HLEN;
	return 0;
}

static int vlan_push(struct hr_tc_ctx *c, uint16_t proto, uint16_t tci)
{
	int err;

	if (proto != htons(ETH_P_8021Q) && proto != htons(ETH_P_8021AD))
		proto = htons(ETH_P_8021Q);
	if (c->skb.vlan_present) {
		err = vlan_insert(c);
		if (err)
			return err;
	}
	vlan_hwaccel_put(c, proto, tci);
	return 0;
}

/* vlan_set_encap_proto: the protocol behind a removed tag. */
static void vlan_encap_proto(struct hr_tc_ctx *c, const uint8_t *vhdr)
{
	uint16_t proto, raw = 0;

	memcpy(&proto, vhdr + 2, 2);
	if (ntohs(proto) >= ETH_P_802_3_MIN) {
		c->skb.protocol = proto;
		return;
	}
	if (vhdr + 6 <= c->data_end)
		memcpy(&raw, vhdr + 4, 2);
	c->skb.protocol = raw == 0xffff ? htons(ETH_P_802_3) :
					  htons(ETH_P_802_2);
}

/* __skb_vlan_pop: the tag in the packet out, its TCI in *@tci. */
static int vlan_pop_packet(struct hr_tc_ctx *c, uint16_t *tci)
{
	uint16_t v;

	if (c->mac_header != data_off(c))
		return -EINVAL;
	if (skb_len(c) < ETH_HLEN + HR_VLAN_HLEN)
		return -ENOMEM;
	memcpy(&v, c->data + ETH_HLEN, 2);
	*tci = ntohs(v);
	memmove(c->data + HR_VLAN_HLEN, c->data, 2 * ETH_ALEN);
	vlan_encap_proto(c, c->data + ETH_HLEN);
	c->data += HR_VLAN_HLEN;
	c->mac_header += HR_VLAN_HLEN;
	if (network_offset(c) < ETH_HLEN)
		c->network_header = (uint16_t)(data_off(c) + ETH_HLEN);
	return 0;
}

static int vlan_pop(struct hr_tc_ctx *c)
{
	uint16_t proto, tci;
	int err;

	if (c->skb.vlan_present) {
		vlan_hwaccel_put(c, 0, 0);
	} else {
		if (!eth_type_vlan(c->skb.protocol))
			return 0;
		err = vlan_pop_packet(c, &tci);
		if (err)
			return err;
	}
	/* The next tag in the packet becomes the accelerated one. */
	if (!eth_type_vlan(c->skb.protocol))
		return 0;
	proto = (uint16_t)c->skb.protocol;
	err = vlan_pop_packet(c, &tci);
	if (err)
		return err;
	vlan_hwaccel_put(c, proto, tci);
	return 0;
}

static uint64_t skb_vlan_push(uint64_t r1, uint64_t proto, uint64_t tci,
			      uint64_t r4, uint64_t r5, struct hr_run *run)
{
	return done(run,
		    vlan_push(tc_ctx(run), (uint16_t)proto, (uint16_t)tci));
}

static uint64_t skb_vlan_pop(uint64_t r1, uint64_t r2, uint64_t r3, uint64_t r4,
			     uint64_t r5, struct hr_run *run)
{
	return done(run, vlan_pop(tc_ctx(run)));
}

/* ---- redirects ---- */

/* Internal redirect flags the kernel keeps out of user reach. */
#define HR_F_REDIRECT_INTERNAL (0x7ull << 1)

/*
 * Whether @ifindex names a device: in a test run only the loopback device
 * (1) exists, as in BPF_PROG_TEST_RUN; in the datapath the datapath's.
 */
static bool ifindex_exists(const struct hr_tc_ctx *c, uint32_t ifindex)
{
	if (c->s && c->s->dev && c->s->dev->dp)
		return hr_dev_get_by_index(c->s->dev->dp, ifindex) != NULL;
	return ifindex == 1;
}

/*
 * bpf_clone_redirect: the clone is recorded (target, count), not sent;
 * the result is what the kernel returns for a clone that was sent
 * (NET_XMIT_SUCCESS / NET_RX_SUCCESS).
 */
static int clone_redirect(struct hr_tc_ctx *c, uint32_t ifindex, uint64_t flags)
{
	if (flags & (~(uint64_t)BPF_F_INGRESS | HR_F_REDIRECT_INTERNAL))
		return -EINVAL;
	if (!ifindex_exists(c, ifindex))
		return -EINVAL;
	/* skb_clone, then bpf_try_make_head_writable: the original, now
	 * cloned, gets a head of its own (pskb_expand_head), whatever
	 * becomes of the clone. */
	c->meta_len = 0;
	/* __bpf_redirect_common: a link-layer header must be carried. */
	if (c->mac_header >= c->network_header)
		return -ERANGE;
	c->clone_cnt++;
	c->clone_ifindex = ifindex;
	c->clone_flags = flags;
	return 0;
}

static uint64_t skb_clone_redirect(uint64_t r1, uint64_t ifindex,
				   uint64_t flags, uint64_t r4, uint64_t r5,
				   struct hr_run *run)
{
	return done(run, clone_redirect(tc_ctx(run), (uint32_t)ifindex, flags));
}

static uint64_t tc_redirect(uint64_t ifindex, uint64_t flags, uint64_t r3,
			    uint64_t r4, uint64_t r5, struct hr_run *run)
{
	struct hr_tc_ctx *c = run->priv;

	if (flags & (~(uint64_t)BPF_F_INGRESS | HR_F_REDIRECT_INTERNAL))
		return TC_ACT_SHOT;
	c->redirect_ifindex = (uint32_t)ifindex;
	c->redirect_flags = flags;
	return TC_ACT_REDIRECT;
}

const struct hr_helper hr_helper_skb_store_bytes = {
	.id = BPF_FUNC_skb_store_bytes,
	.name = "bpf_skb_store_bytes",
	.fn = skb_store_bytes,
};

const struct hr_helper hr_helper_l3_csum_replace = {
	.id = BPF_FUNC_l3_csum_replace,
	.name = "bpf_l3_csum_replace",
	.fn = skb_l3_csum_replace,
};

const struct hr_helper hr_helper_l4_csum_replace = {
	.id = BPF_FUNC_l4_csum_replace,
	.name = "bpf_l4_csum_replace",
	.fn = skb_l4_csum_replace,
};

const struct hr_helper hr_helper_clone_redirect = {
	.id = BPF_FUNC_clone_redirect,
	.name = "bpf_clone_redirect",
	.fn = skb_clone_redirect,
};

const struct hr_helper hr_helper_skb_vlan_push = {
	.id = BPF_FUNC_skb_vlan_push,
	.name = "bpf_skb_vlan_push",
	.fn = skb_vlan_push,
};

const struct hr_helper hr_helper_skb_vlan_pop = {
	.id = BPF_FUNC_skb_vlan_pop,
	.name = "bpf_skb_vlan_pop",
	.fn = skb_vlan_pop,
};

const struct hr_helper hr_helper_tc_redirect = {
	.id = BPF_FUNC_redirect,
	.name = "bpf_redirect",
	.fn = tc_redirect,
};

const struct hr_helper hr_helper_skb_load_bytes = {
	.id = BPF_FUNC_skb_load_bytes,
	.name = "bpf_skb_load_bytes",
	.fn = skb_load_bytes,
};

const struct hr_helper hr_helper_skb_load_bytes_relative = {
	.id = BPF_FUNC_skb_load_bytes_relative,
	.name = "bpf_skb_load_bytes_relative",
	.fn = skb_load_bytes_relative,
};

const struct hr_helper hr_helper_skb_change_type = {
	.id = BPF_FUNC_skb_change_type,
	.name = "bpf_skb_change_type",
	.fn = skb_change_type,
};

const struct hr_helper hr_helper_skb_change_proto = {
	.id = BPF_FUNC_skb_change_proto,
	.name = "bpf_skb_change_proto",
	.fn = skb_change_proto,
};

const struct hr_helper hr_helper_skb_change_tail = {
	.id = BPF_FUNC_skb_change_tail,
	.name = "bpf_skb_change_tail",
	.fn = skb_change_tail,
};

const struct hr_helper hr_helper_skb_pull_data = {
	.id = BPF_FUNC_skb_pull_data,
	.name = "bpf_skb_pull_data",
	.fn = skb_pull_data,
};

const struct hr_helper hr_helper_skb_change_head = {
	.id = BPF_FUNC_skb_change_head,
	.name = "bpf_skb_change_head",
	.fn = skb_change_head,
};

const struct hr_helper hr_helper_skb_adjust_room = {
	.id = BPF_FUNC_skb_adjust_room,
	.name = "bpf_skb_adjust_room",
	.fn = skb_adjust_room,
};
