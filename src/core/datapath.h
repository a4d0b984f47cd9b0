/* SPDX-License-Identifier: MIT */
/*
 * The datapath: workers (one thread per configured CPU) polling NAPI
 * instances with a budget of 64, the XDP verdicts, the bulk queues they
 * fill, and the flush after each poll (xdp_do_flush).
 *
 *   device poll -> hr_xdp_rx() -> program -> verdict
 *     DROP/ABORTED  frame back to its pool, counted
 *     TX            hr_xdp_tx_enqueue(): the device's TX bulk (16)
 *     PASS          hr_skb_from_buff() -> hr_netif_receive_skb(): with
 *                   RPS on the queue, steered by hash to a worker's
 *                   backlog (rps.c), which runs hr_skb_receive() there;
 *                   else hr_skb_receive() here: tc ingress, then the
 *                   device's stack (a sink)
 *     REDIRECT      hr_xdp_do_redirect(): buff -> frame, then the target
 *                   named by the redirect info: a device's redirect bulk
 *                   (16, devmap or bpf_redirect), a cpumap entry's bulk
 *                   (8), an xsk socket
 *   end of poll -> hr_xdp_do_flush(): every bulk queue touched
 */
#ifndef HR_CORE_DATAPATH_H
#define HR_CORE_DATAPATH_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "progs/ctx.h"
#include "dev/dev.h"
#include "core/xdp.h"
#include "core/skb.h"
#include "vm/engine.h"

#define HR_NAPI_BUDGET 64
#define HR_XDP_TX_BULK 16 /* veth's VETH_XDP_TX_BULK_SIZE */
#define HR_DEV_BULK 16 /* DEV_MAP_BULK_SIZE */
#define HR_CPU_MAP_BULK 8 /* CPU_MAP_BULK_SIZE */
#define HR_MAX_NAPI 64
#define HR_MAX_BACKLOG 1000 /* netdev_max_backlog's default */
#define HR_MAX_BACKLOG_LIMIT 65536

struct hr_map;
struct hr_run;
struct hr_backlog;

/* One pollable RX source: a device queue, or a cpumap entry's ring on
 * the entry's worker (the kernel's cpumap kthread). */
struct hr_napi {
	struct hr_dev *dev;
	unsigned int queue;
	struct hr_worker *worker;
	/* NULL: dev->ops->poll(dev, napi, budget). */
	int (*poll)(struct hr_napi *napi, int budget);
	/* For NAPIs the datapath does not own (a cpumap entry's): called
	 * when the datapath is destroyed, before its devices and workers go,
	 * to give back what is queued and forget the worker. */
	void (*detach)(struct hr_napi *napi);
	void *priv;
};

/* A bulk queue of frames for one target, filled during a poll. */
struct hr_bulk {
	struct hr_xdp_frame *q[HR_DEV_BULK];
	unsigned int count;
	bool queued; /* on the worker's flush list */
	struct hr_dev *dev; /* target device */
	struct hr_dev *dev_rx; /* where the frames came from */
	struct hr_prog *egress_prog; /* devmap entry's BPF_XDP_DEVMAP program */
};

/* bpf_redirect_info: what bpf_redirect / bpf_redirect_map chose. */
struct hr_redirect_info {
	uint32_t tgt_index; /* ifindex or map key */
	uint32_t map_type; /* 0 for bpf_redirect(ifindex) */
	struct hr_map *map;
	void *tgt_value; /* the map entry looked up at the helper call */
	uint64_t flags;
	/* INT_MAX after bpf_redirect(ifindex) or a map lookup miss, 0
	 * after a redirect was done (the kernel's ri->map_id). */
	uint32_t map_id;
};

#define HR_REDIRECT_MAP_ID_IFINDEX 0x7fffffffu /* INT_MAX */

struct hr_worker {
	struct hr_datapath *dp;
	unsigned int id; /* index; also the "CPU" per-CPU maps use */
	int cpu; /* host CPU it is pinned to, -1 for none */
	pthread_t thread;
	struct hr_napi *napi[HR_MAX_NAPI];
	_Atomic unsigned int nnapi;
	/* Reused for every program run on this worker. */
	struct hr_run *run;
	/* On one cache line: the redirect helpers write it and
	 * hr_xdp_do_redirect reads it back for every redirected packet. */
	struct hr_redirect_info ri __attribute__((aligned(64)));
	/* Bulk queues: XDP_TX and redirect per target ifindex. */
	struct hr_bulk tx_bulk[HR_MAX_IFINDEX];
	struct hr_bulk dev_bulk[HR_MAX_IFINDEX];
	struct hr_bulk *flush_list[2 * HR_MAX_IFINDEX];
	unsigned int nflush;
	/* Flush hooks of other queue kinds (cpumap, xsk) touched this poll. */
	void (*flush_fn[HR_MAX_NAPI])(struct hr_worker *w, void *arg);
	void *flush_arg[HR_MAX_NAPI];
	unsigned int nflush_fn;
	/* Grace periods: odd while inside a poll, bumped on each entry and
	 * exit (a quiescent-state counter, as RCU). */
	_Atomic uint64_t epoch;
	atomic_bool stop;
	uint64_t polls;
	uint64_t idle_polls;
	/* Poll rounds done, and rounds that found work (for
	 * hr_dp_run_until_idle). */
	_Atomic uint64_t rounds;
	_Atomic uint64_t busy_rounds;
	bool started; /* has a thread */
};

