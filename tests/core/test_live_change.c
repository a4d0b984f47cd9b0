// SPDX-License-Identifier: MIT
/*
 * Live change (issue 4, section 7), on two worker threads with generator
 * traffic (two RX queues, one per worker) through a veth pair:
 *
 *  - programs: gen -> bpf_redirect -> veth A -> B, whose XDP program is
 *    replaced 120+ times under traffic by a freshly opened object
 *    (DROP and PASS in turn), the old object closed as soon as
 *    hr_dev_attach_xdp hands it back;
 *  - devices: B, A and the generator stopped and started under traffic
 *    (frames towards a stopped B are counted: -ENXIO at A's transmit,
 *    or dropped as dev_down when B's rings are drained at stop);
 *  - maps: gen -> bpf_redirect_map into a devmap (entry 0: A, the sink,
 *    deleted, re-added) or a cpumap (entries 0 and 1 replaced with other
 *    queue sizes, deleted, re-added) while the program sends to them.
 *
 * After each: every packet is accounted for once, over the devices and
 * the cpumap counters (received = dropped + transmitted + delivered +
 * counted errors), the programs' own counters agree with the devices',
 * and every pool has zero frames out.
 */
#include <errno.h>
#include <linux/bpf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"
#include "headroom/datapath.h"
#include "headroom/devices.h"
#include "headroom/map.h"
#include "headroom/object.h"
#include "core/datapath.h"
#include "core/pool.h"
#include "headroom/cpumap.h"

/* vk_xdp.bpf.c's counters. */
enum { C_ABORTED, C_DROP, C_PASS, C_TX, C_REDIRECT };

#define GEN_MS 600

static const char *engine_name(enum hr_engine e)
{
	return e == HR_ENGINE_INTERP ? "interpreter" : "JIT";
}

struct setup {
	struct hr_datapath *dp;
	struct hr_dev *gen, *a, *b, *sink, *sink2;
	struct hr_object *gprog; /* the generator's */
	struct hr_object *bprog; /* B's current */
	struct hr_map *cpumap; /* in gprog, when it has one */
	/* B's programs' counters, summed over the objects closed. */
	uint64_t b_counts[5];
	unsigned int changes;
	uint64_t sent_at_first, sent_at_last;
};

struct cpu_val {
	uint32_t qsize;
	uint32_t prog;
};

static struct hr_object *open_obj(const char *name)
{
	char path[512], err[256] = "";
	HR_OPTS(hr_object_open_opts, oo, .errbuf = err,
		.errbuf_sz = sizeof(err), .ncpus = 2);
	struct hr_object *o = NULL;

	snprintf(path, sizeof(path), "%s/%s", t_progs_dir(), name);
	if (hr_object_open(path, &oo, &o))
		CHECK(0, "open %s: %s", path, err);
	return o;
}

static void set_u32(struct hr_object *o, const char *map, uint32_t key,
		    uint32_t v)
{
	CHECK_EQ(hr_map_update_elem(hr_object_find_map(o, map), &key, &v, 0),
		 0);
}

/* B's program: vk_xdp_cfg of a new object, returning @verdict. */
static struct hr_object *b_prog_new(uint32_t verdict)
{
	struct hr_object *o = open_obj("vk_xdp.o");

	if (o)
		set_u32(o, "cfg", 0, verdict);
	return o;
}

/* Adds an object's counters to the running sums, then closes it. */
static void b_prog_retire(struct setup *s, struct hr_object *o)
{
	struct hr_map *m;
	uint32_t k;
	uint64_t v;

	if (!o)
		return;
	m = hr_object_find_map(o, "vk_counts");
	for (k = 0; k < 5; k++) {
		v = 0;
		hr_map_lookup_elem(m, &k, &v);
		s->b_counts[k] += v;
	}
	hr_object_close(o);
}

/* Replaces B's program; the old one is no longer run when this returns. */
static void b_prog_swap(struct setup *s, uint32_t verdict)
{
	struct hr_object *o = b_prog_new(verdict), *old = s->bprog;
	struct hr_prog *prev;

	if (!o)
		return;
	prev = hr_dev_attach_xdp(s->b, hr_object_find_prog(o, "vk_xdp_cfg"));
	CHECK(prev == (old ? hr_object_find_prog(old, "vk_xdp_cfg") : NULL),
	      "the previous program handed back");
	s->bprog = o;
	b_prog_retire(s, old);
}

