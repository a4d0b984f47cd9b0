// SPDX-License-Identifier: MIT
/*
 * headroom bench MODE: packets a second through one of the datapath's
 * pipelines, printed as xdp-tools' xdp-bench prints them (a "Summary
 * ... rx/s ... err,drop/s" line every interval, "Packets received /
 * Average packets/s" at the end), with headroom's account of every
 * packet after it. --json: the same as one json-c object a line.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <json-c/json.h>

#include "cli/bench.h"
#include "cli/cli.h"
#include "cli/run.h"

static volatile sig_atomic_t bench_stop;

static void on_signal(int sig)
{
	(void)sig;
	bench_stop = 1;
}

/* @v with thousands separators, as xdp-bench's %' under its locale. */
static const char *grouped(double v, char *buf, size_t sz)
{
	char digits[32];
	size_t n, i, o = 0;

	snprintf(digits, sizeof(digits), "%.0f", v < 0 ? 0 : v);
	n = strlen(digits);
	for (i = 0; i < n && o + 2 < sz; i++) {
		if (i && (n - i) % 3 == 0)
			buf[o++] = ',';
		buf[o++] = digits[i];
	}
	buf[o] = '\0';
	return buf;
}

static uint64_t verdicts(const struct hr_dev_counters *c)
{
	return c->xdp_aborted + c->xdp_drop + c->xdp_pass + c->xdp_tx +
	       c->xdp_redirect;
}

/* What each mode counts as errors and drops (drop and rxhash, whose
 * verdict is the drop: errors only, as xdp-bench drop's err/s). */
static uint64_t errors(const struct bench *b, const struct bench_snap *s)
{
	const struct hr_dev_counters *c = &s->in;
	uint64_t e = c->xdp_aborted + c->drops_total + c->redirect_err_total;

	if (b->o.mode != BM_DROP && b->o.mode != BM_RXHASH)
		e += c->xdp_drop;
	e += s->va_tx.xmit_err_mtu + s->va_tx.xmit_err_ring_full +
	     s->va_tx.xmit_err_enxio;
	e += s->enq_drops + s->kt_drops;
	return e;
}

static uint64_t transmitted(const struct bench *b, const struct bench_snap *s)
{
	switch (b->o.mode) {
	case BM_TX:
		return s->in.tx_packets;
	case BM_REDIRECT:
	case BM_REDIRECT_MAP:
		return s->va_tx.xmit;
	default:
		return 0;
	}
}

static bool has_xmit(const struct bench *b)
{
	return b->o.mode == BM_TX || b->o.mode == BM_REDIRECT ||
	       b->o.mode == BM_REDIRECT_MAP;
}

