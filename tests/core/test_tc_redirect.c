// SPDX-License-Identifier: MIT
/*
 * TC_ACT_REDIRECT in the datapath, as skb_do_redirect: out of a veth end
 * (the peer receives it and runs its XDP program), into another device's
 * ingress (BPF_F_INGRESS: its stack receives it), and to a device that is
 * down or missing (dropped and counted); bpf_redirect_peer to a veth whose
 * peer is in the same namespace, which 6.18's skb_do_redirect drops
 * (net_eq), as the live kernel does in a namespace of the test's own
 * (the same redirects from veth D's tc ingress to veth A: bpf_redirect
 * reaches A's peer B, bpf_redirect_peer nothing). Every packet accounted
 * for, no frame left out.
 */
#include <ifaddrs.h>
#include <net/if.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <linux/bpf.h>
#include <linux/if_link.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include <headroom/headroom.h>
#include <headroom/datapath.h>
#include <headroom/devices.h>

#include "harness.h"
#include "dev_netns.h"
#include "kernel_side.h"
#include "dev/dev.h"
#include "core/pool.h"

#define COUNT 200

struct setup {
	struct hr_datapath *dp;
	struct hr_dev *gen, *a, *b, *sink;
	struct hr_object *tc, *pass;
};

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

static void set(struct hr_object *obj, uint32_t key, uint32_t val)
{
	CHECK_EQ(hr_map_update_elem(hr_object_find_map(obj, "cfg"), &key, &val,
				    0),
		 0);
}

static struct hr_dev_counters counters(struct hr_dev *dev)
{
	struct hr_dev_counters c;

	memset(&c, 0, sizeof(c));
	c.sz = sizeof(c);
	hr_dev_get_counters(dev, &c);
	return c;
}

static int setup(struct setup *s, enum hr_engine engine)
{
	HR_OPTS(hr_datapath_opts, dpo, .nworkers = 1, .engine = engine);
	HR_OPTS(hr_gen_opts, go, .count = COUNT, .pkt_size = 100);
	HR_OPTS(hr_veth_opts, vo, .mtu = 1500);

	memset(s, 0, sizeof(*s));
	if (hr_dp_create(&dpo, &s->dp))
		return -1;
	CHECK_EQ(hr_dev_gen_create(s->dp, "gen0", &go, &s->gen), 0);
	CHECK_EQ(hr_dev_veth_create_pair(s->dp, "veth0", "veth1", &vo, &s->a,
					 &s->b),
		 0);
	CHECK_EQ(hr_dev_sink_create(s->dp, "sink0", NULL, &s->sink), 0);
	s->tc = open_obj("tc_redir.o");
	s->pass = open_obj("dev_verdict.o");
	if (!s->gen || !s->a || !s->b || !s->sink || !s->tc || !s->pass)
		return -1;
	set(s->pass, 0, XDP_PASS);
	hr_dev_attach_tc(s->gen, hr_object_find_prog(s->tc, NULL));
	hr_dev_attach_xdp(s->b, hr_object_find_prog(s->pass, NULL));
	hr_dev_set_stack(s->gen, s->sink);
	hr_dev_set_stack(s->b, s->sink);
	CHECK_EQ(hr_dp_assign_queue(s->dp, s->gen, 0, 0), 0);
	CHECK_EQ(hr_dp_assign_queue(s->dp, s->b, 0, 0), 0);
	CHECK_EQ(hr_dev_open(s->gen), 0);
	CHECK_EQ(hr_dev_open(s->a), 0);
	CHECK_EQ(hr_dev_open(s->b), 0);
	CHECK_EQ(hr_dev_open(s->sink), 0);
	return 0;
}

static void finish(struct setup *s)
{
	CHECK_EQ(hr_pool_outstanding(s->gen->pool), 0);
	CHECK_EQ(hr_pool_outstanding(s->a->pool), 0);
	CHECK_EQ(hr_pool_outstanding(s->b->pool), 0);
	hr_dp_destroy(s->dp);
	hr_object_close(s->tc);
	hr_object_close(s->pass);
}

