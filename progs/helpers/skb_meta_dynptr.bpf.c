// SPDX-License-Identifier: MIT
/*
 * The skb metadata dynptr (bpf_dynptr_from_skb_meta, Linux 6.18) and the
 * type-independent dynptr kfuncs on it, case by case (the layouts are in
 * include/hr_skb_meta.h; tests/test_skb_meta_dynptr*.c run it):
 *
 *   smd_xdp      strips the filler, makes the case's metadata length
 *                with bpf_xdp_adjust_meta and fills it (SMD_META_BYTE),
 *                PASS.
 *   smd_tc       at tc ingress: creates the dynptr, reads, slices and
 *                writes at the case's offset and length, clones and
 *                adjusts the clone, copies between metadata, clone and
 *                packet, memsets, repeats the calls on a dynptr whose
 *                creation was refused, and records every result and the
 *                bytes (metadata through the dynptr and through
 *                data_meta, packet) in smd_recs.
 *   smd_xdp_ops  the same type-independent kfuncs on an XDP dynptr,
 *                results written back into the packet.
 */
#include <stdbool.h>
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/pkt_cls.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_endian.h>

#include "hr_dynptr.h"
#include "hr_skb_meta.h"

/*
 * The rdwr slice and a store through it. skb_meta_dynptr_nordwr.bpf.c
 * builds this file again for kernels that refuse bpf_dynptr_slice_rdwr
 * (include/hr_rdwr_emul.h, tests/lib/kernel_side.h).
 */
#ifndef SLICE_RDWR
#define SLICE_RDWR(d, off, buf, len) bpf_dynptr_slice_rdwr(d, off, buf, len)
#define SLICE_STORE(d, off, p, buf, i, v) ((p)[i] = (v))
#endif

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, SMD_NRECS);
	__type(key, __u32);
	__type(value, struct smd_rec);
} smd_recs SEC(".maps");

/* The source of the writes: SMD_PAT_BYTE(i), filled by the test. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u8[SMD_RD_MAX]);
} smd_pat SEC(".maps");

SEC("xdp")
int smd_xdp(struct xdp_md *ctx)
{
	__u8 *data = (void *)(long)ctx->data;
	__u8 *end = (void *)(long)ctx->data_end;
	struct smd_case c;
	struct smd_rec *rec;
	__u32 key;
	int rc;

	if (data + SMD_FILLER + SMD_ETH_HLEN + sizeof(c) > end)
		return XDP_PASS;
	if (data[SMD_FILLER + 12] != (SMD_ETH_P >> 8) ||
	    data[SMD_FILLER + 13] != (SMD_ETH_P & 0xff))
		return XDP_PASS;
	__builtin_memcpy(&c, data + SMD_FILLER + SMD_ETH_HLEN, sizeof(c));
	if (c.magic != SMD_MAGIC)
		return XDP_PASS;
	if (bpf_xdp_adjust_head(ctx, SMD_FILLER))
		return XDP_DROP;
	key = c.idx;
	rec = bpf_map_lookup_elem(&smd_recs, &key);
	rc = hr_meta_make(ctx, c.meta_len, key);
	if (rec)
		rec->xdp = rc;
	return XDP_PASS;
}

/* Slice of @len at @off: its kind (0 NULL, 1 not the buffer, 2 the
 * buffer) and first bytes; with @rw through the rdwr kfunc, and then its
 * first byte is bumped by @bump. */
#define SLICE(dp, off, buf, len, kind, first, rw, bump)                     \
	do {                                                                \
		__u8 *p_ = (rw) ? SLICE_RDWR(dp, off, buf, len) :           \
				  bpf_dynptr_slice(dp, off, buf, len);      \
		kind = p_ ? (p_ == (__u8 *)(buf) ? 2 : 1) : 0;              \
		if (p_) {                                                   \
			__builtin_memcpy(first, p_, (len) < 4 ? (len) : 4); \
			if (rw)                                             \
				SLICE_STORE(dp, off, p_, buf, 0,            \
					    p_[0] + (bump));                \
		}                                                           \
	} while (0)