struct hr_datapath {
	struct hr_worker *workers[HR_MAX_WORKERS];
	unsigned int nworkers;
	struct hr_dev *devs[HR_MAX_IFINDEX]; /* by ifindex */
	uint32_t next_ifindex;
	atomic_bool running;
	pthread_mutex_t lock; /* control path only */
	int engine; /* enum hr_engine for every program run */
	/* NAPI instances hr_dp_assign_queue() made, by ifindex and queue. */
	struct hr_napi *queue_napi[HR_MAX_IFINDEX][HR_DEV_MAX_QUEUES];
	/* Maps whose counters hr_dp_print_stats prints (cpumaps). */
	struct hr_map *watch[8];
	unsigned int nwatch;
	void *stats_prev; /* the previous report, for rates */
	/* bench/datapath --breakdown only: the HR_BENCH_SKIP_* stages left
	 * out of every poll, and the verdict standing in for a program left
	 * out. 0 everywhere else; read once a batch. */
	unsigned int bench_skip;
	uint32_t bench_verdict;
	/* RPS (rps.c): whether any queue has it (the kernel's rps_needed),
	 * each RX queue's target workers (bit i: worker i; its rps_cpus),
	 * each target's backlog, and their bound (netdev_max_backlog). */
	atomic_bool rps_needed;
	_Atomic uint32_t rps_map[HR_MAX_IFINDEX][HR_DEV_MAX_QUEUES];
	struct hr_backlog *backlog[HR_MAX_WORKERS];
	unsigned int max_backlog;
};

/* Stages a breakdown run leaves out (struct hr_datapath's bench_skip). */
#define HR_BENCH_SKIP_STATS 0x1 /* the receive counters */
#define HR_BENCH_SKIP_PROG 0x2 /* the program: bench_verdict instead */
#define HR_BENCH_SKIP_CTX 0x4 /* with PROG: the run's set-up too */
#define HR_BENCH_SKIP_RX 0x8 /* the generator recycles its batch at once */
#define HR_BENCH_SKIP_FILL 0x10 /* the generator writes no headers */
#define HR_BENCH_SKIP_XMIT 0x20 /* a flush frees frames, sends none */

/* Worker threads (worker.c): 0 or -errno / stops and joins. */
int hr_worker_start(struct hr_worker *w);
void hr_worker_stop(struct hr_worker *w);

/* The datapath created last (devmap and cpumap find devices and workers
 * through it), or NULL. */
struct hr_datapath *hr_dp_default(void);

/* One poll round of worker @w on the calling thread: every NAPI, then the
 * flush, inside one epoch. Returns the packets the polls reported. For
 * tests and for a datapath that is not started. */
int hr_worker_poll_once(struct hr_worker *w);

/* Runs the device's XDP program on @xdp (received on napi's device and
 * queue) and acts on the verdict. Owns the frame from here on. */
void hr_xdp_rx(struct hr_napi *napi, struct hr_xdp_buff *xdp);
/* The same for @n buffs received together (one poll's batch): counted,
 * run and acted on in order, each as hr_xdp_rx would. */
void hr_xdp_rx_bulk(struct hr_napi *napi, struct hr_xdp_buff *xdp,
		    unsigned int n);

/*
 * Frames a device keeps across its polls instead of giving them back to
 * its pool, as a driver's page pool recycles a page its own NAPI poll
 * dropped straight into its lockless alloc cache (page_pool_recycle_direct)
 * and the kernel's live-frames test run reuses its pages: the batch's
 * plain XDP_DROP frames, in batch order, q[k] from the device's batch
 * slot from[k], bit k of @clean when the run wrote no byte of it (as
 * hr_xdp_return_bulk's clean). They are still out of the pool (counted
 * in hr_pool_outstanding) until the device hands them out again or gives
 * them back; only the thread polling the device's queue touches them.
 */
struct hr_rx_recycle {
	unsigned int n;
	uint64_t clean;
	void *q[HR_NAPI_BUDGET];
	uint8_t from[HR_NAPI_BUDGET];
};

_Static_assert(HR_NAPI_BUDGET <= 64 && HR_NAPI_BUDGET <= 256,
	       "a clean bit and a byte index a recycled frame");

/* hr_xdp_rx_bulk for a device that recycles: @rc, empty (n == 0) on
 * entry, gets the batch's plain drops instead of their pool; every
 * buff's data_hard_start is a frame of the device's own pool, n at most
 * HR_NAPI_BUDGET. */
void hr_xdp_rx_bulk_recycle(struct hr_napi *napi, struct hr_xdp_buff *xdp,
			    unsigned int n, struct hr_rx_recycle *rc);

/*
 * The skb path of a driver that runs XDP on skbs (veth_xdp_rcv_skb): @xdp
 * is built around @skb's head; counted, run and acted on as hr_xdp_rx,
 * except that PASS hands @skb itself on (hr_skb_after_xdp), keeping what
 * it carried. Owns the frame from here on.
 */