static int setup(struct setup *s, const char *gen_obj, enum hr_engine engine)
{
	HR_OPTS(hr_datapath_opts, dpo, .nworkers = 2, .engine = engine);
	HR_OPTS(hr_gen_opts, go, .nrxq = 2, .flows = 8, .src_port_min = 1,
		.src_port_max = 8, .pkt_size = 64,
		.duration_ns = (uint64_t)GEN_MS * 1000000);
	HR_OPTS(hr_veth_opts, vo, .nrxq = 2);
	unsigned int q;

	memset(s, 0, sizeof(*s));
	if (hr_dp_create(&dpo, &s->dp))
		return -1;
	CHECK_EQ(hr_dev_gen_create(s->dp, "gen0", &go, &s->gen), 0);
	CHECK_EQ(hr_dev_veth_create_pair(s->dp, "lva", "lvb", &vo, &s->a,
					 &s->b),
		 0);
	CHECK_EQ(hr_dev_sink_create(s->dp, "sink0", NULL, &s->sink), 0);
	CHECK_EQ(hr_dev_sink_create(s->dp, "sink1", NULL, &s->sink2), 0);
	if (!s->gen || !s->a || !s->b || !s->sink || !s->sink2)
		return -1;
	s->gprog = open_obj(gen_obj);
	s->bprog = b_prog_new(XDP_DROP);
	if (!s->gprog || !s->bprog)
		return -1;
	hr_dev_attach_xdp(s->gen, hr_object_prog(s->gprog, 0));
	hr_dev_attach_xdp(s->b, hr_object_find_prog(s->bprog, "vk_xdp_cfg"));
	hr_dev_set_stack(s->b, s->sink);
	hr_dev_set_stack(s->gen, s->sink2);
	for (q = 0; q < 2; q++) {
		CHECK_EQ(hr_dp_assign_queue(s->dp, s->gen, q, q), 0);
		CHECK_EQ(hr_dp_assign_queue(s->dp, s->a, q, q), 0);
		CHECK_EQ(hr_dp_assign_queue(s->dp, s->b, q, q), 0);
	}
	CHECK_EQ(hr_dev_open(s->a), 0);
	CHECK_EQ(hr_dev_open(s->b), 0);
	CHECK_EQ(hr_dev_open(s->sink), 0);
	CHECK_EQ(hr_dev_open(s->sink2), 0);
	return 0;
}

static bool gen_done(struct setup *s)
{
	return s->gen->ops->rx_done(s->gen);
}

static void sleep_us(long us)
{
	struct timespec ts = { us / 1000000, (us % 1000000) * 1000 };

	nanosleep(&ts, NULL);
}

/* Starts the traffic: the generator opens last, workers already run. */
static void go(struct setup *s)
{
	CHECK_EQ(hr_dp_start(s->dp), 0);
}

/* One change made: remember how far the generator was. */
static void changed(struct setup *s)
{
	uint64_t sent = hr_dev_gen_sent(s->gen);

	if (!s->changes++)
		s->sent_at_first = sent;
	if (!gen_done(s))
		s->sent_at_last = sent;
}

static void finish(struct setup *s)
{
	CHECK_EQ(hr_dp_run_until_idle(s->dp, 30000), 0);
	hr_dp_stop(s->dp);
	/* Changes happened while packets flowed. */
	CHECK(s->sent_at_last > s->sent_at_first,
	      "traffic during the changes: %llu then %llu",
	      (unsigned long long)s->sent_at_first,
	      (unsigned long long)s->sent_at_last);
}

static void counters(struct hr_dev *d, struct hr_dev_counters *c)
{
	memset(c, 0, sizeof(*c));
	c->sz = sizeof(*c);
	CHECK_EQ(hr_dev_get_counters(d, c), 0);
}

