// SPDX-License-Identifier: MIT
/*
 * The stages bench/datapath --breakdown leaves out (struct
 * hr_datapath's bench_skip, core/datapath.h) are left out, and only
 * they: each run of the generator into progs/bench/bench_action.c
 * (which counts its own runs) checks what was counted, what ran, what
 * reached the veth peer, and that every frame went home. A skip that
 * stopped working would make the breakdown's figures for that stage 0.
 */
#include <stdio.h>
#include <string.h>
#include <linux/bpf.h>

#include "harness.h"
#include "headroom/datapath.h"
#include "headroom/devices.h"
#include "headroom/map.h"
#include "headroom/object.h"
#include "core/datapath.h"
#include "core/pool.h"

#define NPKT 5000

struct result {
	struct hr_dev_counters gen, a, b;
	uint64_t sent, runs;
	uint32_t gen_out, a_out;
};

static struct hr_object *open_action(const char *g0, const char *g1)
{
	const char *globals[2] = { g0, g1 };
	struct hr_object *obj = NULL;
	char path[512];
	HR_OPTS(hr_object_open_opts, o, .ncpus = 2, .globals = globals,
		.globals_cnt = g1 ? 2 : 1);

	snprintf(path, sizeof(path), "%s/bench_action.o", t_progs_dir());
	CHECK_EQ(hr_object_open(path, &o, &obj), 0);
	return obj;
}

static uint64_t runs_of(struct hr_object *obj)
{
	struct hr_map *m = hr_object_find_map(obj, "bench_runs");
	uint64_t v[2] = { 0, 0 };
	uint32_t key = 0;

	if (!m || hr_map_lookup_elem(m, &key, v))
		return UINT64_MAX;
	return v[0] + v[1];
}

/* gen -> XDP (drop, or redirect into veth A => B, which drops). */
static void run(unsigned int skip, bool redirect, struct result *r)
{
	HR_OPTS(hr_datapath_opts, dpo, .nworkers = 2);
	HR_OPTS(hr_gen_opts, go, .count = NPKT, .pkt_size = 60, .flows = 4);
	HR_OPTS(hr_veth_opts, vo, .mtu = 1500);
	struct hr_object *x = NULL, *vb = NULL;
	struct hr_dev *gen = NULL, *a = NULL, *b = NULL;
	struct hr_datapath *dp = NULL;
	char g[48];

	memset(r, 0, sizeof(*r));
	r->gen.sz = r->a.sz = r->b.sz = sizeof(r->gen);
	if (hr_dp_create(&dpo, &dp)) {
		CHECK(0, "datapath");
		return;
	}
	dp->bench_skip = skip;
	dp->bench_verdict = XDP_DROP;
	CHECK_EQ(hr_dev_gen_create(dp, "gen0", &go, &gen), 0);
	CHECK_EQ(hr_dp_assign_queue(dp, gen, 0, 0), 0);
	if (redirect) {
		CHECK_EQ(hr_dev_veth_create_pair(dp, "veth0", "veth1", &vo, &a,
						 &b),
			 0);
		snprintf(g, sizeof(g), "redirect_ifindex=%u",
			 hr_dev_ifindex(a));
		x = open_action("action=4", g);
		vb = open_action("action=1", NULL);
		CHECK_EQ(hr_dev_attach_xdp(b, hr_object_find_prog(vb, NULL)),
			 0);
		CHECK_EQ(hr_dp_assign_queue(dp, a, 0, 0), 0);
		CHECK_EQ(hr_dp_assign_queue(dp, b, 0, 1), 0);
		CHECK_EQ(hr_dev_open(a), 0);
		CHECK_EQ(hr_dev_open(b), 0);
	} else {
		x = open_action("action=1", NULL);
	}
	CHECK_EQ(hr_dev_attach_xdp(gen, hr_object_find_prog(x, NULL)), 0);
	CHECK_EQ(hr_dev_open(gen), 0);
	CHECK_EQ(hr_dp_start(dp), 0);
	CHECK_EQ(hr_dp_run_until_idle(dp, 20000), 0);
	hr_dp_stop(dp);
	hr_dev_get_counters(gen, &r->gen);
	if (b) {
		hr_dev_get_counters(a, &r->a);
		hr_dev_get_counters(b, &r->b);
	}
	r->sent = hr_dev_gen_sent(gen);
	r->runs = runs_of(x);
	r->gen_out = hr_pool_outstanding(gen->pool);
	r->a_out = a ? hr_pool_outstanding(a->pool) : 0;
	hr_dp_destroy(dp);
	hr_object_close(x);
	hr_object_close(vb);
}

int main(void)
{
	struct result r;

	run(0, false, &r);
	CHECK_EQ(r.sent, NPKT);
	CHECK_EQ(r.gen.rx_packets, NPKT);
	CHECK_EQ(r.gen.xdp_drop, NPKT);
	CHECK_EQ(r.runs, NPKT);
	CHECK_EQ(r.gen_out, 0);

	/* No counters, the program still runs. */
	run(HR_BENCH_SKIP_STATS, false, &r);
	CHECK_EQ(r.sent, NPKT);
	CHECK_EQ(r.gen.rx_packets, 0);
	CHECK_EQ(r.gen.xdp_drop, 0);
	CHECK_EQ(r.runs, NPKT);
	CHECK_EQ(r.gen_out, 0);

	/* No program: the stand-in verdict drops, every frame goes home. */
	run(HR_BENCH_SKIP_STATS | HR_BENCH_SKIP_PROG, false, &r);
	CHECK_EQ(r.sent, NPKT);
	CHECK_EQ(r.runs, 0);
	CHECK_EQ(r.gen_out, 0);
	run(HR_BENCH_SKIP_PROG, false, &r);
	CHECK_EQ(r.gen.xdp_drop, NPKT);
	CHECK_EQ(r.runs, 0);
	run(HR_BENCH_SKIP_STATS | HR_BENCH_SKIP_PROG | HR_BENCH_SKIP_CTX |
		    HR_BENCH_SKIP_FILL,
	    false, &r);
	CHECK_EQ(r.sent, NPKT);
	CHECK_EQ(r.runs, 0);
	CHECK_EQ(r.gen_out, 0);

	/* The generator recycles its batches itself: nothing is received. */
	run(HR_BENCH_SKIP_RX, false, &r);
	CHECK_EQ(r.sent, NPKT);
	CHECK_EQ(r.gen.rx_packets, 0);
	CHECK_EQ(r.runs, 0);
	CHECK_EQ(r.gen_out, 0);

	/* Redirected, and the flush frees instead of sending. */
	run(0, true, &r);
	CHECK_EQ(r.gen.xdp_redirect, NPKT);
	/* What B's full ring refused, A dropped (veth_xdp_xmit). */
	CHECK(r.b.xdp_drop > 0, "nothing reached B");
	CHECK_EQ(r.b.xdp_drop + r.a.drops_total, NPKT);
	CHECK_EQ(r.gen_out + r.a_out, 0);
	run(HR_BENCH_SKIP_XMIT, true, &r);
	CHECK_EQ(r.gen.xdp_redirect, NPKT);
	CHECK_EQ(r.b.rx_packets, 0);
	CHECK_EQ(r.a.drops_total, 0);
	CHECK_EQ(r.gen_out + r.a_out, 0);
	return t_done();
}
