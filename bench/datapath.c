// SPDX-License-Identifier: MIT
/*
 * bench/datapath: packets a second through headroom's pipelines, each
 * beside the kernel doing the same job on this machine in the same run,
 * with the same BPF objects (progs/bench/):
 *
 *   drop        generator -> XDP_DROP
 *               kernel: BPF_PROG_TEST_RUN live frames (BPF_F_TEST_XDP_
 *               LIVE_FRAMES) on lo, XDP_DROP
 *   veth-drop-F generator (F flows) -> bpf_redirect -> veth A => B: DROP,
 *               A and B polled on the RX worker (the kernel runs B's NAPI
 *               on the transmitting CPU)
 *               kernel: live frames on veth A in a netns of our own,
 *               bench_inject giving F source ports and XDP_TX to B,
 *               B drops and counts (per-CPU array)
 *   veth-tx-F   ... => B: XDP_TX => A: DROP, counted on A
 *   cpumap      generator -> cpumap entry on worker/CPU 1 -> cpumap
 *               program counts into a per-CPU array and drops
 *               kernel: live frames on lo into a cpumap entry on CPU 1
 *               whose program counts on CPU 1: the DELIVERED rate, read
 *               on the remote CPU, not the enqueue rate
 *   meta, meta-base  generator with RX hints -> XDP: hints + 16 bytes of
 *               metadata (bench_hints) or plain PASS (bench_action) ->
 *               skb -> tc ingress reading the metadata (bench_tc)
 *               kernel: veth B with the same XDP program (device-bound
 *               for the kfuncs) and the same tc program, counting in tc
 *   cpumap-pass headroom only: cpumap, the skb built on the remote worker
 *               and delivered through tc there (counted by bench_tc)
 *   rps         generator -> XDP_PASS -> skb built on the RX worker ->
 *               RPS by its hash to worker 1's backlog -> tc (bench_tc)
 *               there -> delivered: the RPS-like baseline of cpumap-pass
 *               kernel: veth B with XDP_PASS and bench_tc, RPS on its
 *               rx-0 to CPU 1 (rps_cpus), live frames sent from CPU 0;
 *               delivered as counted by tc on CPU 1
 *
 * Each figure is the median of --runs runs (default 5) with min and max;
 * the ratio is headroom / kernel of each run, its median, min and max.
 *
 * --breakdown: instead, ns a packet for each stage of the drop and the
 * redirect pipelines, measured by leaving stages out (see breakdown()).
 *
 * usage: bench/datapath [--count N] [--runs N] [--engine interp|jit]
 *        [--only NAME[,NAME]] [--breakdown] [--json]
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <json-c/json.h>
#include <linux/if_link.h>
#include <net/if.h>

#include <headroom/headroom.h>
#include <headroom/cpumap.h>
#include <headroom/datapath.h>
#include <headroom/devices.h>

#include "../tests/lib/harness.h"
#include "../tests/lib/kernel_live.h"
#include "core/datapath.h" /* the RX worker's thread, for its CPU time */
#include "progs/prog_registry.h"
#include "bench.h"

#define MAX_RUNS 31

#ifndef BPF_F_XDP_DEV_BOUND_ONLY
#define BPF_F_XDP_DEV_BOUND_ONLY (1U << 6) /* uapi linux/bpf.h, 6.3 */
#endif

struct pipeline {
	const char *name;
	uint32_t flows;
	void (*hr)(struct pipeline *p, double *mpps, double *busy);
	double (*k)(struct pipeline *p);
	const char *k_note;
	/* Why this run's kernel figure means nothing (printed as '-'). */
	const char *k_skip;
	double hr_mpps[MAX_RUNS], k_mpps[MAX_RUNS], busy[MAX_RUNS];
	/* The share of the packets headroom dropped on the way (a full
	 * cpumap ring or RPS backlog): set by hr for its run, kept by run. */
	double drop_share, dropped[MAX_RUNS];
	/* The same for the kernel (rps: its backlog's drops), < 0: none. */
	double k_drop_share, k_dropped[MAX_RUNS];
	int n;
};

static enum hr_engine engine = HR_ENGINE_DEFAULT;
/* --breakdown: the stages the next datapath leaves out. */
static unsigned int bd_skip;
static uint64_t count = 2000000;
static bool kernel;

static void die(const char *what)
{
	fprintf(stderr, "bench/datapath: %s\n", what);
	exit(1);
}

/* ---- headroom side ---------------------------------------------------- */

static struct hr_object *open_obj(const char *name, const char *g0,
				  const char *g1)
{
	const char *globals[2] = { g0, g1 };
	char path[4096], err[512] = "";
	struct hr_object *obj;
	HR_OPTS(hr_object_open_opts, o, .errbuf = err, .errbuf_sz = sizeof(err),
		.ncpus = 2, .globals = globals,
		.globals_cnt = g1 ? 2 :
			       g0 ? 1 :
				    0);

	snprintf(path, sizeof(path), "%s/%s", t_progs_dir(), name);
	if (hr_object_open(path, &o, &obj))
		die(err);
	return obj;
}

