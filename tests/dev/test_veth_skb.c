// SPDX-License-Identifier: MIT
/*
 * veth's skb path (drivers/net/veth.c veth_xmit -> veth_xdp_rcv_skb):
 * a tc program redirects packets out of veth A (progs/dev/vs_tc.bpf.c,
 * giving some a hash with bpf_set_hash and a VLAN tag with
 * bpf_skb_vlan_push first); B's XDP program (progs/dev/vs_xdp.bpf.c)
 * records what the hint kfuncs answer from the skb (and write: the VLAN
 * outputs start non-zero, and veth zeroes the tci of an skb without a
 * tag while returning -ENODATA) and PASSes (with 8
 * bytes of metadata, which B's tc ingress must see), DROPs or TXes (back
 * to A, whose program counts them).
 *
 *   headroom, skb path:  generator with RX hints, and a device replaying
 *                        the test's packets, PASS to tc -> redirect to A
 *   headroom, frame path: the same packets, XDP redirect to A: every
 *                        hint -ENODATA, as before
 *   headroom, no XDP on B: the skb goes straight to B's stack
 *   headroom, two workers: B's NAPI on another thread than A's sender
 *   headroom, drops: over B's MTU, a full ring, B going down
 *   kernel:              AF_PACKET on a veth C -> D's tc ingress ->
 *                        redirect to A -> B's device-bound XDP program
 *
 * The kernel's and headroom's records are compared field by field: the
 * return codes, hash types, VLAN tags, lengths and timestamps exactly,
 * hashes exactly where bpf_set_hash chose them (the kernel's flow hash
 * is keyed at boot) and non-zero elsewhere.
 */
#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/if_link.h>
#include <linux/if_packet.h>
#include <sys/socket.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "harness.h"
#include "kernel_live.h"
#include "dev_netns.h"
#include "kernel_side.h"
#include "replay_dev.h"
#include "headroom/datapath.h"
#include "headroom/devices.h"
#include "headroom/map.h"
#include "headroom/object.h"
#include "core/datapath.h"
#include "core/pool.h"

#define NPKT 96
#define VS_ETH_P 0x88b6
#define VS_MAGIC 0x76736b62u
#define RSS_L4 8u /* XDP_RSS_TYPE_L4_ANY */
/* vs_xdp's VLAN outputs before the kfunc call. */
#define VS_UNSET_PROTO 0xaaaa
#define VS_UNSET_TCI 0xbbbb

/* progs/dev/vs_xdp.bpf.c's and vs_tc.bpf.c's records. */
struct vs_rec {
	uint32_t count;
	int32_t ret_ts;
	int32_t ret_hash;
	int32_t ret_vlan;
	uint32_t hash;
	uint32_t type;
	uint16_t proto;
	uint16_t tci;
	uint32_t len;
	uint64_t ts;
};

struct vs_seen {
	uint32_t count;
	uint32_t len;
	uint32_t meta_len;
	uint32_t magic;
	uint32_t hash;
	uint32_t vlan_present;
	uint32_t vlan_tci;
	uint32_t protocol;
};

struct result {
	uint64_t counts[4]; /* PASS DROP TX others */
	uint64_t back;
	struct vs_rec rec[256];
	struct vs_seen seen[256];
};

struct pkt {
	uint32_t len;
	uint8_t b[256];
};

static struct pkt pkts[NPKT];

/* Packet i: ops i % 6 (hash, 802.1Q, 802.1ad as vs_tc reads them),
 * verdict i % 3 (PASS DROP TX), sequence number 0x2000 + i. */
