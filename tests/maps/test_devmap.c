// SPDX-License-Identifier: MIT
/*
 * DEVMAP and DEVMAP_HASH: the kernel's creation and update rules,
 * lookups, get_next_key order, bpf_redirect_map's return values and
 * redirect info, and the enqueue paths (unicast, broadcast with and
 * without exclude-ingress) into sink devices, with frame accounting.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "redirect_maps_util.h"
#include "headroom/datapath.h"
#include "headroom/devices.h"
#include "headroom/map.h"
#include "core/datapath.h"
#include "maps/redirect_impl.h"

struct dv {
	uint32_t ifindex;
	uint32_t prog;
};

static void test_create(void)
{
	struct hr_map *m;
	int err;

	m = rm_map(HR_MAP_DEVMAP, 4, 4, 0, 0, &err);
	CHECK_EQ(err, -EINVAL);
	m = rm_map(HR_MAP_DEVMAP, 8, 4, 4, 0, &err);
	CHECK_EQ(err, -EINVAL);
	m = rm_map(HR_MAP_DEVMAP, 4, 6, 4, 0, &err);
	CHECK_EQ(err, -EINVAL);
	m = rm_map(HR_MAP_DEVMAP, 4, 12, 4, 0, &err);
	CHECK_EQ(err, -EINVAL);
	m = rm_map(HR_MAP_DEVMAP, 4, 4, 4, HR_F_RDONLY_PROG, &err);
	CHECK_EQ(err, -EINVAL);
	m = rm_map(HR_MAP_DEVMAP, 4, 4, 4, HR_F_NO_PREALLOC, &err);
	CHECK_EQ(err, -EINVAL);
	m = rm_map(HR_MAP_DEVMAP_HASH, 4, 8, 4, HR_F_NUMA_NODE, &err);
	CHECK_EQ(err, 0);
	/* BPF_F_RDONLY_PROG is forced on. */
	CHECK(m && (hr_map_flags(m) & HR_F_RDONLY_PROG), "rdonly_prog");
	hr_map_free(m);
	m = rm_map(HR_MAP_DEVMAP, 4, 4, 4, HR_F_RDONLY, &err);
	CHECK_EQ(err, 0);
	hr_map_free(m);
}

/*
 * Without a datapath only ifindex 1 exists: the lo of the namespace the
 * kernel's test runs use, which test runs stand in for.
 */
static void test_rules_nodev(void)
{
	struct hr_map *m;
	uint32_t k = 0, next;
	struct dv v = { 77, 0 };
	int err;

	m = rm_map(HR_MAP_DEVMAP, 4, 8, 4, 0, &err);
	CHECK_EQ(err, 0);
	CHECK_EQ(hr_map_update_elem(m, &k, &v, 0), -EINVAL);
	v.ifindex = 1;
	CHECK_EQ(hr_map_update_elem(m, &k, &v, 0), 0);
	CHECK_EQ(hr_map_delete_elem(m, &k), 0);
	v.ifindex = 77;
	CHECK_EQ(hr_map_update_elem(m, &k, &v, 3), -EINVAL);
	k = 4;
	CHECK_EQ(hr_map_update_elem(m, &k, &v, 0), -E2BIG);
	k = 0;
	CHECK_EQ(hr_map_update_elem(m, &k, &v, HR_NOEXIST), -EEXIST);
	/* ifindex 0: clears the slot; with a program it is refused. */
	v.ifindex = 0;
	CHECK_EQ(hr_map_update_elem(m, &k, &v, 0), 0);
	v.prog = 5;
	CHECK_EQ(hr_map_update_elem(m, &k, &v, 0), -EINVAL);
	CHECK_EQ(hr_map_lookup_elem(m, &k, &v), -ENOENT);
	CHECK_EQ(hr_map_delete_elem(m, &k), 0);
	k = 4;
	CHECK_EQ(hr_map_delete_elem(m, &k), -EINVAL);
	CHECK_EQ(hr_map_get_next_key(m, NULL, &next), 0);
	CHECK_EQ(next, 0);
	CHECK_EQ(hr_map_get_next_key(m, &k, &next), 0);
	CHECK_EQ(next, 0);
	k = 2;
	CHECK_EQ(hr_map_get_next_key(m, &k, &next), 0);
	CHECK_EQ(next, 3);
	k = 3;
	CHECK_EQ(hr_map_get_next_key(m, &k, &next), -ENOENT);
	hr_map_free(m);

	m = rm_map(HR_MAP_DEVMAP_HASH, 4, 4, 4, 0, &err);
	CHECK_EQ(err, 0);
	k = 7;
	v.ifindex = 0;
	CHECK_EQ(hr_map_update_elem(m, &k, &v, 0), -EINVAL);
	v.ifindex = 77;
	CHECK_EQ(hr_map_update_elem(m, &k, &v, 0), -EINVAL);
	CHECK_EQ(hr_map_delete_elem(m, &k), -ENOENT);
	v.ifindex = 1;
	CHECK_EQ(hr_map_update_elem(m, &k, &v, 0), 0);
	CHECK_EQ(hr_map_delete_elem(m, &k), 0);
	CHECK_EQ(hr_map_get_next_key(m, NULL, &next), -ENOENT);
	hr_map_free(m);
}