/* Redirects every packet with (ifindex, flags, peer), runs to idle and
 * reads the counters of gen, A and B. */
static void run(struct setup *s, uint32_t ifindex, uint32_t flags,
		uint32_t peer, struct hr_dev_counters c[3])
{
	set(s->tc, 0, ifindex);
	set(s->tc, 1, flags);
	set(s->tc, 2, peer);
	CHECK_EQ(hr_dp_run_until_idle(s->dp, 10000), 0);
	c[0] = counters(s->gen);
	c[1] = counters(s->a);
	c[2] = counters(s->b);
}

/* Out of veth A: B receives every packet, PASSes it to its stack. */
static void test_egress(enum hr_engine engine)
{
	struct hr_dev_counters c[3], *g = &c[0], *a = &c[1], *b = &c[2];
	struct setup s;

	if (setup(&s, engine))
		return;
	run(&s, hr_dev_ifindex(s.a), 0, 0, c);
	CHECK_EQ(g->rx_packets, COUNT);
	CHECK_EQ(g->tc_redirect, COUNT);
	CHECK_EQ(g->delivered, 0);
	CHECK_EQ(a->tx_packets, COUNT);
	CHECK_EQ(b->rx_packets, COUNT);
	CHECK_EQ(b->xdp_pass, COUNT);
	CHECK_EQ(b->delivered, COUNT);
	finish(&s);
}

/* Into B's ingress: B's stack gets them, nothing crosses the veth. */
static void test_ingress(enum hr_engine engine)
{
	struct hr_dev_counters g, a, b;
	struct setup s;

	if (setup(&s, engine))
		return;
	set(s.tc, 0, hr_dev_ifindex(s.b));
	set(s.tc, 1, BPF_F_INGRESS);
	CHECK_EQ(hr_dp_run_until_idle(s.dp, 10000), 0);
	g = counters(s.gen);
	a = counters(s.a);
	b = counters(s.b);
	CHECK_EQ(g.tc_redirect, COUNT);
	CHECK_EQ(a.tx_packets, 0);
	CHECK_EQ(b.rx_packets, 0);
	CHECK_EQ(b.delivered, COUNT);
	finish(&s);
}

/* A missing target and a stopped one: dropped, counted, freed. */
static void test_bad_target(enum hr_engine engine)
{
	struct hr_dev_counters g;
	struct setup s;

	if (setup(&s, engine))
		return;
	set(s.tc, 0, 250);
	set(s.tc, 1, 0);
	CHECK_EQ(hr_dp_run_until_idle(s.dp, 10000), 0);
	g = counters(s.gen);
	CHECK_EQ(g.tc_redirect, COUNT);
	CHECK_EQ(g.drops_total, COUNT);
	finish(&s);

	if (setup(&s, engine))
		return;
	hr_dev_close(s.a);
	set(s.tc, 0, hr_dev_ifindex(s.a));
	set(s.tc, 1, 0);
	CHECK_EQ(hr_dp_run_until_idle(s.dp, 10000), 0);
	g = counters(s.gen);
	CHECK_EQ(g.tc_redirect, COUNT);
	CHECK_EQ(g.drops_total, COUNT);
	CHECK_EQ(counters(s.b).rx_packets, 0);
	finish(&s);
}

/* bpf_redirect_peer(A): A's peer B is in the same namespace, so
 * skb_do_redirect frees the skb (-EINVAL, out_drop) and nothing reaches
 * B; the program's verdict is still TC_ACT_REDIRECT. */
static void test_peer_same_netns(enum hr_engine engine)
{
	struct hr_dev_counters c[3], *g = &c[0], *a = &c[1], *b = &c[2];
	struct setup s;

	if (setup(&s, engine))
		return;
	run(&s, hr_dev_ifindex(s.a), 0, 1, c);
	CHECK_EQ(g->tc_redirect, COUNT);
	CHECK_EQ(g->drops_total, COUNT);
	CHECK_EQ(g->delivered, 0);
	CHECK_EQ(a->tx_packets, 0);
	CHECK_EQ(b->rx_packets, 0);
	CHECK_EQ(b->delivered, 0);
	finish(&s);
}

