/* SPDX-License-Identifier: MIT */
/*
 * Creating devices: the generator, pcap files, veth pairs and sinks. Each
 * function registers the new device with the datapath @dp (which gives it
 * its ifindex) and returns it in @dev; 0 or a negative errno. Option
 * structs carry their own size (HR_OPTS); NULL options mean defaults.
 */
#ifndef HEADROOM_DEVICES_H
#define HEADROOM_DEVICES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "headroom/opts.h"

#ifdef __cplusplus
extern "C" {
#endif

struct hr_datapath;
struct hr_dev;

#define HR_GEN_PKT_MIN 60u
/* 4096-byte frame - 256 headroom - 320 skb_shared_info tailroom. */
#define HR_GEN_PKT_MAX 3520u

/*
 * The generator, like pktgen. Flow f (0 .. flows - 1) uses source address
 * src_addr + f % src_addr_count, destination address dst_addr + f %
 * dst_addr_count (counting in the last 32 bits), source port
 * src_port_min + f % (source port range) and the same for the
 * destination port; packets go round robin over the flows. A flow lands
 * on RX queue (RSS hash % nrxq), as a NIC's indirection table.
 */
struct hr_gen_opts {
	size_t sz;
	uint8_t src_mac[6];
	uint8_t dst_mac[6];
	/* 4 (default) or 6. */
	int ip_version;
	/* IPPROTO_UDP (default), IPPROTO_TCP, IPPROTO_ICMP (ICMPv6 for
	 * IPv6: either IPPROTO_ICMP or IPPROTO_ICMPV6). */
	int l4_proto;
	/* Addresses in network order; IPv4 in the first 4 bytes. Zero: 
	 * 198.18.0.1 -> 198.18.1.1 (fc00::1 -> fc00::1:1 for IPv6). */
	uint8_t src_addr[16];
	uint8_t dst_addr[16];
	uint32_t src_addr_count; /* 0: 1 */
	uint32_t dst_addr_count;
	/* Host order; 0/0: 9 (discard). A max below min means min. */
	uint16_t src_port_min, src_port_max;
	uint16_t dst_port_min, dst_port_max;
	uint32_t flows; /* 0: 1 */
	/* Bytes the XDP program sees (data_end - data), 60 .. 3520 and at
	 * least the headers; 0: 60. */
	uint32_t pkt_size;
	/* 802.1Q tag: in the packet, or stripped and reported through
	 * bpf_xdp_metadata_rx_vlan_tag (vlan_offload). */
	bool vlan;
	bool vlan_offload;
	uint16_t vlan_id;
	uint8_t vlan_prio;
	/* Stop after @count packets (0: no limit) or @duration_ns. */
	uint64_t count;
	uint64_t duration_ns;
	/* Packets a second over all queues (0: as fast as possible). */
	uint64_t rate_pps;
	unsigned int nrxq; /* 0: 1 */
	uint32_t pool_frames; /* 0: 4096 */
	/* Report RX hints (hash, timestamp, VLAN when offloaded); default
	 * on, set no_hints to make a device without them (-EOPNOTSUPP). */
	bool no_hints;
	/* The device has no data_meta support (data_meta = data + 1). */
	bool no_meta;
};

int hr_dev_gen_create(struct hr_datapath *dp, const char *name,
		      const struct hr_gen_opts *opts, struct hr_dev **dev);
/* Packets the generator has produced so far, over all queues. */
uint64_t hr_dev_gen_sent(struct hr_dev *dev);

/*
 * Packets from a pcap or pcapng file, read at creation. Hints, optional,
 * come from a JSON-lines file, one object a line:
 *   {"index":N,"hash":H,"rss_type":T,"timestamp":TS,"vlan_proto":P,
 *    "vlan_tci":C}
 * where index counts the file's packets from 0 (oversized ones too). A
 * packet without a line, or a line
 * without "hash" / "timestamp" / "vlan_tci", has no such hint (-ENODATA);
 * rss_type defaults to 0 and vlan_proto to 0x8100 (both host order).
 * Frames the device transmits (XDP_TX, redirects to it) go to @out_path.
 */
struct hr_pcap_opts {
	size_t sz;
	const char *path;
	const char *hints_path; /* NULL: no hints (-ENODATA for all) */
	const char *out_path; /* NULL: transmitted frames are counted only */
	uint32_t pool_frames; /* 0: 4096 */
	/* Replay the file this many times (0: once). */
	uint32_t loops;
	bool no_meta;
};

int hr_dev_pcap_create(struct hr_datapath *dp, const char *name,
		       const struct hr_pcap_opts *opts, struct hr_dev **dev);
/* Packets read from the file (those within the frame size limit). */
uint64_t hr_dev_pcap_packets(struct hr_dev *dev);
/* Packets of the file larger than 3520 bytes: dropped at read. */
uint64_t hr_dev_pcap_oversized(struct hr_dev *dev);
/* 0, or the -errno that stopped reading (-EIO: truncated or damaged). */
int hr_dev_pcap_read_error(struct hr_dev *dev);

/* A veth pair; frames xmitted on one arrive at the other's rings. */
struct hr_veth_opts {
	size_t sz;
	unsigned int nrxq; /* queues of each end; 0: 1 */
	uint32_t mtu; /* 0: 1500 */
	uint32_t pool_frames; /* 0: 4096 */
};

int hr_dev_veth_create_pair(struct hr_datapath *dp, const char *name_a,
			    const char *name_b, const struct hr_veth_opts *opts,
			    struct hr_dev **a, struct hr_dev **b);
/* The other end of a veth. */
struct hr_dev *hr_dev_veth_peer(struct hr_dev *dev);

/*
 * What transmitting on a veth end did, summed over workers: frames put on
 * the peer's rings, and frames refused (freed and counted as xmit or TX
 * errors by the caller) because they exceeded the peer's MTU + 18, met a
 * full ring, or the peer had no NAPI (no XDP program, or down: -ENXIO).
 * The kernel's peer_tq_xdp_xmit and peer_tq_xdp_xmit_err, split by cause.
 */
struct hr_veth_stats {
	uint64_t xmit;
	uint64_t xmit_err_mtu;
	uint64_t xmit_err_ring_full;
	uint64_t xmit_err_enxio;
} __attribute__((aligned(64)));

void hr_dev_veth_stats(struct hr_dev *dev, struct hr_veth_stats *out);

/* A sink: counts delivered skbs (and frames xmitted to it), optionally
 * writing them to a pcap file. */
struct hr_sink_opts {
	size_t sz;
	const char *pcap_path;
	/* Or pcapng (classic pcap for a ".pcap" name) through libwiretap,
	 * each packet with comments Wireshark shows (frame.comment): "hr-skb:
	 * len N mark M priority P tc_index T tc_classid C hash H" and
	 * "hr-meta: HEX" (the skb's metadata) for delivered skbs, "hr-xmit:
	 * len N" and "hr-meta: HEX" for frames transmitted to the sink. */
	const char *pcapng_path;
};

int hr_dev_sink_create(struct hr_datapath *dp, const char *name,
		       const struct hr_sink_opts *opts, struct hr_dev **dev);
/* Packets written to the sink's pcap file. */
uint64_t hr_dev_sink_written(struct hr_dev *dev);

/*
 * Real interfaces (docs/real-interfaces.md). All three need root, or
 * CAP_NET_ADMIN and CAP_NET_RAW (and CAP_BPF for afxdp's kernel program).
 *
 * afxdp: RX queues 0 .. nrxq - 1 of kernel interface @ifname through one
 * AF_XDP socket each, sharing one UMEM made of the device's frames. A
 * kernel program of headroom's (xsk_hints.o), device-bound where the
 * driver implements the XDP metadata kfuncs, is attached (native mode,
 * through a bpf_link: detached when the process ends, however it ends)
 * and hands each frame over with the kernel's RX hints, which the user's
 * program then reads through the same kfuncs: -ENODATA when the kernel
 * had none for the packet, -EOPNOTSUPP when the driver has no such
 * kfunc. Frames transmitted on the device leave through the sockets' TX
 * rings. Multi-buffer frames (XDP_USE_SG) are refused (-EOPNOTSUPP).
 */
struct hr_afxdp_opts {
	size_t sz;
	unsigned int nrxq; /* 0: 1 */
	uint32_t pool_frames; /* the UMEM, 4 KiB frames; 0: 4096 */
	uint32_t ring_size; /* each ring, a power of 2; 0: 2048 */
	/* 1: zero copy or fail; -1: copy mode; 0: zero copy where the
	 * driver allows it, else copy. */
	int zerocopy;
	bool no_need_wakeup; /* no XDP_USE_NEED_WAKEUP */
	bool busy_poll; /* SO_PREFER_BUSY_POLL, SO_BUSY_POLL 20 us */
	bool skb_mode; /* the kernel program in generic XDP (no hints) */
	bool frags; /* XDP_USE_SG: refused */
	/* The kernel program hands frames over without hints (every hint
	 * -EOPNOTSUPP): xsk_bare. */
	bool no_hints;
	/* The kernel program; NULL: $HEADROOM_DATADIR/progs/xsk_hints.o or
	 * the installed one. */
	const char *kern_obj;
};

int hr_dev_afxdp_create(struct hr_datapath *dp, const char *name,
			const char *ifname, const struct hr_afxdp_opts *opts,
			struct hr_dev **dev);

struct hr_afxdp_stats {
	size_t sz;
	bool bound; /* the kernel program is device-bound (has hints) */
	bool zerocopy;
	bool need_wakeup;
	bool busy_poll;
	/* The kernel program's counters: frames redirected to a socket,
	 * passed for want of a socket on their queue, passed because the
	 * metadata could not be written. */
	uint64_t kern_redirect, kern_no_socket, kern_meta_err;
	/* XDP_STATISTICS summed over the sockets. */
	uint64_t rx_dropped, rx_invalid_descs, tx_invalid_descs;
	uint64_t rx_ring_full, rx_fill_ring_empty, tx_ring_empty;
	/* Frames put on TX rings, completed, copied in from another
	 * device's pool; frames that came without our metadata. */
	uint64_t tx_sent, tx_completed, tx_copied, rx_no_meta;
	/* The kernel program writes hints in front of each frame (false:
	 * xsk_bare, no hints). */
	bool meta;
	/* ... as the packet's first bytes, which the device takes off (the
	 * kernel refuses bpf_xdp_adjust_meta: xsk_hints_head). */
	bool meta_in_data;
};

/* Fills what @st->sz covers; 0 or -errno. */
int hr_dev_afxdp_stats(struct hr_dev *dev, struct hr_afxdp_stats *st);
/* The kernel ifindex of the interface, or -EINVAL. */
int hr_dev_afxdp_kernel_ifindex(const struct hr_dev *dev);

/*
 * afpacket: @ifname through AF_PACKET sockets, one TPACKET_V3 RX ring per
 * queue joined in a PACKET_FANOUT_HASH group (the kernel spreads flows
 * over the queues), transmit with sendmmsg(). Hints computed in software
 * as the generator does: Toeplitz hash with the standard key over the
 * addresses (and ports for TCP and UDP), its rss type, and the ring's
 * receive timestamp (CLOCK_REALTIME ns).
 */
struct hr_afpacket_opts {
	size_t sz;
	unsigned int nrxq; /* 0: 1 */
	uint32_t pool_frames; /* 0: 4096 */
	uint32_t block_size; /* ring block, a multiple of 4096; 0: 1 MiB */
	uint32_t block_count; /* 0: 8 */
	/* Also see what the host itself sends on @ifname (PACKET_OUTGOING
	 * is skipped by default, so headroom's own transmits do not come
	 * back). */
	bool outgoing;
};

int hr_dev_afpacket_create(struct hr_datapath *dp, const char *name,
			   const char *ifname,
			   const struct hr_afpacket_opts *opts,
			   struct hr_dev **dev);

struct hr_afpacket_stats {
	size_t sz;
	uint64_t tp_packets, tp_drops; /* PACKET_STATISTICS, all rings */
	uint64_t tx_sent, tx_errors;
};

int hr_dev_afpacket_stats(struct hr_dev *dev, struct hr_afpacket_stats *st);

/*
 * tap: a TAP interface (/dev/net/tun, IFF_TAP | IFF_NO_PI, with
 * IFF_VNET_HDR: offloaded checksums are completed and GSO packets
 * refused as the kernel would see them) named @ifname, made here (or
 * attached to when it exists), brought up. Frames transmitted on the
 * device and skbs delivered to it (as a datapath device's stack) go into
 * the kernel's network stack; what the kernel sends on the interface
 * comes in as RX, so the device may be XDP's ingress too. The interface
 * goes away with the device (or the process) unless it was persistent.
 */
struct hr_tap_opts {
	size_t sz;
	uint32_t pool_frames; /* 0: 4096 */
	bool no_vnet_hdr; /* open without IFF_VNET_HDR */
};

int hr_dev_tap_create(struct hr_datapath *dp, const char *name,
		      const char *ifname, const struct hr_tap_opts *opts,
		      struct hr_dev **dev);

struct hr_tap_stats {
	size_t sz;
	uint64_t rx_frames; /* read from the kernel */
	uint64_t rx_gso_dropped; /* GSO frames we cannot split */
	uint64_t tx_frames; /* written into the kernel */
	uint64_t tx_errors;
};

int hr_dev_tap_stats(struct hr_dev *dev, struct hr_tap_stats *st);
/* The file descriptor of the TAP queue (for poll), or -EINVAL. */
int hr_dev_tap_fd(const struct hr_dev *dev);

#ifdef __cplusplus
}
#endif

#endif /* HEADROOM_DEVICES_H */
