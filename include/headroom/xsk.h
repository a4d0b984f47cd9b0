/* SPDX-License-Identifier: MIT */
/*
 * In-process AF_XDP-style sockets for BPF_MAP_TYPE_XSKMAP, in copy mode:
 * a umem of equal frames, a fill ring the user fills with free frame
 * addresses and an RX ring the datapath fills with descriptors of
 * received packets (both single-producer single-consumer, lock-free: the
 * worker of the bound device queue on one side, one user thread on the
 * other). bpf_redirect_map() into an XSKMAP copies the metadata and the
 * packet into a frame taken from the fill ring, as the kernel's
 * __xsk_rcv(); the descriptors become visible at the worker's flush.
 */
#ifndef HEADROOM_XSK_H
#define HEADROOM_XSK_H

#include <stddef.h>
#include <stdint.h>

#include "headroom/opts.h"

#ifdef __cplusplus
extern "C" {
#endif

struct hr_xsk;

struct hr_xsk_opts {
	size_t sz;
	uint32_t frame_size; /* 2048 or 4096 (default 4096) */
	uint32_t frame_count; /* umem frames (default 4096) */
	uint32_t rx_size; /* RX ring entries, a power of two (2048) */
	uint32_t fill_size; /* fill ring entries, a power of two (2048) */
	uint32_t headroom; /* umem headroom before XDP_PACKET_HEADROOM */
	uint32_t ifindex; /* bound device (sxdp_ifindex); 0: unbound */
	uint32_t queue_id; /* bound RX queue (sxdp_queue_id) */
};

/* struct xdp_desc: the packet's umem address (its data; the metadata is
 * right before it), its length, options. */
struct hr_xdp_desc {
	uint64_t addr;
	uint32_t len;
	uint32_t options;
};

/* struct xdp_statistics, as XDP_STATISTICS reports them. */
struct hr_xsk_stats {
	uint64_t rx_dropped; /* too long, or no fill entry */
	uint64_t rx_invalid_descs; /* fill entries outside the umem */
	uint64_t rx_ring_full;
	uint64_t rx_fill_ring_empty_descs;
	uint64_t rx_packets; /* descriptors posted */
};

/* 0 or -errno (-EINVAL for bad sizes, -ENOMEM, -EMFILE when the
 * process-wide handle table is full). */
int hr_xsk_create(const struct hr_xsk_opts *opts, struct hr_xsk **xsk);
/* Removes the socket from every map first (as closing it would). */
void hr_xsk_destroy(struct hr_xsk *xsk);

/* The handle to put into an XSKMAP as the value (the kernel's socket
 * fd). */
int hr_xsk_fd(const struct hr_xsk *xsk);

/* The umem and its geometry. */
void *hr_xsk_umem(struct hr_xsk *xsk);
uint64_t hr_xsk_umem_size(const struct hr_xsk *xsk);
uint32_t hr_xsk_frame_size(const struct hr_xsk *xsk);

/* Fill ring (user produces): queues up to @n frame addresses, returns
 * how many fit. */
unsigned int hr_xsk_fill(struct hr_xsk *xsk, const uint64_t *addrs,
			 unsigned int n);
/* Fill entries the datapath has not taken yet. */
unsigned int hr_xsk_fill_pending(struct hr_xsk *xsk);
/* RX ring (user consumes): takes up to @n descriptors, returns how many. */
unsigned int hr_xsk_rx(struct hr_xsk *xsk, struct hr_xdp_desc *descs,
		       unsigned int n);

void hr_xsk_get_stats(const struct hr_xsk *xsk, struct hr_xsk_stats *st);

#ifdef __cplusplus
}
#endif

#endif /* HEADROOM_XSK_H */
