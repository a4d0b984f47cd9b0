// SPDX-License-Identifier: MIT
/*
 * Soak (issue 12, item 6): the generator runs at full rate through a
 * cpumap and a veth pair while this thread, the control thread, keeps
 * changing everything under it, driven by a seeded PRNG:
 *
 *  - programs: the generator's XDP program (three of progs/core/soak.bpf.c),
 *    and both veth ends' (a freshly loaded progs/core/soak_peer.bpf.c each
 *    time, slow or fast, DROP / PASS / TX / REDIRECT / ABORTED, the old
 *    object closed as soon as hr_dev_attach_xdp hands it back);
 *  - cpumap entries 0..2 updated (qsize 1 .. 512, no program, a mixed or
 *    a slow cpumap program) and deleted; updates of entry 3 (a CPU the
 *    datapath does not have) and of bad values refused;
 *  - devmap entries 0..3 pointed at the veth ends, the wire sink or the
 *    generator, with or without an egress program, and deleted; entries
 *    naming a missing device or a wrong program refused;
 *  - devices (the generator, both veth ends, the wire sink) stopped and
 *    started again a little later, so entries and redirects point at
 *    stopped devices; the worker that runs cpumap entry 2 (a "CPU") and
 *    no generator queue stopped and started, with that entry replaced or
 *    deleted meanwhile; device RX queues moved between workers (onto the
 *    stopped one too); now and then the whole datapath stopped and
 *    started;
 *  - rings overflowed: cpumap queues of 1 frame, veth rings (256) in
 *    front of a peer whose program loops 1024 times a packet, polled by
 *    another worker than the one filling them.
 *
 * At the end (after the datapath went idle) every packet is accounted
 * for exactly once by the datapath's own counters: generated = dropped +
 * transmitted on a wire + delivered + each named error, with the flows
 * between the stages balanced too; every pool has all its frames back;
 * and the whole run finished (a watchdog ends the process if it hangs).
 * It runs once per engine (interpreter, then JIT), each for half of the
 * time asked: HEADROOM_SOAK_SECONDS or --seconds (default 30), with
 * HEADROOM_SOAK_SEED or --seed (default: from the clock, printed).
 */
#include <errno.h>
#include <inttypes.h>
#include <linux/bpf.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"
#include "headroom/cpumap.h"
#include "headroom/datapath.h"
#include "headroom/devices.h"
#include "headroom/map.h"
#include "headroom/object.h"
#include "progs/prog_registry.h"
#include "core/datapath.h"
#include "core/pool.h"

#define NWORKERS 3
#define CPU_WORKER 2 /* cpumap entry 2, no generator queue: stops */
#define CPU_KEYS 4 /* 0..2 valid, 3 names a missing CPU */
#define DEV_KEYS 4
#define MISSING_IFINDEX 250

enum change {
	CH_GEN_PROG,
	CH_PEER_PROG,
	CH_CPU_UPDATE,
	CH_CPU_DELETE,
	CH_CPU_REFUSED,
	CH_DEV_UPDATE,
	CH_DEV_DELETE,
	CH_DEV_REFUSED,
	CH_DEV_STOP,
	CH_WORKER_STOP,
	CH_DP_RESTART,
	CH_QUEUE_MOVE,
	CH_STATS_READ,
	CH__MAX,
};

static const char *const change_names[CH__MAX] = {
	[CH_GEN_PROG] = "generator program replaced",
	[CH_PEER_PROG] = "veth program replaced (new object)",
	[CH_CPU_UPDATE] = "cpumap entry updated",
	[CH_CPU_DELETE] = "cpumap entry deleted",
	[CH_CPU_REFUSED] = "cpumap update refused (missing CPU, bad value)",
	[CH_DEV_UPDATE] = "devmap entry updated",
	[CH_DEV_DELETE] = "devmap entry deleted",
	[CH_DEV_REFUSED] = "devmap update refused (missing device, bad prog)",
	[CH_DEV_STOP] = "device stopped and started",
	[CH_WORKER_STOP] = "cpumap CPU (worker) stopped and started",
	[CH_DP_RESTART] = "datapath stopped and started",
	[CH_QUEUE_MOVE] = "RX queue moved to another worker",
	[CH_STATS_READ] = "counters read under traffic",
};

/* Relative weights of the changes the PRNG picks. */
static const unsigned int change_weight[CH__MAX] = {
	[CH_GEN_PROG] = 8,    [CH_PEER_PROG] = 6,   [CH_CPU_UPDATE] = 14,
	[CH_CPU_DELETE] = 5,  [CH_CPU_REFUSED] = 2, [CH_DEV_UPDATE] = 14,
	[CH_DEV_DELETE] = 5,  [CH_DEV_REFUSED] = 2, [CH_DEV_STOP] = 8,
	[CH_WORKER_STOP] = 3, [CH_DP_RESTART] = 1,  [CH_QUEUE_MOVE] = 4,
	[CH_STATS_READ] = 4,
};

