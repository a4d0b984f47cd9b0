// SPDX-License-Identifier: MIT
/*
 * bench/devices: packets a second through headroom's real-interface
 * devices (afxdp, afpacket, tap) into and out of a kernel veth pair, each
 * run beside the kernel's own veth XDP figure for the same program
 * (bench_action, XDP_DROP) in a namespace of the benchmark's own:
 *
 *   kernel        live frames (BPF_F_TEST_XDP_LIVE_FRAMES) on veth A,
 *                 XDP_TX to B, where the kernel runs XDP_DROP natively
 *                 and counts: the kernel's veth XDP figure
 *   afxdp-rx      the same frames, but B is headroom's afxdp device: its
 *                 kernel program redirects them into the AF_XDP socket,
 *                 headroom's worker runs XDP_DROP on them
 *   afpacket-rx   B runs XDP_PASS in the kernel (veth takes frames from
 *                 ndo_xdp_xmit only with a program on the peer), skbs go
 *                 to headroom's TPACKET_V3 ring, headroom drops them
 *   tap-rx        live frames XDP_TX on headroom's TAP (tun_xdp_xmit puts
 *                 them on the TAP queue headroom reads), headroom drops
 *   afxdp-tx      headroom's generator, XDP_REDIRECT to its afxdp device
 *                 on A, out through the socket's TX ring to B, where the
 *                 kernel's XDP_DROP counts what arrived
 *   afpacket-tx   ... to its afpacket device on A (sendmmsg) => B counts
 *   tap-tx        ... to its TAP (write), the kernel's XDP_DROP on the TAP
 *                 counts
 *
 * RX figures are the packets headroom's program ran on a second, TX the
 * packets the kernel's program saw; each over the time from the first
 * packet until the count stops moving. "offered" is how fast the sender
 * sent (the kernel's injector, or headroom's generator), "delivered" the
 * share of what was sent that was counted: where it is below 100% the
 * receiver was the bottleneck and dropped the rest (ring full). The
 * injector runs on CPU 0 with the veth's NAPI, headroom's worker on CPU 1.
 *
 * Median of --runs runs (default 3) with min and max; the ratio is
 * headroom / kernel of each run. Needs root (namespaces, AF_XDP, TAP).
 *
 * usage: bench/devices [--count N] [--runs N] [--only NAME[,NAME]] [--json]
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <json-c/json.h>
#include <linux/if_link.h>
#include <net/if.h>

#include <headroom/headroom.h>
#include <headroom/datapath.h>
#include <headroom/devices.h>

#include "../tests/lib/dev_netns.h"
#include "../tests/lib/harness.h"
#include "../tests/lib/kernel_live.h"
#include "../tests/lib/kernel_side.h"
#include "../tests/lib/raw_send.h"
#include "bench.h"

#define MAX_RUNS 31
#define VETH_A "hrdA"
#define VETH_B "hrdB"
#define TAP "hrdT"

enum dev_kind { DK_NONE, DK_AFXDP, DK_AFPACKET, DK_TAP };

struct result {
	double mpps; /* counted by the receiver */
	double offered; /* sent by the sender, Mpps */
	uint64_t sent, counted;
	char note[160];
};

struct pipeline {
	const char *name;
	enum dev_kind kind;
	bool tx; /* headroom sends, the kernel counts */
	struct result r[MAX_RUNS];
	int n;
};

static uint64_t count = 1000000;
static bool json;

