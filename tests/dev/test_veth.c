// SPDX-License-Identifier: MIT
/*
 * veth pairs: generator -> XDP redirect (progs/dev/dev_redirect.bpf.c) to
 * veth A -> A's peer B, whose XDP program (progs/dev/dev_verdict.bpf.c) says
 * DROP, TX (frames come back out of A: A runs a program too) or PASS (to
 * B's sink); oversized frames, -ENXIO without a program on the peer, and
 * the ring of 256 overflowing, each counted; on one polling thread and on
 * two worker threads. Also the MPSC ring itself, under two producers.
 * Every case checks the packet accounting and that no frame is out.
 */
#include <errno.h>
#include <linux/bpf.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "headroom/datapath.h"
#include "headroom/devices.h"
#include "headroom/map.h"
#include "headroom/object.h"
#include "core/datapath.h"
#include "core/pool.h"
#include "dev/ring.h"

struct setup {
	struct hr_datapath *dp;
	struct hr_dev *gen, *a, *b, *sink;
	struct hr_object *redir, *va, *vb;
};

struct counters {
	struct hr_dev_counters g, a, b, s;
	struct hr_veth_stats va, vb;
};

static struct hr_object *open_obj(const char *name, struct hr_object **o)
{
	char path[512], err[256];
	HR_OPTS(hr_object_open_opts, oo, .errbuf = err,
		.errbuf_sz = sizeof(err), .ncpus = 2);

	snprintf(path, sizeof(path), "%s/%s", t_progs_dir(), name);
	*o = NULL;
	if (hr_object_open(path, &oo, o))
		CHECK(0, "open %s: %s", path, err);
	return *o;
}

static void set_cfg(struct hr_object *o, uint32_t v)
{
	uint32_t key = 0;

	CHECK_EQ(hr_map_update_elem(hr_object_find_map(o, "cfg"), &key, &v, 0),
		 0);
}

/*
 * gen (@count packets of @size) redirecting to A; B's program returns
 * @b_verdict (-1: none); A's returns @a_verdict (-1: none). B's queue is
 * polled unless @b_unpolled. Two workers: gen and A on 0, B on 1.
 */
static int setup(struct setup *s, uint64_t count, uint32_t size, int a_verdict,
		 int b_verdict, bool b_unpolled)
{
	HR_OPTS(hr_datapath_opts, dpo, .nworkers = 2);
	HR_OPTS(hr_gen_opts, go, .count = count, .pkt_size = size, .flows = 4,
		.src_port_min = 1, .src_port_max = 4);
	HR_OPTS(hr_veth_opts, vo, .mtu = 1500);

	memset(s, 0, sizeof(*s));
	if (hr_dp_create(&dpo, &s->dp))
		return -1;
	CHECK_EQ(hr_dev_gen_create(s->dp, "gen0", &go, &s->gen), 0);
	CHECK_EQ(hr_dev_veth_create_pair(s->dp, "veth0", "veth1", &vo, &s->a,
					 &s->b),
		 0);
	CHECK_EQ(hr_dev_sink_create(s->dp, "sink0", NULL, &s->sink), 0);
	if (!s->gen || !s->a || !s->b || !s->sink)
		return -1;
	CHECK(hr_dev_veth_peer(s->a) == s->b, "peer of A");
	CHECK(hr_dev_veth_peer(s->b) == s->a, "peer of B");
	if (!open_obj("dev_redirect.o", &s->redir) ||
	    !open_obj("dev_verdict.o", &s->va) ||
	    !open_obj("dev_verdict.o", &s->vb))
		return -1;
	set_cfg(s->redir, s->a->ifindex);
	hr_dev_attach_xdp(s->gen, hr_object_find_prog(s->redir, NULL));
	if (a_verdict >= 0) {
		set_cfg(s->va, (uint32_t)a_verdict);
		hr_dev_attach_xdp(s->a, hr_object_find_prog(s->va, NULL));
	}
	if (b_verdict >= 0) {
		set_cfg(s->vb, (uint32_t)b_verdict);
		hr_dev_attach_xdp(s->b, hr_object_find_prog(s->vb, NULL));
	}
	hr_dev_set_stack(s->a, s->sink);
	hr_dev_set_stack(s->b, s->sink);
	CHECK_EQ(hr_dp_assign_queue(s->dp, s->gen, 0, 0), 0);
	CHECK_EQ(hr_dp_assign_queue(s->dp, s->a, 0, 0), 0);
	if (!b_unpolled)
		CHECK_EQ(hr_dp_assign_queue(s->dp, s->b, 0, 1), 0);
	CHECK_EQ(hr_dev_open(s->gen), 0);
	CHECK_EQ(hr_dev_open(s->a), 0);
	CHECK_EQ(hr_dev_open(s->b), 0);
	CHECK_EQ(hr_dev_open(s->sink), 0);
	return 0;
}

