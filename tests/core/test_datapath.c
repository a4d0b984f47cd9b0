// SPDX-License-Identifier: MIT
/*
 * The datapath core: every XDP verdict with exact counters, bpf_redirect
 * to a second device, metadata handed to a tc program, tc verdicts, and
 * program replacement under traffic on two worker threads. Every case
 * ends with zero frames out and every packet accounted for once.
 *
 * The devices are fakes defined here: "rx" replays an array of packets
 * into frames of its pool; "tx" takes what xdp_xmit gives it (all, or a
 * limited number per call) and frees it; a stack device records the skbs
 * delivered to it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <linux/bpf.h>

#include <headroom/datapath.h>
#include <headroom/object.h>

#include "harness.h"
#include "core/datapath.h"
#include "core/pool.h"
#include "progs/prog.h"

#define NPKT 200
#define NQ 2

struct fake {
	struct hr_dev dev;
	/* RX */
	unsigned int npkt;
	uint32_t len[NPKT];
	_Atomic unsigned int next[NQ];
	_Atomic unsigned int rounds; /* replay this many times */
	/* TX */
	_Atomic uint64_t xmit_frames;
	int accept_max; /* per call; < 0: all */
	/* Stack */
	_Atomic uint64_t skbs;
	_Atomic uint64_t bad_mark;
	_Atomic uint64_t bad_meta;
	_Atomic uint64_t bad_hash;
	bool expect_mark;
};

static int fake_rx_hash(const struct hr_xdp_buff *xdp, uint32_t *hash,
			uint32_t *type)
{
	*hash = 0xabcd0000u | (uint32_t)((uint8_t *)xdp->data)[59];
	*type = 0x19; /* XDP_RSS_TYPE_L4_IPV4_TCP */
	return 0;
}

static const struct hr_xdp_metadata_ops fake_meta_ops = {
	.rx_hash = fake_rx_hash,
};

static bool fake_done(struct hr_dev *dev)
{
	struct fake *f = (struct fake *)dev;
	unsigned int q, total = f->npkt * atomic_load(&f->rounds) / NQ;

	for (q = 0; q < dev->nrxq; q++)
		if (atomic_load(&f->next[q]) < total)
			return false;
	return true;
}

static int fake_poll(struct hr_dev *dev, struct hr_napi *napi, int budget)
{
	struct fake *f = (struct fake *)dev;
	/* Queue q replays packets q, q + NQ, ... */
	unsigned int total = f->npkt * atomic_load(&f->rounds) / NQ;
	int got = 0;

	while (got < budget) {
		unsigned int i = atomic_load(&f->next[napi->queue]);
		struct hr_xdp_buff xdp;
		uint8_t *frame;
		uint32_t len;

		if (i >= total)
			break;
		frame = hr_pool_get(dev->pool);
		if (!frame)
			break; /* try again next poll */
		atomic_store(&f->next[napi->queue], i + 1);
		len = f->len[(i * NQ + napi->queue) % f->npkt];
		hr_xdp_init_buff(&xdp, HR_FRAME_SIZE, &dev->rxq[napi->queue]);
		hr_xdp_prepare_buff(&xdp, frame, HR_XDP_PACKET_HEADROOM, len,
				    dev->meta_supported);
		memset(xdp.data, 0, len);
		/* IPv4 EtherType, dst 02:00:00:00:00:01; byte 59 varies. */
		((uint8_t *)xdp.data)[0] = 2;
		((uint8_t *)xdp.data)[5] = 1;
		((uint8_t *)xdp.data)[12] = 0x08;
		((uint8_t *)xdp.data)[59] = (uint8_t)i;
		xdp.hints = NULL;
		hr_xdp_rx(napi, &xdp);
		got++;
	}
	return got;
}

static int fake_xmit(struct hr_dev *dev, struct hr_worker *w,
		     struct hr_xdp_frame **frames, int n, uint32_t flags)
{
	struct fake *f = (struct fake *)dev;
	int take = f->accept_max < 0 || f->accept_max > n ? n : f->accept_max,
	    i;

	if (flags & ~1u)
		return -EINVAL;
	for (i = 0; i < take; i++)
		hr_xdp_return_frame(frames[i]);
	atomic_fetch_add(&f->xmit_frames, (uint64_t)take);
	return take;
}