/* The whole pipeline's books. */
static void check_accounting(struct setup *s)
{
	struct hr_dev_counters g, a, b, k, k2;
	struct hr_veth_stats va, vb;
	uint64_t cpu_enq = 0, cpu_enq_drops = 0, kt_proc = 0, kt_drops = 0,
		 kt_deliv = 0, total, verdicts;
	unsigned int src, key;

	counters(s->gen, &g);
	counters(s->a, &a);
	counters(s->b, &b);
	counters(s->sink, &k);
	counters(s->sink2, &k2);
	hr_dev_veth_stats(s->a, &va);
	hr_dev_veth_stats(s->b, &vb);
	if (s->cpumap) {
		for (key = 0; key < 2; key++) {
			struct hr_cpumap_kthread_stats ks;

			for (src = 0; src < 2; src++) {
				struct hr_cpumap_enq_stats es;

				CHECK_EQ(hr_cpumap_enqueue_stats(s->cpumap, src,
								 key, &es),
					 0);
				cpu_enq += es.processed;
				cpu_enq_drops += es.drops;
			}
			CHECK_EQ(hr_cpumap_kthread_stats(s->cpumap, key, &ks),
				 0);
			kt_proc += ks.processed;
			kt_drops += ks.drops;
			kt_deliv += ks.delivered;
		}
	}
	/* The generator: each packet one verdict; a redirect either
	 * failed (counted by errno) or reached a device or a cpumap. */
	CHECK_EQ(g.rx_packets, hr_dev_gen_sent(s->gen));
	CHECK(g.rx_packets > 0, "traffic");
	CHECK_EQ(g.xdp_aborted + g.xdp_drop + g.xdp_pass + g.xdp_tx +
			 g.xdp_redirect,
		 g.rx_packets);
	CHECK_EQ(g.xdp_pass + g.xdp_aborted + g.xdp_tx, 0);
	CHECK_EQ(g.drops_total, g.drops[HR_DROP_REDIRECT_ERROR]);
	CHECK_EQ(g.redirect_err_total, g.drops[HR_DROP_REDIRECT_ERROR]);
	CHECK_EQ(g.xdp_redirect - g.redirect_err_total,
		 a.tx_packets + a.drops_total + k.tx_packets + k.drops_total +
			 cpu_enq);
	/* A's transmit: onto B's rings, or refused (MTU, ring, -ENXIO). */
	CHECK_EQ(a.drops_total, a.drops[HR_DROP_XMIT_ERROR]);
	CHECK_EQ(va.xmit, a.tx_packets);
	CHECK_EQ(va.xmit_err_mtu + va.xmit_err_ring_full + va.xmit_err_enxio,
		 a.drops_total);
	CHECK_EQ(a.rx_packets, 0);
	/* B: what A put on its rings was received, or dropped at stop. */
	CHECK_EQ(b.drops_total, b.drops[HR_DROP_DEV_DOWN]);
	CHECK_EQ(a.tx_packets, b.rx_packets + b.drops[HR_DROP_DEV_DOWN]);
	CHECK_EQ(b.xdp_drop + b.xdp_pass + b.xdp_aborted, b.rx_packets);
	CHECK_EQ(b.xdp_tx + b.xdp_redirect + b.tx_packets + vb.xmit, 0);
	CHECK_EQ(b.delivered, b.xdp_pass);
	CHECK_EQ(k.rx_packets, b.delivered);
	/* B's programs counted what B's counters say. */
	CHECK_EQ(s->b_counts[C_DROP], b.xdp_drop);
	CHECK_EQ(s->b_counts[C_PASS], b.xdp_pass);
	CHECK_EQ(s->b_counts[C_ABORTED], b.xdp_aborted);
	/* The cpumap: enqueued = ring full + taken; taken = delivered +
	 * dropped at teardown; delivered on the generator's stack. */
	CHECK_EQ(cpu_enq, cpu_enq_drops + kt_proc);
	CHECK_EQ(kt_proc, kt_drops + kt_deliv);
	CHECK_EQ(g.delivered, kt_deliv);
	CHECK_EQ(k2.rx_packets, g.delivered);
	/* received = dropped + transmitted + delivered + counted errors */
	total = g.xdp_drop + g.redirect_err_total + a.drops_total +
		b.drops_total + b.xdp_drop + b.xdp_aborted + b.delivered +
		k.tx_packets + k.drops_total + cpu_enq_drops + kt_drops +
		kt_deliv;
	CHECK(total == g.rx_packets, "received %llu, accounted for %llu",
	      (unsigned long long)g.rx_packets, (unsigned long long)total);
	verdicts = b.xdp_drop + b.xdp_pass;
	fprintf(stderr,
		"  %u changes; gen %llu (drop %llu, redirect err %llu: "
		"ENETDOWN %llu), A xmit %llu (err: ring %llu enxio %llu), "
		"B rx %llu (drop %llu pass %llu dev_down %llu), sink xmit "
		"%llu, cpumap enq %llu (ring full %llu) delivered %llu "
		"teardown %llu\n",
		s->changes, (unsigned long long)g.rx_packets,
		(unsigned long long)g.xdp_drop,
		(unsigned long long)g.redirect_err_total,
		(unsigned long long)g.redirect_err[ENETDOWN],
		(unsigned long long)va.xmit,
		(unsigned long long)va.xmit_err_ring_full,
		(unsigned long long)va.xmit_err_enxio,
		(unsigned long long)b.rx_packets,
		(unsigned long long)b.xdp_drop, (unsigned long long)b.xdp_pass,
		(unsigned long long)b.drops[HR_DROP_DEV_DOWN],
		(unsigned long long)k.tx_packets, (unsigned long long)cpu_enq,
		(unsigned long long)cpu_enq_drops, (unsigned long long)kt_deliv,
		(unsigned long long)kt_drops);
	(void)verdicts;
	CHECK_EQ(hr_pool_outstanding(s->gen->pool), 0);
	CHECK_EQ(hr_pool_outstanding(s->a->pool), 0);
	CHECK_EQ(hr_pool_outstanding(s->b->pool), 0);
	CHECK_EQ(hr_pool_bad_puts(s->gen->pool), 0);
}