static void read_counters(struct setup *s, struct counters *c)
{
	memset(c, 0, sizeof(*c));
	c->g.sz = c->a.sz = c->b.sz = c->s.sz = sizeof(c->g);
	hr_dev_get_counters(s->gen, &c->g);
	hr_dev_get_counters(s->a, &c->a);
	hr_dev_get_counters(s->b, &c->b);
	hr_dev_get_counters(s->sink, &c->s);
	hr_dev_veth_stats(s->a, &c->va);
	hr_dev_veth_stats(s->b, &c->vb);
}

/* Packets in = out, device by device, and every frame home. */
static void check_accounting(struct setup *s, const struct counters *c,
			     uint64_t count)
{
	CHECK_EQ(c->g.rx_packets, count);
	CHECK_EQ(c->g.xdp_redirect, count);
	/* What reached A's transmit: sent to B's ring, or dropped. */
	CHECK_EQ(c->a.tx_packets + c->a.drops_total, count);
	CHECK_EQ(c->va.xmit, c->a.tx_packets);
	CHECK_EQ(c->va.xmit_err_mtu + c->va.xmit_err_ring_full +
			 c->va.xmit_err_enxio,
		 c->a.drops_total);
	/* B received what A sent; each got one verdict. */
	CHECK_EQ(c->b.rx_packets, c->a.tx_packets);
	CHECK_EQ(c->b.xdp_drop + c->b.xdp_tx + c->b.xdp_pass +
			 c->b.xdp_aborted + c->b.xdp_redirect,
		 c->b.rx_packets);
	/* B's XDP_TX: out through B to A (B counts sent and failed). */
	CHECK_EQ(c->b.tx_packets + c->b.drops_total, c->b.xdp_tx);
	CHECK_EQ(c->a.rx_packets, c->b.tx_packets);
	CHECK_EQ(c->vb.xmit, c->b.tx_packets);
	CHECK_EQ(c->s.rx_packets, c->a.delivered + c->b.delivered);
	CHECK_EQ(hr_pool_outstanding(s->gen->pool), 0);
	CHECK_EQ(hr_pool_outstanding(s->a->pool), 0);
	CHECK_EQ(hr_pool_outstanding(s->b->pool), 0);
}

static void teardown(struct setup *s)
{
	hr_dp_destroy(s->dp);
	hr_object_close(s->redir);
	hr_object_close(s->va);
	hr_object_close(s->vb);
}

static void run(struct setup *s, bool threads)
{
	if (threads)
		CHECK_EQ(hr_dp_start(s->dp), 0);
	CHECK_EQ(hr_dp_run_until_idle(s->dp, 20000), 0);
	if (threads)
		hr_dp_stop(s->dp);
}

static void test_drop(bool threads)
{
	struct setup s;
	struct counters c;

	if (setup(&s, 1000, 60, -1, XDP_DROP, false))
		goto out;
	run(&s, threads);
	read_counters(&s, &c);
	check_accounting(&s, &c, 1000);
	CHECK_EQ(c.a.tx_packets + c.va.xmit_err_ring_full, 1000);
	CHECK_EQ(c.b.xdp_drop, c.a.tx_packets);
	if (!threads)
		CHECK_EQ(c.b.xdp_drop, 1000);
out:
	teardown(&s);
}

