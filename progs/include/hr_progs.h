/* SPDX-License-Identifier: MIT */
/*
 * Shared between the BPF programs in progs/ and the C code that checks
 * their output (tests, the demo): metadata layouts, status codes, map keys
 * and the kernel enums that the 6.1 UAPI headers lack.
 *
 * Only fixed-width types: this header is compiled both by clang -target bpf
 * and by the host compiler.
 */
#ifndef HR_PROGS_H
#define HR_PROGS_H

#include <linux/types.h>

/*
 * enum xdp_rss_hash_type, from include/net/xdp.h (kernel-internal, so not
 * in the UAPI). The composite values are what drivers report.
 */
#ifndef HR_HAVE_XDP_RSS_HASH_TYPE
#define HR_HAVE_XDP_RSS_HASH_TYPE
enum xdp_rss_hash_type {
	XDP_RSS_L3_IPV4 = 1U << 0,
	XDP_RSS_L3_IPV6 = 1U << 1,
	XDP_RSS_L3_DYNHDR = 1U << 2,
	XDP_RSS_L4 = 1U << 3,
	XDP_RSS_L4_TCP = 1U << 4,
	XDP_RSS_L4_UDP = 1U << 5,
	XDP_RSS_L4_SCTP = 1U << 6,
	XDP_RSS_L4_IPSEC = 1U << 7,
	XDP_RSS_L4_ICMP = 1U << 8,

	XDP_RSS_TYPE_NONE = 0,
	XDP_RSS_TYPE_L2 = XDP_RSS_TYPE_NONE,
	XDP_RSS_TYPE_L3_IPV4 = XDP_RSS_L3_IPV4,
	XDP_RSS_TYPE_L3_IPV6 = XDP_RSS_L3_IPV6,
	XDP_RSS_TYPE_L3_IPV4_OPT = XDP_RSS_L3_IPV4 | XDP_RSS_L3_DYNHDR,
	XDP_RSS_TYPE_L3_IPV6_EX = XDP_RSS_L3_IPV6 | XDP_RSS_L3_DYNHDR,
	XDP_RSS_TYPE_L4_ANY = XDP_RSS_L4,
	XDP_RSS_TYPE_L4_IPV4_TCP = XDP_RSS_L3_IPV4 | XDP_RSS_L4 |
				   XDP_RSS_L4_TCP,
	XDP_RSS_TYPE_L4_IPV4_UDP = XDP_RSS_L3_IPV4 | XDP_RSS_L4 |
				   XDP_RSS_L4_UDP,
	XDP_RSS_TYPE_L4_IPV4_SCTP = XDP_RSS_L3_IPV4 | XDP_RSS_L4 |
				    XDP_RSS_L4_SCTP,
	XDP_RSS_TYPE_L4_IPV4_IPSEC = XDP_RSS_L3_IPV4 | XDP_RSS_L4 |
				     XDP_RSS_L4_IPSEC,
	XDP_RSS_TYPE_L4_IPV4_ICMP = XDP_RSS_L3_IPV4 | XDP_RSS_L4 |
				    XDP_RSS_L4_ICMP,
	XDP_RSS_TYPE_L4_IPV6_TCP = XDP_RSS_L3_IPV6 | XDP_RSS_L4 |
				   XDP_RSS_L4_TCP,
	XDP_RSS_TYPE_L4_IPV6_UDP = XDP_RSS_L3_IPV6 | XDP_RSS_L4 |
				   XDP_RSS_L4_UDP,
	XDP_RSS_TYPE_L4_IPV6_SCTP = XDP_RSS_L3_IPV6 | XDP_RSS_L4 |
				    XDP_RSS_L4_SCTP,
	XDP_RSS_TYPE_L4_IPV6_IPSEC = XDP_RSS_L3_IPV6 | XDP_RSS_L4 |
				     XDP_RSS_L4_IPSEC,
	XDP_RSS_TYPE_L4_IPV6_ICMP = XDP_RSS_L3_IPV6 | XDP_RSS_L4 |
				    XDP_RSS_L4_ICMP,
	XDP_RSS_TYPE_L4_IPV6_TCP_EX = XDP_RSS_TYPE_L4_IPV6_TCP |
				      XDP_RSS_L3_DYNHDR,
	XDP_RSS_TYPE_L4_IPV6_UDP_EX = XDP_RSS_TYPE_L4_IPV6_UDP |
				      XDP_RSS_L3_DYNHDR,
	XDP_RSS_TYPE_L4_IPV6_SCTP_EX = XDP_RSS_TYPE_L4_IPV6_SCTP |
				       XDP_RSS_L3_DYNHDR,
};
#endif