static void print_line(const struct bench *b, const struct bench_snap *p,
		       const struct bench_snap *s, double t0)
{
	double dt = s->t - p->t;
	double rx = (double)(s->in.rx_packets - p->in.rx_packets) / dt;
	double err = (double)(errors(b, s) - errors(b, p)) / dt;
	double tx = (double)(transmitted(b, s) - transmitted(b, p)) / dt;
	char b1[32], b2[32], b3[32], name[48];
	unsigned int i;

	if (b->o.json) {
		struct json_object *o = json_object_new_object();
		struct json_object *types;

		json_object_object_add(
			o, "mode",
			json_object_new_string(bench_mode_name(b->o.mode)));
		json_object_object_add(o, "time",
				       json_object_new_double(s->t - t0));
		json_object_object_add(o, "interval",
				       json_object_new_double(dt));
		json_object_object_add(o, "rx_pps", json_object_new_double(rx));
		json_object_object_add(o, "err_pps",
				       json_object_new_double(err));
		if (has_xmit(b))
			json_object_object_add(o, "xmit_pps",
					       json_object_new_double(tx));
		if (b->o.mode == BM_REDIRECT_CPU)
			json_object_object_add(
				o, "kthread_pps",
				json_object_new_double(
					(double)(s->kt_processed -
						 p->kt_processed) /
					dt));
		if (b->rxhash_types) {
			types = json_object_new_object();
			for (i = 0; i < BENCH_RXHASH_TYPES; i++)
				if (s->types[i] != p->types[i])
					json_object_object_add(
						types,
						bench_rxhash_name(i, name,
								  sizeof(name)),
						json_object_new_double(
							(double)(s->types[i] -
								 p->types[i]) /
							dt));
			json_object_object_add(o, "rxhash_pps", types);
		}
		puts(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN));
		json_object_put(o);
		fflush(stdout);
		return;
	}
	if (b->o.mode == BM_REDIRECT || b->o.mode == BM_REDIRECT_MAP)
		snprintf(name, sizeof(name), "%s->veth0", hr_dev_name(b->in));
	else if (b->o.mode == BM_REDIRECT_CPU)
		snprintf(name, sizeof(name), "%s->?", hr_dev_name(b->in));
	else
		snprintf(name, sizeof(name), "Summary");
	printf("%-20s %15s rx/s %15s %s", name, grouped(rx, b1, sizeof(b1)),
	       grouped(err, b2, sizeof(b2)),
	       b->o.mode == BM_DROP || b->o.mode == BM_RXHASH ? "err/s" :
								"err,drop/s");
	if (has_xmit(b))
		printf(" %15s xmit/s", grouped(tx, b3, sizeof(b3)));
	printf("\n");
	if (b->o.mode == BM_REDIRECT_CPU) {
		uint64_t bulks = s->enq_bulks - p->enq_bulks;

		printf("  %-18s %15s pkt/s %15s drop/s %10.2f bulk-avg\n",
		       "enqueue to cpus",
		       grouped((double)(s->enq - p->enq) / dt, b1, sizeof(b1)),
		       grouped((double)(s->enq_drops - p->enq_drops) / dt, b2,
			       sizeof(b2)),
		       bulks ? (double)(s->enq - p->enq) / (double)bulks : 0.0);
		printf("  %-18s %15s pkt/s %15s drop/s %10s sched\n",
		       "kthread total",
		       grouped((double)(s->kt_processed - p->kt_processed) / dt,
			       b1, sizeof(b1)),
		       grouped((double)(s->kt_drop + s->kt_drops - p->kt_drop -
					p->kt_drops) /
				       dt,
			       b2, sizeof(b2)),
		       grouped((double)(s->kt_sched - p->kt_sched) / dt, b3,
			       sizeof(b3)));
	}
	if (b->rxhash_types)
		for (i = 0; i < BENCH_RXHASH_TYPES; i++)
			if (s->types[i] != p->types[i])
				printf("  %-18s %15s pkt/s\n",
				       bench_rxhash_name(i, name, sizeof(name)),
				       grouped((double)(s->types[i] -
							p->types[i]) /
						       dt,
					       b1, sizeof(b1)));
	if (b->o.mode == BM_META)
		printf("  %-18s %15s pkt/s\n", "tc read metadata",
		       grouped((double)(s->tc_meta - p->tc_meta) / dt, b1,
			       sizeof(b1)));
	if (b->o.stats)
		hr_dp_print_stats(b->dp, stdout, false, dt);
	fflush(stdout);
}

static void add_u64(struct json_object *o, const char *k, uint64_t v)
{
	json_object_object_add(o, k, json_object_new_uint64(v));
}

static void summary_json(const struct bench *b, const struct bench_snap *s,
			 double secs)
{
	struct json_object *o = json_object_new_object(), *x;
	char name[48];
	unsigned int i;

	json_object_object_add(o, "summary", json_object_new_boolean(1));
	json_object_object_add(
		o, "mode", json_object_new_string(bench_mode_name(b->o.mode)));
	json_object_object_add(o, "seconds", json_object_new_double(secs));
	add_u64(o, "workers", b->o.workers);
	add_u64(o, "received", s->in.rx_packets);
	json_object_object_add(
		o, "average_pps",
		json_object_new_double(
			secs > 0 ? (double)s->in.rx_packets / secs : 0));
	x = json_object_new_object();
	add_u64(x, "aborted", s->in.xdp_aborted);
	add_u64(x, "drop", s->in.xdp_drop);
	add_u64(x, "pass", s->in.xdp_pass);
	add_u64(x, "tx", s->in.xdp_tx);
	add_u64(x, "redirect", s->in.xdp_redirect);
	json_object_object_add(o, "xdp", x);
	add_u64(o, "redirect_err", s->in.redirect_err_total);
	add_u64(o, "dev_drops", s->in.drops_total);
	add_u64(o, "delivered", s->in.delivered);
	add_u64(o, "transmitted", transmitted(b, s));
	if (b->va) {
		x = json_object_new_object();
		add_u64(x, "xmit", s->va_tx.xmit);
		add_u64(x, "xmit_err",
			s->va_tx.xmit_err_mtu + s->va_tx.xmit_err_ring_full +
				s->va_tx.xmit_err_enxio);
		add_u64(x, "peer_rx", s->vb.rx_packets);
		add_u64(x, "peer_drop", s->vb.xdp_drop);
		json_object_object_add(o, "veth", x);
	}
	if (b->cpumap) {
		x = json_object_new_object();
		add_u64(x, "enqueued", s->enq);
		add_u64(x, "enqueue_drops", s->enq_drops);
		add_u64(x, "kthread_processed", s->kt_processed);
		add_u64(x, "kthread_drops", s->kt_drops);
		add_u64(x, "pass", s->kt_pass);
		add_u64(x, "drop", s->kt_drop);
		add_u64(x, "redirect", s->kt_redirect);
		add_u64(x, "remote_seen", s->remote_seen);
		json_object_object_add(o, "cpumap", x);
	}
	if (b->o.nrps) {
		x = json_object_new_object();
		add_u64(x, "enqueued", s->rps_enq);
		add_u64(x, "backlog_drops", s->rps_drops);
		add_u64(x, "processed", s->rps_proc);
		json_object_object_add(o, "rps", x);
	}
	if (b->tc_seen) {
		x = json_object_new_object();
		add_u64(x, "seen", s->tc_seen);
		add_u64(x, "meta", s->tc_meta);
		json_object_object_add(o, "tc", x);
	}
	if (b->egress_seen)
		add_u64(o, "egress_seen", s->egress_seen);
	if (b->rxhash_types) {
		x = json_object_new_object();
		for (i = 0; i < BENCH_RXHASH_TYPES; i++)
			if (s->types[i])
				add_u64(x,
					bench_rxhash_name(i, name,
							  sizeof(name)),
					s->types[i]);
		json_object_object_add(o, "rxhash", x);
	}
	puts(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN));
	json_object_put(o);
}

