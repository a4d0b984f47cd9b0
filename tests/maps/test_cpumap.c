// SPDX-License-Identifier: MIT
/*
 * CPUMAP: the kernel's creation and update rules, the per (source,
 * entry) bulk of 8 flushed into the entry's ring, a small ring that
 * overflows and counts, the remote side building skbs on worker[key],
 * entry teardown with frames in flight, and a threaded run replacing the
 * entry under traffic: every frame accounted for, none left out.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "redirect_maps_util.h"
#include "headroom/datapath.h"
#include "headroom/devices.h"
#include "headroom/map.h"
#include "core/datapath.h"
#include "headroom/cpumap.h"
#include "maps/redirect_impl.h"

struct cv {
	uint32_t qsize;
	uint32_t prog;
};

static void test_rules(void)
{
	struct cv v = { 64, 0 };
	uint32_t k = 0, next;
	struct hr_map *m;
	int err;

	m = rm_map(HR_MAP_CPUMAP, 4, 12, 4, 0, &err);
	CHECK_EQ(err, -EINVAL);
	m = rm_map(HR_MAP_CPUMAP, 4, 4, 4, HR_F_RDONLY, &err);
	CHECK_EQ(err, -EINVAL);
	m = rm_map(HR_MAP_CPUMAP, 4, 4, 0, 0, &err);
	CHECK_EQ(err, -EINVAL);
	m = rm_map(HR_MAP_CPUMAP, 4, 4, 257, 0, &err);
	CHECK_EQ(err, -E2BIG);
	m = rm_map(HR_MAP_CPUMAP, 4, 8, 4, HR_F_NUMA_NODE, &err);
	CHECK_EQ(err, 0);
	if (!m)
		return;
	CHECK_EQ(hr_map_update_elem(m, &k, &v, 3), -EINVAL);
	CHECK_EQ(hr_map_update_elem(m, &k, &v, HR_NOEXIST), -EEXIST);
	v.qsize = 16385;
	CHECK_EQ(hr_map_update_elem(m, &k, &v, 0), -EOVERFLOW);
	v.qsize = 16384;
	k = 4;
	CHECK_EQ(hr_map_update_elem(m, &k, &v, 0), -E2BIG);
	k = 3; /* a CPU beyond the host's two (no datapath yet) */
	CHECK_EQ(hr_map_update_elem(m, &k, &v, 0), -ENODEV);
	k = 1;
	v.prog = 4000; /* not a program: the kernel says -ENOMEM */
	CHECK_EQ(hr_map_update_elem(m, &k, &v, 0), -ENOMEM);
	v.prog = 0;
	CHECK_EQ(hr_map_update_elem(m, &k, &v, 0), 0);
	CHECK_EQ(hr_map_update_elem(m, &k, &v, HR_EXIST), 0);
	memset(&v, 0xff, sizeof(v));
	CHECK_EQ(hr_map_lookup_elem(m, &k, &v), 0);
	CHECK_EQ(v.qsize, 16384);
	CHECK_EQ(v.prog, 0);
	CHECK(!m->ops->lookup(m, &k, 0), "programs cannot look up");
	v.qsize = 0; /* same as delete */
	CHECK_EQ(hr_map_update_elem(m, &k, &v, 0), 0);
	CHECK_EQ(hr_map_lookup_elem(m, &k, &v), -ENOENT);
	CHECK_EQ(hr_map_delete_elem(m, &k), 0);
	k = 4;
	CHECK_EQ(hr_map_delete_elem(m, &k), -EINVAL);
	CHECK_EQ(hr_map_get_next_key(m, NULL, &next), 0);
	CHECK_EQ(next, 0);
	k = 3;
	CHECK_EQ(hr_map_get_next_key(m, &k, &next), -ENOENT);
	/* No flags but the action bits. */
	struct hr_redirect_info ri = { 0 };

	CHECK_EQ(m->ops->redirect(m, 0, HR_F_BROADCAST, &ri), HR_XDP_ABORTED);
	CHECK_EQ(m->ops->redirect(m, 0, HR_XDP_PASS, &ri), HR_XDP_PASS);
	hr_map_free(m);
}

struct env {
	struct hr_datapath *dp;
	struct hr_dev *rx; /* dev_rx: a sink, so delivered skbs count */
	struct hr_rxq_info rxq;
	struct hr_pool *pool;
};