static struct hr_prog *prog_of(struct hr_object *o, const char *name)
{
	struct hr_prog *p = hr_object_find_prog(o, name);

	if (!p)
		die("program missing");
	return p;
}

static struct hr_datapath *new_dp(void)
{
	struct hr_datapath *dp;
	HR_OPTS(hr_datapath_opts, o, .nworkers = 2, .engine = engine);

	if (hr_dp_create(&o, &dp))
		die("cannot create the datapath");
	dp->bench_skip = bd_skip;
	dp->bench_verdict = XDP_DROP;
	return dp;
}

static struct hr_dev *new_gen(struct hr_datapath *dp, uint32_t flows)
{
	struct hr_dev *gen;
	HR_OPTS(hr_gen_opts, o, .count = count, .pkt_size = 60,
		.flows = flows ? flows : 64, .src_port_min = 1024,
		.src_port_max = (uint16_t)(1024 + (flows ? flows : 64) - 1));

	if (hr_dev_gen_create(dp, "gen0", &o, &gen))
		die("cannot create the generator");
	if (hr_dp_assign_queue(dp, gen, 0, 0))
		die("cannot assign the generator's queue");
	return gen;
}

static struct hr_dev_counters counters(struct hr_dev *dev)
{
	struct hr_dev_counters c;

	memset(&c, 0, sizeof(c));
	c.sz = sizeof(c);
	hr_dev_get_counters(dev, &c);
	return c;
}

static uint64_t percpu_sum(struct hr_map *m, uint32_t key)
{
	uint64_t v[16] = { 0 }, s = 0;
	uint32_t i, n = hr_map_user_value_size(m) / 8;

	if (n > 16 || hr_map_lookup_elem(m, &key, v))
		return 0;
	for (i = 0; i < n; i++)
		s += v[i];
	return s;
}

