// SPDX-License-Identifier: MIT
/*
 * XSKMAP and the in-process AF_XDP sockets: the kernel's map rules, and
 * copy-mode receive: metadata and data copied into a fill-ring frame,
 * descriptors visible after the flush, and the kernel's errors (-ENXIO
 * unbound, -EINVAL wrong queue, -ENOSPC too long, -ENOMEM no fill entry,
 * -ENOBUFS RX ring full) counted in the socket's statistics. A consumer
 * thread then reads a stream produced on a worker thread.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "redirect_maps_util.h"
#include "headroom/datapath.h"
#include "headroom/devices.h"
#include "headroom/map.h"
#include "headroom/xsk.h"
#include "core/datapath.h"
#include "maps/redirect_impl.h"

static void test_rules(void)
{
	HR_OPTS(hr_xsk_opts, o, .ifindex = 2);
	struct hr_xsk *xs = NULL, *xs2 = NULL;
	uint32_t k = 0, next;
	int fd, fd2, err, bad = 999;
	struct hr_map *m;

	m = rm_map(HR_MAP_XSKMAP, 4, 8, 4, 0, &err);
	CHECK_EQ(err, -EINVAL);
	m = rm_map(HR_MAP_XSKMAP, 4, 4, 4, HR_F_RDONLY_PROG, &err);
	CHECK_EQ(err, -EINVAL);
	m = rm_map(HR_MAP_XSKMAP, 4, 4, 4, HR_F_NUMA_NODE, &err);
	CHECK_EQ(err, 0);
	CHECK_EQ(hr_xsk_create(&o, &xs), 0);
	CHECK_EQ(hr_xsk_create(&o, &xs2), 0);
	fd = hr_xsk_fd(xs);
	fd2 = hr_xsk_fd(xs2);
	CHECK(fd > 0 && fd2 > 0 && fd != fd2, "handles");
	CHECK_EQ(hr_map_update_elem(m, &k, &fd, 3), -EINVAL);
	k = 4;
	CHECK_EQ(hr_map_update_elem(m, &k, &fd, 0), -E2BIG);
	k = 0;
	CHECK_EQ(hr_map_update_elem(m, &k, &bad, 0), -EBADF);
	CHECK_EQ(hr_map_update_elem(m, &k, &fd, HR_EXIST), -ENOENT);
	CHECK_EQ(hr_map_update_elem(m, &k, &fd, HR_NOEXIST), 0);
	/* The same socket again is fine even with NOEXIST. */
	CHECK_EQ(hr_map_update_elem(m, &k, &fd, HR_NOEXIST), 0);
	CHECK_EQ(hr_map_update_elem(m, &k, &fd2, HR_NOEXIST), -EEXIST);
	CHECK_EQ(hr_map_update_elem(m, &k, &fd2, HR_EXIST), 0);
	/* User lookups are not supported; programs get a bpf_xdp_sock. */
	CHECK_EQ(hr_map_lookup_elem(m, &k, &next), -EOPNOTSUPP);
	CHECK(m->ops->lookup(m, &k, 0) != NULL, "prog lookup");
	k = 1;
	CHECK(m->ops->lookup(m, &k, 0) == NULL, "prog lookup miss");
	CHECK_EQ(hr_map_get_next_key(m, NULL, &next), 0);
	CHECK_EQ(next, 0);
	k = 3;
	CHECK_EQ(hr_map_get_next_key(m, &k, &next), -ENOENT);
	CHECK_EQ(hr_map_delete_elem(m, &k), 0);
	k = 4;
	CHECK_EQ(hr_map_delete_elem(m, &k), -EINVAL);
	/* Destroying a socket takes it out of the map. */
	k = 0;
	hr_xsk_destroy(xs2);
	CHECK(m->ops->lookup(m, &k, 0) == NULL, "gone with the socket");
	k = 2;
	CHECK_EQ(hr_map_update_elem(m, &k, &fd, 0), 0);
	hr_map_free(m); /* before the socket: it must forget the map */
	hr_xsk_destroy(xs);
}

struct env {
	struct hr_datapath *dp;
	struct hr_worker *w;
	struct hr_pool *pool;
	struct hr_rxq_info rxq;
	struct hr_map *m;
	struct hr_xsk *xs;
};

static int rx_one(struct env *e, uint32_t len, uint32_t meta, uint8_t seq)
{
	struct hr_xdp_buff xdp;
	int err;

	if (!rm_buff(e->pool, &e->rxq, &xdp, len, meta, seq))
		return -1000;
	if (e->m->ops->redirect(e->m, 0, 0, &e->w->ri) != HR_XDP_REDIRECT) {
		hr_xdp_return_buff(&xdp);
		return -1001;
	}
	err = e->m->ops->xdp_enqueue(e->m, e->w, &e->w->ri, &xdp, NULL);
	if (err)
		hr_xdp_return_buff(&xdp);
	return err;
}