static void fake_deliver(struct hr_dev *dev, struct hr_worker *w,
			 struct hr_skb *skb)
{
	struct fake *f = (struct fake *)dev;
	uint32_t *meta = (uint32_t *)(skb->data - skb->meta_len);

	atomic_fetch_add(&f->skbs, 1);
	if (f->expect_mark) {
		if (skb->mark != (skb->len | 0x10000))
			atomic_fetch_add(&f->bad_mark, 1);
		if (skb->meta_len != 8 || meta[0] != 0xfeedf00du ||
		    meta[1] != skb->len)
			atomic_fetch_add(&f->bad_meta, 1);
		if (skb->priority != skb->queue_mapping ||
		    skb->queue_mapping < 1)
			atomic_fetch_add(&f->bad_mark, 1);
	}
	if (skb->hash != (0xabcd0000u | skb->data[59]) || !skb->l4_hash ||
	    skb->protocol != 0x0008 || skb->ifindex != 2)
		atomic_fetch_add(&f->bad_hash, 1);
	hr_skb_free(skb);
}

static const struct hr_dev_ops fake_ops = {
	.kind = "fake",
	.poll = fake_poll,
	.xdp_xmit = fake_xmit,
	.rx_done = fake_done,
};

struct setup {
	struct hr_datapath *dp;
	struct fake *rx, *tx, *stack;
	struct hr_object *obj, *tcobj;
};

static struct fake *fake_new(const char *name, unsigned int nrxq)
{
	struct fake *f = calloc(1, sizeof(*f));

	f->dev.meta_supported = true;
	f->dev.meta_ops = &fake_meta_ops;
	hr_dev_init(&f->dev, name, &fake_ops, nrxq);
	f->dev.dev_addr[0] = 2;
	f->dev.dev_addr[5] = 1;
	f->accept_max = -1;
	f->dev.deliver = fake_deliver;
	hr_pool_create(512, &f->dev.pool);
	atomic_store(&f->rounds, 1);
	return f;
}

static struct hr_object *open_obj(const char *name, unsigned int ncpus)
{
	HR_OPTS(hr_object_open_opts, o, .ncpus = ncpus);
	struct hr_object *obj = NULL;
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", t_progs_dir(), name);
	CHECK(!hr_object_open(path, &o, &obj), "open %s", path);
	return obj;
}

static void setup(struct setup *s, unsigned int nworkers, unsigned int npkt)
{
	HR_OPTS(hr_datapath_opts, o, .nworkers = nworkers);
	unsigned int i, q;

	memset(s, 0, sizeof(*s));
	CHECK_EQ(hr_dp_create(&o, &s->dp), 0);
	s->rx = fake_new("rx", NQ);
	s->tx = fake_new("tx", 1);
	s->stack = fake_new("stack", 1);
	s->rx->npkt = npkt;
	for (i = 0; i < npkt; i++)
		s->rx->len[i] = 60 + i % 41;
	CHECK_EQ(hr_dp_register_dev(s->dp, &s->rx->dev), 0);
	CHECK_EQ(hr_dp_register_dev(s->dp, &s->tx->dev), 0);
	CHECK_EQ(hr_dp_register_dev(s->dp, &s->stack->dev), 0);
	CHECK_EQ(s->rx->dev.ifindex, 2);
	CHECK_EQ(s->tx->dev.ifindex, 3);
	CHECK(hr_dev_get_by_index(s->dp, 3) == &s->tx->dev, "by index");
	CHECK(hr_dp_default() == s->dp, "default datapath");
	for (q = 0; q < NQ; q++)
		CHECK_EQ(hr_dp_assign_queue(s->dp, &s->rx->dev, q,
					    q % nworkers),
			 0);
	CHECK_EQ(hr_dev_open(&s->rx->dev), 0);
	CHECK_EQ(hr_dev_open(&s->tx->dev), 0);
	CHECK_EQ(hr_dev_open(&s->stack->dev), 0);
	hr_dev_set_stack(&s->rx->dev, &s->stack->dev);
	s->obj = open_obj("dp_verdicts.o", nworkers);
	s->tcobj = open_obj("dp_tc_meta.o", nworkers);
}

static void counters(struct fake *f, struct hr_dev_counters *c)
{
	memset(c, 0, sizeof(*c));
	c->sz = sizeof(*c);
	CHECK_EQ(hr_dev_get_counters(&f->dev, c), 0);
}

/* received = dropped + transmitted + delivered + counted errors, over
 * the three devices, and no frame out. */
