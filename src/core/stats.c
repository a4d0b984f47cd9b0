// SPDX-License-Identifier: MIT
/*
 * Statistics reports in the layout of the kernel's samples/bpf
 * xdp_redirect_cpu (XDP-RX per worker, cpumap-enqueue per source:target,
 * cpumap_kthread per target, redirect_err, xdp_exception), or one JSON
 * object a line (json-c). Rates are over the interval since the previous report;
 * the cumulative counters are read with relaxed loads, never locked.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <headroom/datapath.h>
#include <json-c/json.h>

#include "core/datapath.h"
#include "headroom/cpumap.h"
#include "maps/map.h"

#define HR_STATS_KEYS 64 /* cpumap entries reported per map */

struct rx_snap {
	uint64_t rx, drop, err;
};

struct enq_snap {
	uint64_t processed, drops, bulks;
};

struct kt_snap {
	uint64_t processed, drops, sched;
};

struct snap {
	struct rx_snap rx[HR_MAX_WORKERS];
	uint64_t queue[HR_MAX_IFINDEX][HR_DEV_MAX_QUEUES];
	uint64_t redirect_err, exception;
	struct enq_snap enq[8][HR_STATS_KEYS][HR_MAX_WORKERS];
	struct kt_snap kt[8][HR_STATS_KEYS];
};

static void take_rx(struct hr_datapath *dp, struct snap *s)
{
	unsigned int d, w, i;

	for (d = 0; d < HR_MAX_IFINDEX; d++) {
		struct hr_dev *dev = dp->devs[d];

		if (!dev)
			continue;
		for (w = 0; w < dp->nworkers; w++) {
			const struct hr_dev_stats *st = &dev->stats[w];
			struct rx_snap *r = &s->rx[w];

#define LD(x) __atomic_load_n(&(x), __ATOMIC_RELAXED)
			/* XDP-RX: what the XDP programs ran on, as the
			 * sample's own counter. */
			for (i = 0; i < 5; i++)
				r->rx += LD(st->xdp[i]);
			for (i = 0; i < HR_DEV_MAX_QUEUES; i++)
				s->queue[d][i] +=
					LD(dev->qstats[i][w].rx_packets);
			r->drop += LD(st->xdp[1]) + LD(st->xdp[0]);
			for (i = 0; i < HR_DROP__MAX; i++)
				r->drop += LD(st->drops[i]);
			r->err += LD(st->xdp_exception);
			s->exception += LD(st->xdp_exception);
			s->redirect_err +=
				LD(st->drops[HR_DROP_REDIRECT_ERROR]);
#undef LD
		}
	}
}

static void take_cpumap(struct hr_datapath *dp, struct snap *s)
{
	struct hr_cpumap_kthread_stats k;
	struct hr_cpumap_enq_stats e;
	unsigned int m, key, w;

	for (m = 0; m < dp->nwatch; m++) {
		for (key = 0; key < HR_STATS_KEYS; key++) {
			if (!hr_cpumap_kthread_stats(dp->watch[m], key, &k)) {
				s->kt[m][key].processed = k.processed;
				s->kt[m][key].drops = k.drops + k.xdp_drop;
				s->kt[m][key].sched = k.sched;
			}
			for (w = 0; w < dp->nworkers; w++) {
				if (hr_cpumap_enqueue_stats(dp->watch[m], w,
							    key, &e))
					continue;
				s->enq[m][key][w].processed = e.processed;
				s->enq[m][key][w].drops = e.drops;
				s->enq[m][key][w].bulks = e.bulks;
			}
		}
	}
}

static double rate(uint64_t now, uint64_t prev, double t)
{
	return (double)(now - prev) / t;
}