static void test_receive(void)
{
	HR_OPTS(hr_datapath_opts, o, .nworkers = 1);
	HR_OPTS(hr_xsk_opts, xo, .frame_size = 2048, .frame_count = 16,
		.rx_size = 4, .fill_size = 8, .ifindex = 7, .queue_id = 1);
	struct hr_xdp_desc d[8];
	struct hr_xsk_stats st;
	struct env e = { 0 };
	uint64_t addrs[8];
	uint8_t *umem, *p;
	uint32_t k = 0, i;
	int fd, err;

	CHECK_EQ(hr_dp_create(&o, &e.dp), 0);
	e.w = e.dp->workers[0];
	CHECK_EQ(hr_pool_create(32, &e.pool), 0);
	e.rxq.ifindex = 7;
	e.rxq.queue_index = 1;
	e.rxq.meta_supported = true;
	e.m = rm_map(HR_MAP_XSKMAP, 4, 4, 2, 0, &err);
	CHECK_EQ(hr_xsk_create(&xo, &e.xs), 0);
	fd = hr_xsk_fd(e.xs);
	CHECK_EQ(hr_map_update_elem(e.m, &k, &fd, 0), 0);
	umem = hr_xsk_umem(e.xs);

	/* No fill entry yet. */
	CHECK_EQ(rx_one(&e, 60, 0, 1), -ENOMEM);
	for (i = 0; i < 8; i++)
		addrs[i] = (uint64_t)i * 2048 + (i == 1 ? 100 : 0);
	addrs[7] = 1 << 20; /* outside the umem: skipped */
	CHECK_EQ(hr_xsk_fill(e.xs, addrs, 8), 8);
	CHECK_EQ(hr_xsk_fill(e.xs, addrs, 1), 0); /* fill ring full */
	CHECK_EQ(rx_one(&e, 60, 8, 3), 0);
	/* Not visible before the flush. */
	CHECK_EQ(hr_xsk_rx(e.xs, d, 8), 0);
	hr_xdp_do_flush(e.w);
	CHECK_EQ(hr_xsk_rx(e.xs, d, 8), 1);
	CHECK_EQ(d[0].addr, 256);
	CHECK_EQ(d[0].len, 60);
	p = umem + d[0].addr;
	CHECK(p[0] == 3 && p[59] == 3 && p[-1] == 0xa3 && p[-8] == 0xa3,
	      "data and metadata copied");
	/* A fill address inside a frame is masked to the frame start. */
	CHECK_EQ(rx_one(&e, 1000, 0, 4), 0);
	/* Too long for 2048 - 256. */
	CHECK_EQ(rx_one(&e, 1793, 0, 5), -ENOSPC);
	CHECK_EQ(rx_one(&e, 1792, 0, 5), 0);
	CHECK_EQ(rx_one(&e, 64, 0, 6), 0);
	CHECK_EQ(rx_one(&e, 64, 0, 7), 0);
	/* RX ring of 4 is full now. */
	CHECK_EQ(rx_one(&e, 64, 0, 8), -ENOBUFS);
	hr_xdp_do_flush(e.w);
	CHECK_EQ(hr_xsk_rx(e.xs, d, 8), 4);
	CHECK_EQ(d[0].addr, 2048 + 256);
	CHECK_EQ(d[0].len, 1000);
	CHECK_EQ(d[1].len, 1792);
	/* The frame kept from the full ring is used next. */
	CHECK_EQ(rx_one(&e, 64, 0, 9), 0);
	CHECK_EQ(rx_one(&e, 64, 0, 9), 0);
	/* Fill entries 6 and 7 (invalid): empty again. */
	CHECK_EQ(rx_one(&e, 64, 0, 9), -ENOMEM);
	hr_xdp_do_flush(e.w);
	CHECK_EQ(hr_xsk_rx(e.xs, d, 8), 2);
	CHECK_EQ(d[0].addr, 5 * 2048 + 256);
	CHECK_EQ(d[1].addr, 6 * 2048 + 256);
	hr_xsk_get_stats(e.xs, &st);
	CHECK_EQ(st.rx_packets, 7);
	CHECK_EQ(st.rx_ring_full, 1);
	CHECK_EQ(st.rx_dropped, 3); /* 2 without fill, 1 too long */
	CHECK_EQ(st.rx_invalid_descs, 1);
	CHECK_EQ(st.rx_fill_ring_empty_descs, 2);
	/* Wrong queue, then an unbound socket. */
	e.rxq.queue_index = 0;
	CHECK_EQ(rx_one(&e, 64, 0, 1), -EINVAL);
	e.rxq.queue_index = 1;
	e.rxq.ifindex = 8;
	CHECK_EQ(rx_one(&e, 64, 0, 1), -EINVAL);
	CHECK_EQ(hr_pool_outstanding(e.pool), 0);
	hr_xsk_destroy(e.xs);
	{
		HR_OPTS(hr_xsk_opts, uo, .frame_size = 2048);

		CHECK_EQ(hr_xsk_create(&uo, &e.xs), 0);
	}
	fd = hr_xsk_fd(e.xs);
	CHECK_EQ(hr_map_update_elem(e.m, &k, &fd, 0), 0);
	CHECK_EQ(rx_one(&e, 64, 0, 1), -ENXIO);
	CHECK_EQ(hr_pool_outstanding(e.pool), 0);
	hr_map_free(e.m);
	hr_xsk_destroy(e.xs);
	hr_dp_destroy(e.dp);
	hr_pool_destroy(e.pool);
}