static double thread_cpu_s(pthread_t th)
{
	struct timespec ts;
	clockid_t cid;

	if (pthread_getcpuclockid(th, &cid) || clock_gettime(cid, &ts))
		return 0;
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/*
 * Runs until the generator @gen is done and all queues are empty;
 * seconds. @busy: how busy the RX worker (worker 0, which polls the
 * generator) was, as its thread's CPU time a packet received, in ns:
 * the cpumap thread's "how loaded is the RX CPU".
 */
static double run_timed(struct hr_datapath *dp, struct hr_dev *gen,
			double *busy)
{
	double t0, t, c0, c1;

	if (hr_dp_start(dp))
		die("cannot start workers");
	t0 = t_now_s();
	c0 = thread_cpu_s(dp->workers[0]->thread);
	if (hr_dp_run_until_idle(dp, 120000))
		fprintf(stderr, "bench: pipeline did not drain in 120 s\n");
	c1 = thread_cpu_s(dp->workers[0]->thread);
	t = t_now_s() - t0;
	hr_dp_stop(dp);
	/* The generator's own count: a breakdown run may count nothing. */
	if (busy)
		*busy = (c1 - c0) * 1e9 /
			(double)(hr_dev_gen_sent(gen) ? hr_dev_gen_sent(gen) :
							1);
	return t;
}

static void hr_drop(struct pipeline *p, double *mpps, double *busy)
{
	struct hr_datapath *dp = new_dp();
	struct hr_object *v = open_obj("bench_action.o", "action=1", NULL);
	struct hr_dev *gen = new_gen(dp, 64);
	double t;

	hr_dev_attach_xdp(gen, prog_of(v, NULL));
	hr_dev_open(gen);
	t = run_timed(dp, gen, busy);
	*mpps = (double)counters(gen).xdp_drop / t / 1e6;
	hr_dp_destroy(dp);
	hr_object_close(v);
}

/* gen -> veth A => B (DROP or TX); TX comes back to A, which drops. */
static void hr_veth(struct pipeline *p, double *mpps, double *busy, bool tx)
{
	struct hr_datapath *dp = new_dp();
	struct hr_dev *gen = new_gen(dp, p->flows), *a, *b;
	HR_OPTS(hr_veth_opts, vo, .mtu = 1500);
	struct hr_object *redir, *va, *vb;
	char g[48];
	double t;

	if (hr_dev_veth_create_pair(dp, "veth0", "veth1", &vo, &a, &b))
		die("cannot create the veth pair");
	snprintf(g, sizeof(g), "redirect_ifindex=%u", hr_dev_ifindex(a));
	redir = open_obj("bench_action.o", "action=4", g);
	va = open_obj("bench_action.o", "action=1", NULL);
	vb = open_obj("bench_action.o", tx ? "action=3" : "action=1",
		      tx ? "touch=1" : NULL);
	hr_dev_attach_xdp(gen, prog_of(redir, NULL));
	hr_dev_attach_xdp(a, prog_of(va, NULL));
	hr_dev_attach_xdp(b, prog_of(vb, NULL));
	/* Both ends on the RX worker, as in the kernel: veth_xdp_xmit's
	 * flush (__veth_xdp_flush) schedules the peer's NAPI on the CPU
	 * that transmits, so its live-frames run does all on one CPU. */
	hr_dp_assign_queue(dp, a, 0, 0);
	hr_dp_assign_queue(dp, b, 0, 0);
	hr_dev_open(gen);
	hr_dev_open(a);
	hr_dev_open(b);
	t = run_timed(dp, gen, busy);
	*mpps = (double)(tx ? counters(a).xdp_drop : counters(b).xdp_drop) / t /
		1e6;
	hr_dp_destroy(dp);
	hr_object_close(redir);
	hr_object_close(va);
	hr_object_close(vb);
}

static void hr_veth_drop(struct pipeline *p, double *mpps, double *busy)
{
	hr_veth(p, mpps, busy, false);
}

static void hr_veth_tx(struct pipeline *p, double *mpps, double *busy)
{
	hr_veth(p, mpps, busy, true);
}

struct cpumap_val {
	uint32_t qsize;
	uint32_t prog_fd;
};

/* Frames the RX worker (0) could not put on entry @key's full ring. */
static double cpumap_drops(struct hr_map *map, uint32_t key)
{
	struct hr_cpumap_enq_stats e;

	return hr_cpumap_enqueue_stats(map, 0, key, &e) ? 0 : (double)e.drops;
}

static void hr_cpumap_run(struct pipeline *p, double *mpps, double *busy,
			  bool pass)
{
	struct hr_datapath *dp = new_dp();
	struct hr_object *cm =
		open_obj("bench_cpu.o", "ncpus=1",
			 pass ? "remote_action=2" : "remote_action=1");
	struct hr_object *tc = pass ? open_obj("bench_tc.o", NULL, NULL) : NULL;
	struct hr_dev *gen = new_gen(dp, 64), *sink;
	struct cpumap_val v = { 2048, 0 };
	uint32_t key = 1, zero = 0;
	double t;

	if (hr_dev_sink_create(dp, "sink0", NULL, &sink))
		die("cannot create the sink");
	v.prog_fd = (uint32_t)hr_prog_fd(prog_of(cm, "bench_cpu_remote"));
	if (hr_map_update_elem(hr_object_find_map(cm, "cpu_map"), &key, &v,
			       0) ||
	    hr_map_update_elem(hr_object_find_map(cm, "cpus_available"), &zero,
			       &key, 0))
		die("cannot fill the cpumap");
	hr_dev_attach_xdp(gen, prog_of(cm, "bench_cpu_rx"));
	if (tc)
		hr_dev_attach_tc(gen, prog_of(tc, NULL));
	hr_dev_set_stack(gen, sink);
	hr_dev_open(gen);
	hr_dev_open(sink);
	t = run_timed(dp, gen, busy);
	p->drop_share = cpumap_drops(hr_object_find_map(cm, "cpu_map"), key) /
			(double)hr_dev_gen_sent(gen);
	*mpps = (double)(pass ? percpu_sum(hr_object_find_map(tc, "tc_seen"),
					   0) :
				percpu_sum(hr_object_find_map(cm,
							      "remote_seen"),
					   0)) /
		t / 1e6;
	hr_dp_destroy(dp);
	hr_object_close(cm);
	hr_object_close(tc);
}

static void hr_cpumap(struct pipeline *p, double *mpps, double *busy)
{
	hr_cpumap_run(p, mpps, busy, false);
}

static void hr_cpumap_pass(struct pipeline *p, double *mpps, double *busy)
{
	hr_cpumap_run(p, mpps, busy, true);
}

/* gen -> XDP (hints + metadata, or plain PASS) -> skb -> tc -> sink;
 * @rps: the skb steered from worker 0 to worker 1 before tc (RPS). */
static void hr_meta_run(struct pipeline *p, double *mpps, double *busy,
			bool meta, bool rps)
{
	struct hr_datapath *dp = new_dp();
	struct hr_object *x =
		meta ? open_obj("bench_hints.o", NULL, NULL) :
		       open_obj("bench_action.o", "action=2", NULL);
	struct hr_object *tc = open_obj("bench_tc.o", NULL, NULL);
	struct hr_dev *gen = new_gen(dp, 64), *sink;
	double t;

	if (hr_dev_sink_create(dp, "sink0", NULL, &sink))
		die("cannot create the sink");
	hr_dev_attach_xdp(gen, prog_of(x, NULL));
	hr_dev_attach_tc(gen, prog_of(tc, NULL));
	hr_dev_set_stack(gen, sink);
	if (rps && hr_dev_set_rps(gen, 0, 1u << 1))
		die("cannot set RPS on the generator's queue");
	hr_dev_open(gen);
	hr_dev_open(sink);
	t = run_timed(dp, gen, busy);
	/* RPS: what full backlogs dropped (cpu_backlog). */
	p->drop_share = (double)counters(gen).drops_total /
			(double)hr_dev_gen_sent(gen);
	*mpps = (double)percpu_sum(hr_object_find_map(tc, "tc_seen"),
				   meta ? 1 : 0) /
		t / 1e6;
	hr_dp_destroy(dp);
	hr_object_close(x);
	hr_object_close(tc);
}

static void hr_meta(struct pipeline *p, double *mpps, double *busy)
{
	hr_meta_run(p, mpps, busy, true, false);
}

static void hr_meta_base(struct pipeline *p, double *mpps, double *busy)
{
	hr_meta_run(p, mpps, busy, false, false);
}

static void hr_rps(struct pipeline *p, double *mpps, double *busy)
{
	hr_meta_run(p, mpps, busy, false, true);
}

/* ---- kernel side ------------------------------------------------------ */

/* $BUILD/progs/@name with up to two .rodata values set (@v0 = @x0, @v1 =
 * @x1), every program bound to @bound_ifindex when not 0; loaded. */
static struct bpf_object *k_open(const char *name, const char *v0, uint32_t x0,
				 const char *v1, uint32_t x1, int bound_ifindex)
{
	char s0[64], s1[64];
	const char *sets[2] = { s0, s1 };

	snprintf(s0, sizeof(s0), "%s=%u", v0 ? v0 : "", x0);
	snprintf(s1, sizeof(s1), "%s=%u", v1 ? v1 : "", x1);
	return t_kopen_set(name, sets, v1 ? 2 : v0 ? 1 : 0, bound_ifindex);
}

/* Live frames of t_live_frame, --count of them, on @ifindex. */
static double k_live(int prog_fd, int ifindex)
{
	return t_klive(prog_fd, ifindex, t_live_frame, sizeof(t_live_frame),
		       count);
}

/* A kernel figure of K_REFUSED: the live-frames run that sends the
 * packets did not run (this host's kernel refuses it: EPERM), so what
 * was counted is not the pipeline's rate. */
#define K_REFUSED (-1.0)
#define K_REFUSED_WHY                                                        \
	"no kernel figure: the live-frames test run that sends its packets " \
	"failed"

static double k_drop(struct pipeline *p)
{
	struct bpf_object *v =
		k_open("bench_action.o", "action", 1, NULL, 0, 0);
	double t;

	if (!v)
		return 0;
	t = k_live(t_kprog_fd(v, NULL), 1);
	bpf_object__close(v);
	return t > 0 ? (double)count / t / 1e6 : K_REFUSED;
}

/* Delivered on the remote CPU: the cpumap program counts there. The
 * kthread may still be busy when the test run returns, so the time runs
 * until its count stops moving. */
static double k_cpumap(struct pipeline *p)
{
	struct bpf_object *cm =
		k_open("bench_cpu.o", "ncpus", 1, "remote_action", 1, 0);
	struct cpumap_val v = { 2048, 0 };
	uint32_t key = 1, zero = 0;
	uint64_t n = 0, last;
	double t0, t;

	if (!cm)
		return 0;
	v.prog_fd = (uint32_t)t_kprog_fd(cm, "bench_cpu_remote");
	if (bpf_map_update_elem(bpf_object__find_map_fd_by_name(cm, "cpu_map"),
				&key, &v, 0) ||
	    bpf_map_update_elem(
		    bpf_object__find_map_fd_by_name(cm, "cpus_available"),
		    &zero, &key, 0)) {
		bpf_object__close(cm);
		return 0;
	}
	t0 = t_now_s();
	if (k_live(t_kprog_fd(cm, "bench_cpu_rx"), 1) <= 0) {
		bpf_object__close(cm);
		return K_REFUSED;
	}
	do {
		last = n;
		t = t_now_s();
		usleep(2000);
		n = t_kpercpu_sum(cm, "remote_seen", 0);
	} while (n != last);
	bpf_object__close(cm);
	return (double)n / (t - t0) / 1e6;
}

enum k_veth_kind { KV_DROP, KV_TX, KV_META, KV_META_BASE, KV_RPS };

/* The CPUs of the kernel's RPS pipeline: the sender (and B's NAPI, which
 * runs where the sender flushes), and the one B's rx-0 steers to. */
#define K_RPS_RX_CPU 0
#define K_RPS_CPU 1

/* What a child measured: the rate, and (KV_RPS only) the share of it
 * tc counted on K_RPS_CPU and the share of the packets K_RPS_CPU's
 * backlog dropped. */
struct k_result {
	double mpps;
	double remote_share;
	double drop_share;
};

/* The "dropped" column of /proc/net/softnet_stat for @cpu: skbs its
 * backlog refused (all namespaces: the machine's, not only ours). */
static uint64_t k_backlog_drops(int cpu)
{
	unsigned int v[13];
	uint64_t drops = 0;
	char line[512];
	FILE *f = fopen("/proc/net/softnet_stat", "r");
	int row = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		int n = sscanf(line,
			       "%x %x %*x %*x %*x %*x %*x %*x %*x %*x "
			       "%*x %*x %x",
			       &v[0], &v[1], &v[12]);

		/* The 13th column is the CPU (5.10 on), else the row. */
		if (n >= 2 && (n == 3 ? (int)v[12] : row) == cpu) {
			drops = v[1];
			break;
		}
		row++;
	}
	fclose(f);
	return drops;
}

