/* SPDX-License-Identifier: MIT */
/*
 * The case and record layouts shared by progs/helpers/skb_meta_helpers.bpf.c and
 * tests/helpers/test_skb_meta_helpers_kernel.c: what the tc skb helpers do to the
 * skb metadata (Linux 6.18), one case a packet, one record a case.
 *
 * A case is a metadata length for XDP to make and up to SMH_NOPS helper
 * calls for tc ingress to make, in the smh_cases map (by index). Its wire
 * frame is SMH_WIRE_LEN bytes: a filler of SMH_WIRE_LEN - pkt_len bytes
 * (an Ethernet header of EtherType SMH_ETH_P_FILL naming the case in its
 * source address, then SMH_FILL_BYTE bytes), then the packet tc sees,
 * whose source address names the case too. XDP strips the filler with
 * bpf_xdp_adjust_head, so that the bytes in front of the metadata are
 * the filler's, known on both sides, and the frame is large enough that
 * the kernel's veth gives it a page of its own (the layout of a headroom
 * frame: 256 bytes of headroom, 320 of shinfo at the end of 4096).
 */
#ifndef HR_PROGS_SKB_META_HELPERS_H
#define HR_PROGS_SKB_META_HELPERS_H

#include <linux/types.h>

#include "hr_meta_make.h"

#define SMH_ETH_P_FILL 0x88b7
#define SMH_MAGIC 0x736d6868u /* "smhh" */
#define SMH_WIRE_LEN 1500
#define SMH_NCASES 1024
#define SMH_NOPS 4
#define SMH_MAX_META HR_META_MAX
#define SMH_PKT_SNAP 128 /* packet bytes recorded from data */
/* Source address of both Ethernet headers: 02 'H' 'R' idx_hi idx_lo 00 */
#define SMH_SRC0 0x02
#define SMH_SRC1 'H'
#define SMH_SRC2 'R'

/* The metadata byte @i of case @idx, as XDP writes it. */
#define SMH_META_BYTE(idx, i) HR_META_BYTE(idx, i)
/* Filler byte @i (from the start of the wire frame, past its header). */
#define SMH_FILL_BYTE(idx, i) ((__u8)((idx)*13u + (i)*5u + 0x81u))
/* bpf_skb_store_bytes / bpf_dynptr_write write these 8 bytes. */
#define SMH_STORE_BYTE(i) ((__u8)(0xa0u + (i)))
#define SMH_MEMSET_BYTE 0x77
/* ifindex operand meaning "the skb's own device". */
#define SMH_SELF 0xffffffffu

enum smh_helper {
	SMH_NONE,
	SMH_VLAN_PUSH, /* a: proto (network order), b: tci */
	SMH_VLAN_POP,
	SMH_ADJUST_ROOM, /* a: len_diff (s32), b: mode, c: flags */
	SMH_CHANGE_HEAD, /* a: head_room, c: flags */
	SMH_CHANGE_TAIL, /* a: new length, c: flags */
	SMH_PULL_DATA, /* a: len */
	SMH_CHANGE_PROTO, /* a: proto (network order), c: flags */
	SMH_STORE_BYTES, /* a: offset, b: len (at most 8), c: flags */
	SMH_L3_CSUM, /* a: offset, b: from, c: to | flags << 32 */
	SMH_L4_CSUM, /* a: offset, b: from, c: to | flags << 32 */
	SMH_CLONE_REDIRECT, /* a: ifindex (SMH_SELF), c: flags */
	SMH_REDIRECT, /* a: ifindex, c: flags */
	SMH_LOAD_BYTES, /* a: offset, b: len (at most 8) */
	SMH_DYNPTR_WRITE, /* bpf_dynptr_from_skb + write; a: offset, b: len */
	/* bpf_dynptr_memset of the skb_meta dynptr made before the calls;
	 * a: offset, b: len, value SMH_MEMSET_BYTE */
	SMH_META_MEMSET,
	SMH__MAX,
};

struct smh_op {
	__u32 helper;
	__u32 a;
	__u32 b;
	__u32 pad;
	__u64 c;
};

struct smh_case {
	__u32 magic;
	__u16 idx;
	__u8 meta_len; /* bytes XDP makes (a multiple of 4) */
	__u8 nops;
	__u16 pkt_len; /* bytes tc sees at first */
	__u16 pad;
	__u32 pad2;
	struct smh_op ops[SMH_NOPS];
};

/* After each helper call. */
struct smh_step {
	__s32 rc;
	__u32 meta_len; /* data - data_meta */
	__u32 len; /* data_end - data */
	/* data (low 32 bits of the address), made data - data0 by the
	 * test */
	__s32 moved;
};

struct smh_rec {
	__u32 seen; /* tc runs of this case */
	__s32 xdp; /* bpf_xdp_adjust_meta's result */
	__u32 meta_len0; /* data - data_meta at tc before the calls */
	__s32 old_create; /* skb_meta dynptr made before the calls */
	__u32 old_size;
	__u32 protocol, vlan_present, vlan_tci, vlan_proto, len;
	__u32 data0; /* data before the calls (the test zeroes it) */
	struct smh_step step[SMH_NOPS];
	__s32 new_create; /* skb_meta dynptr made after the calls */
	__u32 new_size;
	__s32 new_rd; /* its new_size bytes */
	__u32 old_size_end; /* the first one's size after the calls */
	__s32 old_rd; /* its old_size_end bytes */
	__s32 pkt_rd;
	__u8 meta[SMH_MAX_META]; /* data_meta .. data after the calls */
	__u8 new_bytes[SMH_MAX_META];
	__u8 old_bytes[SMH_MAX_META];
	__u8 pkt[SMH_PKT_SNAP]; /* from data */
};

#endif /* HR_PROGS_SKB_META_HELPERS_H */