static void env_init(struct env *e, unsigned int nworkers, uint32_t frames)
{
	HR_OPTS(hr_datapath_opts, o, .nworkers = nworkers);

	memset(e, 0, sizeof(*e));
	CHECK_EQ(hr_dp_create(&o, &e->dp), 0);
	CHECK_EQ(hr_dev_sink_create(e->dp, "rx", NULL, &e->rx), 0);
	CHECK_EQ(hr_dev_open(e->rx), 0);
	CHECK_EQ(hr_pool_create(frames, &e->pool), 0);
	e->rxq.dev = e->rx;
	e->rxq.ifindex = e->rx->ifindex;
	e->rxq.meta_supported = true;
}

static void env_fini(struct env *e)
{
	hr_dp_destroy(e->dp);
	hr_pool_destroy(e->pool);
}

static uint64_t delivered(struct hr_dev *d)
{
	HR_OPTS(hr_dev_counters, c);

	hr_dev_get_counters(d, &c);
	return c.delivered;
}

/* One packet from worker @w into @key; 0 or the enqueue error. */
static int send_one(struct env *e, struct hr_map *m, struct hr_worker *w,
		    uint32_t key, uint8_t seq)
{
	struct hr_xdp_buff xdp;
	int err;

	if (!rm_buff(e->pool, &e->rxq, &xdp, 64, 8, seq))
		return -ENOMEM;
	if (m->ops->redirect(m, key, 0, &w->ri) != HR_XDP_REDIRECT) {
		hr_xdp_return_buff(&xdp);
		return -ENOENT;
	}
	err = m->ops->xdp_enqueue(m, w, &w->ri, &xdp, e->rx);
	if (err)
		hr_xdp_return_buff(&xdp);
	return err;
}

static void test_bulk_and_remote(void)
{
	struct hr_cpumap_kthread_stats ks;
	struct hr_cpumap_enq_stats es;
	struct cv v = { 64, 0 };
	struct hr_worker *w0, *w1;
	struct hr_map *m;
	struct env e;
	uint32_t k = 1, i;
	int err;

	env_init(&e, 2, 256);
	w0 = e.dp->workers[0];
	w1 = e.dp->workers[1];
	m = rm_map(HR_MAP_CPUMAP, 4, 8, 4, 0, &err);
	CHECK_EQ(err, 0);
	k = 2; /* the datapath has two workers */
	CHECK_EQ(hr_map_update_elem(m, &k, &v, 0), -ENODEV);
	k = 1;
	CHECK_EQ(hr_map_update_elem(m, &k, &v, 0), 0);

	for (i = 0; i < 20; i++)
		CHECK_EQ(send_one(&e, m, w0, 1, (uint8_t)i), 0);
	/* Two full bulks went to the ring, 4 wait for the flush. */
	hr_cpumap_enqueue_stats(m, 0, 1, &es);
	CHECK_EQ(es.processed, 16);
	CHECK_EQ(es.bulks, 2);
	hr_xdp_do_flush(w0);
	hr_cpumap_enqueue_stats(m, 0, 1, &es);
	CHECK_EQ(es.processed, 20);
	CHECK_EQ(es.drops, 0);
	CHECK_EQ(es.bulks, 3);
	CHECK_EQ(delivered(e.rx), 0);
	/* The remote side runs on worker 1 only. */
	hr_worker_poll_once(w0);
	CHECK_EQ(delivered(e.rx), 0);
	hr_worker_poll_once(w1);
	CHECK_EQ(delivered(e.rx), 20);
	hr_cpumap_kthread_stats(m, 1, &ks);
	CHECK_EQ(ks.processed, 20);
	CHECK_EQ(ks.delivered, 20);
	CHECK_EQ(ks.drops, 0);
	CHECK_EQ(ks.sched, 1);
	CHECK_EQ(hr_pool_outstanding(e.pool), 0);

	/* A ring of 4: a bulk of 8 leaves 4 dropped and counted. */
	v.qsize = 4;
	CHECK_EQ(hr_map_update_elem(m, &k, &v, 0), 0);
	for (i = 0; i < 8; i++)
		CHECK_EQ(send_one(&e, m, w0, 1, (uint8_t)i), 0);
	hr_xdp_do_flush(w0);
	hr_cpumap_enqueue_stats(m, 0, 1, &es);
	CHECK_EQ(es.processed, 28);
	CHECK_EQ(es.drops, 4);
	CHECK_EQ(hr_pool_outstanding(e.pool), 4);
	/* Replaced with frames in its ring and no running worker: they are
	 * dropped and counted by the old entry's teardown. */
	v.qsize = 32;
	CHECK_EQ(hr_map_update_elem(m, &k, &v, 0), 0);
	hr_cpumap_kthread_stats(m, 1, &ks);
	CHECK_EQ(ks.processed, 24);
	CHECK_EQ(ks.drops, 4);
	CHECK_EQ(hr_pool_outstanding(e.pool), 0);
	/* A deleted entry is a miss: the action bits. */
	CHECK_EQ(hr_map_delete_elem(m, &k), 0);
	CHECK_EQ(m->ops->redirect(m, 1, HR_XDP_DROP, &w0->ri), HR_XDP_DROP);
	hr_map_free(m);
	env_fini(&e);
}

