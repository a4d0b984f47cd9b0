/* SPDX-License-Identifier: MIT */
/*
 * The device interface, in the spirit of net_device_ops and
 * xdp_metadata_ops: one table per device kind (gen, pcap, veth, sink).
 */
#ifndef HR_DEV_DEV_H
#define HR_DEV_DEV_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/xdp.h"

#define HR_DEV_NAME_MAX 16
#define HR_DEV_MAX_QUEUES 8
#define HR_MAX_WORKERS 16
#define HR_MAX_IFINDEX 256
/* Errno values counted one by one for redirect errors (EOVERFLOW = 75,
 * ENXIO = 6, ENETDOWN = 100, EINVAL = 22 ... all below this). */
#define HR_ERRNO_MAX 134

struct hr_dev;
struct hr_napi;
struct hr_worker;
struct hr_skb;
struct hr_prog;
struct hr_pool;
struct hr_datapath;

/* Why a device dropped a packet; keep hr_drop_reason_str() in step. */
enum hr_drop_reason {
	HR_DROP_NO_FRAME, /* RX: the frame pool was empty */
	HR_DROP_MTU, /* larger than the receiving device's MTU */
	HR_DROP_RING_FULL, /* the RX ring (veth, cpumap) was full */
	HR_DROP_XMIT_ERROR, /* ndo_xdp_xmit refused the frame */
	HR_DROP_TX_ERROR, /* XDP_TX: could not be sent */
	HR_DROP_REDIRECT_ERROR, /* XDP_REDIRECT failed: see redirect_err */
	HR_DROP_TC_SHOT, /* tc ingress said TC_ACT_SHOT */
	HR_DROP_DEV_DOWN, /* the device was stopped */
	HR_DROP_EGRESS_PROG, /* a devmap egress program did not PASS */
	HR_DROP_BACKLOG, /* RPS: the target worker's backlog was full */
	HR_DROP__MAX,
};

const char *hr_drop_reason_str(enum hr_drop_reason reason);

/* Counters of one device on one worker; summed only when read. */
struct hr_dev_stats {
	uint64_t rx_packets;
	uint64_t rx_bytes;
	uint64_t tx_packets; /* frames this device sent (xdp_xmit accepted) */
	uint64_t tx_bytes;
	uint64_t xdp[5]; /* verdicts: ABORTED DROP PASS TX REDIRECT */
	uint64_t xdp_exception; /* ABORTED and invalid verdicts */
	uint64_t delivered; /* skbs handed to the stack */
	/* tc ingress consumed the skb: STOLEN, QUEUED, TRAP; REDIRECT. */
	uint64_t tc_stolen;
	uint64_t tc_redirect;
	uint64_t drops[HR_DROP__MAX];
	uint64_t redirect_err[HR_ERRNO_MAX]; /* by errno */
} __attribute__((aligned(64)));

/* Counters of one RX queue on one worker. */
struct hr_queue_stats {
	uint64_t rx_packets;
	uint64_t rx_bytes;
} __attribute__((aligned(64)));

struct hr_dev_ops {
	const char *kind;
	int (*open)(struct hr_dev *dev);
	void (*stop)(struct hr_dev *dev);
	/*
	 * NAPI poll of RX queue napi->queue: receive up to @budget packets,
	 * handing each to hr_xdp_rx(); returns how many it received (0 when
	 * idle). NULL for devices that only transmit.
	 */
	int (*poll)(struct hr_dev *dev, struct hr_napi *napi, int budget);
	/*
	 * ndo_xdp_xmit: takes the first frames it can (returns how many, or
	 * -errno for none); the caller frees and counts the rest. Called at
	 * flush, from worker @w.
	 */
	int (*xdp_xmit)(struct hr_dev *dev, struct hr_worker *w,
			struct hr_xdp_frame **frames, int n, uint32_t flags);
	/*
	 * ndo_start_xmit, for devices that send skbs as they are (veth):
	 * takes @skb on worker @w, the caller's skb struct copied where
	 * needed; 0 when sent, -errno when dropped (freed and counted
	 * here). NULL: the skb becomes a frame on the xdp_xmit path.
	 */
	int (*start_xmit)(struct hr_dev *dev, struct hr_worker *w,
			  struct hr_skb *skb);
	/* Whether the device is done producing (generator count reached,
	 * pcap file read), so the datapath can tell when it is idle. */
	bool (*rx_done)(struct hr_dev *dev);
	/*
	 * No poll of the device runs, nor can start before a worker is
	 * started again (hr_dp_stop, after joining every worker): gives back
	 * what the device keeps from one poll to the next (a generator's
	 * recycled frames), so that a stopped datapath holds no frame.
	 * NULL: nothing is kept.
	 */
	void (*quiesce)(struct hr_dev *dev);
	void (*destroy)(struct hr_dev *dev);
};

struct hr_dev {
	char name[HR_DEV_NAME_MAX];
	uint32_t ifindex;
	uint32_t mtu; /* L3 MTU, as the kernel's dev->mtu */
	uint8_t dev_addr[6]; /* MAC address, for eth_type_trans */
	bool meta_supported;
	const struct hr_dev_ops *ops;
	const struct hr_xdp_metadata_ops *meta_ops;
	void *priv;
	unsigned int nrxq;
	struct hr_rxq_info rxq[HR_DEV_MAX_QUEUES];
	/* Attached programs; replaced atomically, freed after a grace
	 * period (hr_dp_synchronize). */
	struct hr_prog *_Atomic xdp_prog;
	struct hr_prog *_Atomic tc_ingress;
	/* Frames for what this device receives. */
	struct hr_pool *pool;
	/* Where PASSed skbs go after tc (a sink device); NULL: counted as
	 * delivered and freed. */
	struct hr_dev *stack;
	/* For sinks: takes a delivered skb (and its frame). */
	void (*deliver)(struct hr_dev *dev, struct hr_worker *w,
			struct hr_skb *skb);
	atomic_bool up;
	/* skbs built from this device's frames get no RX queue record
	 * (queue_mapping 0), as the kernel's veth. */
	bool no_rx_queue_record;
	struct hr_datapath *dp;
	struct hr_dev_stats stats[HR_MAX_WORKERS];
	struct hr_queue_stats qstats[HR_DEV_MAX_QUEUES][HR_MAX_WORKERS];
};

/*
 * Adds to a counter of stats[w->id]: only worker w writes it, so a relaxed
 * load and store suffice (no locked instruction), and readers summing on
 * another thread see whole values.
 */
static inline void hr_stat_add(uint64_t *counter, uint64_t v)
{
	__atomic_store_n(counter,
			 __atomic_load_n(counter, __ATOMIC_RELAXED) + v,
			 __ATOMIC_RELAXED);
}

/* Common initialisation of a new device (zeroed by the caller): name,
 * ops, queues, MTU 1500, rxq info pointing back at the device. */
void hr_dev_init(struct hr_dev *dev, const char *name,
		 const struct hr_dev_ops *ops, unsigned int nrxq);

/* The device with @ifindex in @dp, or NULL. */
struct hr_dev *hr_dev_get_by_index(struct hr_datapath *dp, uint32_t ifindex);

/* Sum of the per-worker counters. */
void hr_dev_stats_sum(const struct hr_dev *dev, struct hr_dev_stats *out);

#endif /* HR_DEV_DEV_H */
