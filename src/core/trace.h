/* SPDX-License-Identifier: MIT */
/*
 * Per-packet trace: the first packets (or those a filter picks) followed
 * through every stage of the datapath, one event a stage, as the kernel's
 * xdp tracepoints (xdp_redirect, xdp_bulk_tx, xdp_cpumap_enqueue,
 * xdp_cpumap_kthread) would show them for one packet, plus what they
 * leave out: the hints, the metadata, tc's verdict and mark.
 *
 * A packet is known by its frame (data_hard_start, the skb's head): the
 * same address from RX until the frame goes back to its pool, across
 * cpumap rings and veth pairs.
 *
 * Off by default. Each hook is behind `if (hr_unlikely(hr_trace_on))`:
 * one load of a global that never changes while the workers run, a
 * branch the CPU predicts not taken, so tracing costs nothing measurable
 * when it is off (no call, no table look-up on the fast path).
 */
#ifndef HR_CORE_TRACE_H
#define HR_CORE_TRACE_H

#include <stdbool.h>
#include <stdint.h>

#define hr_unlikely(x) __builtin_expect(!!(x), 0)

struct hr_worker;
struct hr_xdp_buff;
struct hr_xdp_frame;
struct hr_skb;
struct hr_dev;
struct hr_prog;

enum hr_trace_stage {
	HR_TRACE_RX, /* received: device, queue, length, hints */
	HR_TRACE_XDP, /* XDP verdict, metadata written, redirect target */
	HR_TRACE_REDIRECT_ERR, /* the redirect failed: errno */
	HR_TRACE_BULK, /* queued on a bulk towards a target */
	HR_TRACE_FLUSH, /* the bulk sent (or refused) at the flush */
	HR_TRACE_CPUMAP, /* taken from a cpumap entry's ring on its worker */
	HR_TRACE_CPUMAP_PROG, /* the cpumap entry's program's verdict */
	HR_TRACE_DEVMAP_PROG, /* a devmap entry's egress program's verdict */
	HR_TRACE_SKB, /* skb built: length, metadata length, hash */
	HR_TRACE_TC, /* tc ingress verdict, mark, the metadata it saw */
	HR_TRACE_DELIVER, /* handed to the device's stack (a sink) */
	HR_TRACE_FREE, /* frame back to its pool: the packet's end */
	HR_TRACE__MAX,
};

#define HR_TRACE_META_MAX 32

struct hr_trace_event {
	uint64_t id; /* 1 for the first packet traced ... */
	enum hr_trace_stage stage;
	unsigned int worker; /* -1u: not on a worker (control thread) */
	const char *dev; /* the device of the stage, or NULL */
	uint32_t ifindex;
	uint32_t queue;
	uint32_t len;
	/* RX */
	bool has_hash, has_ts, has_vlan;
	uint32_t hash, rss_type;
	uint64_t timestamp;
	uint16_t vlan_tci;
	/* XDP, CPUMAP_PROG, DEVMAP_PROG, TC: the verdict and its name */
	int64_t verdict;
	const struct hr_prog *prog; /* names the verdict (hr_prog_action_name) */
	/* XDP (REDIRECT): the target; BULK and FLUSH: the queue */
	const char *target_kind; /* "ifindex", "devmap", "cpumap", "xskmap" */
	uint32_t target; /* ifindex or map key */
	const char *target_dev;
	unsigned int bulk_count; /* frames in the bulk after this one */
	bool sent; /* FLUSH: taken by the device */
	int err; /* REDIRECT_ERR, FLUSH: the negative errno */
	/* XDP, SKB, TC: the metadata in front of the packet */
	uint32_t meta_len;
	uint8_t meta[HR_TRACE_META_MAX];
	uint32_t mark; /* TC */
};

struct hr_trace_opts {
	uint64_t max_packets; /* packets to trace (0: none) */
	/* Picks the packets to trace from their RX event (NULL: all). */
	bool (*filter)(void *arg, const struct hr_trace_event *rx);
	/* Called for every event, one at a time (under the trace lock). */
	void (*emit)(void *arg, const struct hr_trace_event *ev);
	void *arg;
};

extern bool hr_trace_on;

/* Before the workers start / after they stopped; 0 or -errno. */
int hr_trace_start(const struct hr_trace_opts *opts);
void hr_trace_stop(void);
/* Packets traced so far. */
uint64_t hr_trace_count(void);

/* The hooks, each called only when hr_trace_on. */
void hr_trace_rx(struct hr_worker *w, struct hr_dev *dev, unsigned int queue,
		 const struct hr_xdp_buff *xdp);
void hr_trace_xdp(struct hr_worker *w, struct hr_dev *dev, struct hr_prog *prog,
		  const struct hr_xdp_buff *xdp, uint32_t act,
		  enum hr_trace_stage stage);
void hr_trace_redirect_err(struct hr_worker *w, const void *hard_start,
			   int err);
void hr_trace_bulk(struct hr_worker *w, const void *hard_start,
		   const char *kind, uint32_t target, struct hr_dev *to,
		   unsigned int count);
/* The packet's id (0: untraced): taken before a bulk is handed over,
 * since the target may free the frames before the flush can tell. */
uint64_t hr_trace_id(const void *hard_start);
void hr_trace_flush(struct hr_worker *w, uint64_t id, const char *kind,
		    uint32_t target, struct hr_dev *to, bool sent);
void hr_trace_cpumap(struct hr_worker *w, const void *hard_start, uint32_t key);
void hr_trace_skb(struct hr_worker *w, const struct hr_skb *skb,
		  enum hr_trace_stage stage, int64_t verdict,
		  struct hr_prog *prog);
void hr_trace_free(const void *hard_start);

const char *hr_trace_stage_name(enum hr_trace_stage s);

#endif /* HR_CORE_TRACE_H */