static void teardown(struct setup *s)
{
	uint32_t key;

	if (s->dp) {
		hr_dp_stop(s->dp);
		if (s->gen)
			hr_dev_attach_xdp(s->gen, NULL);
		if (s->b)
			hr_dev_attach_xdp(s->b, NULL);
	}
	/* Entries go while the workers they name still exist. */
	if (s->cpumap)
		for (key = 0; key < 2; key++)
			hr_map_delete_elem(s->cpumap, &key);
	hr_object_close(s->gprog);
	hr_object_close(s->bprog);
	hr_dp_destroy(s->dp);
}

/* (a) B's program replaced under traffic by new objects, DROP and PASS. */
static void test_prog_swap(enum hr_engine engine)
{
	struct setup s;
	unsigned int i;

	fprintf(stderr, "program replacement (%s):\n", engine_name(engine));
	if (setup(&s, "dev_redirect.o", engine))
		goto out;
	set_u32(s.gprog, "cfg", 0, s.a->ifindex);
	go(&s);
	CHECK_EQ(hr_dev_open(s.gen), 0);
	for (i = 0; i < 120 || (!gen_done(&s) && i < 100000); i++) {
		b_prog_swap(&s, i & 1 ? XDP_DROP : XDP_PASS);
		changed(&s);
		sleep_us(500);
	}
	finish(&s);
	/* The last program's counters too. */
	b_prog_retire(&s, s.bprog);
	s.bprog = NULL;
	hr_dev_attach_xdp(s.b, NULL);
	CHECK(s.changes >= 120, "%u swaps", s.changes);
	check_accounting(&s);
	CHECK(s.b_counts[C_DROP] > 0 && s.b_counts[C_PASS] > 0,
	      "both programs ran: drop %llu pass %llu",
	      (unsigned long long)s.b_counts[C_DROP],
	      (unsigned long long)s.b_counts[C_PASS]);
out:
	teardown(&s);
}

/* (b) B, A and the generator stopped and started under traffic. */
static void test_dev_stop_start(enum hr_engine engine)
{
	struct hr_dev_counters b, g;
	struct hr_veth_stats va;
	struct setup s;
	unsigned int i;

	fprintf(stderr, "devices stopped and started (%s):\n",
		engine_name(engine));
	if (setup(&s, "dev_redirect.o", engine))
		goto out;
	set_u32(s.gprog, "cfg", 0, s.a->ifindex);
	go(&s);
	CHECK_EQ(hr_dev_open(s.gen), 0);
	for (i = 0; i < 24 || (!gen_done(&s) && i < 100000); i++) {
		/*
		 * B's verdict flips too, by a program swap: not by writing
		 * the array value under traffic, which the kernel allows
		 * but the interpreter's plain loads of map values make a
		 * data race for ThreadSanitizer.
		 */
		b_prog_swap(&s, i & 1 ? XDP_PASS : XDP_DROP);
		switch (i % 4) {
		case 0:
		case 2:
			hr_dev_close(s.b);
			sleep_us(1000);
			CHECK_EQ(hr_dev_open(s.b), 0);
			break;
		case 1:
			hr_dev_close(s.a);
			sleep_us(1000);
			CHECK_EQ(hr_dev_open(s.a), 0);
			break;
		case 3:
			hr_dev_close(s.gen);
			sleep_us(1000);
			CHECK_EQ(hr_dev_open(s.gen), 0);
			break;
		}
		changed(&s);
		sleep_us(2000);
	}
	finish(&s);
	b_prog_retire(&s, s.bprog);
	s.bprog = NULL;
	hr_dev_attach_xdp(s.b, NULL);
	check_accounting(&s);
	counters(s.b, &b);
	counters(s.gen, &g);
	hr_dev_veth_stats(s.a, &va);
	/* The stops were seen: A's transmits to a stopped B failed with
	 * -ENXIO, redirects to a stopped A with -ENETDOWN. */
	CHECK(va.xmit_err_enxio > 0, "transmits to a stopped B counted");
	CHECK(g.redirect_err[ENETDOWN] > 0, "redirects to a stopped A counted");
out:
	teardown(&s);
}