/* KV_RPS: the child, and so the sender, stays on K_RPS_RX_CPU. */
static int k_pin_rx_cpu(void)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(K_RPS_RX_CPU, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

/* In a child inside netns @ns: the kernel's veth pipelines; writes a
 * struct k_result to @fd. */
static void k_veth_child(const char *ns, enum k_veth_kind kind, uint32_t flows,
			 int fd)
{
	struct bpf_object *inj = NULL, *va = NULL, *vb = NULL, *tc = NULL;
	struct k_result res = { 0, 0, -1 };
	char path[256];
	int nsfd, ia, ib;
	double t0, t;
	uint64_t done = 0, last, remote = 0, drops0;
	LIBBPF_OPTS(bpf_tc_hook, hook, .attach_point = BPF_TC_INGRESS);
	LIBBPF_OPTS(bpf_tc_opts, tco, .handle = 1, .priority = 1);

	snprintf(path, sizeof(path), "/var/run/netns/%s", ns);
	nsfd = open(path, O_RDONLY);
	if (nsfd < 0 || setns(nsfd, CLONE_NEWNET))
		goto out;
	if (kind == KV_RPS && k_pin_rx_cpu())
		goto out;
	ia = (int)if_nametoindex("hrbA");
	ib = (int)if_nametoindex("hrbB");
	if (!ia || !ib)
		goto out;
	inj = k_open("bench_inject.o", "flows", flows, NULL, 0, 0);
	va = k_open("bench_action.o", "action", 1, NULL, 0, 0);
	if (kind == KV_META)
		vb = k_open("bench_hints.o", NULL, 0, NULL, 0, ib);
	else
		vb = k_open("bench_action.o", "action",
			    kind == KV_TX   ? 3 :
			    kind == KV_DROP ? 1 :
					      2,
			    "touch", kind == KV_TX, 0);
	if (!inj || !va || !vb)
		goto out;
	if (kind == KV_META || kind == KV_META_BASE || kind == KV_RPS) {
		tc = k_open("bench_tc.o", NULL, 0, NULL, 0, 0);
		hook.ifindex = ib;
		tco.prog_fd = tc ? t_kprog_fd(tc, NULL) : -1;
		bpf_tc_hook_create(&hook);
		if (!tc || bpf_tc_attach(&hook, &tco))
			goto out;
	}
	if (bpf_xdp_attach(ia, t_kprog_fd(va, NULL), XDP_FLAGS_DRV_MODE,
			   NULL) ||
	    bpf_xdp_attach(ib, t_kprog_fd(vb, NULL), XDP_FLAGS_DRV_MODE, NULL))
		goto out;
	drops0 = k_backlog_drops(K_RPS_CPU);
	t0 = t_now_s();
	if (k_live(t_kprog_fd(inj, NULL), ia) <= 0) {
		res.mpps = K_REFUSED;
		goto out;
	}
	/* Until the NAPIs (and the stack) have drained. */
	do {
		last = done;
		t = t_now_s();
		usleep(5000);
		if (kind == KV_DROP)
			done = t_kpercpu_sum(vb, "bench_runs", 0);
		else if (kind == KV_TX)
			done = t_kpercpu_sum(va, "bench_runs", 0);
		else
			done = t_kpercpu_read(tc, "tc_seen", 0, K_RPS_CPU,
					      &remote);
	} while (done != last);
	res.mpps = (double)done / (t - t0) / 1e6;
	res.remote_share = done ? (double)remote / (double)done : 0;
	if (kind == KV_RPS)
		res.drop_share = (double)(k_backlog_drops(K_RPS_CPU) - drops0) /
				 (double)count;
out:
	if (write(fd, &res, sizeof(res)) != sizeof(res))
		_exit(1);
	_exit(0);
}

static char netns[64];

static int sh(const char *cmd)
{
	return system(cmd);
}

static void netns_del(void)
{
	char cmd[128];

	if (!netns[0])
		return;
	snprintf(cmd, sizeof(cmd), "ip netns del %s 2>/dev/null", netns);
	sh(cmd);
	netns[0] = '\0';
}

/* KV_RPS: B's rx-0 steers to K_RPS_CPU (sysfs as the netns sees it). */
static int k_rps_cpus(void)
{
	char cmd[256];

	snprintf(cmd, sizeof(cmd),
		 "ip netns exec %s sh -c 'echo %x > "
		 "/sys/class/net/hrbB/queues/rx-0/rps_cpus' 2>/dev/null",
		 netns, 1u << K_RPS_CPU);
	return sh(cmd);
}

/* A fresh netns with the veth pair for each measurement, so no program
 * or queue state carries over. */
static struct k_result k_veth_run(enum k_veth_kind kind, uint32_t flows)
{
	struct k_result res = { 0, 0, -1 };
	char cmd[512];
	int p[2], st;
	pid_t pid;

	snprintf(netns, sizeof(netns), "%s-%d",
		 kind == KV_RPS ? "hrrps" : "hr-bench", (int)getpid());
	snprintf(cmd, sizeof(cmd),
		 "ip netns add %s && ip -n %s link add hrbA type veth peer "
		 "name hrbB && ip -n %s link set hrbA up && ip -n %s link set "
		 "hrbB up",
		 netns, netns, netns, netns);
	if (sh(cmd) || (kind == KV_RPS && k_rps_cpus()) || pipe(p)) {
		netns_del();
		return res;
	}
	pid = fork();
	if (pid == 0)
		k_veth_child(netns, kind, flows, p[1]);
	if (pid > 0) {
		if (read(p[0], &res, sizeof(res)) != sizeof(res))
			res.mpps = 0;
		waitpid(pid, &st, 0);
	}
	close(p[0]);
	close(p[1]);
	netns_del();
	return res;
}

static double k_veth_drop(struct pipeline *p)
{
	return k_veth_run(KV_DROP, p->flows).mpps;
}

static double k_veth_tx(struct pipeline *p)
{
	return k_veth_run(KV_TX, p->flows).mpps;
}

static double k_meta(struct pipeline *p)
{
	return k_veth_run(KV_META, 64).mpps;
}

static double k_meta_base(struct pipeline *p)
{
	return k_veth_run(KV_META_BASE, 64).mpps;
}

/* Meaningful only when RPS did steer: nearly all counted on the target
 * CPU (the rest would be tc on the sender's CPU, no steering). */
static double k_rps(struct pipeline *p)
{
	struct k_result res;

	if (sysconf(_SC_NPROCESSORS_ONLN) <= K_RPS_CPU) {
		p->k_skip = "one CPU online: no other CPU to steer to";
		return 0;
	}
	res = k_veth_run(KV_RPS, p->flows);
	p->k_drop_share = res.drop_share;
	if (res.mpps == K_REFUSED)
		p->k_skip = K_REFUSED_WHY;
	else if (res.mpps <= 0)
		p->k_skip = "the netns with rps_cpus on hrbB could not be "
			    "set up, or its run failed";
	else if (res.remote_share < 0.9)
		p->k_skip = "RPS did not steer: under 90% of the skbs "
			    "reached tc on CPU 1";
	return res.mpps;
}

/* ---- the table -------------------------------------------------------- */

static struct pipeline pipes[] = {
	{ "drop", 64, hr_drop, k_drop, "live frames on lo" },
	{ "veth-drop-1", 1, hr_veth_drop, k_veth_drop, "veth pair, netns" },
	{ "veth-drop-2", 2, hr_veth_drop, k_veth_drop, "veth pair, netns" },
	{ "veth-drop-100", 100, hr_veth_drop, k_veth_drop, "veth pair, netns" },
	{ "veth-tx-1", 1, hr_veth_tx, k_veth_tx, "veth pair, netns" },
	{ "veth-tx-2", 2, hr_veth_tx, k_veth_tx, "veth pair, netns" },
	{ "veth-tx-100", 100, hr_veth_tx, k_veth_tx, "veth pair, netns" },
	{ "cpumap", 64, hr_cpumap, k_cpumap,
	  "delivered, counted on the remote CPU" },
	{ "cpumap-pass", 64, hr_cpumap_pass, NULL,
	  "skb built on the remote worker, tc there" },
	{ "meta", 64, hr_meta, k_meta,
	  "hints + 16 B metadata -> tc; kernel: veth B" },
	{ "meta-base", 64, hr_meta_base, k_meta_base,
	  "same without metadata; kernel: veth B" },
	{ "rps", 64, hr_rps, k_rps,
	  "skb built on the RX CPU, RPS to CPU 1, tc there; kernel: veth B "
	  "with rps_cpus" },
};

#define NPIPES (sizeof(pipes) / sizeof(pipes[0]))

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

struct stat3 {
	double med, min, max;
};

static struct stat3 stat_of(const double *v, int n)
{
	double s[MAX_RUNS];
	struct stat3 r = { 0, 0, 0 };

	if (n <= 0)
		return r;
	memcpy(s, v, sizeof(double) * (size_t)n);
	qsort(s, (size_t)n, sizeof(double), cmp_d);
	r.min = s[0];
	r.max = s[n - 1];
	r.med = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
	return r;
}

static void ratios(const struct pipeline *p, double *out)
{
	int i;

	for (i = 0; i < p->n; i++)
		out[i] = p->k_mpps[i] > 0 ? p->hr_mpps[i] / p->k_mpps[i] : 0;
}

static struct json_object *j3(struct stat3 s)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "median", json_object_new_double(s.med));
	json_object_object_add(o, "min", json_object_new_double(s.min));
	json_object_object_add(o, "max", json_object_new_double(s.max));
	return o;
}