/* A worker produces, a user thread consumes and refills. */
struct stream {
	struct hr_napi napi;
	struct env *e;
	uint64_t total, sent, ok, err;
	_Atomic uint64_t got;
	_Atomic int bad;
	atomic_bool done; /* the worker stopped: read what is left */
};

static int stream_poll(struct hr_napi *napi, int budget)
{
	struct stream *s = napi->priv;
	int n = 0;

	while (n < 16 && s->sent < s->total) {
		int err = rx_one(s->e, 64, 4, (uint8_t)s->sent);

		if (err == -1000)
			break;
		s->sent++;
		n++;
		if (err)
			s->err++;
		else
			s->ok++;
	}
	return n;
}

static void *consumer(void *arg)
{
	struct stream *s = arg;
	struct hr_xdp_desc d[16];
	uint8_t *umem = hr_xsk_umem(s->e->xs);
	unsigned int i, n;

	for (;;) {
		bool last = atomic_load(&s->done);

		n = hr_xsk_rx(s->e->xs, d, 16);
		for (i = 0; i < n; i++) {
			uint64_t a = d[i].addr & ~(uint64_t)4095;

			if (d[i].len != 64 || umem[d[i].addr - 1] < 0xa0)
				atomic_store(&s->bad, 1);
			while (!hr_xsk_fill(s->e->xs, &a, 1))
				;
		}
		atomic_fetch_add(&s->got, n);
		if (!n && last)
			break;
	}
	return NULL;
}

static void test_stream(void)
{
	HR_OPTS(hr_datapath_opts, o, .nworkers = 1);
	HR_OPTS(hr_xsk_opts, xo, .frame_count = 64, .rx_size = 64,
		.fill_size = 64, .ifindex = 7);
	struct stream s = { 0 };
	struct hr_xsk_stats st;
	struct env e = { 0 };
	uint64_t a;
	uint32_t k = 0, i;
	pthread_t t;
	int fd, err;

	CHECK_EQ(hr_dp_create(&o, &e.dp), 0);
	e.w = e.dp->workers[0];
	CHECK_EQ(hr_pool_create(256, &e.pool), 0);
	e.rxq.ifindex = 7;
	e.rxq.meta_supported = true;
	e.m = rm_map(HR_MAP_XSKMAP, 4, 4, 1, 0, &err);
	CHECK_EQ(hr_xsk_create(&xo, &e.xs), 0);
	fd = hr_xsk_fd(e.xs);
	CHECK_EQ(hr_map_update_elem(e.m, &k, &fd, 0), 0);
	for (i = 0; i < 64; i++) {
		a = (uint64_t)i * 4096;
		hr_xsk_fill(e.xs, &a, 1);
	}
	s.e = &e;
	s.total = 200000;
	s.napi.poll = stream_poll;
	s.napi.priv = &s;
	CHECK_EQ(pthread_create(&t, NULL, consumer, &s), 0);
	CHECK_EQ(hr_worker_add_napi(e.w, &s.napi), 0);
	CHECK_EQ(hr_dp_start(e.dp), 0);
	CHECK_EQ(hr_dp_run_until_idle(e.dp, 30000), 0);
	hr_dp_stop(e.dp);
	atomic_store(&s.done, true);
	pthread_join(t, NULL);
	hr_worker_del_napi(e.w, &s.napi);
	hr_xsk_get_stats(e.xs, &st);
	CHECK_EQ(s.sent, s.total);
	CHECK_EQ(s.ok, st.rx_packets);
	CHECK_EQ(s.ok, atomic_load(&s.got));
	CHECK_EQ(s.err, st.rx_dropped + st.rx_ring_full);
	CHECK_EQ(atomic_load(&s.bad), 0);
	CHECK(s.ok > 0, "received");
	CHECK_EQ(hr_pool_outstanding(e.pool), 0);
	fprintf(stderr, "xsk: %llu received, %llu no fill, %llu ring full\n",
		(unsigned long long)st.rx_packets,
		(unsigned long long)st.rx_dropped,
		(unsigned long long)st.rx_ring_full);
	hr_map_free(e.m);
	hr_xsk_destroy(e.xs);
	hr_dp_destroy(e.dp);
	hr_pool_destroy(e.pool);
}

int main(void)
{
	CHECK(rm_linked(), "redirect map ops linked");
	test_rules();
	test_receive();
	test_stream();
	return t_done();
}