static void test_tx(bool threads)
{
	struct setup s;
	struct counters c;

	if (setup(&s, 1000, 100, XDP_DROP, XDP_TX, false))
		goto out;
	run(&s, threads);
	read_counters(&s, &c);
	check_accounting(&s, &c, 1000);
	/* With two threads, B may fall behind: a full ring is the only
	 * loss allowed, and it is counted. */
	CHECK_EQ(c.b.xdp_tx + c.va.xmit_err_ring_full, 1000);
	CHECK_EQ(c.b.tx_packets + c.vb.xmit_err_ring_full, c.b.xdp_tx);
	if (!threads)
		CHECK_EQ(c.b.xdp_tx, 1000);
	/* The frames came back out of A and met A's program. */
	CHECK_EQ(c.a.rx_packets, c.b.tx_packets);
	CHECK_EQ(c.a.xdp_drop, c.a.rx_packets);
out:
	teardown(&s);
}

/* B's XDP_TX towards an A without a program: -ENXIO, counted on B. */
static void test_tx_enxio(void)
{
	struct setup s;
	struct counters c;

	if (setup(&s, 100, 60, -1, XDP_TX, false))
		goto out;
	run(&s, false);
	read_counters(&s, &c);
	check_accounting(&s, &c, 100);
	CHECK_EQ(c.b.xdp_tx, 100);
	CHECK_EQ(c.b.tx_packets, 0);
	CHECK_EQ(c.b.drops[HR_DROP_TX_ERROR], 100);
	CHECK_EQ(c.vb.xmit_err_enxio, 100);
out:
	teardown(&s);
}

static void test_pass(bool threads)
{
	struct setup s;
	struct counters c;

	if (setup(&s, 1000, 200, -1, XDP_PASS, false))
		goto out;
	run(&s, threads);
	read_counters(&s, &c);
	check_accounting(&s, &c, 1000);
	CHECK_EQ(c.b.xdp_pass + c.va.xmit_err_ring_full, 1000);
	CHECK_EQ(c.b.delivered, c.b.xdp_pass);
	CHECK_EQ(c.s.rx_packets, c.b.xdp_pass);
	CHECK_EQ(c.s.rx_bytes, c.b.xdp_pass * 200);
	if (!threads)
		CHECK_EQ(c.b.xdp_pass, 1000);
out:
	teardown(&s);
}

/* Frames above B's MTU + 18 stop at A's transmit and are counted. */
static void test_mtu(void)
{
	struct setup s;
	struct counters c;

	if (setup(&s, 100, 1019, -1, XDP_DROP, false))
		goto out;
	s.b->mtu = 1000; /* max_len 1018 */
	run(&s, false);
	read_counters(&s, &c);
	check_accounting(&s, &c, 100);
	CHECK_EQ(c.a.tx_packets, 0);
	CHECK_EQ(c.a.drops[HR_DROP_XMIT_ERROR], 100);
	CHECK_EQ(c.va.xmit_err_mtu, 100);
	teardown(&s);
	/* 1018 bytes fit exactly. */
	if (setup(&s, 100, 1018, -1, XDP_DROP, false))
		goto out;
	s.b->mtu = 1000;
	run(&s, false);
	read_counters(&s, &c);
	check_accounting(&s, &c, 100);
	CHECK_EQ(c.b.xdp_drop, 100);
out:
	teardown(&s);
}

/* No program on B: its NAPI is off, A's transmit fails -ENXIO. */
static void test_enxio(void)
{
	struct setup s;
	struct counters c;

	if (setup(&s, 100, 60, -1, -1, false))
		goto out;
	run(&s, false);
	read_counters(&s, &c);
	check_accounting(&s, &c, 100);
	CHECK_EQ(c.a.tx_packets, 0);
	CHECK_EQ(c.va.xmit_err_enxio, 100);
	CHECK_EQ(c.b.rx_packets, 0);
out:
	teardown(&s);
}

/* B not polled: its ring takes 256, the rest is dropped and counted;
 * polling B then receives the 256. */