static void print_json(const struct pipeline *p)
{
	struct json_object *o = json_object_new_object();
	double r[MAX_RUNS];
	bool k = kernel && p->k && !p->k_skip;

	ratios(p, r);
	json_object_object_add(o, "pipeline", json_object_new_string(p->name));
	json_object_object_add(o, "runs", json_object_new_int(p->n));
	json_object_object_add(o, "packets", json_object_new_uint64(count));
	json_object_object_add(o, "headroom_mpps",
			       j3(stat_of(p->hr_mpps, p->n)));
	json_object_object_add(o, "kernel_mpps",
			       k ? j3(stat_of(p->k_mpps, p->n)) : NULL);
	json_object_object_add(o, "ratio", k ? j3(stat_of(r, p->n)) : NULL);
	/* The RX worker's CPU time a packet (run_timed()), the cpumap
	 * thread's "how busy is the RX CPU". */
	json_object_object_add(o, "rx_busy_ns", j3(stat_of(p->busy, p->n)));
	json_object_object_add(o, "dropped_share",
			       j3(stat_of(p->dropped, p->n)));
	json_object_object_add(o, "kernel_dropped_share",
			       k && stat_of(p->k_dropped, p->n).min >= 0 ?
				       j3(stat_of(p->k_dropped, p->n)) :
				       NULL);
	json_object_object_add(o, "kernel",
			       json_object_new_string(p->k_skip ? p->k_skip :
								  p->k_note));
	puts(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN));
	json_object_put(o);
}

