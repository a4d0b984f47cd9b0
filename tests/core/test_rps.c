// SPDX-License-Identifier: MIT
/*
 * RPS (core/rps.c, the kernel's get_rps_cpu and enqueue_to_backlog):
 * skbs built on the RX worker and steered by their flow hash to the
 * backlog of another worker, which delivers them.
 *
 * A fake device on worker 0 sends UDP flows (the source port names the
 * flow, the payload carries the packet's number within its flow) through
 * an XDP_PASS program; a fake stack records, per worker, what each flow
 * delivered. Checked: every flow is delivered on exactly the worker its
 * hash picks (so both workers get some), in order; delivered plus the
 * backlog's drops is every packet received; a full backlog drops exactly
 * what does not fit; nothing is left out of the frame pool, teardown with
 * skbs still queued included.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <headroom/datapath.h>
#include <headroom/object.h>

#include "harness.h"
#include "core/datapath.h"
#include "core/pool.h"

#define NFLOWS 64
#define NWORKERS 2
#define PKT_LEN 60
#define SEQ_OFF 42 /* after the Ethernet, IPv4 and UDP headers */

struct fake {
	struct hr_dev dev;
	/* RX */
	uint32_t npkt;
	_Atomic uint32_t next;
	/* Stack: row w written only by worker w. */
	uint64_t got[NWORKERS][NFLOWS];
	int64_t last[NWORKERS][NFLOWS];
	uint64_t out_of_order[NWORKERS];
};

/* Packet @i: flow i % NFLOWS, number i / NFLOWS within the flow. */
static void fill_pkt(uint8_t *p, uint32_t i)
{
	uint32_t flow = i % NFLOWS, seq = i / NFLOWS;
	uint16_t sport = (uint16_t)(1000 + flow);

	memset(p, 0, PKT_LEN);
	p[0] = 2; /* dst 02:00:00:00:00:01, the device's */
	p[5] = 1;
	p[12] = 0x08; /* IPv4 */
	p[14] = 0x45;
	p[23] = 17; /* UDP */
	p[26] = 10; /* 10.0.0.1 -> 10.0.0.2 */
	p[29] = 1;
	p[30] = 10;
	p[33] = 2;
	p[34] = (uint8_t)(sport >> 8);
	p[35] = (uint8_t)sport;
	p[37] = 9;
	memcpy(p + SEQ_OFF, &seq, sizeof(seq));
}

static bool fake_done(struct hr_dev *dev)
{
	struct fake *f = (struct fake *)dev;

	return atomic_load(&f->next) >= f->npkt;
}

static int fake_poll(struct hr_dev *dev, struct hr_napi *napi, int budget)
{
	struct fake *f = (struct fake *)dev;
	int got = 0;

	while (got < budget) {
		uint32_t i = atomic_load(&f->next);
		struct hr_xdp_buff xdp;
		uint8_t *frame;

		if (i >= f->npkt)
			break;
		frame = hr_pool_get(dev->pool);
		if (!frame)
			break; /* the backlogs hold them: next poll */
		atomic_store(&f->next, i + 1);
		hr_xdp_init_buff(&xdp, HR_FRAME_SIZE, &dev->rxq[napi->queue]);
		hr_xdp_prepare_buff(&xdp, frame, HR_XDP_PACKET_HEADROOM,
				    PKT_LEN, dev->meta_supported);
		fill_pkt(xdp.data, i);
		xdp.hints = NULL;
		hr_xdp_rx(napi, &xdp);
		got++;
	}
	return got;
}

static void fake_deliver(struct hr_dev *dev, struct hr_worker *w,
			 struct hr_skb *skb)
{
	struct fake *f = (struct fake *)dev;
	uint32_t flow = (uint32_t)(skb->data[34] << 8 | skb->data[35]) - 1000,
		 seq;

	memcpy(&seq, skb->data + SEQ_OFF, sizeof(seq));
	if (w->id < NWORKERS && flow < NFLOWS) {
		/* Drops may leave gaps; never a step back. */
		if ((int64_t)seq <= f->last[w->id][flow])
			f->out_of_order[w->id]++;
		f->last[w->id][flow] = seq;
		f->got[w->id][flow]++;
	}
	hr_skb_free(skb);
}