static void make_packets(void)
{
	static const uint8_t ops[6] = { 0, 1, 2, 3, 4, 5 };
	unsigned int i, j;

	for (i = 0; i < NPKT; i++) {
		struct pkt *p = &pkts[i];
		uint32_t seq = htonl(0x2000 + i);

		p->len = 60 + (i * 11) % 180;
		for (j = 0; j < p->len; j++)
			p->b[j] = (uint8_t)(i * 5 + j);
		memset(p->b, 0xff, 6);
		memcpy(p->b + 6, "\x02\x00\x00\x00\x00\x02", 6);
		p->b[12] = VS_ETH_P >> 8;
		p->b[13] = VS_ETH_P & 0xff;
		p->b[14] = ops[i % 6];
		p->b[15] = (uint8_t)(i % 3);
		memcpy(p->b + 16, &seq, 4);
	}
}

/* --- headroom ---------------------------------------------------------- */

static const uint8_t *pkt_at(unsigned int i, uint32_t *len)
{
	*len = pkts[i].len;
	return pkts[i].b;
}

static void hset(struct hr_object *o, const char *map, uint32_t key, uint32_t v)
{
	CHECK_EQ(hr_map_update_elem(hr_object_find_map(o, map), &key, &v, 0),
		 0);
}

static struct hr_dev_counters hcounters(struct hr_dev *dev)
{
	struct hr_dev_counters c;

	memset(&c, 0, sizeof(c));
	c.sz = sizeof(c);
	hr_dev_get_counters(dev, &c);
	return c;
}

enum mode {
	M_TC, /* the test's packets, tc redirect: the skb path */
	M_TC_THREADS, /* the same, B on a second worker thread */
	M_FRAME, /* the same, XDP redirect: the frame path */
	M_NOXDP, /* tc redirect, B without XDP */
	M_GEN, /* a generator with RX hints, tc redirect */
};

struct hside {
	struct hr_datapath *dp;
	struct hr_dev *src, *a, *b, *sink;
	struct hr_object *xo, *bo, *to, *ro;
};

static int hsetup(struct hside *h, enum mode mode, enum hr_engine engine,
		  const struct hr_gen_opts *go)
{
	HR_OPTS(hr_datapath_opts, dpo, .nworkers = mode == M_TC_THREADS ? 2 : 1,
		.engine = engine);

	memset(h, 0, sizeof(*h));
	if (hr_dp_create(&dpo, &h->dp))
		return -1;
	CHECK_EQ(hr_dev_veth_create_pair(h->dp, "vsa", "vsb", NULL, &h->a,
					 &h->b),
		 0);
	CHECK_EQ(hr_dev_sink_create(h->dp, "vss", NULL, &h->sink), 0);
	if (mode == M_GEN)
		CHECK_EQ(hr_dev_gen_create(h->dp, "vsg", go, &h->src), 0);
	else
		h->src = t_replay_dev(h->dp, "vsf", pkt_at, NPKT);
	h->xo = dv_hopen("vs_xdp.o");
	h->bo = dv_hopen("vs_back.o");
	h->to = dv_hopen("vs_tc.o");
	h->ro = dv_hopen("dev_redirect.o");
	if (!h->xo || !h->bo || !h->to || !h->ro || !h->a || !h->b ||
	    !h->sink || !h->src)
		return -1;
	hset(h->to, "vs_tc_cfg", 0, h->a->ifindex);
	hset(h->ro, "cfg", 0, h->a->ifindex);
	if (mode == M_FRAME)
		hr_dev_attach_xdp(h->src, hr_object_find_prog(h->ro, NULL));
	else
		hr_dev_attach_tc(h->src, hr_object_find_prog(h->to, "vs_tc"));
	if (mode != M_NOXDP)
		hr_dev_attach_xdp(h->b, hr_object_find_prog(h->xo, NULL));
	hr_dev_attach_xdp(h->a, hr_object_find_prog(h->bo, NULL));
	hr_dev_attach_tc(h->b, hr_object_find_prog(h->to, "vs_tc_in"));
	hr_dev_set_stack(h->b, h->sink);
	CHECK_EQ(hr_dp_assign_queue(h->dp, h->src, 0, 0), 0);
	CHECK_EQ(hr_dp_assign_queue(h->dp, h->a, 0, 0), 0);
	CHECK_EQ(hr_dp_assign_queue(h->dp, h->b, 0,
				    mode == M_TC_THREADS ? 1 : 0),
		 0);
	CHECK_EQ(hr_dev_open(h->src), 0);
	CHECK_EQ(hr_dev_open(h->a), 0);
	CHECK_EQ(hr_dev_open(h->b), 0);
	CHECK_EQ(hr_dev_open(h->sink), 0);
	return 0;
}