/* rx-queue DEV:Q: what each device queue received, any worker. */
static void print_queues(struct hr_datapath *dp, FILE *f, const struct snap *n,
			 const struct snap *p, double t)
{
	unsigned int d, q;

	for (d = 0; d < HR_MAX_IFINDEX; d++) {
		if (!dp->devs[d])
			continue;
		for (q = 0; q < HR_DEV_MAX_QUEUES; q++) {
			double r = rate(n->queue[d][q], p->queue[d][q], t);
			char name[32];

			if (r <= 0)
				continue;
			snprintf(name, sizeof(name), "%.12s:%u",
				 dp->devs[d]->name, q);
			fprintf(f, "%-15s %-7s %'-14.0f\n", "rx-queue", name,
				r);
		}
	}
}

static void print_text(struct hr_datapath *dp, FILE *f, const struct snap *n,
		       const struct snap *p, double t)
{
	double rx = 0, drop = 0, err = 0;
	unsigned int m, key, w;

	fprintf(f, "%-12s %-10s %-18s %-14s %s\n", "XDP-cpumap", "CPU:to",
		"pps", "drop-pps", "extra-info");
	for (w = 0; w < dp->nworkers; w++) {
		double r = rate(n->rx[w].rx, p->rx[w].rx, t),
		       d = rate(n->rx[w].drop, p->rx[w].drop, t),
		       e = rate(n->rx[w].err, p->rx[w].err, t);

		rx += r;
		drop += d;
		err += e;
		if (r > 0 || d > 0 || e > 0)
			fprintf(f, "%-15s %-7u %'-14.0f %'-11.0f %'-10.0f %s\n",
				"XDP-RX", w, r, d, e, e > 0 ? "err" : "");
	}
	fprintf(f, "%-15s %-7s %'-14.0f %'-11.0f\n", "XDP-RX", "total", rx,
		drop);
	print_queues(dp, f, n, p, t);
	for (m = 0; m < dp->nwatch; m++) {
		for (key = 0; key < HR_STATS_KEYS; key++) {
			double sp = 0, sd = 0, sb = 0;
			bool any = false;

			for (w = 0; w < dp->nworkers; w++) {
				const struct enq_snap *a = &n->enq[m][key][w],
						      *b = &p->enq[m][key][w];
				double r = rate(a->processed, b->processed, t),
				       d = rate(a->drops, b->drops, t),
				       bk = rate(a->bulks, b->bulks, t);

				if (r <= 0 && d <= 0)
					continue;
				any = true;
				sp += r;
				sd += d;
				sb += bk;
				fprintf(f,
					"%-15s %3u:%-3u %'-14.0f %'-11.0f %'-10.2f %s\n",
					"cpumap-enqueue", w, key, r, d,
					bk > 0 ? r / bk : 0, "bulk-average");
			}
			if (any)
				fprintf(f,
					"%-15s %3s:%-3u %'-14.0f %'-11.0f %'-10.2f %s\n",
					"cpumap-enqueue", "sum", key, sp, sd,
					sb > 0 ? sp / sb : 0, "bulk-average");
		}
		for (key = 0; key < HR_STATS_KEYS; key++) {
			const struct kt_snap *a = &n->kt[m][key],
					     *b = &p->kt[m][key];
			double r = rate(a->processed, b->processed, t),
			       d = rate(a->drops, b->drops, t),
			       s = rate(a->sched, b->sched, t);

			if (r > 0 || d > 0)
				fprintf(f,
					"%-15s %-7u %'-14.0f %'-11.0f %'-10.0f %s\n",
					"cpumap_kthread", key, r, d, s,
					s > 0 ? "sched" : "");
		}
	}
	fprintf(f, "%-15s %-7s %'-14.0f %'-11.0f\n", "redirect_err", "total",
		0.0, rate(n->redirect_err, p->redirect_err, t));
	fprintf(f, "%-15s %-7s %'-14.0f %'-11.0f\n", "xdp_exception", "total",
		0.0, rate(n->exception, p->exception, t));
}

#define JADD(o, k, v) json_object_object_add(o, k, v)
/* Rates as whole packets a second, as the sample prints them. */
#define JD(o, k, v) JADD(o, k, json_object_new_int64(llround(v)))