static void check_accounting(struct setup *s)
{
	struct hr_dev_counters r, t, k;
	uint64_t out;

	counters(s->rx, &r);
	counters(s->tx, &t);
	counters(s->stack, &k);
	out = r.xdp_drop + r.xdp_aborted + r.tx_packets + t.tx_packets +
	      r.drops_total + t.drops_total + r.delivered + r.tc_stolen +
	      r.tc_redirect;
	CHECK_EQ(r.rx_packets, (uint64_t)s->rx->npkt * s->rx->rounds);
	CHECK(r.rx_packets == out, "rx %llu != accounted %llu",
	      (unsigned long long)r.rx_packets, (unsigned long long)out);
	CHECK_EQ(r.delivered, atomic_load(&s->stack->skbs));
	CHECK_EQ(r.tx_packets, atomic_load(&s->rx->xmit_frames));
	CHECK_EQ(t.tx_packets, atomic_load(&s->tx->xmit_frames));
	CHECK_EQ(hr_pool_outstanding(s->rx->dev.pool), 0);
	CHECK_EQ(hr_pool_bad_puts(s->rx->dev.pool), 0);
}

static void teardown(struct setup *s)
{
	struct hr_pool *p[3] = { s->rx->dev.pool, s->tx->dev.pool,
				 s->stack->dev.pool };
	unsigned int i;

	hr_dev_attach_xdp(&s->rx->dev, NULL);
	hr_dev_attach_tc(&s->rx->dev, NULL);
	hr_dp_destroy(s->dp);
	CHECK(hr_dp_default() == NULL, "default cleared");
	hr_object_close(s->obj);
	hr_object_close(s->tcobj);
	free(s->rx);
	free(s->tx);
	free(s->stack);
	for (i = 0; i < 3; i++)
		hr_pool_destroy(p[i]);
}

/* One XDP program over the packets on one worker polled here. */
static void run_verdict(const char *prog, const char *tc, int accept_max,
			void (*check)(struct setup *s))
{
	struct setup s;

	setup(&s, 1, NPKT);
	if (!s.obj || !s.tcobj) {
		teardown(&s);
		return;
	}
	s.tx->accept_max = accept_max;
	s.rx->accept_max = accept_max;
	if (prog)
		CHECK(hr_dev_attach_xdp(&s.rx->dev,
					hr_object_find_prog(s.obj, prog)) ==
			      NULL,
		      "attach %s", prog);
	if (tc) {
		hr_dev_attach_tc(&s.rx->dev, hr_object_find_prog(s.tcobj, tc));
		s.stack->expect_mark = !strcmp(tc, "dp_tc_mark");
	}
	CHECK_EQ(hr_dp_run_until_idle(s.dp, 10000), 0);
	check(&s);
	check_accounting(&s);
	teardown(&s);
}

/* The report: XDP-RX lines and a JSON line with the packet count. */
static void chk_stats(struct setup *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	hr_dp_print_stats(s->dp, f, false, 1.0);
	fflush(f);
	CHECK(strstr(buf, "XDP-RX          0       200") != NULL, "%s", buf);
	CHECK(strstr(buf, "xdp_exception") != NULL, "%s", buf);
	fclose(f);
	free(buf);
	f = open_memstream(&buf, &len);
	hr_dp_print_stats(s->dp, f, true, 1.0);
	fclose(f);
	/* Second report: rates over nothing new, totals kept. */
	CHECK(strstr(buf, "\"pps\":0,\"drop_pps\":0") != NULL, "%s", buf);
	CHECK(strstr(buf, "\"packets\":200") != NULL, "%s", buf);
	free(buf);
}

static void chk_drop(struct setup *s)
{
	struct hr_dev_counters c;

	chk_stats(s);

	counters(s->rx, &c);
	CHECK_EQ(c.xdp_drop, NPKT);
	CHECK_EQ(c.xdp_exception, 0);
	CHECK_EQ(c.delivered, 0);
}

static void chk_aborted(struct setup *s)
{
	struct hr_dev_counters c;

	counters(s->rx, &c);
	CHECK_EQ(c.xdp_aborted, NPKT);
	CHECK_EQ(c.xdp_exception, NPKT);
}

static void chk_pass(struct setup *s)
{
	struct hr_dev_counters c;

	counters(s->rx, &c);
	CHECK_EQ(c.xdp_pass, NPKT);
	CHECK_EQ(c.delivered, NPKT);
	CHECK_EQ(atomic_load(&s->stack->bad_hash), 0);
}