static void hread(struct hside *h, struct result *r)
{
	uint32_t i;

	memset(r, 0, sizeof(*r));
	for (i = 0; i < 4; i++)
		CHECK_EQ(hr_map_lookup_elem(hr_object_find_map(h->xo,
							       "vs_counts"),
					    &i, &r->counts[i]),
			 0);
	i = 0;
	CHECK_EQ(hr_map_lookup_elem(hr_object_find_map(h->bo, "vs_back"), &i,
				    &r->back),
		 0);
	for (i = 0; i < 256; i++) {
		CHECK_EQ(hr_map_lookup_elem(hr_object_find_map(h->xo, "vs_rec"),
					    &i, &r->rec[i]),
			 0);
		CHECK_EQ(
			hr_map_lookup_elem(hr_object_find_map(h->to, "vs_seen"),
					   &i, &r->seen[i]),
			0);
	}
}

static void hteardown(struct hside *h)
{
	if (h->dp) {
		CHECK_EQ(hr_pool_outstanding(h->src->pool), 0);
		CHECK_EQ(hr_pool_outstanding(h->a->pool), 0);
		CHECK_EQ(hr_pool_outstanding(h->b->pool), 0);
	}
	hr_dp_destroy(h->dp);
	hr_object_close(h->xo);
	hr_object_close(h->bo);
	hr_object_close(h->to);
	hr_object_close(h->ro);
}

/* The test's packets through headroom in @mode; device counters checked
 * against the programs'. */
static int headroom_run(enum mode mode, enum hr_engine engine, struct result *r)
{
	struct hr_dev_counters cs, ca, cb;
	struct hside h;
	int rc = -1;

	if (hsetup(&h, mode, engine, NULL))
		goto out;
	/* Threads: A's worker writes the skbs B's worker takes. */
	if (mode == M_TC_THREADS)
		CHECK_EQ(hr_dp_start(h.dp), 0);
	CHECK_EQ(hr_dp_run_until_idle(h.dp, 20000), 0);
	if (mode == M_TC_THREADS)
		hr_dp_stop(h.dp);
	hread(&h, r);
	cs = hcounters(h.src);
	ca = hcounters(h.a);
	cb = hcounters(h.b);
	CHECK_EQ(cs.rx_packets, NPKT);
	if (mode == M_FRAME) {
		CHECK_EQ(cs.xdp_redirect, NPKT);
	} else {
		CHECK_EQ(cs.tc_redirect, NPKT);
		CHECK_EQ(ca.tx_packets, NPKT);
	}
	if (mode == M_NOXDP) {
		/* __netif_rx: B's stack without B's NAPI. */
		CHECK_EQ(cb.rx_packets, 0);
		CHECK_EQ(cb.delivered, NPKT);
		CHECK_EQ(r->seen[255].count, NPKT);
	} else {
		CHECK_EQ(cb.rx_packets, NPKT);
		CHECK_EQ(cb.xdp_pass, r->counts[0]);
		CHECK_EQ(cb.xdp_drop, r->counts[1]);
		CHECK_EQ(cb.xdp_tx, r->counts[2]);
		CHECK_EQ(cb.delivered, r->counts[0]);
		CHECK_EQ(ca.rx_packets, r->counts[2]);
		CHECK_EQ(ca.xdp_drop, r->back);
	}
	CHECK_EQ(cs.drops_total + ca.drops_total + cb.drops_total, 0);
	rc = 0;
out:
	hteardown(&h);
	return rc;
}