static void summary_text(const struct bench *b, const struct bench_snap *s,
			 double secs)
{
	const struct hr_dev_counters *c = &s->in;
	char b1[32];

	printf("\n  Packets received    : %s\n",
	       grouped((double)c->rx_packets, b1, sizeof(b1)));
	printf("  Average packets/s   : %s\n",
	       grouped(secs > 0 ? (double)c->rx_packets / secs : 0, b1,
		       sizeof(b1)));
	if (has_xmit(b)) {
		printf("  Packets transmitted : %s\n",
		       grouped((double)transmitted(b, s), b1, sizeof(b1)));
		printf("  Average transmit/s  : %s\n",
		       grouped(secs > 0 ? (double)transmitted(b, s) / secs : 0,
			       b1, sizeof(b1)));
	}
	printf("\naccount: received %llu = XDP aborted %llu + drop %llu + "
	       "pass %llu + tx %llu + redirect %llu%s\n",
	       (unsigned long long)c->rx_packets,
	       (unsigned long long)c->xdp_aborted,
	       (unsigned long long)c->xdp_drop, (unsigned long long)c->xdp_pass,
	       (unsigned long long)c->xdp_tx,
	       (unsigned long long)c->xdp_redirect,
	       verdicts(c) == c->rx_packets ? "" : "  (MISMATCH)");
	if (c->xdp_pass)
		printf("         passed %llu = delivered %llu + device drops "
		       "%llu\n",
		       (unsigned long long)c->xdp_pass,
		       (unsigned long long)c->delivered,
		       (unsigned long long)c->drops_total);
	if (b->va)
		printf("         redirected %llu = errors %llu + veth0 xmit "
		       "%llu + xmit errors %llu; veth1 received %llu, "
		       "dropped %llu\n",
		       (unsigned long long)c->xdp_redirect,
		       (unsigned long long)c->redirect_err_total,
		       (unsigned long long)s->va_tx.xmit,
		       (unsigned long long)(s->va_tx.xmit_err_mtu +
					    s->va_tx.xmit_err_ring_full +
					    s->va_tx.xmit_err_enxio),
		       (unsigned long long)s->vb.rx_packets,
		       (unsigned long long)s->vb.xdp_drop);
	if (b->egress_seen)
		printf("         egress program ran %llu times\n",
		       (unsigned long long)s->egress_seen);
	if (b->cpumap)
		printf("         redirected %llu = errors %llu + enqueued "
		       "%llu; enqueued = ring full %llu + remote %llu; "
		       "remote = pass %llu + drop %llu + redirect %llu + "
		       "teardown %llu; delivered to the stack %llu\n",
		       (unsigned long long)c->xdp_redirect,
		       (unsigned long long)c->redirect_err_total,
		       (unsigned long long)s->enq,
		       (unsigned long long)s->enq_drops,
		       (unsigned long long)s->kt_processed,
		       (unsigned long long)s->kt_pass,
		       (unsigned long long)s->kt_drop,
		       (unsigned long long)s->kt_redirect,
		       (unsigned long long)s->kt_drops,
		       (unsigned long long)c->delivered);
	if (b->o.nrps)
		printf("         RPS steered %llu = backlog drops %llu + "
		       "queued %llu; processed on the target workers %llu\n",
		       (unsigned long long)(s->rps_drops + s->rps_enq),
		       (unsigned long long)s->rps_drops,
		       (unsigned long long)s->rps_enq,
		       (unsigned long long)s->rps_proc);
	if (b->tc_seen)
		printf("         tc saw %llu skbs, %llu with 16 bytes of "
		       "metadata\n",
		       (unsigned long long)s->tc_seen,
		       (unsigned long long)s->tc_meta);
}