static void chk_noprog(struct setup *s)
{
	struct hr_dev_counters c;

	counters(s->rx, &c);
	CHECK_EQ(c.xdp_pass, 0);
	CHECK_EQ(c.delivered, NPKT);
}

static void chk_tx(struct setup *s)
{
	struct hr_dev_counters c;

	counters(s->rx, &c);
	CHECK_EQ(c.xdp_tx, NPKT);
	CHECK_EQ(c.tx_packets, NPKT);
	CHECK_EQ(atomic_load(&s->rx->xmit_frames), NPKT);
}

/* xdp_xmit takes 10 a call: bulks of 16 lose 6 each; the last bulks of
 * each queue (100 = 6 * 16 + 4) lose none. */
static void chk_tx_partial(struct setup *s)
{
	struct hr_dev_counters c;

	counters(s->rx, &c);
	CHECK_EQ(c.xdp_tx, NPKT);
	CHECK_EQ(c.drops[HR_DROP_TX_ERROR], 2 * 6 * 6);
	CHECK_EQ(c.tx_packets, NPKT - 2 * 6 * 6);
}

static void chk_redirect(struct setup *s)
{
	struct hr_dev_counters r, t;

	counters(s->rx, &r);
	counters(s->tx, &t);
	CHECK_EQ(r.xdp_redirect, NPKT);
	CHECK_EQ(r.drops_total, 0);
	CHECK_EQ(t.tx_packets, NPKT);
	CHECK_EQ(atomic_load(&s->tx->xmit_frames), NPKT);
}

static void chk_redirect_partial(struct setup *s)
{
	struct hr_dev_counters t;

	counters(s->tx, &t);
	CHECK_EQ(t.drops[HR_DROP_XMIT_ERROR], 2 * 6 * 6);
	CHECK_EQ(t.tx_packets, NPKT - 2 * 6 * 6);
}

static void chk_redirect_missing(struct setup *s)
{
	struct hr_dev_counters r;

	counters(s->rx, &r);
	CHECK_EQ(r.xdp_redirect, NPKT);
	CHECK_EQ(r.drops[HR_DROP_REDIRECT_ERROR], NPKT);
	CHECK_EQ(r.redirect_err[EINVAL], NPKT);
}

static void chk_redirect_none(struct setup *s)
{
	struct hr_dev_counters r;

	counters(s->rx, &r);
	CHECK_EQ(r.redirect_err[EBADRQC], NPKT);
	CHECK_EQ(r.redirect_err_total, NPKT);
}

static void chk_badflags(struct setup *s)
{
	struct hr_dev_counters r;

	counters(s->rx, &r);
	CHECK_EQ(r.xdp_aborted, NPKT);
}

static void chk_meta(struct setup *s)
{
	struct hr_dev_counters c;

	counters(s->rx, &c);
	CHECK_EQ(c.xdp_pass, NPKT);
	CHECK_EQ(c.delivered, NPKT);
	CHECK_EQ(atomic_load(&s->stack->skbs), NPKT);
	CHECK_EQ(atomic_load(&s->stack->bad_mark), 0);
	CHECK_EQ(atomic_load(&s->stack->bad_meta), 0);
	CHECK_EQ(atomic_load(&s->stack->bad_hash), 0);
}

/* Lengths 60 .. 100: 20 of every 41 are odd. */
static void chk_shot(struct setup *s)
{
	struct hr_dev_counters c;
	unsigned int i, odd = 0;

	for (i = 0; i < NPKT; i++)
		odd += s->rx->len[i] & 1;
	counters(s->rx, &c);
	CHECK_EQ(c.drops[HR_DROP_TC_SHOT], odd);
	CHECK_EQ(c.delivered, NPKT - odd);
}

static void chk_stolen(struct setup *s)
{
	struct hr_dev_counters c;

	counters(s->rx, &c);
	CHECK_EQ(c.tc_stolen, NPKT);
	CHECK_EQ(c.delivered, 0);
}

/* A copy of a program that can be freed, so that a run of a freed
 * program shows under ASan and TSan. */
static struct hr_prog *prog_clone(const struct hr_prog *p)
{
	struct hr_prog *c = malloc(sizeof(*c));

	*c = *p;
	c->vm.prog = c;
	return c;
}