/* --- what the records must say ------------------------------------------ */

static bool has_hash(unsigned int i)
{
	return pkts[i].b[14] & 1;
}

/* The skb path: the hints of the skb vs_tc shaped. */
static void check_skb_path(const char *who, const struct result *r)
{
	unsigned int i, bad = 0;

	CHECK(r->counts[0] == NPKT / 3 && r->counts[1] == NPKT / 3 &&
		      r->counts[2] == NPKT / 3 && r->back == NPKT / 3,
	      "%s: pass %llu drop %llu tx %llu back %llu", who,
	      (unsigned long long)r->counts[0],
	      (unsigned long long)r->counts[1],
	      (unsigned long long)r->counts[2], (unsigned long long)r->back);
	for (i = 0; i < NPKT; i++) {
		const struct vs_rec *x = &r->rec[i];
		const struct vs_seen *s = &r->seen[i];
		uint8_t ops = pkts[i].b[14];
		uint16_t proto = ops & 2 ? htons(0x8100) :
				 ops & 4 ? htons(0x88a8) :
					   0;
		uint16_t tci = ops & 2 ? (uint16_t)(0x6000 | i) :
			       ops & 4 ? (uint16_t)(0x2000 | i) :
					 0;
		bool ok = x->count == 1 && x->len == pkts[i].len &&
			  x->ret_ts == 0 && x->ts == 0 && x->ret_hash == 0 &&
			  (has_hash(i) ? x->hash == (0x5eed0000u | i) &&
						 x->type == RSS_L4 :
					 x->hash != 0 && x->type == 0) &&
			  x->ret_vlan == (proto ? 0 : -ENODATA) &&
			  x->proto == (proto ? proto : VS_UNSET_PROTO) &&
			  x->tci == tci;

		/* PASSed: the skb with the program's metadata at B's tc,
		 * its hash (the one the kfunc made, if none) and tag. */
		if (i % 3 == 0)
			ok = ok && s->count == 1 && s->len == pkts[i].len &&
			     s->meta_len == 8 && s->magic == VS_MAGIC &&
			     s->hash == x->hash && s->vlan_present == !!proto &&
			     s->protocol == htons(VS_ETH_P);
		else
			ok = ok && s->count == 0;
		if (!ok && bad++ < 4)
			fprintf(stderr,
				"%s: packet %u: rec count %u len %u ret %d %d "
				"%d ts %llu hash %#x type %u vlan %#x/%#x | tc "
				"count %u len %u meta %u magic %#x hash %#x "
				"vlan %u/%#x proto %#x\n",
				who, i, x->count, x->len, x->ret_ts,
				x->ret_hash, x->ret_vlan,
				(unsigned long long)x->ts, x->hash, x->type,
				x->proto, x->tci, s->count, s->len, s->meta_len,
				s->magic, s->hash, s->vlan_present, s->vlan_tci,
				s->protocol);
	}
	CHECK(bad == 0, "%s: %u packets recorded wrong", who, bad);
}

/* The frame path: no skb, no hints. */
static void check_frame_path(const struct result *r)
{
	unsigned int i, bad = 0;

	for (i = 0; i < NPKT; i++) {
		const struct vs_rec *x = &r->rec[i];

		if (x->count != 1 || x->ret_ts != -ENODATA ||
		    x->ret_hash != -ENODATA || x->ret_vlan != -ENODATA ||
		    x->hash || x->type || x->ts || x->proto != VS_UNSET_PROTO ||
		    x->tci != VS_UNSET_TCI)
			bad++;
	}
	CHECK(bad == 0, "frame path: %u packets with hints", bad);
	CHECK_EQ(r->counts[0], NPKT / 3);
	CHECK_EQ(r->back, NPKT / 3);
}

