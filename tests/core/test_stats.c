// SPDX-License-Identifier: MIT
/*
 * Statistics: per-queue counters add up to the device's, each queue of a
 * 4-queue generator gets the flows its RSS hash sends there, and the
 * xdp_redirect_cpu-style report counts what the XDP program ran on (not
 * what other devices received).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/bpf.h>

#include <headroom/headroom.h>
#include <headroom/datapath.h>
#include <headroom/devices.h>

#include "harness.h"

#define COUNT 4000

static struct hr_object *open_obj(const char *name)
{
	char path[4096], err[512] = "";
	struct hr_object *obj = NULL;
	HR_OPTS(hr_object_open_opts, o, .errbuf = err,
		.errbuf_sz = sizeof(err));

	snprintf(path, sizeof(path), "%s/%s", t_progs_dir(), name);
	CHECK(hr_object_open(path, &o, &obj) == 0, "%s: %s", name, err);
	return obj;
}

int main(void)
{
	HR_OPTS(hr_datapath_opts, dpo, .nworkers = 2);
	HR_OPTS(hr_gen_opts, go, .count = COUNT, .flows = 64, .nrxq = 4,
		.src_port_min = 1000, .src_port_max = 1063);
	struct hr_dev_counters c = { .sz = sizeof(c) };
	uint64_t qp[4], qb[4], sum_p = 0, sum_b = 0, sink_rx = 0;
	struct hr_datapath *dp = NULL;
	struct hr_dev *gen = NULL, *sink = NULL;
	struct hr_object *v = open_obj("dev_verdict.o");
	uint32_t key = 0, verdict = XDP_PASS;
	char *report = NULL, *line;
	size_t len = 0;
	unsigned int q, queues_used = 0;
	FILE *f;

	if (!v || hr_dp_create(&dpo, &dp))
		return t_done();
	CHECK_EQ(hr_dev_gen_create(dp, "gen0", &go, &gen), 0);
	CHECK_EQ(hr_dev_sink_create(dp, "sink0", NULL, &sink), 0);
	if (!gen || !sink)
		return t_done();
	CHECK_EQ(hr_map_update_elem(hr_object_find_map(v, "cfg"), &key,
				    &verdict, 0),
		 0);
	hr_dev_attach_xdp(gen, hr_object_find_prog(v, NULL));
	hr_dev_set_stack(gen, sink);
	for (q = 0; q < 4; q++)
		CHECK_EQ(hr_dp_assign_queue(dp, gen, q, q % 2), 0);
	CHECK_EQ(hr_dev_open(gen), 0);
	CHECK_EQ(hr_dev_open(sink), 0);
	hr_dp_print_stats(dp, stdout, true, 1); /* baseline */
	CHECK_EQ(hr_dp_run_until_idle(dp, 10000), 0);

	hr_dev_get_counters(gen, &c);
	CHECK_EQ(c.rx_packets, COUNT);
	CHECK_EQ(c.xdp_pass, COUNT);
	for (q = 0; q < 4; q++) {
		CHECK_EQ(hr_dev_get_queue_counters(gen, q, &qp[q], &qb[q]), 0);
		sum_p += qp[q];
		sum_b += qb[q];
		queues_used += qp[q] > 0;
	}
	CHECK_EQ(sum_p, c.rx_packets);
	CHECK_EQ(sum_b, c.rx_bytes);
	/* 64 flows over 4 queues by hash: every queue gets some. */
	CHECK_EQ(queues_used, 4);
	CHECK(hr_dev_get_queue_counters(gen, 99, &qp[0], NULL) < 0,
	      "queue 99 accepted");

	/* The report: XDP-RX packets per worker add up to the XDP runs,
	 * though the sink received as many again. */
	f = open_memstream(&report, &len);
	hr_dp_print_stats(dp, f, true, 1);
	fclose(f);
	{
		struct hr_dev_counters sc = { .sz = sizeof(sc) };
		uint64_t total = 0;

		hr_dev_get_counters(sink, &sc);
		sink_rx = sc.rx_packets;
		for (line = strstr(report, "\"packets\":"); line;
		     line = strstr(line + 1, "\"packets\":"))
			total += strtoull(line + 10, NULL, 10);
		CHECK_EQ(total, COUNT);
		CHECK(sink_rx == 0 || total != COUNT + sink_rx,
		      "report counts the sink's reception as XDP-RX");
	}
	free(report);
	report = NULL;
	f = open_memstream(&report, &len);
	hr_dp_print_stats(dp, f, false, 1);
	fclose(f);
	CHECK(strstr(report, "rx-queue") == NULL,
	      "no traffic since the last report, yet queue rates: %s", report);
	free(report);
	hr_dp_destroy(dp);
	hr_object_close(v);
	return t_done();
}