/*
 * The adjust programs (xdp_adjust_meta, _head, _tail) take their
 * arguments from the packet itself, so one object covers every case: two
 * native-endian 32-bit deltas in the source MAC (bytes 6..13), which every
 * packet of at least ETH_HLEN bytes has. The second delta is applied only
 * when the first call succeeded; 0 means "no second call".
 */
#define HR_ADJ_DELTA1_OFF 6
#define HR_ADJ_DELTA2_OFF 10

/* Written into each new 4-byte word of metadata by xdp_adjust_meta. */
#define HR_META_MARK 0xa5a50000u

/*
 * Return value of the adjust programs: XDP_PASS when every call
 * succeeded, else an encoding of the failing call and its errno, so a
 * test sees exactly which call failed and how.
 */
#define HR_ADJ_RET_SHORT 0x7fff0000u /* packet too short for the deltas */
#define HR_ADJ_RET_ERR1(err) (0x10000u | (__u32)(-(err)))
#define HR_ADJ_RET_ERR2(err) (0x20000u | (__u32)(-(err)))

/* xdp_read_meta's report, written over the start of the packet. */
struct hr_read_meta_out {
	__u32 metalen;
	__u8 first[8]; /* first bytes of the metadata, zero past metalen */
};

/* xdp_parse's result, prepended to the metadata. */
enum hr_parse_status {
	HR_PARSE_OK = 0,
	HR_PARSE_TRUNC_ETH = 1,
	HR_PARSE_TRUNC_VLAN = 2,
	HR_PARSE_TRUNC_L3 = 3,
	HR_PARSE_BAD_L3 = 4, /* IHL < 5, version mismatch */
	HR_PARSE_TRUNC_EXT = 5, /* an IPv6 extension header */
	HR_PARSE_TOO_MANY_EXT = 6,
	HR_PARSE_TRUNC_L4 = 7,
	HR_PARSE_NOT_IP = 8, /* not an error: ARP and friends */
	HR_PARSE_FRAGMENT = 9, /* a non-first fragment: no L4 header */
	HR_PARSE_OTHER_L4 = 10,
};

#define HR_PARSE_MAX_VLANS 2
#define HR_PARSE_MAX_EXT 4

struct hr_parse_meta {
	__u8 status; /* enum hr_parse_status */
	__u8 vlan_count;
	__u8 l4_proto; /* IPPROTO_*, after IPv6 extension headers */
	__u8 ext_count; /* IPv6 extension headers walked */
	__be16 ethertype; /* innermost */
	__u16 l4_off;
	__u16 vlan_id[HR_PARSE_MAX_VLANS]; /* host order, 12 bits */
	__be16 sport; /* ICMP: type << 8 | code */
	__be16 dport; /* ICMP: echo id */
	__u8 tcp_flags;
	__u8 ttl; /* or hop limit */
	__u8 ip_opt_len; /* IPv4 options bytes */
	__u8 frag; /* 1: a fragment; 2: a non-first fragment */
	__be32 src; /* IPv4, or an IPv6 address's four words XORed */
	__be32 dst;
	__u16 pkt_len; /* data_end - data */
	__u8 l3_off;
	__u8 pad;
};

_Static_assert(sizeof(struct hr_parse_meta) == 32, "parse meta is 32 bytes");

/* xdp_counter's per-protocol slots (PERCPU_ARRAY index). */
enum hr_count_slot {
	HR_CNT_OTHER = 0,
	HR_CNT_IPV4 = 1,
	HR_CNT_IPV6 = 2,
	HR_CNT_ARP = 3,
	HR_CNT_TCP = 4,
	HR_CNT_UDP = 5,
	HR_CNT_ICMP = 6,
	HR_CNT_RUNT = 7,
	HR_CNT_MAX = 8,
};

/* xdp_demo's metadata, read back by tc_read_meta and the demo. */
#define HR_DEMO_MAGIC 0x48524d44u /* "HRMD" */

struct hr_demo_meta {
	__u32 magic;
	__u32 pkt_len;
	__u32 counter;
	__be16 ethertype;
	__u16 pad;
};

_Static_assert(sizeof(struct hr_demo_meta) == 16, "demo meta is 16 bytes");

#endif /* HR_PROGS_H */