/* A generator's RX hints become the skb's (hash, timestamp, VLAN) and
 * reach B's XDP program across the tc redirect and the veth. */
static void test_gen(enum hr_engine engine)
{
	HR_OPTS(hr_gen_opts, go, .count = 40, .pkt_size = 100, .flows = 1,
		.vlan = true, .vlan_offload = true, .vlan_id = 42,
		.vlan_prio = 5);
	struct timespec t0, t1;
	struct result *r = calloc(1, sizeof(*r));
	struct hside h;
	uint64_t lo, hi;
	unsigned int i, bad = 0;

	clock_gettime(CLOCK_REALTIME, &t0);
	if (hsetup(&h, M_GEN, engine, &go))
		goto out;
	hset(h.to, "vs_tc_cfg", 2, 1);
	hset(h.xo, "vs_cfg", 0, XDP_PASS);
	CHECK_EQ(hr_dp_run_until_idle(h.dp, 10000), 0);
	clock_gettime(CLOCK_REALTIME, &t1);
	hread(&h, r);
	lo = (uint64_t)t0.tv_sec * 1000000000ull + (uint64_t)t0.tv_nsec;
	hi = (uint64_t)t1.tv_sec * 1000000000ull + (uint64_t)t1.tv_nsec;
	CHECK_EQ(r->counts[3], 40);
	CHECK_EQ(r->counts[0], 40);
	CHECK_EQ(hcounters(h.b).delivered, 40);
	for (i = 0; i < 40; i++) {
		const struct vs_rec *x = &r->rec[i];

		if (x->ret_ts || x->ts < lo || x->ts > hi || x->ret_hash ||
		    !x->hash || x->hash != r->rec[0].hash ||
		    x->type != RSS_L4 || x->ret_vlan ||
		    x->proto != htons(0x8100) ||
		    x->tci != (uint16_t)(5 << 13 | 42))
			if (bad++ < 2)
				fprintf(stderr,
					"gen %u: ret %d %d %d ts %llu hash %#x "
					"type %u vlan %#x/%#x\n",
					i, x->ret_ts, x->ret_hash, x->ret_vlan,
					(unsigned long long)x->ts, x->hash,
					x->type, x->proto, x->tci);
	}
	CHECK(bad == 0, "generator hints through the skb path: %u wrong", bad);
out:
	hteardown(&h);
	free(r);
}

/*
 * Drops on the skb path, each counted once: frames over B's MTU (on B,
 * as __is_skb_forwardable's rx_dropped), a full ring of 256 while B's
 * NAPI does not run (on A, veth_xmit's drop), and what the ring still
 * holds when B goes down (veth_ptr_free). No frame stays out.
 */
static void test_drops(void)
{
	HR_OPTS(hr_gen_opts, go, .count = 300, .pkt_size = 100);
	struct hr_dev_counters ca, cb;
	struct hside h;

	if (hsetup(&h, M_GEN, HR_ENGINE_JIT, &go))
		goto out;
	hset(h.to, "vs_tc_cfg", 2, 1);
	h.b->mtu = 60;
	CHECK_EQ(hr_dp_run_until_idle(h.dp, 10000), 0);
	ca = hcounters(h.a);
	cb = hcounters(h.b);
	CHECK_EQ(ca.tx_packets, 0);
	CHECK_EQ(cb.rx_packets, 0);
	CHECK_EQ(cb.drops[HR_DROP_MTU], 300);
out:
	hteardown(&h);

	if (hsetup(&h, M_GEN, HR_ENGINE_JIT, &go))
		goto out2;
	hset(h.to, "vs_tc_cfg", 2, 1);
	hr_worker_del_napi(h.dp->workers[0], h.dp->queue_napi[h.b->ifindex][0]);
	CHECK_EQ(hr_dp_run_until_idle(h.dp, 10000), 0);
	ca = hcounters(h.a);
	CHECK_EQ(ca.tx_packets, 256);
	CHECK_EQ(ca.drops[HR_DROP_RING_FULL], 300 - 256);
	hr_dev_close(h.b);
	cb = hcounters(h.b);
	CHECK_EQ(cb.rx_packets, 0);
	CHECK_EQ(cb.drops[HR_DROP_DEV_DOWN], 256);
out2:
	hteardown(&h);
}