static const struct hr_dev_ops fake_ops = {
	.kind = "fake",
	.poll = fake_poll,
	.rx_done = fake_done,
};

struct setup {
	struct hr_datapath *dp;
	struct fake *rx, *stack;
	struct hr_object *obj;
};

static struct fake *fake_new(const char *name)
{
	struct fake *f = calloc(1, sizeof(*f));
	unsigned int w, i;

	hr_dev_init(&f->dev, name, &fake_ops, 1);
	f->dev.dev_addr[0] = 2;
	f->dev.dev_addr[5] = 1;
	f->dev.deliver = fake_deliver;
	CHECK_EQ(hr_pool_create(2048, &f->dev.pool), 0);
	for (w = 0; w < NWORKERS; w++)
		for (i = 0; i < NFLOWS; i++)
			f->last[w][i] = -1;
	return f;
}

static void setup(struct setup *s, uint32_t npkt, unsigned int max_backlog,
		  uint32_t rps)
{
	HR_OPTS(hr_datapath_opts, o, .nworkers = NWORKERS,
		.max_backlog = max_backlog);
	HR_OPTS(hr_object_open_opts, oo, .ncpus = NWORKERS);
	char path[512];

	memset(s, 0, sizeof(*s));
	CHECK_EQ(hr_dp_create(&o, &s->dp), 0);
	s->rx = fake_new("rx");
	s->stack = fake_new("stack");
	s->rx->npkt = npkt;
	CHECK_EQ(hr_dp_register_dev(s->dp, &s->rx->dev), 0);
	CHECK_EQ(hr_dp_register_dev(s->dp, &s->stack->dev), 0);
	CHECK_EQ(hr_dp_assign_queue(s->dp, &s->rx->dev, 0, 0), 0);
	CHECK_EQ(hr_dev_open(&s->rx->dev), 0);
	CHECK_EQ(hr_dev_open(&s->stack->dev), 0);
	hr_dev_set_stack(&s->rx->dev, &s->stack->dev);
	CHECK_EQ(hr_dev_set_rps(&s->rx->dev, 0, rps), 0);
	snprintf(path, sizeof(path), "%s/dp_verdicts.o", t_progs_dir());
	CHECK(!hr_object_open(path, &oo, &s->obj), "open %s", path);
	if (s->obj)
		hr_dev_attach_xdp(&s->rx->dev,
				  hr_object_find_prog(s->obj, "dp_pass"));
}

static void teardown(struct setup *s)
{
	struct hr_pool *p[2] = { s->rx->dev.pool, s->stack->dev.pool };
	unsigned int i;

	hr_dev_attach_xdp(&s->rx->dev, NULL);
	hr_dp_destroy(s->dp);
	/* Queued skbs were freed with the backlogs. */
	CHECK_EQ(hr_pool_outstanding(p[0]), 0);
	CHECK_EQ(hr_pool_bad_puts(p[0]), 0);
	hr_object_close(s->obj);
	free(s->rx);
	free(s->stack);
	for (i = 0; i < 2; i++)
		hr_pool_destroy(p[i]);
}

static struct hr_dev_counters counters(struct fake *f)
{
	struct hr_dev_counters c;

	memset(&c, 0, sizeof(c));
	c.sz = sizeof(c);
	CHECK_EQ(hr_dev_get_counters(&f->dev, &c), 0);
	return c;
}

static uint64_t backlog_drops(struct hr_dev_counters *c)
{
	unsigned int i;

	for (i = 0; hr_dev_drop_name(i); i++)
		if (!strcmp(hr_dev_drop_name(i), "cpu_backlog"))
			return c->drops[i];
	CHECK(0, "no drop reason cpu_backlog");
	return 0;
}

static struct hr_backlog_stats backlog(struct setup *s, unsigned int w)
{
	struct hr_backlog_stats b;

	memset(&b, 0, sizeof(b));
	b.sz = sizeof(b);
	CHECK_EQ(hr_dp_get_backlog_stats(s->dp, w, &b), 0);
	return b;
}