static struct hr_dev *sink(struct hr_datapath *dp, const char *name)
{
	struct hr_dev *d = NULL;

	CHECK_EQ(hr_dev_sink_create(dp, name, NULL, &d), 0);
	if (d)
		CHECK_EQ(hr_dev_open(d), 0);
	return d;
}

static uint64_t tx_of(struct hr_dev *d)
{
	HR_OPTS(hr_dev_counters, c);

	hr_dev_get_counters(d, &c);
	return c.tx_packets;
}

static void test_with_devices(void)
{
	HR_OPTS(hr_datapath_opts, o, .nworkers = 1);
	struct hr_redirect_info ri;
	struct hr_datapath *dp = NULL;
	struct hr_dev *a, *b, *c, fake;
	struct hr_rxq_info rxq = { 0 };
	struct hr_xdp_buff xdp;
	struct hr_pool *pool = NULL;
	struct hr_worker *w;
	struct hr_map *m, *h;
	uint32_t k, next, keys[3], i;
	struct dv v = { 0 };
	int err;

	CHECK_EQ(hr_dp_create(&o, &dp), 0);
	if (!dp)
		return;
	w = dp->workers[0];
	a = sink(dp, "a");
	b = sink(dp, "b");
	c = sink(dp, "c");
	CHECK_EQ(hr_pool_create(64, &pool), 0);
	/* A receiving device with the same ifindex as @a (for exclusion). */
	memset(&fake, 0, sizeof(fake));
	fake.ifindex = a->ifindex;
	fake.pool = pool;
	rxq.dev = &fake;
	rxq.ifindex = fake.ifindex;
	rxq.meta_supported = true;

	m = rm_map(HR_MAP_DEVMAP, 4, 8, 8, 0, &err);
	CHECK_EQ(err, 0);
	k = 1;
	v.ifindex = b->ifindex;
	CHECK_EQ(hr_map_update_elem(m, &k, &v, 0), 0);
	CHECK_EQ(hr_map_update_elem(m, &k, &v, HR_NOEXIST), -EEXIST);
	CHECK_EQ(hr_map_update_elem(m, &k, &v, HR_EXIST), 0);
	v.ifindex = 250; /* no such device */
	k = 2;
	CHECK_EQ(hr_map_update_elem(m, &k, &v, 0), -EINVAL);
	v.ifindex = b->ifindex;
	v.prog = 4000; /* no such program */
	CHECK_EQ(hr_map_update_elem(m, &k, &v, 0), -EINVAL);
	memset(&v, 0xff, sizeof(v));
	k = 1;
	CHECK_EQ(hr_map_lookup_elem(m, &k, &v), 0);
	CHECK_EQ(v.ifindex, b->ifindex);
	CHECK_EQ(v.prog, 0);
	/* Program view: a pointer to the value. */
	{
		struct dv *pv = m->ops->lookup(m, &k, 0);

		CHECK(pv && pv->ifindex == b->ifindex, "prog lookup");
		k = 3;
		CHECK(!m->ops->lookup(m, &k, 0), "prog lookup miss");
	}

	/* bpf_redirect_map return values and ri. */
	memset(&ri, 0, sizeof(ri));
	CHECK_EQ(m->ops->redirect(m, 1, 0, &ri), HR_XDP_REDIRECT);
	CHECK(ri.map == m && ri.tgt_index == 1 && ri.tgt_value &&
		      ri.map_type == HR_MAP_DEVMAP && ri.flags == 0,
	      "ri unicast");
	CHECK_EQ(m->ops->redirect(m, 5, HR_XDP_PASS, &ri), HR_XDP_PASS);
	CHECK(!ri.map && !ri.tgt_value && ri.map_type == 0, "ri miss");
	CHECK_EQ(m->ops->redirect(m, 5, HR_XDP_TX, &ri), HR_XDP_TX);
	CHECK_EQ(m->ops->redirect(m, 5, 0, &ri), HR_XDP_ABORTED);
	CHECK_EQ(m->ops->redirect(m, 1, 1ULL << 2, &ri), HR_XDP_ABORTED);
	CHECK_EQ(m->ops->redirect(m, 1, 1ULL << 5, &ri), HR_XDP_ABORTED);
	CHECK_EQ(m->ops->redirect(m, 1ULL << 32 | 1, 0, &ri), HR_XDP_REDIRECT);
	/* Broadcast: no lookup needed, the map in ri. */
	CHECK_EQ(m->ops->redirect(m, 7, HR_F_BROADCAST | HR_XDP_DROP, &ri),
		 HR_XDP_REDIRECT);
	CHECK(ri.map == m && (ri.flags & HR_F_BROADCAST), "ri broadcast");

	/* Unicast enqueue: 20 frames to b through the bulk of 16. */
	for (i = 0; i < 20; i++) {
		CHECK(rm_buff(pool, &rxq, &xdp, 60, 8, (uint8_t)i), "buff");
		m->ops->redirect(m, 1, 0, &w->ri);
		CHECK_EQ(m->ops->xdp_enqueue(m, w, &w->ri, &xdp, &fake), 0);
	}
	CHECK_EQ(tx_of(b), 16);
	hr_xdp_do_flush(w);
	CHECK_EQ(tx_of(b), 20);
	CHECK_EQ(hr_pool_outstanding(pool), 0);

	/* -EOVERFLOW: no room for the frame header before the metadata. */
	CHECK(rm_buff(pool, &rxq, &xdp, 60, 0, 1), "buff");
	xdp.data_meta = (uint8_t *)xdp.data_hard_start + 20;
	m->ops->redirect(m, 1, 0, &w->ri);
	CHECK_EQ(m->ops->xdp_enqueue(m, w, &w->ri, &xdp, &fake), -EOVERFLOW);
	hr_xdp_return_buff(&xdp);

	/* Broadcast to a, b, c: 3 copies; excluding a (ingress): 2. */
	k = 0;
	v.prog = 0;
	v.ifindex = a->ifindex;
	CHECK_EQ(hr_map_update_elem(m, &k, &v, 0), 0);
	k = 5;
	v.ifindex = c->ifindex;
	CHECK_EQ(hr_map_update_elem(m, &k, &v, 0), 0);
	CHECK(rm_buff(pool, &rxq, &xdp, 100, 4, 9), "buff");
	m->ops->redirect(m, 0, HR_F_BROADCAST, &w->ri);
	CHECK_EQ(m->ops->xdp_enqueue(m, w, &w->ri, &xdp, &fake), 0);
	CHECK(rm_buff(pool, &rxq, &xdp, 100, 4, 9), "buff");
	m->ops->redirect(m, 0, HR_F_BROADCAST | HR_F_EXCLUDE_INGRESS, &w->ri);
	CHECK_EQ(m->ops->xdp_enqueue(m, w, &w->ri, &xdp, &fake), 0);
	hr_xdp_do_flush(w);
	CHECK_EQ(tx_of(a), 1);
	CHECK_EQ(tx_of(b), 22);
	CHECK_EQ(tx_of(c), 2);
	CHECK_EQ(hr_pool_outstanding(pool), 0);
	/* Broadcast into an empty map consumes the frame. */
	h = rm_map(HR_MAP_DEVMAP_HASH, 4, 4, 4, 0, &err);
	CHECK_EQ(err, 0);
	CHECK(rm_buff(pool, &rxq, &xdp, 100, 0, 9), "buff");
	h->ops->redirect(h, 0, HR_F_BROADCAST, &w->ri);
	CHECK_EQ(h->ops->xdp_enqueue(h, w, &w->ri, &xdp, &fake), 0);
	CHECK_EQ(hr_pool_outstanding(pool), 0);

	/* DEVMAP_HASH: full at max_entries, replace, iteration order. */
	keys[0] = 100;
	keys[1] = 4; /* same bucket as 100 (4 buckets) */
	keys[2] = 1;
	for (i = 0; i < 3; i++) {
		v.ifindex = b->ifindex;
		CHECK_EQ(hr_map_update_elem(h, &keys[i], &v, HR_NOEXIST), 0);
	}
	k = 9;
	CHECK_EQ(hr_map_update_elem(h, &k, &v, 0), 0);
	k = 10;
	CHECK_EQ(hr_map_update_elem(h, &k, &v, 0), -E2BIG);
	CHECK_EQ(hr_map_update_elem(h, &keys[0], &v, HR_NOEXIST), -EEXIST);
	CHECK_EQ(hr_map_update_elem(h, &keys[0], &v, HR_EXIST), 0);
	/* Buckets 0: 100 (re-added at the head), 4; 1: 9, 1. */
	CHECK_EQ(hr_map_get_next_key(h, NULL, &next), 0);
	CHECK_EQ(next, 100);
	CHECK_EQ(hr_map_get_next_key(h, &next, &next), 0);
	CHECK_EQ(next, 4);
	CHECK_EQ(hr_map_get_next_key(h, &next, &next), 0);
	CHECK_EQ(next, 9);
	CHECK_EQ(hr_map_get_next_key(h, &next, &next), 0);
	CHECK_EQ(next, 1);
	CHECK_EQ(hr_map_get_next_key(h, &next, &next), -ENOENT);
	k = 77; /* a missing key starts over */
	CHECK_EQ(hr_map_get_next_key(h, &k, &next), 0);
	CHECK_EQ(next, 100);
	CHECK_EQ(hr_map_delete_elem(h, &keys[1]), 0);
	CHECK_EQ(hr_map_delete_elem(h, &keys[1]), -ENOENT);
	k = 10;
	CHECK_EQ(hr_map_update_elem(h, &k, &v, 0), 0);
	/* Broadcast through the hash: 4 entries, all to b. */
	CHECK(rm_buff(pool, &rxq, &xdp, 100, 0, 9), "buff");
	h->ops->redirect(h, 0, HR_F_BROADCAST, &w->ri);
	CHECK_EQ(h->ops->xdp_enqueue(h, w, &w->ri, &xdp, &fake), 0);
	hr_xdp_do_flush(w);
	CHECK_EQ(tx_of(b), 26);
	CHECK_EQ(hr_pool_outstanding(pool), 0);

	hr_map_free(h);
	hr_map_free(m);
	hr_dp_destroy(dp);
	hr_pool_destroy(pool);
}

int main(void)
{
	CHECK(rm_linked(), "redirect map ops linked");
	test_create();
	test_rules_nodev();
	test_with_devices();
	return t_done();
}