/* --- the kernel ------------------------------------------------------- */

static struct t_netns ns;

struct kside {
	struct bpf_object *xo, *bo, *to;
	int ifa, ifb, ifc, ifd;
	char c[IFNAMSIZ], d[IFNAMSIZ];
	struct bpf_tc_hook hd, hb;
	bool xdp_a, xdp_b, hook_d, hook_b;
};

static int kattach_tc(struct bpf_tc_hook *hook, int ifindex, int fd)
{
	LIBBPF_OPTS(bpf_tc_opts, to, .prog_fd = fd);

	hook->sz = sizeof(*hook);
	hook->ifindex = ifindex;
	hook->attach_point = BPF_TC_INGRESS;
	if (bpf_tc_hook_create(hook))
		return -1;
	return bpf_tc_attach(hook, &to);
}

static int kernel_setup(struct kside *k)
{
	uint32_t key = 0, v;

	memset(k, 0, sizeof(*k));
	snprintf(k->c, sizeof(k->c), "hvsc%d", (int)getpid());
	snprintf(k->d, sizeof(k->d), "hvsd%d", (int)getpid());
	if (t_sh("ip -n %s link add %s type veth peer name %s", ns.name, k->c,
		 k->d) ||
	    t_sh("ip -n %s link set %s up", ns.name, k->c) ||
	    t_sh("ip -n %s link set %s up", ns.name, k->d)) {
		CHECK(0, "a second veth pair in %s", ns.name);
		return -1;
	}
	k->ifa = (int)if_nametoindex(ns.veth_a);
	k->ifb = (int)if_nametoindex(ns.veth_b);
	k->ifc = (int)if_nametoindex(k->c);
	k->ifd = (int)if_nametoindex(k->d);
	if (!k->ifa || !k->ifb || !k->ifc || !k->ifd) {
		CHECK(0, "veth ifindexes in the namespace");
		return -1;
	}
	/* Bound to B, so that the hint kfuncs are veth's. */
	k->xo = t_kopen_set("vs_xdp.o", NULL, 0, k->ifb);
	k->bo = t_kopen("vs_back.o");
	k->to = t_kopen("vs_tc.o");
	if (!k->xo || !k->bo || !k->to) {
		CHECK(0, "kernel objects");
		return -1;
	}
	v = (uint32_t)k->ifa;
	CHECK_EQ(bpf_map_update_elem(t_kmap(k->to, "vs_tc_cfg"), &key, &v, 0),
		 0);
	CHECK_EQ(bpf_xdp_attach(k->ifb, t_kprog(k->xo, "vs_xdp"),
				XDP_FLAGS_DRV_MODE, NULL),
		 0);
	k->xdp_b = true;
	CHECK_EQ(bpf_xdp_attach(k->ifa, t_kprog(k->bo, "vs_back_xdp"),
				XDP_FLAGS_DRV_MODE, NULL),
		 0);
	k->xdp_a = true;
	k->hook_d = !kattach_tc(&k->hd, k->ifd, t_kprog(k->to, "vs_tc"));
	k->hook_b = !kattach_tc(&k->hb, k->ifb, t_kprog(k->to, "vs_tc_in"));
	CHECK(k->hook_d && k->hook_b, "tc programs on D and B");
	return k->hook_d && k->hook_b ? 0 : -1;
}