/* @ifname's rx_packets in the current namespace (rtnetlink's counters,
 * through getifaddrs), or -1. */
static long long krx_packets(const char *ifname)
{
	struct ifaddrs *ifa, *i;
	long long n = -1;

	if (getifaddrs(&ifa))
		return -1;
	for (i = ifa; i; i = i->ifa_next)
		if (i->ifa_addr && i->ifa_addr->sa_family == AF_PACKET &&
		    i->ifa_data && !strcmp(i->ifa_name, ifname))
			n = ((struct rtnl_link_stats *)i->ifa_data)->rx_packets;
	freeifaddrs(ifa);
	return n;
}

#define KCOUNT 50

/* The kernel: 50 frames sent on C reach D's tc ingress, which redirects
 * them out of A; how many B receives, or -1. */
static long long kernel_case(struct bpf_object *o, const char *c, const char *b,
			     uint32_t ifa, uint32_t peer)
{
	uint32_t key, v[3] = { ifa, 0, peer };
	long long before, after;

	for (key = 0; key < 3; key++)
		if (bpf_map_update_elem(t_kmap(o, "cfg"), &key, &v[key], 0))
			return -1;
	before = krx_packets(b);
	if (dv_send_frames(c, KCOUNT, 0x88b5))
		return -1;
	usleep(200000);
	after = krx_packets(b);
	return before < 0 || after < 0 ? -1 : after - before;
}

static void test_kernel_peer(void)
{
	struct bpf_tc_hook hook = { .sz = sizeof(hook),
				    .attach_point = BPF_TC_INGRESS };
	LIBBPF_OPTS(bpf_tc_opts, to);
	char c[IFNAMSIZ], d[IFNAMSIZ];
	struct bpf_object *o = NULL;
	struct t_netns ns;

	if (geteuid()) {
		fprintf(stderr, "kernel redirect_peer comparison: not root\n");
		return;
	}
	if (t_netns_setup("tcr", &ns)) {
		CHECK(0, "namespace for the kernel comparison");
		goto out;
	}
	snprintf(c, sizeof(c), "tcrc%d", (int)getpid());
	snprintf(d, sizeof(d), "tcrd%d", (int)getpid());
	if (t_sh("ip -n %s link add %s type veth peer name %s", ns.name, c,
		 d) ||
	    t_sh("ip -n %s link set %s up", ns.name, c) ||
	    t_sh("ip -n %s link set %s up", ns.name, d)) {
		CHECK(0, "a second veth pair in %s", ns.name);
		goto out;
	}
	o = t_kopen("tc_redir.o");
	hook.ifindex = (int)if_nametoindex(d);
	if (!o || !hook.ifindex || bpf_tc_hook_create(&hook)) {
		CHECK(0, "tc hook on %s", d);
		goto out;
	}
	to.prog_fd = t_kprog(o, "tc_redir");
	CHECK_EQ(bpf_tc_attach(&hook, &to), 0);
	CHECK_EQ(kernel_case(o, c, ns.veth_b, if_nametoindex(ns.veth_a), 0),
		 KCOUNT);
	CHECK_EQ(kernel_case(o, c, ns.veth_b, if_nametoindex(ns.veth_a), 1), 0);
out:
	bpf_object__close(o);
	t_netns_cleanup();
}

int main(void)
{
	enum hr_engine engines[] = { HR_ENGINE_INTERP, HR_ENGINE_JIT };
	unsigned int i;

	for (i = 0; i < 2; i++) {
		test_egress(engines[i]);
		test_ingress(engines[i]);
		test_bad_target(engines[i]);
		test_peer_same_netns(engines[i]);
	}
	test_kernel_peer();
	return t_done();
}