/* Two workers, the XDP program swapped between DROP and PASS clones
 * while they poll; every packet ran one of them. */
static void test_replace(void)
{
	struct hr_prog *a, *b, *old;
	struct hr_dev_counters c;
	struct setup s;
	unsigned int i;

	setup(&s, 2, NPKT);
	if (!s.obj) {
		teardown(&s);
		return;
	}
	a = hr_object_find_prog(s.obj, "dp_drop");
	b = hr_object_find_prog(s.obj, "dp_pass");
	atomic_store(&s.rx->rounds, 50);
	hr_dev_attach_xdp(&s.rx->dev, prog_clone(a));
	CHECK_EQ(hr_dp_start(s.dp), 0);
	for (i = 0; i < 200; i++) {
		old = hr_dev_attach_xdp(&s.rx->dev, prog_clone(i & 1 ? a : b));
		CHECK(old != NULL, "old program returned");
		free(old);
	}
	CHECK_EQ(hr_dp_run_until_idle(s.dp, 20000), 0);
	hr_dp_stop(s.dp);
	free(hr_dev_attach_xdp(&s.rx->dev, NULL));
	counters(s.rx, &c);
	CHECK_EQ(c.xdp_drop + c.xdp_pass, (uint64_t)NPKT * 50);
	CHECK_EQ(c.delivered, c.xdp_pass);
	CHECK_EQ(c.xdp_aborted, 0);
	check_accounting(&s);
	teardown(&s);
}

/* Threads with TX and redirect: the flush path across workers. */
static void test_threads_redirect(void)
{
	struct hr_dev_counters r, t;
	struct setup s;

	setup(&s, 2, NPKT);
	if (!s.obj) {
		teardown(&s);
		return;
	}
	atomic_store(&s.rx->rounds, 20);
	hr_dev_attach_xdp(&s.rx->dev,
			  hr_object_find_prog(s.obj, "dp_redirect"));
	CHECK_EQ(hr_dp_start(s.dp), 0);
	CHECK_EQ(hr_dp_run_until_idle(s.dp, 20000), 0);
	hr_dp_stop(s.dp);
	counters(s.rx, &r);
	counters(s.tx, &t);
	CHECK_EQ(r.xdp_redirect, NPKT * 20);
	CHECK_EQ(t.tx_packets, NPKT * 20);
	check_accounting(&s);
	teardown(&s);
}

/* A redirect to a device that is down: -ENETDOWN by errno. */
static void test_redirect_down(void)
{
	struct hr_dev_counters r;
	struct setup s;

	setup(&s, 1, NPKT);
	if (!s.obj) {
		teardown(&s);
		return;
	}
	hr_dev_close(&s.tx->dev);
	hr_dev_attach_xdp(&s.rx->dev,
			  hr_object_find_prog(s.obj, "dp_redirect"));
	CHECK_EQ(hr_dp_run_until_idle(s.dp, 10000), 0);
	counters(s.rx, &r);
	CHECK_EQ(r.redirect_err[ENETDOWN], NPKT);
	check_accounting(&s);
	teardown(&s);
}

int main(void)
{
	run_verdict("dp_drop", NULL, -1, chk_drop);
	run_verdict("dp_aborted", NULL, -1, chk_aborted);
	run_verdict("dp_invalid", NULL, -1, chk_aborted);
	run_verdict("dp_pass", NULL, -1, chk_pass);
	run_verdict(NULL, NULL, -1, chk_noprog);
	run_verdict("dp_tx", NULL, -1, chk_tx);
	run_verdict("dp_tx", NULL, 10, chk_tx_partial);
	run_verdict("dp_redirect", NULL, -1, chk_redirect);
	run_verdict("dp_redirect", NULL, 10, chk_redirect_partial);
	run_verdict("dp_redirect_missing", NULL, -1, chk_redirect_missing);
	run_verdict("dp_redirect_none", NULL, -1, chk_redirect_none);
	run_verdict("dp_redirect_badflags", NULL, -1, chk_badflags);
	run_verdict("dp_meta", "dp_tc_mark", -1, chk_meta);
	run_verdict("dp_pass", "dp_tc_shot_odd", -1, chk_shot);
	run_verdict("dp_pass", "dp_tc_stolen", -1, chk_stolen);
	test_redirect_down();
	test_threads_redirect();
	test_replace();
	return t_done();
}