/* (c) devmap and cpumap entries changed while the program sends there. */
static void test_map_change(enum hr_engine engine)
{
	struct cpu_val cv = { 64, 0 };
	struct hr_map *devmap;
	struct setup s;
	uint32_t key, ifindex;
	unsigned int i;

	fprintf(stderr, "devmap and cpumap entries changed (%s):\n",
		engine_name(engine));
	if (setup(&s, "vk_redir.o", engine))
		goto out;
	devmap = hr_object_find_map(s.gprog, "vk_tx_port");
	s.cpumap = hr_object_find_map(s.gprog, "vk_cpu_map");
	key = 0;
	ifindex = s.a->ifindex;
	CHECK_EQ(hr_map_update_elem(devmap, &key, &ifindex, 0), 0);
	for (key = 0; key < 2; key++)
		CHECK_EQ(hr_map_update_elem(s.cpumap, &key, &cv, 0), 0);
	go(&s);
	CHECK_EQ(hr_dev_open(s.gen), 0);
	for (i = 0; i < 60 || (!gen_done(&s) && i < 100000); i++) {
		key = 0;
		switch (i % 4) {
		case 0:
			ifindex = s.sink->ifindex;
			CHECK_EQ(hr_map_update_elem(devmap, &key, &ifindex, 0),
				 0);
			break;
		case 1:
			CHECK_EQ(hr_map_delete_elem(devmap, &key), 0);
			break;
		default:
			ifindex = s.a->ifindex;
			CHECK_EQ(hr_map_update_elem(devmap, &key, &ifindex, 0),
				 0);
			break;
		}
		key = i & 1;
		if (i % 5 == 4) {
			CHECK_EQ(hr_map_delete_elem(s.cpumap, &key), 0);
		} else {
			cv.qsize = 8 + (i * 24) % 256;
			CHECK_EQ(hr_map_update_elem(s.cpumap, &key, &cv, 0), 0);
		}
		changed(&s);
		sleep_us(2000);
	}
	/* Both entries present again for the tail of the traffic. */
	cv.qsize = 128;
	for (key = 0; key < 2; key++)
		CHECK_EQ(hr_map_update_elem(s.cpumap, &key, &cv, 0), 0);
	finish(&s);
	/* Tear the entries down so what their rings held is counted. */
	for (key = 0; key < 2; key++)
		CHECK_EQ(hr_map_delete_elem(s.cpumap, &key), 0);
	b_prog_retire(&s, s.bprog);
	s.bprog = NULL;
	hr_dev_attach_xdp(s.b, NULL);
	check_accounting(&s);
	{
		struct hr_dev_counters g, k;
		struct hr_cpumap_kthread_stats ks0, ks1;

		counters(s.gen, &g);
		counters(s.sink, &k);
		hr_cpumap_kthread_stats(s.cpumap, 0, &ks0);
		hr_cpumap_kthread_stats(s.cpumap, 1, &ks1);
		CHECK(g.xdp_drop > 0, "misses while entries were missing");
		CHECK(k.tx_packets > 0, "devmap entry pointing at the sink");
		CHECK(ks0.delivered > 0 && ks1.delivered > 0,
		      "both cpumap entries delivered");
	}
out:
	teardown(&s);
}

int main(void)
{
	static const enum hr_engine engines[] = { HR_ENGINE_INTERP,
						  HR_ENGINE_JIT };
	unsigned int i;

	for (i = 0; i < 2; i++) {
		test_prog_swap(engines[i]);
		test_dev_stop_start(engines[i]);
		test_map_change(engines[i]);
	}
	return t_done();
}