static void kernel_teardown(struct kside *k)
{
	if (k->hook_d) {
		k->hd.attach_point = BPF_TC_INGRESS | BPF_TC_EGRESS;
		bpf_tc_hook_destroy(&k->hd);
	}
	if (k->hook_b) {
		k->hb.attach_point = BPF_TC_INGRESS | BPF_TC_EGRESS;
		bpf_tc_hook_destroy(&k->hb);
	}
	if (k->xdp_b)
		bpf_xdp_detach(k->ifb, XDP_FLAGS_DRV_MODE, NULL);
	if (k->xdp_a)
		bpf_xdp_detach(k->ifa, XDP_FLAGS_DRV_MODE, NULL);
	bpf_object__close(k->xo);
	bpf_object__close(k->bo);
	bpf_object__close(k->to);
}

static void kread(struct kside *k, struct result *r)
{
	uint32_t i;

	memset(r, 0, sizeof(*r));
	for (i = 0; i < 4; i++)
		bpf_map_lookup_elem(t_kmap(k->xo, "vs_counts"), &i,
				    &r->counts[i]);
	i = 0;
	bpf_map_lookup_elem(t_kmap(k->bo, "vs_back"), &i, &r->back);
	for (i = 0; i < 256; i++) {
		bpf_map_lookup_elem(t_kmap(k->xo, "vs_rec"), &i, &r->rec[i]);
		bpf_map_lookup_elem(t_kmap(k->to, "vs_seen"), &i, &r->seen[i]);
	}
}

/* AF_PACKET on C; then until every packet has its verdict, the TXed ones
 * came back and tc saw the PASSed ones (or 3 s). */
static int kernel_run(struct kside *k, struct result *r)
{
	struct timespec ts = { 0, 2000000 };
	unsigned int i;

	if (t_replay_send(k->ifc, pkt_at, NPKT))
		return -1;
	for (i = 0; i < 1500; i++) {
		uint64_t tc = 0;
		unsigned int j;

		kread(k, r);
		for (j = 0; j < NPKT; j++)
			tc += r->seen[j].count;
		if (!k->xdp_b && r->seen[255].count >= NPKT)
			break;
		if (r->counts[0] + r->counts[1] + r->counts[2] >= NPKT &&
		    r->back >= r->counts[2] && tc >= r->counts[0])
			break;
		nanosleep(&ts, NULL);
	}
	ts.tv_nsec = 50000000;
	nanosleep(&ts, NULL);
	kread(k, r);
	return 0;
}

/* Field by field; hashes the kernel's flow dissector made (keyed at
 * boot) only for being there. */
static void compare(const char *who, const struct result *k,
		    const struct result *h)
{
	unsigned int i, bad = 0;

	for (i = 0; i < 3; i++)
		CHECK(k->counts[i] == h->counts[i],
		      "%s: verdict %u kernel %llu headroom %llu", who, i,
		      (unsigned long long)k->counts[i],
		      (unsigned long long)h->counts[i]);
	CHECK(k->back == h->back, "%s: back kernel %llu headroom %llu", who,
	      (unsigned long long)k->back, (unsigned long long)h->back);
	for (i = 0; i < NPKT; i++) {
		struct vs_rec a = k->rec[i], b = h->rec[i];
		struct vs_seen sa = k->seen[i], sb = h->seen[i];

		if (!has_hash(i) && a.hash && b.hash) {
			a.hash = b.hash;
			if (sa.hash == k->rec[i].hash && sb.hash == b.hash)
				sa.hash = sb.hash;
		}
		if (!memcmp(&a, &b, sizeof(a)) && !memcmp(&sa, &sb, sizeof(sa)))
			continue;
		if (bad++ < 4)
			fprintf(stderr,
				"%s: packet %u: kernel ret %d %d %d ts %llu hash "
				"%#x type %u vlan %#x/%#x len %u tc %u/%u/%u/%#x"
				" | headroom ret %d %d %d ts %llu hash %#x type "
				"%u vlan %#x/%#x len %u tc %u/%u/%u/%#x\n",
				who, i, a.ret_ts, a.ret_hash, a.ret_vlan,
				(unsigned long long)a.ts, a.hash, a.type,
				a.proto, a.tci, a.len, sa.count, sa.meta_len,
				sa.vlan_present, sa.vlan_tci, b.ret_ts,
				b.ret_hash, b.ret_vlan,
				(unsigned long long)b.ts, b.hash, b.type,
				b.proto, b.tci, b.len, sb.count, sb.meta_len,
				sb.vlan_present, sb.vlan_tci);
	}
	CHECK(bad == 0, "%s: %u packets differ", who, bad);
}