/* The producer: a NAPI on worker 0 sending @total frames into key 1. */
struct producer {
	struct hr_napi napi;
	struct env *e;
	struct hr_map *m;
	uint64_t total, sent, enq_ok, enq_err;
};

static int producer_poll(struct hr_napi *napi, int budget)
{
	struct producer *p = napi->priv;
	int n = 0;

	while (n < 32 && p->sent < p->total) {
		int err =
			send_one(p->e, p->m, napi->worker, 1, (uint8_t)p->sent);

		if (err == -ENOMEM)
			break; /* pool empty: retry next poll */
		p->sent++;
		if (err)
			p->enq_err++;
		else
			p->enq_ok++;
		n++;
	}
	return n;
}

/* The producer on worker 0, the entry replaced under traffic 20 times:
 * every frame is dropped at a full ring, delivered or dropped at
 * teardown, and counted once. */
static void test_threaded_accounting(void)
{
	struct hr_cpumap_kthread_stats ks;
	struct hr_cpumap_enq_stats es;
	struct producer p = { 0 };
	struct cv v = { 16, 0 };
	struct hr_map *m;
	uint32_t k = 1;
	struct env e;
	int err, i;

	env_init(&e, 2, 2048);
	m = rm_map(HR_MAP_CPUMAP, 4, 8, 2, 0, &err);
	CHECK_EQ(err, 0);
	CHECK_EQ(hr_map_update_elem(m, &k, &v, 0), 0);
	p.e = &e;
	p.m = m;
	p.total = 100000;
	p.napi.poll = producer_poll;
	p.napi.priv = &p;
	CHECK_EQ(hr_worker_add_napi(e.dp->workers[0], &p.napi), 0);
	CHECK_EQ(hr_dp_start(e.dp), 0);
	for (i = 0; i < 20; i++) {
		v.qsize = 16 + i * 8;
		CHECK_EQ(hr_map_update_elem(m, &k, &v, 0), 0);
		usleep(2000);
	}
	CHECK_EQ(hr_dp_run_until_idle(e.dp, 20000), 0);
	hr_dp_stop(e.dp);
	hr_worker_del_napi(e.dp->workers[0], &p.napi);
	/* Tear the last entry down so its ring is accounted too. */
	CHECK_EQ(hr_map_delete_elem(m, &k), 0);
	hr_cpumap_enqueue_stats(m, 0, 1, &es);
	hr_cpumap_kthread_stats(m, 1, &ks);
	CHECK_EQ(p.sent, p.total);
	CHECK_EQ(p.enq_err, 0);
	CHECK_EQ(es.processed, p.enq_ok);
	/* enqueued = ring-full drops + taken from rings */
	CHECK_EQ(es.processed, es.drops + ks.processed);
	/* taken = delivered + teardown drops (no program) */
	CHECK_EQ(ks.processed, ks.delivered + ks.drops);
	CHECK_EQ(delivered(e.rx), ks.delivered);
	CHECK(ks.delivered > 0, "something was delivered");
	CHECK_EQ(hr_pool_outstanding(e.pool), 0);
	fprintf(stderr,
		"cpumap: enq %llu (drops %llu, avg bulk %.1f), kthread %llu "
		"delivered %llu drops %llu sched %llu\n",
		(unsigned long long)es.processed, (unsigned long long)es.drops,
		es.bulks ? (double)es.processed / es.bulks : 0.0,
		(unsigned long long)ks.processed,
		(unsigned long long)ks.delivered, (unsigned long long)ks.drops,
		(unsigned long long)ks.sched);
	hr_map_free(m);
	env_fini(&e);
}

int main(void)
{
	CHECK(rm_linked(), "redirect map ops linked");
	test_rules();
	test_bulk_and_remote();
	test_threaded_accounting();
	return t_done();
}