static void print_text(const struct pipeline *p)
{
	struct stat3 h = stat_of(p->hr_mpps, p->n), k, r;
	double rv[MAX_RUNS];

	ratios(p, rv);
	k = stat_of(p->k_mpps, p->n);
	r = stat_of(rv, p->n);
	printf("%-14s %6.2f %6.2f %6.2f", p->name, h.med, h.min, h.max);
	if (kernel && p->k && !p->k_skip)
		printf("   %6.2f %6.2f %6.2f   %5.2f %5.2f %5.2f", k.med, k.min,
		       k.max, r.med, r.min, r.max);
	else
		printf("   %6s %6s %6s   %5s %5s %5s", "-", "-", "-", "-", "-",
		       "-");
	printf("  %s", p->k_skip ? p->k_skip : p->k_note);
	if (stat_of(p->dropped, p->n).med > 0)
		printf(" (headroom dropped %.1f%%)",
		       100 * stat_of(p->dropped, p->n).med);
	if (kernel && p->k && !p->k_skip &&
	    stat_of(p->k_dropped, p->n).min >= 0)
		printf(" (kernel dropped %.1f%%)",
		       100 * stat_of(p->k_dropped, p->n).med);
	printf("\n");
}

/* ---- --breakdown ------------------------------------------------------ */