/* The worker get_rps_cpu picks for flow @flow among the bits of @rps
 * (none: the RX worker, 0). */
static unsigned int expected_worker(uint32_t flow, uint32_t rps)
{
	uint8_t p[PKT_LEN];
	unsigned int n = (unsigned int)__builtin_popcount(rps), k, w;
	uint32_t hash;
	bool l4;

	if (!rps)
		return 0;
	fill_pkt(p, flow);
	hash = hr_skb_flow_hash(p, p + PKT_LEN, &l4);
	CHECK(l4, "UDP flow hash without ports");
	k = (unsigned int)(((uint64_t)hash * n) >> 32);
	for (w = 0; w < NWORKERS; w++)
		if ((rps & (1u << w)) && !k--)
			return w;
	return NWORKERS;
}

/*
 * Every packet received is delivered or dropped by a full backlog, and
 * the backlogs' own counts agree; each flow went to one worker only,
 * the one its hash picks, in order.
 */
static void check_books(struct setup *s, uint32_t rps)
{
	struct hr_dev_counters r = counters(s->rx);
	uint64_t delivered = 0, enq = 0, dropped = 0, proc = 0;
	unsigned int w, flow, on[NWORKERS] = { 0 };

	CHECK_EQ(r.rx_packets, (uint64_t)s->rx->npkt);
	CHECK_EQ(r.xdp_pass, r.rx_packets);
	CHECK(r.delivered + backlog_drops(&r) == r.rx_packets,
	      "delivered %llu + backlog drops %llu != received %llu",
	      (unsigned long long)r.delivered,
	      (unsigned long long)backlog_drops(&r),
	      (unsigned long long)r.rx_packets);
	CHECK_EQ(r.drops_total, backlog_drops(&r));
	for (w = 0; w < NWORKERS; w++) {
		struct hr_backlog_stats b = backlog(s, w);

		enq += b.enqueued;
		dropped += b.dropped;
		proc += b.processed;
		CHECK_EQ(s->stack->out_of_order[w], 0);
	}
	CHECK_EQ(enq, proc);
	CHECK_EQ(dropped, backlog_drops(&r));
	for (flow = 0; flow < NFLOWS; flow++) {
		unsigned int want = expected_worker(flow, rps);

		for (w = 0; w < NWORKERS; w++) {
			delivered += s->stack->got[w][flow];
			if (!s->stack->got[w][flow])
				continue;
			on[w]++;
			CHECK(w == want,
			      "flow %u delivered on worker %u, not %u", flow, w,
			      want);
		}
	}
	CHECK_EQ(delivered, r.delivered);
	CHECK_EQ(proc, rps ? r.delivered : 0);
	for (w = 0; w < NWORKERS; w++)
		CHECK((on[w] > 0) == (rps ? !!(rps & (1u << w)) : !w),
		      "worker %u delivered %u flows (rps mask %#x)", w, on[w],
		      rps);
}

/* Both workers on threads, steering over both. */
static void test_threads(void)
{
	struct setup s;

	setup(&s, 40000, 0, 0x3);
	CHECK_EQ(hr_dp_start(s.dp), 0);
	CHECK_EQ(hr_dp_run_until_idle(s.dp, 20000), 0);
	hr_dp_stop(s.dp);
	check_books(&s, 0x3);
	teardown(&s);
}

/* RPS turned on while the workers run: what was delivered before went
 * on the RX worker, the rest through the backlogs; nothing lost, no
 * flow out of order (and ThreadSanitizer sees the backlogs published
 * to running workers). */
static void test_live_switch(void)
{
	struct setup s;
	struct hr_dev_counters c;
	unsigned int w;

	setup(&s, 40000, 0, 0);
	CHECK_EQ(hr_dp_start(s.dp), 0);
	CHECK_EQ(hr_dev_set_rps(&s.rx->dev, 0, 0x3), 0);
	CHECK_EQ(hr_dp_run_until_idle(s.dp, 20000), 0);
	hr_dp_stop(s.dp);
	c = counters(s.rx);
	CHECK_EQ(c.rx_packets, 40000);
	CHECK_EQ(c.delivered + backlog_drops(&c), 40000);
	for (w = 0; w < NWORKERS; w++)
		CHECK_EQ(s.stack->out_of_order[w], 0);
	CHECK_EQ(backlog(&s, 0).processed + backlog(&s, 1).processed,
		 backlog(&s, 0).enqueued + backlog(&s, 1).enqueued);
	teardown(&s);
}