SEC("tc")
int smd_tc(struct __sk_buff *skb)
{
	struct bpf_dynptr m, m2, c, d, n, nc;
	__u8 buf[SMD_MAX_META], tmp[4] = {}, *dm, *dd, *pat;
	struct smd_case cs;
	struct smd_rec *rec;
	__u32 key = 0, len, msz;
	__be16 proto;
	int i;

	if (bpf_skb_load_bytes(skb, 12, &proto, sizeof(proto)) ||
	    proto != bpf_htons(SMD_ETH_P) ||
	    bpf_skb_load_bytes(skb, SMD_ETH_HLEN, &cs, sizeof(cs)) ||
	    cs.magic != SMD_MAGIC)
		return TC_ACT_OK;
	pat = bpf_map_lookup_elem(&smd_pat, &key);
	key = cs.idx;
	rec = bpf_map_lookup_elem(&smd_recs, &key);
	if (!rec || !pat)
		return TC_ACT_SHOT;
	rec->seen++;
	rec->meta_len = skb->data - skb->data_meta;
	len = cs.len > SMD_RD_MAX ? SMD_RD_MAX : cs.len;

	/* Creation and reads. */
	rec->create = bpf_dynptr_from_skb_meta(skb, 0, &m);
	rec->size = bpf_dynptr_size(&m);
	rec->rdonly = bpf_dynptr_is_rdonly(&m);
	rec->is_null = bpf_dynptr_is_null(&m);
	rec->rd = bpf_dynptr_read(rec->rd_bytes, len, &m, cs.off, 0);
	rec->rd_flags = bpf_dynptr_read(tmp, 1, &m, 0, 1);
	SLICE(&m, cs.off, NULL, 1, rec->slice[0], rec->slice_bytes[0], 0, 0);
	SLICE(&m, cs.off, buf, 4, rec->slice[1], rec->slice_bytes[1], 0, 0);
	SLICE(&m, cs.off, buf, 32, rec->slice[2], rec->slice_bytes[2], 0, 0);
	SLICE(&m, cs.off, buf, SMD_MAX_META, rec->slice[3], rec->slice_bytes[3],
	      0, 0);

	/* Writes: bad flags first (the range is checked before them). */
	rec->wr_flags = bpf_dynptr_write(&m, cs.off, pat, len, cs.flags);
	rec->wr = bpf_dynptr_write(&m, cs.off, pat, len, 0);
	bpf_dynptr_from_skb_meta(skb, 0, &m2);
	/* Bounded for the verifier. */
	msz = bpf_dynptr_size(&m2) & 0xff;
	if (msz > SMD_MAX_META)
		msz = SMD_MAX_META;
	bpf_dynptr_read(rec->meta_mid, msz, &m2, 0, 0);
	SLICE(&m, cs.off, NULL, 1, rec->slice_rw[0], tmp, 1, 1);
	SLICE(&m, cs.off, buf, 4, rec->slice_rw[1], tmp, 1, 2);
	SLICE(&m, cs.off, NULL, 32, rec->slice_rw[2], tmp, 1, 3);
	SLICE(&m, cs.off, buf, SMD_MAX_META, rec->slice_rw[3], tmp, 1, 4);

	/* A clone, adjusted on its own. */
	rec->clone = bpf_dynptr_clone(&m, &c);
	rec->clone_size = bpf_dynptr_size(&c);
	rec->clone_rdonly = bpf_dynptr_is_rdonly(&c);
	rec->adjust = bpf_dynptr_adjust(&c, cs.start, cs.end);
	rec->adj_size = bpf_dynptr_size(&c);
	rec->orig_size = bpf_dynptr_size(&m);
	rec->adj_null = bpf_dynptr_is_null(&c);
	rec->adj_rd = bpf_dynptr_read(rec->adj_bytes, 4, &c, 0, 0);
	rec->adj_wr = bpf_dynptr_write(&c, 0, pat + 200, 1, 0);
	SLICE(&c, 0, NULL, 1, rec->adj_slice, &rec->adj_first, 0, 0);

	/* Copies: metadata <- clone, packet <- metadata, metadata <-
	 * packet; then a memset. */
	rec->copy_mm = bpf_dynptr_copy(&m, cs.off, &c, 0, len);
	bpf_dynptr_from_skb(skb, 0, &d);
	rec->copy_dm = bpf_dynptr_copy(&d, SMD_PKT_OFF, &m, cs.off, len);
	rec->copy_md = bpf_dynptr_copy(&m, cs.off, &d, SMD_PKT_SRC, len);
	rec->memset = bpf_dynptr_memset(&m, cs.off, len, 0x5a);

	/* A refused creation: a null dynptr. */
	rec->n_create = bpf_dynptr_from_skb_meta(skb, cs.flags, &n);
	rec->n_null = bpf_dynptr_is_null(&n);
	rec->n_size = bpf_dynptr_size(&n);
	rec->n_rdonly = bpf_dynptr_is_rdonly(&n);
	rec->n_rd = bpf_dynptr_read(tmp, 4, &n, 0, 0);
	rec->n_wr = bpf_dynptr_write(&n, 0, pat, 1, 0);
	rec->n_slice = bpf_dynptr_slice(&n, 0, NULL, 1) != NULL;
	rec->n_slice_rw = SLICE_RDWR(&n, 0, NULL, 1) != NULL;
	rec->n_adjust = bpf_dynptr_adjust(&n, 0, 0);
	rec->n_clone = bpf_dynptr_clone(&n, &nc);
	rec->n_clone_null = bpf_dynptr_is_null(&nc);
	rec->n_copy_src = bpf_dynptr_copy(&m, 0, &n, 0, len);
	rec->n_copy_dst = bpf_dynptr_copy(&n, 0, &m, 0, len);
	rec->n_memset = bpf_dynptr_memset(&n, 0, len, 1);

	/* What data_meta shows now, and the packet. */
	dm = (void *)(long)skb->data_meta;
	dd = (void *)(long)skb->data;
#pragma unroll
	for (i = 0; i < SMD_MAX_META; i++) {
		if (dm + i + 1 > dd)
			break;
		rec->meta_end[i] = dm[i];
	}
	bpf_skb_load_bytes(skb, SMD_PKT_OFF, rec->pkt, sizeof(rec->pkt));
	return TC_ACT_SHOT;
}

