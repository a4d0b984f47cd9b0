/* SPDX-License-Identifier: MIT */
/*
 * The datapath: workers (threads pinned to CPUs) polling device queues,
 * the XDP and tc programs attached to devices, and their counters.
 *
 *   hr_dp_create -> create devices (headroom/devices.h) -> attach
 *   programs -> hr_dp_assign_queue -> hr_dp_start -> ... -> hr_dp_stop
 *   -> hr_dp_destroy
 *
 * Ifindexes are given from 2 up: 1 stays the loopback device's, as in a
 * fresh network namespace (so programs see the same numbers as on a
 * kernel veth pair in a new namespace).
 */
#ifndef HEADROOM_DATAPATH_H
#define HEADROOM_DATAPATH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "headroom/opts.h"
#include "headroom/test_run.h"

#ifdef __cplusplus
extern "C" {
#endif

struct hr_datapath;
struct hr_dev;
struct hr_prog;
struct hr_map;

struct hr_datapath_opts {
	size_t sz;
	unsigned int nworkers; /* 0: 1; at most 16 */
	/* Host CPU of each worker (NULL: worker i on CPU i; -1: unpinned).
	 * A CPU the host does not have leaves that worker unpinned. */
	const int *cpus;
	enum hr_engine engine; /* for every program run */
	/* RPS: skbs one RX worker may have queued for one target worker
	 * (0: 1000, the kernel's netdev_max_backlog; at most 65536). */
	unsigned int max_backlog;
};

/* 0 or -errno. The new datapath becomes the process default (devmap and
 * cpumap find devices and workers through it). */
int hr_dp_create(const struct hr_datapath_opts *opts, struct hr_datapath **dp);
/* Stops it, destroys every registered device (its destroy op), frees. */
void hr_dp_destroy(struct hr_datapath *dp);
/* Opens the devices not open yet and starts one thread per worker. */
int hr_dp_start(struct hr_datapath *dp);
/* Stops and joins the worker threads (devices stay open). */
void hr_dp_stop(struct hr_datapath *dp);
/*
 * Waits until every device that can tell (generator, pcap) is done and
 * two full poll rounds on every worker found nothing: 0, or -ETIMEDOUT
 * after @timeout_ms (< 0: no limit). Without started workers it polls
 * them on the calling thread.
 */
int hr_dp_run_until_idle(struct hr_datapath *dp, int timeout_ms);
unsigned int hr_dp_worker_count(const struct hr_datapath *dp);

/* Gives @dev its ifindex; 0 or -errno (-ENOSPC when all are used). */
int hr_dp_register_dev(struct hr_datapath *dp, struct hr_dev *dev);
/* RX queue @queue of @dev is polled by worker @worker (moved there if
 * another worker had it); 0 or -errno. */
int hr_dp_assign_queue(struct hr_datapath *dp, struct hr_dev *dev,
		       unsigned int queue, unsigned int worker);
/* Device up / down (its open and stop ops); a down device is not polled
 * and refuses redirected frames (-ENETDOWN). */
int hr_dev_open(struct hr_dev *dev);
void hr_dev_close(struct hr_dev *dev);

/* Attaches @prog (NULL detaches) and returns the previous program once
 * no worker can still be running it (the caller may then free it). */
struct hr_prog *hr_dev_attach_xdp(struct hr_dev *dev, struct hr_prog *prog);
struct hr_prog *hr_dev_attach_tc(struct hr_dev *dev, struct hr_prog *prog);
/* Where the device's PASSed skbs go after tc (a sink); NULL: counted
 * as delivered and freed. */
void hr_dev_set_stack(struct hr_dev *dev, struct hr_dev *sink);

/*
 * RPS (receive packet steering) on RX queue @queue of @dev, as the
 * kernel's rps_cpus of that queue: the skbs built for what the queue
 * received (XDP_PASS, or no XDP program) go by their flow hash to one of
 * the workers in @workers (bit i: worker i), into its backlog; that
 * worker runs tc ingress and the stack on them. A flow always goes to
 * the same worker. A full backlog drops (drops "cpu_backlog"). 0 turns
 * it off. Control thread only; 0 or -errno.
 */
int hr_dev_set_rps(struct hr_dev *dev, unsigned int queue, uint32_t workers);

/* A worker's backlog, as a line of /proc/net/softnet_stat. */
struct hr_backlog_stats {
	size_t sz;
	uint64_t enqueued; /* skbs steered here and queued */
	/* Steered here but dropped: the backlog was full, or still held
	 * them when the datapath was destroyed. */
	uint64_t dropped;
	uint64_t processed; /* taken off the backlog: tc and the stack */
};

/* Fills what @s->sz covers for worker @worker; 0 or -EINVAL. */
int hr_dp_get_backlog_stats(const struct hr_datapath *dp, unsigned int worker,
			    struct hr_backlog_stats *s);

uint32_t hr_dev_ifindex(const struct hr_dev *dev);
const char *hr_dev_name(const struct hr_dev *dev);
struct hr_dev *hr_dp_dev_by_name(struct hr_datapath *dp, const char *name);

#define HR_DEV_COUNTERS_DROPS 16

/* A device's counters summed over workers. */
struct hr_dev_counters {
	size_t sz;
	uint64_t rx_packets;
	uint64_t rx_bytes;
	uint64_t tx_packets;
	uint64_t tx_bytes;
	/* XDP verdicts; invalid ones count as aborted (and exceptions). */
	uint64_t xdp_aborted, xdp_drop, xdp_pass, xdp_tx, xdp_redirect;
	uint64_t xdp_exception;
	uint64_t delivered; /* to the stack, after tc */
	uint64_t tc_stolen; /* tc STOLEN, QUEUED, TRAP */
	uint64_t tc_redirect;
	uint64_t drops_total;
	/* By reason: names from hr_dev_drop_name(i). */
	uint64_t drops[HR_DEV_COUNTERS_DROPS];
	uint64_t redirect_err_total;
	/* Redirect errors by errno (EINVAL, ENETDOWN, EOVERFLOW ...). */
	uint64_t redirect_err[134];
};

/* Fills what @c->sz covers; 0 or -EINVAL. */
int hr_dev_get_counters(const struct hr_dev *dev, struct hr_dev_counters *c);

/* Packets and bytes received on RX queue @queue of @dev, all workers;
 * 0 or -EINVAL. */
int hr_dev_get_queue_counters(const struct hr_dev *dev, unsigned int queue,
			      uint64_t *rx_packets, uint64_t *rx_bytes);
/* "mtu", "ring_full" ... for drops[i]; NULL past the last. */
const char *hr_dev_drop_name(unsigned int i);

/* Counters of @map (a CPUMAP) are printed by hr_dp_print_stats. */
int hr_dp_watch_map(struct hr_datapath *dp, struct hr_map *map);
/*
 * One report, in the layout of the kernel's xdp_redirect_cpu sample
 * (XDP-RX and drops per worker, cpumap-enqueue per source:target,
 * cpumap_kthread, redirect_err), or as one JSON line; rates over the
 * @interval_s since the previous call.
 */
void hr_dp_print_stats(struct hr_datapath *dp, FILE *f, bool json,
		       double interval_s);

#ifdef __cplusplus
}
#endif

#endif /* HEADROOM_DATAPATH_H */