static void pin_self(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

/*
 * Waits until @read(@arg) stops moving (unchanged over 20 ms, or 30 s
 * at most): the last count, and in *@t_last when it last moved.
 */
static uint64_t settle(uint64_t (*read)(void *), void *arg, double *t_last)
{
	uint64_t n = read(arg), last;
	double limit = t_now_s() + 30;

	*t_last = t_now_s();
	do {
		last = n;
		usleep(20000);
		n = read(arg);
		if (n != last)
			*t_last = t_now_s();
	} while (n != last && t_now_s() < limit);
	return n;
}

static uint64_t read_kernel_runs(void *o)
{
	return t_kpercpu_sum(o, "bench_runs", 0);
}

static uint64_t read_hr_drops(void *dev)
{
	HR_OPTS(hr_dev_counters, c);

	hr_dev_get_counters(dev, &c);
	return c.xdp_drop;
}

/*
 * The kernel's live frames from @inj on @ifindex, from this thread on
 * CPU 0; the receiver's count (@read of @arg) until it settles.
 */
static void inject(struct bpf_object *inj, int ifindex,
		   uint64_t (*read)(void *), void *arg, struct result *r)
{
	double t0, ti, t;

	int64_t n = (int64_t)count;

	pin_self(0);
	t0 = t_now_s();
	ti = t_klive(t_kprog_fd(inj, NULL), ifindex, t_live_frame,
		     sizeof(t_live_frame), count);
	if (ti <= 0 && errno == EPERM) {
		/* A host that refuses live frames (kernel_side.h): the same
		 * frames by AF_PACKET from this thread, slower, for every
		 * row of the run alike. */
		n = t_raw_flood(ifindex, t_live_frame, sizeof(t_live_frame),
				count);
		ti = n > 0 ? t_now_s() - t0 : 0;
		snprintf(r->note, sizeof(r->note),
			 "the kernel refuses live frames here: sent by "
			 "AF_PACKET");
	}
	r->counted = settle(read, arg, &t);
	r->sent = n > 0 ? (uint64_t)n : 0;
	r->offered = ti > 0 ? (double)r->sent / ti / 1e6 : 0;
	r->mpps = (double)r->counted / (t - t0) / 1e6;
}

/* The kernel's XDP_DROP on @ifindex (native, or generic where the
 * driver has none). */
static struct bpf_object *kernel_drop_on(int ifindex, struct result *r)
{
	static const char *const drop[] = { "action=1" };
	struct bpf_object *o = t_kopen_set("bench_action.o", drop, 1, 0);

	if (!o)
		return NULL;
	if (!bpf_xdp_attach(ifindex, t_kprog_fd(o, NULL), XDP_FLAGS_DRV_MODE,
			    NULL) ||
	    !bpf_xdp_attach(ifindex, t_kprog_fd(o, NULL), XDP_FLAGS_SKB_MODE,
			    NULL))
		return o;
	snprintf(r->note, sizeof(r->note), "cannot attach XDP to ifindex %d",
		 ifindex);
	bpf_object__close(o);
	return NULL;
}

/* ---- the kernel's veth figure ------------------------------------------ */

static int kernel_veth(struct result *r)
{
	static const char *const flows[] = { "flows=64" };
	int ia = (int)if_nametoindex(VETH_A), ib = (int)if_nametoindex(VETH_B);
	struct bpf_object *inj = t_kopen_set("bench_inject.o", flows, 1, 0);
	struct bpf_object *vb = kernel_drop_on(ib, r);

	if (!inj || !vb)
		return 1;
	inject(inj, ia, read_kernel_runs, vb, r);
	bpf_object__close(inj);
	bpf_object__close(vb);
	return 0;
}

/* ---- headroom's side --------------------------------------------------- */

static struct hr_datapath *new_dp(struct result *r)
{
	static const int cpu1[] = { 1 };
	struct hr_datapath *dp = NULL;
	HR_OPTS(hr_datapath_opts, o, .nworkers = 1,
		.cpus = libbpf_num_possible_cpus() > 1 ? cpu1 : NULL);

	if (hr_dp_create(&o, &dp))
		snprintf(r->note, sizeof(r->note), "cannot create a datapath");
	return dp;
}

static struct hr_object *open_action(const char *g0, const char *g1)
{
	const char *globals[2] = { g0, g1 };
	char path[512], err[256] = "";
	struct hr_object *o = NULL;
	HR_OPTS(hr_object_open_opts, oo, .errbuf = err,
		.errbuf_sz = sizeof(err), .ncpus = 1, .globals = globals,
		.globals_cnt = g1 ? 2 : 1);

	t_prog_path("bench_action.o", path, sizeof(path));
	if (hr_object_open(path, &oo, &o))
		fprintf(stderr, "bench/devices: %s: %s\n", path, err);
	return o;
}

/* headroom's device of @kind on kernel interface @ifname; 0 or -errno,
 * named in @r's note. */
static int make_dev(struct hr_datapath *dp, enum dev_kind kind,
		    const char *ifname, struct hr_dev **dev, struct result *r)
{
	char kobj[512];
	HR_OPTS(hr_afxdp_opts, ao, .kern_obj = kobj);
	HR_OPTS(hr_afpacket_opts, po);
	HR_OPTS(hr_tap_opts, to);
	int err = -EINVAL;

	t_prog_path("xsk_hints.o", kobj, sizeof(kobj));
	if (kind == DK_AFXDP)
		err = hr_dev_afxdp_create(dp, "x0", ifname, &ao, dev);
	else if (kind == DK_AFPACKET)
		err = hr_dev_afpacket_create(dp, "p0", ifname, &po, dev);
	else if (kind == DK_TAP)
		err = hr_dev_tap_create(dp, "t0", TAP, &to, dev);
	if (err)
		snprintf(r->note, sizeof(r->note), "device on %s: %s",
			 kind == DK_TAP ? TAP : ifname, strerror(-err));
	return err;
}

/* Kernel frames into headroom's device, XDP_DROP there. */
static int hr_rx(enum dev_kind kind, struct result *r)
{
	static const char *const flows[] = { "flows=64" };
	static const char *const pass[] = { "action=2" };
	struct hr_datapath *dp = new_dp(r);
	struct hr_object *drop = open_action("action=1", NULL);
	struct bpf_object *inj = t_kopen_set("bench_inject.o", flows, 1, 0);
	struct bpf_object *kpass = NULL;
	struct hr_dev *dev = NULL;
	int in;

	if (!dp || !drop || !inj)
		return 1;
	if (make_dev(dp, kind, VETH_B, &dev, r))
		return 1;
	in = (int)if_nametoindex(kind == DK_TAP ? TAP : VETH_A);
	if (kind == DK_AFPACKET) {
		kpass = t_kopen_set("bench_action.o", pass, 1, 0);
		if (!kpass || bpf_xdp_attach((int)if_nametoindex(VETH_B),
					     t_kprog_fd(kpass, NULL),
					     XDP_FLAGS_DRV_MODE, NULL))
			return 1;
	}
	hr_dev_attach_xdp(dev, hr_object_find_prog(drop, NULL));
	if (hr_dp_assign_queue(dp, dev, 0, 0) || hr_dp_start(dp))
		return 1;
	inject(inj, in, read_hr_drops, dev, r);
	hr_dp_destroy(dp);
	hr_object_close(drop);
	bpf_object__close(inj);
	bpf_object__close(kpass);
	return 0;
}

/* headroom's generator out through its device; the kernel counts. */
static int hr_tx(enum dev_kind kind, struct result *r)
{
	struct hr_datapath *dp = new_dp(r);
	HR_OPTS(hr_gen_opts, go, .count = count, .pkt_size = 60, .flows = 64,
		.src_port_min = 1024, .src_port_max = 1024 + 63);
	struct bpf_object *kdrop = NULL;
	struct hr_object *fwd = NULL;
	struct hr_dev *dev = NULL, *gen = NULL;
	char redir[64];
	double t0, t;

	if (!dp)
		return 1;
	if (make_dev(dp, kind, VETH_A, &dev, r))
		return 1;
	kdrop = kernel_drop_on(
		(int)if_nametoindex(kind == DK_TAP ? TAP : VETH_B), r);
	snprintf(redir, sizeof(redir), "redirect_ifindex=%u",
		 hr_dev_ifindex(dev));
	fwd = open_action("action=4", redir);
	if (!kdrop || !fwd || hr_dev_gen_create(dp, "gen0", &go, &gen))
		return 1;
	hr_dev_attach_xdp(gen, hr_object_find_prog(fwd, NULL));
	if (hr_dp_assign_queue(dp, gen, 0, 0) ||
	    hr_dp_assign_queue(dp, dev, 0, 0))
		return 1;
	t0 = t_now_s();
	if (hr_dp_start(dp))
		return 1;
	if (hr_dp_run_until_idle(dp, 120000))
		snprintf(r->note, sizeof(r->note), "did not drain in 120 s");
	r->offered = (double)hr_dev_gen_sent(gen) / (t_now_s() - t0) / 1e6;
	r->counted = settle(read_kernel_runs, kdrop, &t);
	r->sent = hr_dev_gen_sent(gen);
	r->mpps = (double)r->counted / (t - t0) / 1e6;
	hr_dp_destroy(dp);
	hr_object_close(fwd);
	bpf_object__close(kdrop);
	return 0;
}

/* ---- one measurement in a namespace of its own -------------------------- */

struct job {
	const struct pipeline *p; /* NULL: the kernel's veth */
	int fd;
};

static int job_run(void *arg)
{
	const struct job *j = arg;
	struct result r;
	int rc;

	memset(&r, 0, sizeof(r));
	if (!j->p)
		rc = kernel_veth(&r);
	else if (j->p->tx)
		rc = hr_tx(j->p->kind, &r);
	else
		rc = hr_rx(j->p->kind, &r);
	if (rc && !r.note[0])
		snprintf(r.note, sizeof(r.note), "set-up failed");
	if (rc)
		r.mpps = 0;
	return write(j->fd, &r, sizeof(r)) == sizeof(r) ? 0 : 1;
}

static struct result measure(const struct pipeline *p)
{
	struct job j = { .p = p };
	struct result r;
	char ns[32];
	int fds[2];

	memset(&r, 0, sizeof(r));
	if (pipe(fds)) {
		snprintf(r.note, sizeof(r.note), "pipe: %s", strerror(errno));
		return r;
	}
	j.fd = fds[1];
	if (dv_ns_add("bd", ns) ||
	    t_sh("ip -n %s link add " VETH_A " type veth peer name " VETH_B
		 " && ip -n %s link set " VETH_A
		 " up && ip -n %s link set " VETH_B " up",
		 ns, ns, ns)) {
		snprintf(r.note, sizeof(r.note), "cannot make the namespace");
	} else {
		pid_t pid = dv_fork_in(ns, job_run, &j);

		/* Our write end closed: a child that dies unwritten is EOF. */
		close(fds[1]);
		fds[1] = -1;
		if (pid < 0 || read(fds[0], &r, sizeof(r)) != sizeof(r)) {
			memset(&r, 0, sizeof(r));
			snprintf(r.note, sizeof(r.note), "measurement failed");
		}
		if (pid > 0)
			dv_wait(pid);
	}
	close(fds[0]);
	if (fds[1] >= 0)
		close(fds[1]);
	dv_cleanup();
	return r;
}

/* ---- the table ----------------------------------------------------------- */

static struct pipeline pipes[] = {
	{ "afxdp-rx", DK_AFXDP, false },
	{ "afpacket-rx", DK_AFPACKET, false },
	{ "tap-rx", DK_TAP, false },
	{ "afxdp-tx", DK_AFXDP, true },
	{ "afpacket-tx", DK_AFPACKET, true },
	{ "tap-tx", DK_TAP, true },
};

#define NPIPES (sizeof(pipes) / sizeof(pipes[0]))

static struct pipeline kernel_row = { "kernel veth", DK_NONE, false };

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Median, min and max of @n values. */
static void stats(double *v, int n, double out[3])
{
	qsort(v, (size_t)n, sizeof(*v), cmp_d);
	out[0] = n ? (n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2) : 0;
	out[1] = n ? v[0] : 0;
	out[2] = n ? v[n - 1] : 0;
}

/* What @p measured, field by field: 0 mpps, 1 offered, 2 ratio to the
 * kernel's figure of the same run, 3 delivered share. */
static void row_stats(const struct pipeline *p, int what, double out[3])
{
	double v[MAX_RUNS];
	int i, n = 0;

	for (i = 0; i < p->n; i++) {
		const struct result *r = &p->r[i];
		double k = kernel_row.r[i].mpps;

		if (!r->mpps)
			continue;
		if (what == 0)
			v[n++] = r->mpps;
		else if (what == 1)
			v[n++] = r->offered;
		else if (what == 2 && k > 0)
			v[n++] = r->mpps / k;
		else if (what == 3 && r->sent)
			v[n++] = 100.0 * (double)r->counted / (double)r->sent;
	}
	stats(v, n, out);
}

static const char *row_note(const struct pipeline *p)
{
	int i;

	for (i = 0; i < p->n; i++)
		if (p->r[i].note[0])
			return p->r[i].note;
	return "";
}

static void print_text(const struct pipeline *p)
{
	double m[3], o[3], q[3], d[3];

	row_stats(p, 0, m);
	row_stats(p, 1, o);
	row_stats(p, 2, q);
	row_stats(p, 3, d);
	printf("%-12s %6.2f [%6.2f %6.2f]  %6.2f  %5.1f%%  ", p->name, m[0],
	       m[1], m[2], o[0], d[0]);
	if (p == &kernel_row)
		printf("%17s", "-");
	else
		printf("%4.2f [%4.2f %4.2f]", q[0], q[1], q[2]);
	printf("  %s\n", row_note(p));
}

/* {"median", "min", "max"}, as every benchmark's --json has them. */
static void add_spread(json_object *o, const char *key, const double v[3])
{
	static const char *const names[3] = { "median", "min", "max" };
	json_object *s = json_object_new_object();
	int i;

	for (i = 0; i < 3; i++)
		json_object_object_add(s, names[i],
				       json_object_new_double(v[i]));
	json_object_object_add(o, key, s);
}

static void print_json(const struct pipeline *p)
{
	json_object *o = json_object_new_object();
	double m[3], v[3];

	json_object_object_add(o, "pipeline", json_object_new_string(p->name));
	row_stats(p, 0, m);
	add_spread(o, "mpps", m);
	row_stats(p, 1, v);
	add_spread(o, "offered_mpps", v);
	row_stats(p, 3, v);
	add_spread(o, "delivered_pct", v);
	if (p != &kernel_row) {
		row_stats(p, 2, v);
		add_spread(o, "ratio", v);
	}
	json_object_object_add(o, "runs", json_object_new_int(p->n));
	if (row_note(p)[0])
		json_object_object_add(o, "note",
				       json_object_new_string(row_note(p)));
	printf("%s\n",
	       json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN));
	json_object_put(o);
}