/*
 * The type-independent kfuncs on an XDP dynptr. Packet bytes 0..9 are
 * the arguments (host-order u16: off, len, start, end, memset offset);
 * struct smd_ops_out goes to byte 10 on, written through the dynptr.
 */
SEC("xdp")
int smd_xdp_ops(struct xdp_md *ctx)
{
	struct bpf_dynptr d, c;
	struct smd_ops_out o = {};
	__u16 a[5] = {};

	if (bpf_dynptr_from_xdp(ctx, 0, &d))
		return XDP_ABORTED;
	if (bpf_dynptr_read(a, sizeof(a), &d, 0, 0))
		return XDP_DROP;
	o.size = bpf_dynptr_size(&d);
	o.rdonly = bpf_dynptr_is_rdonly(&d);
	o.is_null = bpf_dynptr_is_null(&d);
	o.clone = bpf_dynptr_clone(&d, &c);
	o.adjust = bpf_dynptr_adjust(&c, a[2], a[3]);
	o.clone_size = bpf_dynptr_size(&c);
	o.orig_size = bpf_dynptr_size(&d);
	o.clone_null = bpf_dynptr_is_null(&c);
	o.copy = bpf_dynptr_copy(&d, a[0], &c, 0, a[1]);
	o.memset = bpf_dynptr_memset(&d, a[4], a[1], 0xee);
	o.copy_oob = bpf_dynptr_copy(&c, 0, &d, a[0], 300);
	bpf_dynptr_write(&d, 10, &o, sizeof(o), 0);
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
