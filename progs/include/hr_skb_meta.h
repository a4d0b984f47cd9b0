/* SPDX-License-Identifier: MIT */
/*
 * The case and record layouts shared by progs/helpers/skb_meta_dynptr.bpf.c and
 * its tests (tests/lib/skb_meta_cases.h): one packet a case, one record a
 * case in the smd_recs map.
 *
 * A case packet is SMD_FILLER bytes the XDP program strips with
 * bpf_xdp_adjust_head (so that 252 bytes of metadata fit in the
 * headroom), then an Ethernet header of EtherType SMD_ETH_P, then
 * struct smd_case, then payload up to SMD_PKT_LEN bytes.
 */
#ifndef HR_PROGS_SKB_META_H
#define HR_PROGS_SKB_META_H

#include <linux/types.h>

#include "hr_meta_make.h"

#define SMD_ETH_P 0x88b6
#define SMD_MAGIC 0x736d6470u /* "smdp" */
#define SMD_FILLER 64
#define SMD_ETH_HLEN 14
#define SMD_PKT_LEN 420 /* what tc sees: Ethernet header onwards */
#define SMD_MAX_META 252
#define SMD_NRECS 128
#define SMD_RD_MAX 256 /* reads and writes are clamped to this */
#define SMD_PKT_OFF 100 /* packet bytes bpf_dynptr_copy writes to */
#define SMD_PKT_SRC 160 /* ... and reads from */
#define SMD_PKT_SNAP 256 /* packet bytes recorded from SMD_PKT_OFF */

/* The metadata byte @i of case @idx, as the XDP program writes it. */
#define SMD_META_BYTE(idx, i) HR_META_BYTE(idx, i)
/* The source of the writes: byte @i. */
#define SMD_PAT_BYTE(i) ((__u8)(0xc0u + (i)))

struct smd_case {
	__u32 magic;
	__u16 idx; /* record index */
	__u8 meta_len; /* bytes of metadata XDP makes (a multiple of 4) */
	__u8 pad;
	__u32 off; /* read, write, slices, copy, memset */
	__u32 len;
	__u32 start; /* bpf_dynptr_adjust of a clone */
	__u32 end;
	__u64 flags; /* nonzero: the bad flags of creation and write */
} __attribute__((packed));

/* Slice results: 0 NULL, 1 a pointer that is not the buffer, 2 the
 * buffer. */
#define SMD_SLICES 4 /* lengths 1, 4, 32, 252 */

struct smd_rec {
	__u32 seen; /* tc runs of this case */
	__s32 xdp; /* bpf_xdp_adjust_meta's result */
	__u32 meta_len; /* data - data_meta at tc */
	__s32 create; /* bpf_dynptr_from_skb_meta(skb, 0) */
	__u32 size;
	__u8 rdonly, is_null, slice[SMD_SLICES], slice_rw[SMD_SLICES];
	__u8 clone_rdonly, adj_null;
	__s32 rd; /* read len at off */
	__s32 rd_flags; /* the same with flags 1 */
	__s32 wr_flags; /* write len at off with the case's flags */
	__s32 wr; /* write len at off */
	__s32 clone;
	__u32 clone_size;
	__s32 adjust; /* the clone adjusted to [start, end) */
	__u32 adj_size;
	__u32 orig_size; /* the original after the clone's adjust */
	__s32 adj_rd; /* 4 bytes at 0 of the adjusted clone */
	__s32 adj_wr; /* 1 byte at 0 of it */
	__u8 adj_slice; /* slice of 1 at 0 of it */
	__u8 adj_first;
	__u8 pad2[2];
	__s32 copy_mm; /* meta at off <- adjusted clone at 0, len */
	__s32 copy_dm; /* packet at SMD_PKT_OFF <- meta at off, len */
	__s32 copy_md; /* meta at off <- packet at SMD_PKT_SRC, len */
	__s32 memset; /* meta at off, len, 0x5a */
	/* The same calls on a dynptr bpf_dynptr_from_skb_meta refused. */
	__s32 n_create;
	__u32 n_size;
	__u8 n_null, n_rdonly, n_slice, n_slice_rw;
	__u8 n_clone_null, pad3[3];
	__s32 n_rd, n_wr, n_adjust, n_clone, n_copy_src, n_copy_dst, n_memset;
	__u8 rd_bytes[SMD_RD_MAX];
	__u8 slice_bytes[SMD_SLICES][4]; /* first bytes of each slice */
	__u8 adj_bytes[4];
	__u8 meta_mid[SMD_MAX_META]; /* after the writes, through a dynptr */
	__u8 meta_end[SMD_MAX_META]; /* at the end, through data_meta */
	__u8 pkt[SMD_PKT_SNAP]; /* packet from SMD_PKT_OFF at the end */
};

/* smd_xdp_ops's results, at packet offset 10. */
struct smd_ops_out {
	__u32 size;
	__s32 clone, adjust;
	__u32 clone_size, orig_size;
	__s32 copy, memset, copy_oob;
	__u8 rdonly, is_null, clone_null, pad;
} __attribute__((packed));

#endif /* HR_PROGS_SKB_META_H */