void hr_xdp_rx_skb(struct hr_napi *napi, struct hr_xdp_buff *xdp,
		   struct hr_skb *skb);

/*
 * One program's runs on one worker's hr_run: prepared in full
 * (hr_prog_run_init) for the first packet, and for later packets only
 * what every run needs afresh, as long as the last run left the run as
 * a clean one does. Safe because run_reusable() names every field a run
 * changes beyond those: an abort, an unwind, a tail call (which moves
 * vm, regions and maps to the target's), a lock or ring record still
 * held, a depth not back at 0; and another program using the same
 * hr_run in between (tc after XDP_PASS, a devmap program at a full
 * bulk's flush) sets its own ctx and priv.
 */
struct hr_xdp_runner {
	struct hr_worker *w;
	struct hr_prog *prog;
	struct hr_xdp_ctx c;
	/* The JIT's code for prog when the batch may call it itself
	 * (hr_engine_ctx_entry), else NULL: the engine's dispatch. */
	hr_engine_ctx_fn fn;
	/* The run was prepared by this runner (a runner at the same stack
	 * address in an earlier call looks the same to the run). */
	bool ready;
	/* What the context takes from the last buff's rxq (runner_rxq): a
	 * batch's buffs nearly always share one. */
	const struct hr_rxq_info *rxq;
	bool std_hints;
};

/*
 * A runner for a batch of runs of @prog on worker @w (the caller holds
 * @prog for the batch, inside the worker's epoch): the run is prepared
 * in full once and then a packet only as far as a run needs, as the RX
 * path does. hr_xdp_runner_run is hr_xdp_run_prog on it; the rxqs of
 * the buffs it is handed must not change while the runner is used (it
 * reads an rxq again only when a buff has another one).
 */
void hr_xdp_runner_init(struct hr_xdp_runner *r, struct hr_worker *w,
			struct hr_prog *prog);
uint32_t hr_xdp_runner_run(struct hr_xdp_runner *r, struct hr_xdp_buff *xdp);

/* Runs XDP program @prog on @xdp on worker @w; the verdict (r0), with
 * aborts counted by the caller as exceptions. */
uint32_t hr_xdp_run_prog(struct hr_worker *w, struct hr_prog *prog,
			 struct hr_xdp_buff *xdp);

/* XDP_TX: queues the frame on @dev's TX bulk; 0 or -errno. */
int hr_xdp_tx_enqueue(struct hr_worker *w, struct hr_dev *dev,
		      struct hr_xdp_frame *frame);
/* Redirect to a device (bpf_redirect, devmap): 0 or -errno. */
int hr_dev_enqueue(struct hr_worker *w, struct hr_dev *dev,
		   struct hr_dev *dev_rx, struct hr_xdp_frame *frame,
		   struct hr_prog *egress_prog);
/* XDP_REDIRECT with w->ri: converts and enqueues; 0 or -errno (the
 * caller frees and counts). */
int hr_xdp_do_redirect(struct hr_worker *w, struct hr_dev *dev_rx,
		       struct hr_xdp_buff *xdp);
/* Registers a flush hook for this poll (once per @arg per poll). */
void hr_worker_add_flush(struct hr_worker *w,
			 void (*fn)(struct hr_worker *w, void *arg), void *arg);
/* xdp_do_flush: sends every bulk queue touched since the last flush. */
void hr_xdp_do_flush(struct hr_worker *w);

/* The PASS path: tc ingress, then the device's stack. Owns the frame. */
void hr_skb_receive(struct hr_worker *w, struct hr_skb *skb);
/* netif_receive_skb (rps.c): to the backlog of the worker RPS picks for
 * the skb's hash, or hr_skb_receive() here. Owns the frame. */
void hr_netif_receive_skb(struct hr_worker *w, struct hr_skb *skb);
/* Frees every backlog, dropping (and counting) what they still hold;
 * the workers are stopped. */
void hr_rps_destroy(struct hr_datapath *dp);

/* Frees a frame or buff back to the pool it came from (fragments too). */
void hr_xdp_return_frame(struct hr_xdp_frame *frame);
void hr_xdp_return_buff(struct hr_xdp_buff *xdp);
/* Returns the frames at @hard_start (buffs without fragments), as
 * hr_xdp_return_buff does each; bit i of @clean: hard_start[i]'s bytes
 * are as its device wrote them (the pool keeps its tag, pool.h). */
void hr_xdp_return_bulk(void *const *hard_start, unsigned int n,
			uint64_t clean);

/* Adds @napi to worker @w's poll list / removes it (waits for a grace
 * period, so @napi is no longer polled when this returns). */
int hr_worker_add_napi(struct hr_worker *w, struct hr_napi *napi);
void hr_worker_del_napi(struct hr_worker *w, struct hr_napi *napi);

/* Waits until every worker has passed a quiescent state, so nothing
 * read before the call (an old program, a removed entry) is still used. */
void hr_dp_synchronize(struct hr_datapath *dp);

#endif /* HR_CORE_DATAPATH_H */