/*
 * The cost of each stage, ns a packet on the RX worker's CPU: the drop
 * pipeline run whole and then with stages left out one more at a time
 * (each difference is the stage left out), and the redirect pipeline
 * (into a veth pair whose far end drops) with and without the flush's
 * hand-off to the peer.
 */
#define BD_S HR_BENCH_SKIP_STATS
#define BD_P (BD_S | HR_BENCH_SKIP_PROG)
#define BD_C (BD_P | HR_BENCH_SKIP_CTX)
#define BD_F (BD_C | HR_BENCH_SKIP_FILL)
#define BD_R (BD_F | HR_BENCH_SKIP_RX)

static const struct bd_cfg {
	bool redirect;
	unsigned int skip;
} bd_cfgs[] = {
	{ false, 0 },	 { false, BD_S },
	{ false, BD_P }, { false, BD_C },
	{ false, BD_F }, { false, BD_R },
	{ true, 0 },	 { true, HR_BENCH_SKIP_XMIT },
};
#define BD_N (sizeof(bd_cfgs) / sizeof(bd_cfgs[0]))

static const struct bd_row {
	const char *stage;
	int a, b; /* cost = ns[a] - ns[b] (b < 0: ns[a]) */
} bd_rows[] = {
	{ "device RX: poll loop, frame pool, recycle in bulk", 5, -1 },
	/* Leaving the headers out (BD_F) is what BD_C does on top of BD_F;
	 * the rest of the receive (the buffs, their descriptors, the batch
	 * through the verdicts and the frames back) is BD_F over BD_R. */
	{ "device RX: headers written", 3, 4 },
	{ "verdict dispatch, frame recycled", 4, 5 },
	{ "context set-up", 2, 3 },
	{ "program (JIT)", 1, 2 },
	{ "statistics", 0, 1 },
	{ "drop pipeline, total", 0, -1 },
	{ "redirect: helper, buff to frame, bulk enqueue", 7, 0 },
	{ "flush: xmit into the veth peer's ring", 6, 7 },
	{ "redirect pipeline, total", 6, -1 },
};