/* Everything to worker 1, then to worker 0 only (its own backlog). */
static void test_one_target(uint32_t rps)
{
	struct setup s;

	setup(&s, 3000, 0, rps);
	CHECK_EQ(hr_dp_run_until_idle(s.dp, 20000), 0);
	check_books(&s, rps);
	CHECK_EQ(counters(s.rx).delivered, 3000);
	teardown(&s);
}

/*
 * A backlog of 4: one poll of worker 0 receives 64 packets for worker 1,
 * which takes 4 and drops 60; worker 1's poll then delivers those 4.
 */
static void test_full(void)
{
	struct setup s;
	struct hr_dev_counters c;

	setup(&s, 640, 4, 0x2);
	CHECK_EQ(hr_worker_poll_once(s.dp->workers[0]), 64);
	c = counters(s.rx);
	CHECK_EQ(c.rx_packets, 64);
	CHECK_EQ(c.delivered, 0);
	CHECK_EQ(backlog_drops(&c), 60);
	CHECK_EQ(backlog(&s, 1).enqueued, 4);
	CHECK_EQ(hr_worker_poll_once(s.dp->workers[1]), 4);
	CHECK_EQ(counters(s.rx).delivered, 4);
	CHECK_EQ(hr_dp_run_until_idle(s.dp, 20000), 0);
	check_books(&s, 0x2);
	CHECK(backlog_drops(&c) > 0, "no drops");
	teardown(&s);
}

/* Torn down with skbs queued on worker 1: freed, none lost. */
static void test_teardown_queued(void)
{
	struct setup s;

	setup(&s, 64, 0, 0x2);
	CHECK_EQ(hr_worker_poll_once(s.dp->workers[0]), 64);
	CHECK_EQ(backlog(&s, 1).enqueued, 64);
	CHECK_EQ(hr_pool_outstanding(s.rx->dev.pool), 64);
	teardown(&s);
}

/* RPS off (mask 0): delivered on the RX worker, no backlog used. */
static void test_off(void)
{
	struct setup s;

	setup(&s, 500, 0, 0x3);
	CHECK_EQ(hr_dev_set_rps(&s.rx->dev, 0, 0), 0);
	CHECK_EQ(hr_dp_run_until_idle(s.dp, 20000), 0);
	CHECK_EQ(counters(s.rx).delivered, 500);
	check_books(&s, 0);
	teardown(&s);
}

static void test_args(void)
{
	HR_OPTS(hr_datapath_opts, o, .nworkers = 2, .max_backlog = 65537);
	struct hr_backlog_stats b = { .sz = 0 };
	struct hr_datapath *dp;
	struct setup s;

	CHECK_EQ(hr_dp_create(&o, &dp), -EINVAL);
	setup(&s, 1, 0, 0);
	CHECK_EQ(hr_dev_set_rps(&s.rx->dev, 1, 0x1), -EINVAL);
	CHECK_EQ(hr_dev_set_rps(&s.rx->dev, 0, 0x4), -EINVAL);
	CHECK_EQ(hr_dev_set_rps(NULL, 0, 0x1), -EINVAL);
	CHECK_EQ(hr_dp_get_backlog_stats(s.dp, 0, &b), -EINVAL);
	b.sz = sizeof(b);
	CHECK_EQ(hr_dp_get_backlog_stats(s.dp, 2, &b), -EINVAL);
	CHECK_EQ(hr_dp_run_until_idle(s.dp, 20000), 0);
	teardown(&s);
}

int main(void)
{
	test_args();
	test_off();
	test_one_target(0x2);
	test_one_target(0x1);
	test_full();
	test_teardown_queued();
	test_threads();
	test_live_switch();
	return t_done();
}