/* Whether two readings count the same packets (nothing moved). */
static bool same_counts(const struct bench_snap *a, const struct bench_snap *b)
{
	struct bench_snap x = *a, y = *b;

	x.t = y.t = 0;
	return !memcmp(&x, &y, sizeof(x));
}

/* After the input stopped: until what is in rings and bulk queues has
 * been processed (nothing moves for 3 readings 20 ms apart), at most 3 s. */
static void drain(struct bench *b, struct bench_snap *s)
{
	struct timespec tick = { 0, 20000000L };
	struct bench_snap p;
	int still = 0, i;

	bench_read(b, s);
	for (i = 0; i < 150 && still < 3; i++) {
		p = *s;
		nanosleep(&tick, NULL);
		bench_read(b, s);
		still = same_counts(&p, s) ? still + 1 : 0;
	}
}

static bool input_done(const struct bench *b, const struct bench_snap *s)
{
	uint64_t want;

	if (b->o.pcap) {
		want = hr_dev_pcap_packets(b->in) *
		       (b->o.loops ? b->o.loops : 1);
		return s->in.rx_packets >= want;
	}
	return b->o.count && hr_dev_gen_sent(b->in) >= b->o.count;
}

static void sleep_until(double t)
{
	struct timespec now, ts;
	double d;

	clock_gettime(CLOCK_MONOTONIC, &now);
	d = t - ((double)now.tv_sec + (double)now.tv_nsec / 1e9);
	if (d <= 0)
		return;
	ts.tv_sec = (time_t)d;
	ts.tv_nsec = (long)((d - (double)ts.tv_sec) * 1e9);
	nanosleep(&ts, NULL);
}

static struct bench_snap *snaps(void)
{
	/* Three readings: too big for a small stack frame each time. */
	static struct bench_snap s[3];

	return s;
}

static int bench_run(struct bench *b)
{
	struct bench_snap *s = snaps(), *prev = &s[0], *cur = &s[1];
	double t0, end, next, step = b->o.interval;
	int ret;

	if (!b->o.json)
		printf("Benchmarking %s on %s (ifindex %u) with %s, %u "
		       "worker%s%s\n",
		       bench_mode_name(b->o.mode), hr_dev_name(b->in),
		       hr_dev_ifindex(b->in), hr_prog_name(b->rx_prog),
		       b->o.workers, b->o.workers == 1 ? "" : "s",
		       b->o.duration ? "" : " (Ctrl-C to stop)");
	bench_read(b, prev);
	if (b->o.trace) {
		struct run_trace_opts to = { .json = b->o.json,
					     .filter = b->o.trace_filter };

		ret = run_trace_start(NULL, b->o.trace, &to);
		if (ret)
			return ret;
	}
	ret = hr_dp_start(b->dp);
	if (ret) {
		run_trace_stop();
		fprintf(stderr,
			"headroom bench: cannot start the workers: "
			"%s\n",
			strerror(-ret));
		return HR_EXIT_RUN;
	}
	t0 = prev->t;
	end = b->o.duration ? t0 + b->o.duration : 0;
	next = t0 + step;
	while (!bench_stop) {
		sleep_until(end && end < next ? end : next);
		if (bench_stop)
			break;
		bench_read(b, cur);
		if (cur->t >= next - 1e-3) {
			print_line(b, prev, cur, t0);
			*prev = *cur;
			next += step;
		}
		if ((end && cur->t >= end) || input_done(b, cur))
			break;
	}
	/* The input goes down first, so the rest can drain and the books
	 * close with nothing in flight. */
	hr_dev_close(b->in);
	drain(b, cur);
	hr_dp_stop(b->dp);
	if (b->o.trace)
		run_trace_stop();
	bench_read(b, cur);
	if (b->o.json)
		summary_json(b, cur, cur->t - t0);
	else
		summary_text(b, cur, cur->t - t0);
	return HR_EXIT_OK;
}

int hr_cmd_bench(int argc, char **argv)
{
	struct bench b;
	char dir[4096];
	struct sigaction sa;
	int ret;

	memset(&b, 0, sizeof(b));
	ret = bench_parse_args(argc, argv, &b.o);
	if (ret)
		return ret < 0 ? HR_EXIT_OK : ret;
	if (hr_cli_progs_dir(dir, sizeof(dir))) {
		fprintf(stderr, "headroom bench: cannot find the built-in "
				"programs (set HEADROOM_DATADIR)\n");
		return HR_EXIT_LOAD;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	ret = bench_build(&b, dir);
	if (!ret)
		ret = bench_run(&b);
	bench_destroy(&b);
	return ret;
}