static void breakdown(int runs, bool json, double k_ns)
{
	static double ns[BD_N][MAX_RUNS];
	struct pipeline p = { .name = "breakdown", .flows = 1 };
	double med[BD_N], mpps;
	struct json_object *o = NULL, *stages = NULL;
	unsigned int i;
	int r;

	for (r = 0; r < runs; r++)
		for (i = 0; i < BD_N; i++) {
			bd_skip = bd_cfgs[i].skip;
			if (bd_cfgs[i].redirect)
				hr_veth_drop(&p, &mpps, &ns[i][r]);
			else
				hr_drop(&p, &mpps, &ns[i][r]);
		}
	bd_skip = 0;
	for (i = 0; i < BD_N; i++)
		med[i] = stat_of(ns[i], runs).med;
	if (json) {
		o = json_object_new_object();
		stages = json_object_new_object();
		json_object_object_add(o, "breakdown_ns", stages);
		json_object_object_add(o, "runs", json_object_new_int(runs));
		json_object_object_add(o, "kernel_drop_ns",
				       k_ns > 0 ? json_object_new_double(k_ns) :
						  NULL);
	} else {
		printf("breakdown: ns a packet on the RX worker's CPU, "
		       "medians of %d runs of %llu packets\n",
		       runs, (unsigned long long)count);
	}
	for (i = 0; i < sizeof(bd_rows) / sizeof(bd_rows[0]); i++) {
		const struct bd_row *row = &bd_rows[i];
		double v = med[row->a] - (row->b >= 0 ? med[row->b] : 0);

		if (json)
			json_object_object_add(stages, row->stage,
					       json_object_new_double(v));
		else
			printf("  %-50s %7.2f\n", row->stage, v);
	}
	if (json) {
		puts(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN));
		json_object_put(o);
	} else if (k_ns > 0) {
		printf("  %-50s %7.2f\n",
		       "kernel: live-frames drop (same run), a packet", k_ns);
	}
}

static bool wanted(const char *only, const char *name)
{
	char buf[512], *t, *save = NULL;

	if (!only)
		return true;
	snprintf(buf, sizeof(buf), "%s", only);
	for (t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save))
		if (!strcmp(t, name) || (t[strlen(t) - 1] == '*' &&
					 !strncmp(t, name, strlen(t) - 1)))
			return true;
	return false;
}

int main(int argc, char **argv)
{
	const char *only = NULL;
	bool json = false, do_breakdown = false;
	char why[256], *end;
	int i, runs = 5, r;
	size_t j;
	bench_begin();

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--json")) {
			json = true;
		} else if (!strcmp(argv[i], "--count") && i + 1 < argc) {
			count = strtoull(argv[++i], &end, 0);
			if (*end || count < 1000 || count > UINT32_MAX)
				die("--count: 1000 .. 4294967295");
		} else if (!strcmp(argv[i], "--runs") && i + 1 < argc) {
			runs = (int)strtol(argv[++i], &end, 0);
			if (*end || runs < 1 || runs > MAX_RUNS)
				die("--runs: 1 .. 31");
		} else if (!strcmp(argv[i], "--breakdown")) {
			do_breakdown = true;
		} else if (!strcmp(argv[i], "--only") && i + 1 < argc) {
			only = argv[++i];
		} else if (!strcmp(argv[i], "--engine") && i + 1 < argc) {
			i++;
			engine = !strcmp(argv[i], "interp") ? HR_ENGINE_INTERP :
							      HR_ENGINE_JIT;
		} else {
			fprintf(stderr,
				"usage: %s [--count N] [--runs N] [--engine "
				"interp|jit] [--only NAME[,NAME*]] [--breakdown] "
				"[--json]\n",
				argv[0]);
			return 2;
		}
	}
	kernel = t_have_kernel(why, sizeof(why));
	libbpf_set_print(NULL);
	if (do_breakdown) {
		double k[MAX_RUNS], mpps;
		bool k_ok = kernel;

		/* A run the kernel refused (0 Mpps: the test run failed, said
		 * on stderr) leaves the kernel's row out, not 'inf'. */
		for (r = 0; k_ok && r < runs; r++) {
			mpps = k_drop(&pipes[0]);
			k_ok = mpps > 0;
			k[r] = k_ok ? 1e3 / mpps : 0;
		}
		breakdown(runs, json, k_ok ? stat_of(k, runs).med : 0);
		return 0;
	}
	/* Runs interleaved: run r of every pipeline, then run r + 1, so a
	 * busy spell of the machine falls on all of them alike. */
	for (r = 0; r < runs; r++)
		for (j = 0; j < NPIPES; j++) {
			struct pipeline *p = &pipes[j];
			double busy = 0;

			if (!wanted(only, p->name))
				continue;
			p->drop_share = 0;
			p->hr(p, &p->hr_mpps[r], &busy);
			p->busy[r] = busy;
			p->dropped[r] = p->drop_share;
			p->k_drop_share = -1;
			if (kernel && p->k)
				p->k_mpps[r] = p->k(p);
			if (kernel && p->k && p->k_mpps[r] == K_REFUSED)
				p->k_skip = K_REFUSED_WHY;
			p->k_dropped[r] = p->k_drop_share;
			p->n = r + 1;
		}
	netns_del();
	if (!json) {
		if (!kernel)
			printf("kernel figures skipped: %s\n", why);
		printf("%llu packets of 60 bytes a run, %d runs, engine %s; "
		       "Mpps median min max\n",
		       (unsigned long long)count, runs,
		       engine == HR_ENGINE_INTERP ? "interp" : "jit");
		printf("%-14s %20s   %20s   %17s  %s\n", "pipeline",
		       "headroom Mpps", "kernel Mpps", "ratio", "kernel side");
	}
	for (j = 0; j < NPIPES; j++) {
		if (!pipes[j].n)
			continue;
		if (json)
			print_json(&pipes[j]);
		else
			print_text(&pipes[j]);
	}
	return 0;
}