int main(void)
{
	struct result *hi = calloc(1, sizeof(*hi)),
		      *hj = calloc(1, sizeof(*hj)),
		      *hf = calloc(1, sizeof(*hf)),
		      *hn = calloc(1, sizeof(*hn)),
		      *ks = calloc(1, sizeof(*ks)),
		      *ht = calloc(1, sizeof(*ht));
	struct kside k;
	char why[256];

	make_packets();
	/* Headroom first: it needs no kernel. */
	if (!headroom_run(M_TC, HR_ENGINE_INTERP, hi))
		check_skb_path("headroom (interpreter)", hi);
	if (!headroom_run(M_TC, HR_ENGINE_JIT, hj))
		check_skb_path("headroom (JIT)", hj);
	compare("interpreter vs JIT", hi, hj);
	if (!headroom_run(M_TC_THREADS, HR_ENGINE_JIT, ht))
		check_skb_path("headroom (two workers)", ht);
	if (!headroom_run(M_FRAME, HR_ENGINE_JIT, hf))
		check_frame_path(hf);
	headroom_run(M_NOXDP, HR_ENGINE_INTERP, hn);
	test_gen(HR_ENGINE_INTERP);
	test_gen(HR_ENGINE_JIT);
	test_drops();

	if (!t_have_kernel(why, sizeof(why)))
		return t_skip(why);
	/* A host difference (kernel_side.h): the kernel's program cannot
	 * load, and there is nothing to compare with. */
	if (t_host_skips_adjust_meta("vs_xdp.o"))
		goto out;
	if (system("ip -V >/dev/null 2>&1"))
		return t_skip("no iproute2");
	if (t_netns_setup("hvs", &ns)) {
		CHECK(0, "network namespace %s with a veth pair", ns.name);
		t_netns_cleanup();
		return t_done();
	}
	if (!kernel_setup(&k) && !kernel_run(&k, ks)) {
		check_skb_path("kernel", ks);
		compare("kernel vs headroom", ks, hi);
		compare("kernel vs headroom JIT", ks, hj);
		/* Without XDP on B: the skbs reach B's tc with no metadata,
		 * the last one's record the same on both. */
		bpf_xdp_detach(k.ifb, XDP_FLAGS_DRV_MODE, NULL);
		k.xdp_b = false;
		if (!kernel_run(&k, ks)) {
			CHECK_EQ(ks->seen[255].count, NPKT);
			CHECK(!memcmp(&ks->seen[255], &hn->seen[255],
				      sizeof(ks->seen[255])),
			      "no XDP on B: tc records differ: kernel len %u "
			      "meta %u hash %#x vlan %u/%#x, headroom len %u "
			      "meta %u hash %#x vlan %u/%#x",
			      ks->seen[255].len, ks->seen[255].meta_len,
			      ks->seen[255].hash, ks->seen[255].vlan_present,
			      ks->seen[255].vlan_tci, hn->seen[255].len,
			      hn->seen[255].meta_len, hn->seen[255].hash,
			      hn->seen[255].vlan_present,
			      hn->seen[255].vlan_tci);
		}
	}
	kernel_teardown(&k);
	t_netns_cleanup();
out:
	free(hi);
	free(hj);
	free(hf);
	free(hn);
	free(ks);
	free(ht);
	return t_done();
}