struct cpu_val {
	uint32_t qsize;
	uint32_t prog;
};

struct dev_val {
	uint32_t ifindex;
	uint32_t prog;
};

/* What the whole run adds up, over both engines. */
struct totals {
	uint64_t packets, changes[CH__MAX];
	uint64_t dropped, wire, delivered, errors;
	uint64_t cpu_ring_full, veth_ring_full;
	double seconds;
};

#define NDOWN 4 /* devices that get stopped */

struct soak {
	struct hr_datapath *dp;
	struct hr_dev *gen, *a, *b, *wire, *stack;
	struct hr_dev *downable[NDOWN];
	uint64_t up_at[NDOWN]; /* 0: up (as far as we stopped it) */
	uint64_t worker_up_at;
	struct hr_object *obj; /* progs/soak.o: maps and generator side */
	struct hr_map *devmap, *cpumap;
	struct hr_prog *gen_prog[4], *cpu_prog[2], *egress; /* [3]: none */
	struct hr_prog *gen_cur;
	struct hr_object *peer_obj[2]; /* A's and B's current */
	uint64_t rng;
	uint64_t changes[CH__MAX];
	uint64_t last_rx; /* for the monotonic check under traffic */
	FILE *devnull;
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void sleep_us(long us)
{
	struct timespec ts = { us / 1000000, (us % 1000000) * 1000 };

	nanosleep(&ts, NULL);
}

/* splitmix64: small, seedable, good enough to pick changes. */
static uint64_t rnd(struct soak *s)
{
	uint64_t z = (s->rng += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static uint32_t rnd_below(struct soak *s, uint32_t n)
{
	return (uint32_t)(rnd(s) % n);
}

static struct hr_object *open_obj(const char *name, const char *const *globals,
				  size_t nglobals)
{
	char path[512], err[256] = "";
	HR_OPTS(hr_object_open_opts, oo, .errbuf = err,
		.errbuf_sz = sizeof(err), .ncpus = NWORKERS, .globals = globals,
		.globals_cnt = nglobals);
	struct hr_object *o = NULL;

	snprintf(path, sizeof(path), "%s/%s", t_progs_dir(), name);
	if (hr_object_open(path, &oo, &o))
		CHECK(0, "open %s: %s", path, err);
	return o;
}

/* A veth end's program: a new soak_peer object configured before load. */
static struct hr_object *peer_new(struct soak *s, bool is_b)
{
	/* A never transmits back: A and B both doing XDP_TX would bounce a
	 * frame between them for ever. */
	static const uint32_t a_verdicts[] = { XDP_DROP, XDP_PASS, XDP_PASS,
					       XDP_REDIRECT, XDP_ABORTED };
	static const uint32_t b_verdicts[] = { XDP_DROP,     XDP_PASS,
					       XDP_TX,	     XDP_TX,
					       XDP_REDIRECT, XDP_ABORTED };
	static const uint32_t spins[] = { 0, 0, 0, 16, 256, 1024 };
	char g[3][48];
	const char *gl[3] = { g[0], g[1], g[2] };
	uint32_t verdict;

	if (is_b)
		verdict = b_verdicts[rnd_below(s, 6)];
	else
		verdict = a_verdicts[rnd_below(s, 5)];
	snprintf(g[0], sizeof(g[0]), "verdict=%u", verdict);
	snprintf(g[1], sizeof(g[1]), "spin=%u", spins[rnd_below(s, 6)]);
	snprintf(g[2], sizeof(g[2]), "redirect_ifindex=%u", s->wire->ifindex);
	return open_obj("soak_peer.o", gl, 3);
}

static struct hr_prog *peer_prog(struct hr_object *o)
{
	return o ? hr_object_find_prog(o, "soak_peer") : NULL;
}

/* A new program on a veth end, or now and then none (its NAPI off: the
 * peer's transmits fail with -ENXIO, what its rings hold is passed). */
static void peer_swap(struct soak *s, unsigned int which, bool detach)
{
	struct hr_dev *dev = which ? s->b : s->a;
	struct hr_object *o = NULL, *old = s->peer_obj[which];
	struct hr_prog *prev;

	if (!detach) {
		o = peer_new(s, which);
		if (!o)
			return;
	}
	prev = hr_dev_attach_xdp(dev, peer_prog(o));
	CHECK(prev == peer_prog(old), "the previous program handed back");
	s->peer_obj[which] = o;
	/* No worker runs it any more: hr_dev_attach_xdp waited. */
	hr_object_close(old);
}

static void gen_swap(struct soak *s)
{
	/* soak_gen most of the time, soak_gen_drop or none (all PASS)
	 * seldom. */
	static const unsigned int pick[] = { 0, 0, 0, 0, 1, 1, 1, 2, 3 };
	struct hr_prog *p = s->gen_prog[pick[rnd_below(s, 9)]], *prev;

	prev = hr_dev_attach_xdp(s->gen, p);
	CHECK(prev == s->gen_cur, "the generator's previous program back");
	s->gen_cur = p;
}

static uint32_t prog_fd(struct hr_prog *p)
{
	return p ? (uint32_t)hr_prog_fd(p) : 0;
}

static void cpu_update(struct soak *s)
{
	/* qsize 0 deletes, as in the kernel. */
	static const uint32_t qsizes[] = { 1, 1, 2, 8, 32, 128, 512, 0 };
	struct cpu_val v;
	uint32_t key = rnd_below(s, CPU_KEYS - 1), r = rnd_below(s, 4);

	v.qsize = qsizes[rnd_below(s, 8)];
	v.prog = r == 0 ? prog_fd(s->cpu_prog[0]) :
		 r == 1 ? prog_fd(s->cpu_prog[1]) :
			  0;
	CHECK_EQ(hr_map_update_elem(s->cpumap, &key, &v, 0), 0);
}

static void cpu_delete(struct soak *s)
{
	uint32_t key = rnd_below(s, CPU_KEYS - 1);

	CHECK_EQ(hr_map_delete_elem(s->cpumap, &key), 0);
}

/* Updates the kernel refuses, leaving the entry as it was. */
static void cpu_refused(struct soak *s)
{
	struct cpu_val v = { 64, 0 };
	uint32_t key = CPU_KEYS - 1;

	switch (rnd_below(s, 4)) {
	case 0:
		/* Entry 3: a CPU the datapath does not have. */
		CHECK_EQ(hr_map_update_elem(s->cpumap, &key, &v, 0), -ENODEV);
		break;
	case 1:
		key = CPU_KEYS;
		CHECK_EQ(hr_map_update_elem(s->cpumap, &key, &v, 0), -E2BIG);
		break;
	case 2:
		key = 0;
		v.qsize = 16385;
		CHECK_EQ(hr_map_update_elem(s->cpumap, &key, &v, 0),
			 -EOVERFLOW);
		break;
	default:
		/* A devmap program in a cpumap entry. */
		key = 1;
		v.prog = prog_fd(s->egress);
		CHECK_EQ(hr_map_update_elem(s->cpumap, &key, &v, 0), -ENOMEM);
		break;
	}
}

static void dev_update(struct soak *s)
{
	struct hr_dev *targets[] = { s->a, s->b, s->wire, s->gen };
	struct dev_val v;
	uint32_t key = rnd_below(s, DEV_KEYS);

	v.ifindex = targets[rnd_below(s, 4)]->ifindex;
	v.prog = rnd_below(s, 3) ? 0 : prog_fd(s->egress);
	CHECK_EQ(hr_map_update_elem(s->devmap, &key, &v, 0), 0);
}

static void dev_delete(struct soak *s)
{
	uint32_t key = rnd_below(s, DEV_KEYS);

	CHECK_EQ(hr_map_delete_elem(s->devmap, &key), 0);
}

static void dev_refused(struct soak *s)
{
	struct dev_val v = { MISSING_IFINDEX, 0 };
	uint32_t key = rnd_below(s, DEV_KEYS);

	if (rnd_below(s, 2)) {
		/* A device that does not exist. */
		CHECK_EQ(hr_map_update_elem(s->devmap, &key, &v, 0), -EINVAL);
	} else {
		/* A cpumap program as an egress program. */
		v.ifindex = s->a->ifindex;
		v.prog = prog_fd(s->cpu_prog[0]);
		CHECK_EQ(hr_map_update_elem(s->devmap, &key, &v, 0), -EINVAL);
	}
}

/* Stops a device for 0.1 .. 5 ms (started again by soak_restore). */
static void dev_stop(struct soak *s)
{
	unsigned int i = rnd_below(s, NDOWN);

	if (s->up_at[i])
		return;
	hr_dev_close(s->downable[i]);
	s->up_at[i] = now_ns() + 100000 + rnd_below(s, 4900000);
}

static void worker_stop(struct soak *s)
{
	struct hr_worker *w = s->dp->workers[CPU_WORKER];

	if (!w->started)
		return;
	hr_worker_stop(w);
	s->worker_up_at = now_ns() + 100000 + rnd_below(s, 9900000);
}

/* A device queue polled by another worker from now on (the stopped one
 * too: then nothing polls it until that worker starts again). */
static void queue_move(struct soak *s)
{
	struct hr_dev *devs[] = { s->gen, s->a, s->b };

	CHECK_EQ(hr_dp_assign_queue(s->dp, devs[rnd_below(s, 3)],
				    rnd_below(s, 2), rnd_below(s, NWORKERS)),
		 0);
}

static void dp_restart(struct soak *s)
{
	unsigned int i;

	hr_dp_stop(s->dp);
	sleep_us(rnd_below(s, 2000));
	/* Starts every worker and opens every device again. */
	CHECK_EQ(hr_dp_start(s->dp), 0);
	for (i = 0; i < NDOWN; i++)
		s->up_at[i] = 0;
	s->worker_up_at = 0;
}

/* Start again what is due (everything with @all). */
static void soak_restore(struct soak *s, bool all)
{
	uint64_t t = now_ns();
	struct hr_worker *w = s->dp->workers[CPU_WORKER];
	unsigned int i;

	for (i = 0; i < NDOWN; i++) {
		if (!s->up_at[i] || (!all && t < s->up_at[i]))
			continue;
		CHECK_EQ(hr_dev_open(s->downable[i]), 0);
		s->up_at[i] = 0;
	}
	if (s->worker_up_at && (all || t >= s->worker_up_at)) {
		if (!w->started)
			CHECK_EQ(hr_worker_start(w), 0);
		s->worker_up_at = 0;
	}
}

static void counters(const struct hr_dev *d, struct hr_dev_counters *c)
{
	memset(c, 0, sizeof(*c));
	c->sz = sizeof(*c);
	CHECK_EQ(hr_dev_get_counters(d, c), 0);
}

/* Readers run beside the workers: whole values, never going back. */
static void stats_read(struct soak *s)
{
	struct hr_dev_counters g;

	counters(s->gen, &g);
	CHECK(g.rx_packets >= s->last_rx, "counters never go back");
	s->last_rx = g.rx_packets;
	hr_dp_print_stats(s->dp, s->devnull, rnd_below(s, 2), 1.0);
}

static void change(struct soak *s)
{
	unsigned int total = 0, i, r;

	for (i = 0; i < CH__MAX; i++)
		total += change_weight[i];
	r = rnd_below(s, total);
	for (i = 0; r >= change_weight[i]; i++)
		r -= change_weight[i];
	switch (i) {
	case CH_GEN_PROG:
		gen_swap(s);
		break;
	case CH_PEER_PROG:
		peer_swap(s, rnd_below(s, 2), !rnd_below(s, 8));
		break;
	case CH_CPU_UPDATE:
		cpu_update(s);
		break;
	case CH_CPU_DELETE:
		cpu_delete(s);
		break;
	case CH_CPU_REFUSED:
		cpu_refused(s);
		break;
	case CH_DEV_UPDATE:
		dev_update(s);
		break;
	case CH_DEV_DELETE:
		dev_delete(s);
		break;
	case CH_DEV_REFUSED:
		dev_refused(s);
		break;
	case CH_DEV_STOP:
		dev_stop(s);
		break;
	case CH_WORKER_STOP:
		worker_stop(s);
		break;
	case CH_DP_RESTART:
		dp_restart(s);
		break;
	case CH_QUEUE_MOVE:
		queue_move(s);
		break;
	default:
		stats_read(s);
		break;
	}
	s->changes[i]++;
}

static int setup(struct soak *s, enum hr_engine engine, uint64_t duration_ns)
{
	static const int cpus[NWORKERS] = { 0, 1, -1 };
	HR_OPTS(hr_datapath_opts, dpo, .nworkers = NWORKERS, .cpus = cpus,
		.engine = engine);
	/* No rate limit: as fast as the workers take it. */
	HR_OPTS(hr_gen_opts, go, .nrxq = 2, .flows = 64, .src_port_min = 1,
		.src_port_max = 64, .pkt_size = 64, .duration_ns = duration_ns,
		/* Fewer frames than the rings hold: the generator waits
		 * for frames now and then. */
		.pool_frames = 1024);
	HR_OPTS(hr_veth_opts, vo, .nrxq = 2);
	struct cpu_val cv = { 64, 0 };
	struct dev_val dv = { 0, 0 };
	uint32_t key;
	unsigned int q;

	if (hr_dp_create(&dpo, &s->dp))
		return -1;
	CHECK_EQ(hr_dev_gen_create(s->dp, "gen0", &go, &s->gen), 0);
	CHECK_EQ(hr_dev_veth_create_pair(s->dp, "sva", "svb", &vo, &s->a,
					 &s->b),
		 0);
	CHECK_EQ(hr_dev_sink_create(s->dp, "wire0", NULL, &s->wire), 0);
	CHECK_EQ(hr_dev_sink_create(s->dp, "stack0", NULL, &s->stack), 0);
	if (!s->gen || !s->a || !s->b || !s->wire || !s->stack)
		return -1;
	s->downable[0] = s->gen;
	s->downable[1] = s->a;
	s->downable[2] = s->b;
	s->downable[3] = s->wire;
	s->obj = open_obj("soak.o", NULL, 0);
	if (!s->obj)
		return -1;
	s->devmap = hr_object_find_map(s->obj, "soak_tx");
	s->cpumap = hr_object_find_map(s->obj, "soak_cpus");
	s->gen_prog[0] = hr_object_find_prog(s->obj, "soak_gen");
	s->gen_prog[1] = hr_object_find_prog(s->obj, "soak_gen2");
	s->gen_prog[2] = hr_object_find_prog(s->obj, "soak_gen_drop");
	s->cpu_prog[0] = hr_object_find_prog(s->obj, "soak_cpu");
	s->cpu_prog[1] = hr_object_find_prog(s->obj, "soak_cpu_slow");
	s->egress = hr_object_find_prog(s->obj, "soak_egress");
	if (!s->devmap || !s->cpumap || !s->gen_prog[0] || !s->gen_prog[1] ||
	    !s->gen_prog[2] || !s->cpu_prog[0] || !s->cpu_prog[1] ||
	    !s->egress) {
		CHECK(0, "soak.o has its maps and programs");
		return -1;
	}
	CHECK_EQ(hr_dp_watch_map(s->dp, s->cpumap), 0);
	for (key = 0; key < DEV_KEYS; key++) {
		struct hr_dev *t[] = { s->a, s->wire, s->b, s->gen };

		dv.ifindex = t[key]->ifindex;
		CHECK_EQ(hr_map_update_elem(s->devmap, &key, &dv, 0), 0);
	}
	for (key = 0; key < CPU_KEYS - 1; key++)
		CHECK_EQ(hr_map_update_elem(s->cpumap, &key, &cv, 0), 0);
	peer_swap(s, 0, false);
	peer_swap(s, 1, false);
	if (!s->peer_obj[0] || !s->peer_obj[1])
		return -1;
	s->gen_cur = s->gen_prog[0];
	hr_dev_attach_xdp(s->gen, s->gen_cur);
	hr_dev_set_stack(s->gen, s->stack);
	hr_dev_set_stack(s->a, s->stack);
	hr_dev_set_stack(s->b, s->stack);
	/*
	 * A transmit from worker w lands on the peer's ring w % 2. B's rings
	 * are polled by other workers than the ones filling them (ring 0 by
	 * the worker that stops), so a slow B program lets them overflow.
	 */
	for (q = 0; q < 2; q++) {
		CHECK_EQ(hr_dp_assign_queue(s->dp, s->gen, q, q), 0);
		CHECK_EQ(hr_dp_assign_queue(s->dp, s->a, q, q), 0);
	}
	CHECK_EQ(hr_dp_assign_queue(s->dp, s->b, 0, CPU_WORKER), 0);
	CHECK_EQ(hr_dp_assign_queue(s->dp, s->b, 1, 0), 0);
	return 0;
}

static void teardown(struct soak *s)
{
	uint32_t key;

	if (s->dp) {
		hr_dp_stop(s->dp);
		if (s->gen)
			hr_dev_attach_xdp(s->gen, NULL);
		if (s->a)
			hr_dev_attach_xdp(s->a, NULL);
		if (s->b)
			hr_dev_attach_xdp(s->b, NULL);
	}
	/* Entries go while the workers they name still exist. */
	if (s->cpumap)
		for (key = 0; key < CPU_KEYS; key++)
			hr_map_delete_elem(s->cpumap, &key);
	hr_object_close(s->peer_obj[0]);
	hr_object_close(s->peer_obj[1]);
	hr_object_close(s->obj);
	hr_dp_destroy(s->dp);
	if (s->devnull)
		fclose(s->devnull);
}

#define U(x) ((unsigned long long)(x))

/* Counters of a device on which a frame can end its life. */
static uint64_t dev_end(const struct hr_dev_counters *c, bool wire)
{
	return c->drops_total + c->xdp_drop + c->xdp_aborted + c->delivered +
	       c->tc_stolen + (wire ? c->tx_packets : 0);
}

/* The books, after the datapath went idle and every entry was deleted. */
static void check_books(struct soak *s, struct totals *t, double secs)
{
	struct hr_dev_counters g, a, b, w, k;
	struct hr_veth_stats va, vb;
	struct hr_cpumap_kthread_stats ks;
	struct hr_cpumap_enq_stats es;
	uint64_t enq = 0, enq_drops = 0, kt_proc = 0, kt_drops = 0,
		 kt_xdrop = 0, kt_redir = 0, kt_deliv = 0, ends, into, out;
	const struct hr_dev_counters *all[] = { &g, &a, &b, &w };
	unsigned int src, key, i, r;

	counters(s->gen, &g);
	counters(s->a, &a);
	counters(s->b, &b);
	counters(s->wire, &w);
	counters(s->stack, &k);
	hr_dev_veth_stats(s->a, &va);
	hr_dev_veth_stats(s->b, &vb);
	for (key = 0; key < CPU_KEYS; key++) {
		for (src = 0; src < NWORKERS; src++) {
			CHECK_EQ(hr_cpumap_enqueue_stats(s->cpumap, src, key,
							 &es),
				 0);
			enq += es.processed;
			enq_drops += es.drops;
		}
		CHECK_EQ(hr_cpumap_kthread_stats(s->cpumap, key, &ks), 0);
		kt_proc += ks.processed;
		kt_drops += ks.drops;
		kt_xdrop += ks.xdp_drop;
		kt_redir += ks.xdp_redirect;
		kt_deliv += ks.delivered;
		CHECK(ks.processed == ks.drops + ks.xdp_drop + ks.xdp_redirect +
					      ks.delivered,
		      "cpumap entry %u: taken %llu = dropped at teardown %llu "
		      "+ program drop %llu + redirect %llu + delivered %llu",
		      key, U(ks.processed), U(ks.drops), U(ks.xdp_drop),
		      U(ks.xdp_redirect), U(ks.delivered));
	}

	/* Each stage's own balance. */
	CHECK_EQ(g.rx_packets, hr_dev_gen_sent(s->gen));
	CHECK(g.rx_packets > 0, "traffic");
	for (i = 0; i < 3; i++) {
		const struct hr_dev_counters *c = all[i];
		/* The generator's stack also takes the cpumap's skbs. */
		uint64_t passed = c->delivered - (i ? 0 : kt_deliv);

		/* One verdict each, or none while no program was attached
		 * (then passed: delivered without a verdict). */
		CHECK(c->delivered >= (i ? 0 : kt_deliv) + c->xdp_pass,
		      "%s: delivered %llu, passed %llu", i ? "veth" : "gen",
		      U(c->delivered), U(c->xdp_pass));
		CHECK_EQ(c->xdp_aborted + c->xdp_drop + c->xdp_tx +
				 c->xdp_redirect + passed,
			 c->rx_packets);
		CHECK_EQ(c->redirect_err_total,
			 c->drops[HR_DROP_REDIRECT_ERROR]);
	}
	CHECK_EQ(k.rx_packets, g.delivered + a.delivered + b.delivered);
	/* A veth end's transmits landed on the peer's rings, which the
	 * peer received or dropped at stop; refusals are counted once. */
	CHECK_EQ(va.xmit, a.tx_packets);
	CHECK_EQ(vb.xmit, b.tx_packets);
	CHECK_EQ(a.tx_packets, b.rx_packets + b.drops[HR_DROP_DEV_DOWN]);
	CHECK_EQ(b.tx_packets, a.rx_packets + a.drops[HR_DROP_DEV_DOWN]);
	CHECK_EQ(va.xmit_err_mtu + va.xmit_err_ring_full + va.xmit_err_enxio,
		 a.drops[HR_DROP_XMIT_ERROR] + a.drops[HR_DROP_TX_ERROR]);
	CHECK_EQ(vb.xmit_err_mtu + vb.xmit_err_ring_full + vb.xmit_err_enxio,
		 b.drops[HR_DROP_XMIT_ERROR] + b.drops[HR_DROP_TX_ERROR]);
	/* The cpumap: flushed = ring full + taken. */
	CHECK(enq == enq_drops + kt_proc,
	      "cpumap: flushed %llu = ring full %llu + taken %llu", U(enq),
	      U(enq_drops), U(kt_proc));
	/* Redirects and XDP_TX that went through into a transmit bulk or a
	 * cpumap = what the targets sent, refused or dropped there. */
	into = kt_redir;
	out = enq;
	for (i = 0; i < 4; i++) {
		const struct hr_dev_counters *c = all[i];

		into += c->xdp_redirect - c->redirect_err_total + c->xdp_tx;
		out += c->tx_packets + c->drops[HR_DROP_XMIT_ERROR] +
		       c->drops[HR_DROP_TX_ERROR] +
		       c->drops[HR_DROP_EGRESS_PROG];
	}
	CHECK(into == out, "into transmit bulks and cpumaps %llu, out %llu",
	      U(into), U(out));

	/* generated = dropped + transmitted + delivered + named errors */
	ends = dev_end(&g, true) + dev_end(&a, false) + dev_end(&b, false) +
	       dev_end(&w, true) + enq_drops + kt_drops + kt_xdrop;
	CHECK(ends == g.rx_packets,
	      "generated %llu, accounted for %llu (%+lld)", U(g.rx_packets),
	      U(ends), (long long)(ends - g.rx_packets));

	fprintf(stderr,
		"  generated %llu in %.1f s: %.2f Mpps\n"
		"  dropped: XDP_DROP %llu, ABORTED %llu, cpumap program %llu\n"
		"  transmitted on a wire: generator %llu, sink %llu\n"
		"  delivered: %llu (%llu through the cpumap)\n",
		U(g.rx_packets), secs, (double)g.rx_packets / secs / 1e6,
		U(g.xdp_drop + a.xdp_drop + b.xdp_drop),
		U(g.xdp_aborted + a.xdp_aborted + b.xdp_aborted), U(kt_xdrop),
		U(g.tx_packets), U(w.tx_packets),
		U(g.delivered + a.delivered + b.delivered), U(kt_deliv));
	fprintf(stderr, "  errors:");
	for (r = 0; r < HR_DROP__MAX; r++) {
		uint64_t n = g.drops[r] + a.drops[r] + b.drops[r] + w.drops[r];

		if (n)
			fprintf(stderr, " %s %llu", hr_dev_drop_name(r), U(n));
		t->errors += n;
	}
	fprintf(stderr,
		"; cpumap ring full %llu, cpumap teardown %llu\n"
		"  redirect errors: ENETDOWN %llu EINVAL %llu ENXIO %llu; veth "
		"refused: ring full %llu, no NAPI %llu\n",
		U(enq_drops), U(kt_drops),
		U(g.redirect_err[ENETDOWN] + a.redirect_err[ENETDOWN] +
		  b.redirect_err[ENETDOWN]),
		U(g.redirect_err[EINVAL] + a.redirect_err[EINVAL] +
		  b.redirect_err[EINVAL]),
		U(g.redirect_err[ENXIO]),
		U(va.xmit_err_ring_full + vb.xmit_err_ring_full),
		U(va.xmit_err_enxio + vb.xmit_err_enxio));
	t->errors += enq_drops + kt_drops;
	t->packets += g.rx_packets;
	t->dropped += g.xdp_drop + a.xdp_drop + b.xdp_drop + g.xdp_aborted +
		      a.xdp_aborted + b.xdp_aborted + kt_xdrop;
	t->wire += g.tx_packets + w.tx_packets;
	t->delivered += g.delivered + a.delivered + b.delivered;
	t->cpu_ring_full += enq_drops;
	t->veth_ring_full += va.xmit_err_ring_full + vb.xmit_err_ring_full;

	/* Every frame is back in its pool, none returned twice. */
	CHECK_EQ(hr_pool_outstanding(s->gen->pool), 0);
	CHECK_EQ(hr_pool_outstanding(s->a->pool), 0);
	CHECK_EQ(hr_pool_outstanding(s->b->pool), 0);
	CHECK_EQ(hr_pool_outstanding(s->wire->pool), 0);
	CHECK_EQ(hr_pool_outstanding(s->stack->pool), 0);
	CHECK_EQ(hr_pool_bad_puts(s->gen->pool) + hr_pool_bad_puts(s->a->pool) +
			 hr_pool_bad_puts(s->b->pool),
		 0);
}

static void soak_run(enum hr_engine engine, double seconds, uint64_t seed,
		     struct totals *t)
{
	uint64_t dur = (uint64_t)(seconds * 1e9), start, end;
	struct soak s;
	uint32_t key;
	unsigned int i;
	double secs;

	memset(&s, 0, sizeof(s));
	s.rng = seed;
	fprintf(stderr, "%s, %.1f s:\n",
		engine == HR_ENGINE_INTERP ? "interpreter" :
					     "default engine (JIT, or "
					     "HEADROOM_ENGINE's)",
		seconds);
	s.devnull = fopen("/dev/null", "w");
	if (!s.devnull || setup(&s, engine, dur))
		goto out;
	start = now_ns();
	CHECK_EQ(hr_dp_start(s.dp), 0);
	end = start + dur;
	while (now_ns() < end) {
		change(&s);
		soak_restore(&s, false);
		sleep_us(rnd_below(&s, 500));
	}
	soak_restore(&s, true);
	CHECK_EQ(hr_dp_start(s.dp), 0);
	if (rnd_below(&s, 2)) {
		/* Everything up again, the generator (at its duration)
		 * done, the rings drained: a hang here is a deadlock or a
		 * lost wakeup. */
		fprintf(stderr, "  end: run until idle\n");
		CHECK_EQ(hr_dp_run_until_idle(s.dp, 20000), 0);
		hr_dp_stop(s.dp);
	} else {
		/* Or stopped in full flow: what the rings hold is dropped
		 * and counted when the veth ends stop and the entries go. */
		fprintf(stderr, "  end: stopped under traffic\n");
		hr_dp_stop(s.dp);
		hr_dev_close(s.a);
		hr_dev_close(s.b);
	}
	secs = (double)(now_ns() - start) / 1e9;
	/* Deleting the entries counts what their rings still held. */
	for (key = 0; key < CPU_KEYS - 1; key++)
		CHECK_EQ(hr_map_delete_elem(s.cpumap, &key), 0);
	check_books(&s, t, secs);
	fprintf(stderr, "  changes:");
	for (i = 0; i < CH__MAX; i++) {
		fprintf(stderr, "%s %s %llu", i ? "," : "", change_names[i],
			U(s.changes[i]));
		t->changes[i] += s.changes[i];
	}
	fputc('\n', stderr);
	t->seconds += secs;
out:
	teardown(&s);
}

static void watchdog(int sig)
{
	static const char msg[] =
		"FAIL test_soak: still running long after its time: "
		"a deadlock?\n";

	(void)sig;
	(void)!write(2, msg, sizeof(msg) - 1);
	_exit(1);
}

int main(int argc, char **argv)
{
	const char *env = getenv("HEADROOM_SOAK_SECONDS");
	const char *env_seed = getenv("HEADROOM_SOAK_SEED");
	double seconds = env && *env ? atof(env) : 30;
	uint64_t seed = env_seed && *env_seed ? strtoull(env_seed, NULL, 0) :
						now_ns() ^ (uint64_t)getpid();
	struct totals t;
	unsigned int i;
	int a;

	for (a = 1; a < argc; a++) {
		if (!strcmp(argv[a], "--seconds") && a + 1 < argc)
			seconds = atof(argv[++a]);
		else if (!strcmp(argv[a], "--seed") && a + 1 < argc)
			seed = strtoull(argv[++a], NULL, 0);
		else {
			fprintf(stderr,
				"usage: %s [--seconds N] [--seed N]\n"
				"  (or HEADROOM_SOAK_SECONDS, "
				"HEADROOM_SOAK_SEED)\n",
				argv[0]);
			return 2;
		}
	}
	if (seconds < 0.2)
		seconds = 0.2;
	memset(&t, 0, sizeof(t));
	fprintf(stderr,
		"soak: %.1f s, seed %llu (HEADROOM_SOAK_SEED=%llu "
		"repeats the changes)\n",
		seconds, U(seed), U(seed));
	/* Setup, drain and teardown take seconds, under ThreadSanitizer
	 * too; minutes more can only be a hang. */
	signal(SIGALRM, watchdog);
	alarm((unsigned int)(seconds * 2) + 120);
	soak_run(HR_ENGINE_INTERP, seconds / 2, seed, &t);
	/* The JIT, or the checked JIT when HEADROOM_ENGINE=jit-checked. */
	soak_run(HR_ENGINE_DEFAULT, seconds / 2, seed + 1, &t);
	alarm(0);

	fprintf(stderr,
		"soak total: %llu packets in %.1f s (%.2f Mpps): dropped %llu, "
		"on a wire %llu, delivered %llu, errors %llu (cpumap ring "
		"full %llu, veth ring full %llu)\n",
		U(t.packets), t.seconds,
		t.seconds > 0 ? (double)t.packets / t.seconds / 1e6 : 0,
		U(t.dropped), U(t.wire), U(t.delivered), U(t.errors),
		U(t.cpu_ring_full), U(t.veth_ring_full));
	for (i = 0; i < CH__MAX; i++)
		fprintf(stderr, "  %-50s %llu\n", change_names[i],
			U(t.changes[i]));
	/* A run of 10 s or more meets every kind of change and both kinds
	 * of overflow; a shorter one may not. */
	if (seconds >= 10) {
		for (i = 0; i < CH__MAX; i++)
			CHECK(t.changes[i] > 0, "some %s", change_names[i]);
		CHECK(t.cpu_ring_full > 0, "a cpumap ring overflowed");
		CHECK(t.veth_ring_full > 0, "a veth ring overflowed");
	}
	return t_done();
}