static bool selected(const char *only, const char *name)
{
	size_t len = strlen(name);
	const char *s = only;

	if (!only)
		return true;
	while ((s = strstr(s, name))) {
		if ((s == only || s[-1] == ',') && (!s[len] || s[len] == ','))
			return true;
		s += len;
	}
	return false;
}

static void usage(FILE *f)
{
	fprintf(f, "usage: bench/devices [--count N] [--runs N] "
		   "[--only NAME[,NAME]] [--json]\n"
		   "pipelines: kernel veth (always), afxdp-rx, afpacket-rx, "
		   "tap-rx, afxdp-tx, afpacket-tx, tap-tx\n");
}

static int parse_u64(const char *s, uint64_t lo, uint64_t hi, uint64_t *v)
{
	char *end;
	unsigned long long x;

	errno = 0;
	x = strtoull(s, &end, 10);
	if (errno || *end || end == s || s[0] == '-' || x < lo || x > hi)
		return -1;
	*v = x;
	return 0;
}

int main(int argc, char **argv)
{
	const char *only = NULL;
	uint64_t runs = 3;
	char why[256];
	unsigned int i;
	int r;

	bench_begin();
	for (r = 1; r < argc; r++) {
		const char *a = argv[r], *v = r + 1 < argc ? argv[r + 1] : NULL;

		if (!strcmp(a, "--json")) {
			json = true;
			continue;
		}
		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			usage(stdout);
			return 0;
		}
		if (!v) {
			fprintf(stderr,
				"bench/devices: unknown option or no "
				"value: %s\n",
				a);
			usage(stderr);
			return 2;
		}
		r++;
		if (!strcmp(a, "--count") &&
		    !parse_u64(v, 1, UINT32_MAX, &count))
			continue;
		if (!strcmp(a, "--runs") && !parse_u64(v, 1, MAX_RUNS, &runs))
			continue;
		if (!strcmp(a, "--only")) {
			only = v;
			continue;
		}
		fprintf(stderr, "bench/devices: bad %s value: %s\n", a, v);
		usage(stderr);
		return 2;
	}
	if (!t_have_kernel(why, sizeof(why))) {
		fprintf(stderr, "bench/devices: needs the kernel: %s\n", why);
		return 1;
	}
	/* Runs interleaved, so drift on the machine touches every row. */
	for (r = 0; r < (int)runs; r++) {
		kernel_row.r[r] = measure(NULL);
		kernel_row.n++;
		for (i = 0; i < NPIPES; i++) {
			if (!selected(only, pipes[i].name))
				continue;
			pipes[i].r[r] = measure(&pipes[i]);
			pipes[i].n++;
		}
	}
	if (!json)
		printf("%-12s %22s  %6s  %6s  %17s\n", "pipeline",
		       "Mpps [min max]", "sent", "deliv", "ratio to kernel");
	(json ? print_json : print_text)(&kernel_row);
	for (i = 0; i < NPIPES; i++)
		if (pipes[i].n)
			(json ? print_json : print_text)(&pipes[i]);
	return 0;
}