static void test_ring_full(void)
{
	struct setup s;
	struct counters c;

	if (setup(&s, 300, 60, -1, XDP_DROP, true))
		goto out;
	run(&s, false);
	read_counters(&s, &c);
	CHECK_EQ(c.a.tx_packets, 256);
	CHECK_EQ(c.va.xmit_err_ring_full, 44);
	CHECK_EQ(c.a.drops[HR_DROP_XMIT_ERROR], 44);
	CHECK_EQ(c.b.rx_packets, 0);
	CHECK_EQ(hr_pool_outstanding(s.gen->pool), 256);
	CHECK_EQ(hr_dp_assign_queue(s.dp, s.b, 0, 1), 0);
	run(&s, false);
	read_counters(&s, &c);
	check_accounting(&s, &c, 300);
	CHECK_EQ(c.b.xdp_drop, 256);
out:
	teardown(&s);
}

/* Frames left on B's ring go home when B is closed. */
static void test_close_drains(void)
{
	struct setup s;

	if (setup(&s, 50, 60, -1, XDP_DROP, true))
		goto out;
	run(&s, false);
	CHECK_EQ(hr_pool_outstanding(s.gen->pool), 50);
	hr_dev_close(s.b);
	CHECK_EQ(hr_pool_outstanding(s.gen->pool), 0);
out:
	teardown(&s);
}

/* --- the ring ---------------------------------------------------------- */

#define RING_ITEMS 200000

struct producer {
	struct hr_ring *r;
	uintptr_t tag;
};

static void *produce(void *arg)
{
	struct producer *p = arg;
	uintptr_t i = 0;
	void *batch[8];
	unsigned int n, k;

	while (i < RING_ITEMS) {
		n = RING_ITEMS - i < 8 ? (unsigned int)(RING_ITEMS - i) : 8;
		for (k = 0; k < n; k++)
			batch[k] = (void *)((p->tag << 32) | (i + k + 1));
		k = hr_ring_produce_bulk(p->r, batch, n);
		i += k;
	}
	return NULL;
}

static void test_ring(void)
{
	struct producer p[2];
	pthread_t t[2];
	struct hr_ring *r;
	uint64_t next[2] = { 1, 1 }, got = 0;
	void *v[16];
	unsigned int i, n;
	bool order = true;

	/* An exact limit on a power-of-two array. */
	CHECK_EQ(hr_ring_create(0, &r), -EINVAL);
	CHECK_EQ(hr_ring_create(5, &r), 0);
	for (i = 0; i < 5; i++)
		CHECK_EQ(hr_ring_produce(r, (void *)(uintptr_t)(i + 1)), 0);
	CHECK_EQ(hr_ring_produce(r, (void *)9), -ENOSPC);
	CHECK_EQ(hr_ring_count(r), 5);
	CHECK(hr_ring_consume(r) == (void *)1, "first out");
	CHECK_EQ(hr_ring_produce_bulk(r, v, 3), 1);
	CHECK_EQ(hr_ring_consume_bulk(r, v, 16), 5);
	CHECK(v[0] == (void *)2 && v[3] == (void *)5, "order");
	CHECK(hr_ring_empty(r), "empty");
	hr_ring_destroy(r);

	/* Two producers, one consumer: everything once, each in order. */
	CHECK_EQ(hr_ring_create(256, &r), 0);
	for (i = 0; i < 2; i++) {
		p[i].r = r;
		p[i].tag = i;
		pthread_create(&t[i], NULL, produce, &p[i]);
	}
	while (got < 2 * RING_ITEMS) {
		n = hr_ring_consume_bulk(r, v, 16);
		for (i = 0; i < n; i++) {
			uintptr_t x = (uintptr_t)v[i];
			unsigned int tag = (unsigned int)(x >> 32);

			if (tag > 1 || (x & 0xffffffffu) != next[tag])
				order = false;
			else
				next[tag]++;
		}
		got += n;
	}
	for (i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	CHECK(order, "per-producer order");
	CHECK_EQ(next[0], RING_ITEMS + 1);
	CHECK_EQ(next[1], RING_ITEMS + 1);
	CHECK(hr_ring_empty(r), "drained");
	hr_ring_destroy(r);
}

int main(void)
{
	test_ring();
	test_drop(false);
	test_tx(false);
	test_tx_enxio();
	test_pass(false);
	test_mtu();
	test_enxio();
	test_ring_full();
	test_close_drains();
	test_drop(true);
	test_tx(true);
	test_pass(true);
	return t_done();
}
