// SPDX-License-Identifier: MIT
/*
 * The demo's datapath: a generator with NIC-like RX hints -> XDP (hints
 * into metadata, cpumap by hash) -> two workers build skbs -> tc ingress
 * (metadata -> mark) -> sink, with live statistics in the layout of the
 * kernel's xdp_redirect_cpu sample, then a closing account of every packet.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <headroom/headroom.h>
#include <headroom/datapath.h>
#include <headroom/devices.h>

#include "cli/cli.h"
#include "headroom/cpumap.h"

struct demo {
	struct hr_datapath *dp;
	struct hr_object *rx, *tc;
	struct hr_dev *gen, *sink;
};

static int open_demo_obj(const char *dir, const char *name,
			 struct hr_object **obj)
{
	char path[4096], err[512] = "";
	HR_OPTS(hr_object_open_opts, o, .errbuf = err, .errbuf_sz = sizeof(err),
		.ncpus = 2);
	int ret;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	ret = hr_object_open(path, &o, obj);
	if (ret)
		fprintf(stderr, "headroom demo: %s\n", err[0] ? err : path);
	return ret;
}

static int demo_build(struct demo *d, const char *dir, uint64_t pps,
		      double seconds)
{
	HR_OPTS(hr_datapath_opts, dpo, .nworkers = 2);
	HR_OPTS(hr_gen_opts, go, .flows = 256, .src_port_min = 1024,
		.src_port_max = 1279, .pkt_size = 128, .rate_pps = pps,
		.duration_ns = (uint64_t)(seconds * 1e9));
	uint32_t key, qsize = 1024;
	int ret;

	ret = hr_dp_create(&dpo, &d->dp);
	if (!ret)
		ret = open_demo_obj(dir, "demo_rx.o", &d->rx);
	if (!ret)
		ret = open_demo_obj(dir, "demo_tc.o", &d->tc);
	if (!ret)
		ret = hr_dev_gen_create(d->dp, "gen0", &go, &d->gen);
	if (!ret)
		ret = hr_dev_sink_create(d->dp, "sink0", NULL, &d->sink);
	if (ret)
		return ret;
	for (key = 0; key < 2 && !ret; key++)
		ret = hr_map_update_elem(hr_object_find_map(d->rx, "cpu_map"),
					 &key, &qsize, 0);
	if (ret)
		return ret;
	hr_dp_watch_map(d->dp, hr_object_find_map(d->rx, "cpu_map"));
	hr_dev_attach_xdp(d->gen, hr_object_find_prog(d->rx, NULL));
	hr_dev_attach_tc(d->gen, hr_object_find_prog(d->tc, NULL));
	hr_dev_set_stack(d->gen, d->sink);
	ret = hr_dp_assign_queue(d->dp, d->gen, 0, 0);
	if (!ret)
		ret = hr_dev_open(d->gen);
	if (!ret)
		ret = hr_dev_open(d->sink);
	return ret;
}

static uint64_t seen(struct demo *d, uint32_t key)
{
	struct hr_map *m = hr_object_find_map(d->tc, "seen");
	uint64_t v[64] = { 0 }, sum = 0;
	uint32_t i, n = hr_map_user_value_size(m) / 8;

	if (n > 64 || hr_map_lookup_elem(m, &key, v))
		return 0;
	for (i = 0; i < n; i++)
		sum += v[i];
	return sum;
}

/* Ring drops and teardown drops of both cpumap entries, from every
 * source worker. */
static uint64_t cpumap_drops(struct demo *d)
{
	struct hr_map *m = hr_object_find_map(d->rx, "cpu_map");
	struct hr_cpumap_enq_stats e;
	struct hr_cpumap_kthread_stats k;
	uint64_t drops = 0;
	uint32_t key;
	unsigned int src;

	for (key = 0; key < 2; key++) {
		for (src = 0; src < 2; src++)
			if (!hr_cpumap_enqueue_stats(m, src, key, &e))
				drops += e.drops;
		if (!hr_cpumap_kthread_stats(m, key, &k))
			drops += k.drops + k.xdp_drop;
	}
	return drops;
}

static void demo_account(struct demo *d)
{
	struct hr_dev_counters g;

	memset(&g, 0, sizeof(g));
	g.sz = sizeof(g);
	hr_dev_get_counters(d->gen, &g);
	printf("\naccount: received %llu = XDP drop %llu + aborted %llu + "
	       "redirect errors %llu + redirected %llu\n",
	       (unsigned long long)g.rx_packets, (unsigned long long)g.xdp_drop,
	       (unsigned long long)g.xdp_aborted,
	       (unsigned long long)g.redirect_err_total,
	       (unsigned long long)(g.xdp_redirect - g.redirect_err_total));
	printf("         delivered to the stack after tc: %llu; tc saw %llu "
	       "skbs, %llu with the XDP metadata (mark = RX hash)\n",
	       (unsigned long long)g.delivered, (unsigned long long)seen(d, 0),
	       (unsigned long long)seen(d, 1));
	printf("         redirected %llu = delivered %llu + cpumap drops "
	       "%llu (full rings)\n",
	       (unsigned long long)(g.xdp_redirect - g.redirect_err_total),
	       (unsigned long long)g.delivered,
	       (unsigned long long)cpumap_drops(d));
}

int hr_demo_pipeline(const char *dir, double seconds, uint64_t pps)
{
	struct timespec tick = { 0, 500000000L };
	struct demo d;
	double t;
	int ret;

	memset(&d, 0, sizeof(d));
	printf("headroom demo: gen0 (%llu pps, 256 UDP flows, RSS hints) -> "
	       "XDP demo_rx (hints -> 16 bytes of metadata, cpumap by hash) "
	       "-> 2 workers -> tc demo_tc (metadata -> mark) -> sink0, for "
	       "%.1f s\n\n",
	       (unsigned long long)pps, seconds);
	ret = demo_build(&d, dir, pps, seconds);
	if (ret) {
		fprintf(stderr,
			"headroom demo: cannot build the pipeline: %s\n",
			strerror(-ret));
		goto out;
	}
	ret = hr_dp_start(d.dp);
	if (ret)
		goto out;
	hr_dp_print_stats(d.dp, stdout, false, 0); /* baseline */
	for (t = 0; t < seconds; t += 0.5) {
		nanosleep(&tick, NULL);
		hr_dp_print_stats(d.dp, stdout, false, 0.5);
	}
	hr_dp_run_until_idle(d.dp, 5000);
	hr_dp_stop(d.dp);
	demo_account(&d);
out:
	hr_dp_destroy(d.dp);
	hr_object_close(d.rx);
	hr_object_close(d.tc);
	return ret;
}