static void print_json(struct hr_datapath *dp, FILE *f, const struct snap *n,
		       const struct snap *p, double t)
{
	json_object *root = json_object_new_object(),
		    *rx = json_object_new_array(),
		    *enq = json_object_new_array(),
		    *kt = json_object_new_array(), *o;
	unsigned int m, key, w;

	JADD(root, "interval", json_object_new_double(round(t * 1000) / 1000));
	for (w = 0; w < dp->nworkers; w++) {
		o = json_object_new_object();
		JADD(o, "cpu", json_object_new_int((int)w));
		JD(o, "pps", rate(n->rx[w].rx, p->rx[w].rx, t));
		JD(o, "drop_pps", rate(n->rx[w].drop, p->rx[w].drop, t));
		JD(o, "err_pps", rate(n->rx[w].err, p->rx[w].err, t));
		JADD(o, "packets", json_object_new_uint64(n->rx[w].rx));
		json_object_array_add(rx, o);
	}
	JADD(root, "xdp_rx", rx);
	for (m = 0; m < dp->nwatch; m++)
		for (key = 0; key < HR_STATS_KEYS; key++)
			for (w = 0; w < dp->nworkers; w++) {
				const struct enq_snap *a = &n->enq[m][key][w],
						      *b = &p->enq[m][key][w];
				uint64_t bk = a->bulks - b->bulks;

				if (!a->processed && !a->drops)
					continue;
				o = json_object_new_object();
				JADD(o, "map", json_object_new_int((int)m));
				JADD(o, "src", json_object_new_int((int)w));
				JADD(o, "dst", json_object_new_int((int)key));
				JD(o, "pps",
				   rate(a->processed, b->processed, t));
				JD(o, "drop_pps", rate(a->drops, b->drops, t));
				JADD(o, "bulk_avg",
				     json_object_new_double(
					     bk ? round((double)(a->processed -
								 b->processed) /
							(double)bk * 100) /
							     100 :
						  0.0));
				json_object_array_add(enq, o);
			}
	JADD(root, "cpumap_enqueue", enq);
	for (m = 0; m < dp->nwatch; m++)
		for (key = 0; key < HR_STATS_KEYS; key++) {
			const struct kt_snap *a = &n->kt[m][key],
					     *b = &p->kt[m][key];

			if (!a->processed && !a->drops)
				continue;
			o = json_object_new_object();
			JADD(o, "map", json_object_new_int((int)m));
			JADD(o, "cpu", json_object_new_int((int)key));
			JD(o, "pps", rate(a->processed, b->processed, t));
			JD(o, "drop_pps", rate(a->drops, b->drops, t));
			JD(o, "sched", rate(a->sched, b->sched, t));
			json_object_array_add(kt, o);
		}
	JADD(root, "cpumap_kthread", kt);
	o = json_object_new_object();
	JD(o, "drop_pps", rate(n->redirect_err, p->redirect_err, t));
	JADD(o, "total", json_object_new_uint64(n->redirect_err));
	JADD(root, "redirect_err", o);
	o = json_object_new_object();
	JD(o, "pps", rate(n->exception, p->exception, t));
	JADD(o, "total", json_object_new_uint64(n->exception));
	JADD(root, "xdp_exception", o);
	fprintf(f, "%s\n",
		json_object_to_json_string_ext(root, JSON_C_TO_STRING_PLAIN));
	json_object_put(root);
}

void hr_dp_print_stats(struct hr_datapath *dp, FILE *f, bool json,
		       double interval_s)
{
	struct snap *now = calloc(1, sizeof(*now));

	if (!now)
		return;
	if (!dp->stats_prev)
		dp->stats_prev = calloc(1, sizeof(struct snap));
	if (!dp->stats_prev) {
		free(now);
		return;
	}
	if (interval_s <= 0)
		interval_s = 1;
	take_rx(dp, now);
	take_cpumap(dp, now);
	if (json)
		print_json(dp, f, now, dp->stats_prev, interval_s);
	else
		print_text(dp, f, now, dp->stats_prev, interval_s);
	memcpy(dp->stats_prev, now, sizeof(*now));
	free(now);
}
