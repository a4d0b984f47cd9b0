// SPDX-License-Identifier: MIT
/*
 * The kernel as oracle for veth. The same objects (progs/dev/vk_xdp.bpf.c on
 * the receiving end B, vk_xdp_back on the sending end A, progs/dev/vk_tc.bpf.c
 * at B's tc ingress) run on a kernel veth pair in a network namespace made
 * here and on headroom's veth pair, over the same packets:
 *
 *   kernel, skb path:   AF_PACKET sendto() on A -> veth_xmit -> B's XDP
 *   kernel, frame path: live-frames BPF_PROG_TEST_RUN of dev_redirect
 *                       (bpf_redirect to A) -> A's ndo_xdp_xmit -> B's XDP
 *   headroom:           a fake device replaying the packets, dev_redirect
 *                       to A -> A's xdp_xmit -> B's ring -> B's XDP
 *
 * Each packet selects B's verdict (PASS, DROP, TX, ABORTED) and 8 to 32
 * bytes of metadata; the verdict counters, the frames XDP_TX sent back to
 * A, and what tc saw for every PASSed packet (length, metadata length and
 * bytes, the mark set from the metadata, protocol, pkt_type) must be the
 * same on all three. Headroom's own device counters must agree with the
 * programs' counters, every packet accounted for and no frame out.
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
#include "dev_netns.h"
#include "kernel_side.h"
#include "replay_dev.h"
#include "headroom/datapath.h"
#include "headroom/devices.h"
#include "headroom/map.h"
#include "headroom/object.h"
#include "core/datapath.h"
#include "core/pool.h"

#define NPKT 192
#define VK_ETH_P 0x88b5
#define VK_MAGIC 0x766b6d64u
#define NCOUNT 8
enum {
	C_ABORTED,
	C_DROP,
	C_PASS,
	C_TX,
	C_REDIRECT,
	C_META_ERR,
	C_OTHER,
	C_BACK
};
static const char *const count_names[NCOUNT] = {
	"aborted", "drop", "pass", "tx", "redirect", "meta_err", "other", "back"
};

/* progs/dev/vk_tc.bpf.c's record. */
struct vk_seen {
	uint32_t count;
	uint32_t len;
	uint32_t meta_len;
	uint32_t mark;
	uint32_t protocol;
	uint32_t pkt_type;
	uint32_t queue_mapping;
	uint32_t seq;
	uint32_t meta[8];
};

struct result {
	uint64_t counts[NCOUNT];
	uint64_t tc[2]; /* ours, others */
	struct vk_seen seen[256];
};

struct pkt {
	uint32_t len;
	uint8_t b[320];
};

static struct pkt pkts[NPKT];

static void make_packets(void)
{
	unsigned int i, j;

	for (i = 0; i < NPKT; i++) {
		struct pkt *p = &pkts[i];
		uint32_t seq = htonl(0x1000 + i);

		p->len = 60 + (i * 13) % 240;
		for (j = 0; j < p->len; j++)
			p->b[j] = (uint8_t)(i * 7 + j);
		memset(p->b, 0xff, 6); /* broadcast */
		memcpy(p->b + 6, "\x02\x00\x00\x00\x00\x01", 6);
		p->b[12] = VK_ETH_P >> 8;
		p->b[13] = VK_ETH_P & 0xff;
		p->b[14] = (uint8_t)(i % 4); /* PASS DROP TX ABORTED */
		p->b[15] = (uint8_t)(2 + i % 7); /* 8 .. 32 bytes of meta */
		memcpy(p->b + 16, &seq, 4);
	}
}

static uint32_t expected_meta_word(uint32_t seq, unsigned int i)
{
	return i == 0 ? VK_MAGIC :
	       i == 1 ? seq :
			(seq * 0x01000193u) ^ (i << 24);
}

static const uint8_t *pkt_at(unsigned int i, uint32_t *len)
{
	*len = pkts[i].len;
	return pkts[i].b;
}

/* --- the kernel side ---------------------------------------------------- */

static struct t_netns ns;

struct kside {
	struct bpf_object *xdp, *tc, *redir;
	int ifa, ifb;
	int counts_fd, seen_fd, tccount_fd;
	int redir_fd;
	bool xdp_a, xdp_b;
	struct bpf_tc_hook hook;
	bool hook_made;
};

static void kreset(struct kside *k)
{
	struct vk_seen z = { 0 };
	uint64_t zero = 0;
	uint32_t i;

	for (i = 0; i < NCOUNT; i++)
		bpf_map_update_elem(k->counts_fd, &i, &zero, 0);
	for (i = 0; i < 2; i++)
		bpf_map_update_elem(k->tccount_fd, &i, &zero, 0);
	for (i = 0; i < 256; i++)
		bpf_map_update_elem(k->seen_fd, &i, &z, 0);
}

static void kread(struct kside *k, struct result *r)
{
	uint32_t i;

	memset(r, 0, sizeof(*r));
	for (i = 0; i < NCOUNT; i++)
		bpf_map_lookup_elem(k->counts_fd, &i, &r->counts[i]);
	for (i = 0; i < 2; i++)
		bpf_map_lookup_elem(k->tccount_fd, &i, &r->tc[i]);
	for (i = 0; i < 256; i++)
		bpf_map_lookup_elem(k->seen_fd, &i, &r->seen[i]);
}

/* Until every packet has its verdict, the TXed ones came back and tc saw
 * the PASSed ones (or 3 s); then a little longer for stragglers. */
static void kwait(struct kside *k, struct result *r)
{
	struct timespec ts = { 0, 2000000 };
	int i;

	for (i = 0; i < 1500; i++) {
		kread(k, r);
		if (r->counts[C_ABORTED] + r->counts[C_DROP] +
				    r->counts[C_PASS] + r->counts[C_TX] >=
			    NPKT &&
		    r->counts[C_BACK] >= r->counts[C_TX] &&
		    r->tc[0] >= r->counts[C_PASS])
			break;
		nanosleep(&ts, NULL);
	}
	ts.tv_nsec = 50000000;
	nanosleep(&ts, NULL);
	kread(k, r);
}

static int kernel_setup(struct kside *k)
{
	uint32_t key = 0, v;
	int fd;

	memset(k, 0, sizeof(*k));
	k->ifa = (int)if_nametoindex(ns.veth_a);
	k->ifb = (int)if_nametoindex(ns.veth_b);
	if (!k->ifa || !k->ifb) {
		CHECK(0, "veth ifindexes in the namespace");
		return -1;
	}
	k->xdp = t_kopen("vk_xdp.o");
	k->tc = t_kopen("vk_tc.o");
	k->redir = t_kopen("dev_redirect.o");
	if (!k->xdp || !k->tc || !k->redir)
		return -1;
	k->counts_fd = t_kmap(k->xdp, "vk_counts");
	k->seen_fd = t_kmap(k->tc, "vk_seen");
	k->tccount_fd = t_kmap(k->tc, "vk_tc_count");
	k->redir_fd = t_kprog(k->redir, "dev_redirect");
	v = (uint32_t)k->ifa;
	CHECK_EQ(bpf_map_update_elem(t_kmap(k->redir, "cfg"), &key, &v, 0), 0);
	/* Native XDP on both ends: B's program, and A's so that B's
	 * XDP_TX frames have a NAPI to land on. */
	fd = t_kprog(k->xdp, "vk_xdp");
	CHECK_EQ(bpf_xdp_attach(k->ifb, fd, XDP_FLAGS_DRV_MODE, NULL), 0);
	k->xdp_b = true;
	fd = t_kprog(k->xdp, "vk_xdp_back");
	CHECK_EQ(bpf_xdp_attach(k->ifa, fd, XDP_FLAGS_DRV_MODE, NULL), 0);
	k->xdp_a = true;
	k->hook.sz = sizeof(k->hook);
	k->hook.ifindex = k->ifb;
	k->hook.attach_point = BPF_TC_INGRESS;
	CHECK_EQ(bpf_tc_hook_create(&k->hook), 0);
	k->hook_made = true;
	{
		LIBBPF_OPTS(bpf_tc_opts, to,
			    .prog_fd = t_kprog(k->tc, "vk_tc"));

		CHECK_EQ(bpf_tc_attach(&k->hook, &to), 0);
	}
	return 0;
}

static void kernel_teardown(struct kside *k)
{
	if (k->hook_made) {
		k->hook.attach_point = BPF_TC_INGRESS | BPF_TC_EGRESS;
		bpf_tc_hook_destroy(&k->hook);
	}
	if (k->xdp_b)
		bpf_xdp_detach(k->ifb, XDP_FLAGS_DRV_MODE, NULL);
	if (k->xdp_a)
		bpf_xdp_detach(k->ifa, XDP_FLAGS_DRV_MODE, NULL);
	bpf_object__close(k->xdp);
	bpf_object__close(k->tc);
	bpf_object__close(k->redir);
}

/* The skb path: a raw packet socket on A. */
static int kernel_run_socket(struct kside *k, struct result *r)
{
	kreset(k);
	if (t_replay_send(k->ifa, pkt_at, NPKT))
		return -1;
	kwait(k, r);
	return 0;
}

/* The frame path: live frames of a program redirecting to A. */
static int kernel_run_live(struct kside *k, struct result *r)
{
	struct timespec ts = { 0, 200000 };
	unsigned int i;

	kreset(k);
	for (i = 0; i < NPKT; i++) {
		LIBBPF_OPTS(bpf_test_run_opts, o, .data_in = pkts[i].b,
			    .data_size_in = pkts[i].len, .repeat = 1,
			    .flags = BPF_F_TEST_XDP_LIVE_FRAMES);
		int err = bpf_prog_test_run_opts(k->redir_fd, &o);

		CHECK(!err, "live frames %u: %d (%s)", i, err, strerror(errno));
		if (err)
			return -1;
		if (i % 32 == 31)
			nanosleep(&ts, NULL);
	}
	kwait(k, r);
	return 0;
}

/* --- the headroom side ------------------------------------------------ */

static void hread(struct hr_object *xo, struct hr_object *to, struct result *r)
{
	struct hr_map *c = hr_object_find_map(xo, "vk_counts");
	struct hr_map *t = hr_object_find_map(to, "vk_tc_count");
	struct hr_map *s = hr_object_find_map(to, "vk_seen");
	uint32_t i;

	memset(r, 0, sizeof(*r));
	for (i = 0; i < NCOUNT; i++)
		CHECK_EQ(hr_map_lookup_elem(c, &i, &r->counts[i]), 0);
	for (i = 0; i < 2; i++)
		CHECK_EQ(hr_map_lookup_elem(t, &i, &r->tc[i]), 0);
	for (i = 0; i < 256; i++)
		CHECK_EQ(hr_map_lookup_elem(s, &i, &r->seen[i]), 0);
}

static int headroom_run(struct result *r, enum hr_engine engine)
{
	HR_OPTS(hr_datapath_opts, dpo, .nworkers = 1, .engine = engine);
	struct hr_object *xo = NULL, *to = NULL, *ro = NULL;
	struct hr_dev_counters ca, cb, cf, cs;
	struct hr_veth_stats va, vb;
	struct hr_dev *a, *b, *sink, *f;
	struct hr_datapath *dp;
	uint32_t key = 0, v;
	int rc = -1;

	memset(r, 0, sizeof(*r));
	if (hr_dp_create(&dpo, &dp))
		return -1;
	CHECK_EQ(hr_dev_veth_create_pair(dp, "vka", "vkb", NULL, &a, &b), 0);
	CHECK_EQ(hr_dev_sink_create(dp, "vks", NULL, &sink), 0);
	f = t_replay_dev(dp, "vkf", pkt_at, NPKT);
	xo = dv_hopen("vk_xdp.o");
	to = dv_hopen("vk_tc.o");
	ro = dv_hopen("dev_redirect.o");
	if (!f || !xo || !to || !ro || !a || !b || !sink)
		goto out;
	v = a->ifindex;
	CHECK_EQ(hr_map_update_elem(hr_object_find_map(ro, "cfg"), &key, &v, 0),
		 0);
	hr_dev_attach_xdp(f, hr_object_find_prog(ro, "dev_redirect"));
	hr_dev_attach_xdp(b, hr_object_find_prog(xo, "vk_xdp"));
	hr_dev_attach_xdp(a, hr_object_find_prog(xo, "vk_xdp_back"));
	hr_dev_attach_tc(b, hr_object_find_prog(to, "vk_tc"));
	hr_dev_set_stack(b, sink);
	CHECK_EQ(hr_dp_assign_queue(dp, f, 0, 0), 0);
	CHECK_EQ(hr_dp_assign_queue(dp, a, 0, 0), 0);
	CHECK_EQ(hr_dp_assign_queue(dp, b, 0, 0), 0);
	CHECK_EQ(hr_dev_open(f), 0);
	CHECK_EQ(hr_dev_open(a), 0);
	CHECK_EQ(hr_dev_open(b), 0);
	CHECK_EQ(hr_dev_open(sink), 0);
	CHECK_EQ(hr_dp_run_until_idle(dp, 10000), 0);
	hread(xo, to, r);

	/* The devices' own counters agree with the programs'. */
	memset(&ca, 0, sizeof(ca));
	ca.sz = cb.sz = cf.sz = cs.sz = sizeof(ca);
	cb = cf = cs = ca;
	hr_dev_get_counters(a, &ca);
	hr_dev_get_counters(b, &cb);
	hr_dev_get_counters(f, &cf);
	hr_dev_get_counters(sink, &cs);
	hr_dev_veth_stats(a, &va);
	hr_dev_veth_stats(b, &vb);
	CHECK_EQ(cf.rx_packets, NPKT);
	CHECK_EQ(cf.xdp_redirect, NPKT);
	CHECK_EQ(ca.tx_packets, NPKT);
	CHECK_EQ(va.xmit, NPKT);
	CHECK_EQ(cb.rx_packets, NPKT);
	CHECK_EQ(cb.xdp_pass, r->counts[C_PASS]);
	CHECK_EQ(cb.xdp_drop, r->counts[C_DROP]);
	CHECK_EQ(cb.xdp_tx, r->counts[C_TX]);
	CHECK_EQ(cb.xdp_aborted, r->counts[C_ABORTED]);
	CHECK_EQ(cb.xdp_exception, r->counts[C_ABORTED]);
	CHECK_EQ(cb.tx_packets, r->counts[C_TX]);
	CHECK_EQ(vb.xmit, r->counts[C_TX]);
	CHECK_EQ(ca.rx_packets, r->counts[C_TX]);
	CHECK_EQ(ca.xdp_drop, r->counts[C_BACK]);
	CHECK_EQ(cb.delivered, r->counts[C_PASS]);
	CHECK_EQ(cs.rx_packets, r->counts[C_PASS]);
	CHECK_EQ(ca.drops_total + cb.drops_total + cf.drops_total, 0);
	CHECK_EQ(hr_pool_outstanding(f->pool), 0);
	CHECK_EQ(hr_pool_outstanding(a->pool), 0);
	CHECK_EQ(hr_pool_outstanding(b->pool), 0);
	rc = 0;
out:
	hr_dp_destroy(dp);
	hr_object_close(xo);
	hr_object_close(to);
	hr_object_close(ro);
	return rc;
}

/* --- comparing ------------------------------------------------------- */

/* What the programs must have seen, whoever ran them. */
static void check_expected(const char *who, const struct result *r)
{
	unsigned int i, w, bad = 0;

	CHECK(r->counts[C_PASS] == NPKT / 4 && r->counts[C_DROP] == NPKT / 4 &&
		      r->counts[C_TX] == NPKT / 4 &&
		      r->counts[C_ABORTED] == NPKT / 4 &&
		      r->counts[C_BACK] == NPKT / 4 &&
		      r->counts[C_META_ERR] == 0 && r->tc[0] == NPKT / 4,
	      "%s: pass %llu drop %llu tx %llu aborted %llu back %llu "
	      "meta_err %llu tc %llu",
	      who, (unsigned long long)r->counts[C_PASS],
	      (unsigned long long)r->counts[C_DROP],
	      (unsigned long long)r->counts[C_TX],
	      (unsigned long long)r->counts[C_ABORTED],
	      (unsigned long long)r->counts[C_BACK],
	      (unsigned long long)r->counts[C_META_ERR],
	      (unsigned long long)r->tc[0]);
	for (i = 0; i < NPKT; i++) {
		const struct vk_seen *s = &r->seen[i];
		uint32_t seq = 0x1000 + i, ml = 4 * (2 + i % 7);

		if (i % 4 != 0) {
			if (s->count)
				bad++;
			continue;
		}
		if (s->count != 1 || s->seq != seq || s->len != pkts[i].len ||
		    s->meta_len != ml ||
		    s->mark != (seq ^ 0x5a000000u ^ (ml << 16)) ||
		    s->protocol != htons(VK_ETH_P) ||
		    s->pkt_type != 1 /* PACKET_BROADCAST */) {
			if (bad++ < 4)
				fprintf(stderr,
					"%s: packet %u: count %u seq %#x len %u "
					"meta_len %u mark %#x proto %#x "
					"pkt_type %u\n",
					who, i, s->count, s->seq, s->len,
					s->meta_len, s->mark, s->protocol,
					s->pkt_type);
			continue;
		}
		for (w = 0; w < ml / 4 && w < 8; w++)
			if (s->meta[w] != expected_meta_word(seq, w)) {
				bad++;
				break;
			}
	}
	CHECK(bad == 0, "%s: %u packets seen wrong at tc", who, bad);
}

/* Kernel and headroom, field by field. */
static void compare(const char *who, const struct result *k,
		    const struct result *h)
{
	unsigned int i, bad = 0;

	for (i = 0; i < NCOUNT; i++) {
		if (i == C_OTHER)
			continue; /* the kernel's own packets, if any */
		CHECK(k->counts[i] == h->counts[i],
		      "%s: %s kernel %llu headroom %llu", who, count_names[i],
		      (unsigned long long)k->counts[i],
		      (unsigned long long)h->counts[i]);
	}
	CHECK(k->tc[0] == h->tc[0], "%s: tc saw kernel %llu headroom %llu", who,
	      (unsigned long long)k->tc[0], (unsigned long long)h->tc[0]);
	for (i = 0; i < 256; i++) {
		struct vk_seen a = k->seen[i], b = h->seen[i];

		/* queue_mapping is compared with the rest: the kernel's veth
		 * never records the RX queue (neither
		 * __xdp_build_skb_from_frame nor veth_xmit), and headroom's
		 * veth does not either. */
		if (memcmp(&a, &b, sizeof(a))) {
			if (bad++ < 4)
				fprintf(stderr,
					"%s: record %u: kernel count %u len %u "
					"meta_len %u mark %#x proto %#x type %u | "
					"headroom count %u len %u meta_len %u "
					"mark %#x proto %#x type %u\n",
					who, i, a.count, a.len, a.meta_len,
					a.mark, a.protocol, a.pkt_type, b.count,
					b.len, b.meta_len, b.mark, b.protocol,
					b.pkt_type);
		}
	}
	CHECK(bad == 0, "%s: %u tc records differ", who, bad);
}

int main(void)
{
	struct result *ks = calloc(1, sizeof(*ks)),
		      *kl = calloc(1, sizeof(*kl));
	struct result *hi = calloc(1, sizeof(*hi)),
		      *hj = calloc(1, sizeof(*hj));
	struct kside k;
	char why[256];

	make_packets();
	/* Headroom first: it needs no kernel. */
	headroom_run(hi, HR_ENGINE_INTERP);
	headroom_run(hj, HR_ENGINE_JIT);
	check_expected("headroom (interpreter)", hi);
	check_expected("headroom (JIT)", hj);
	compare("interpreter vs JIT", hi, hj);

	if (!t_have_kernel(why, sizeof(why)))
		return t_skip(why);
	/* A host difference (kernel_side.h): the kernel's program cannot
	 * load, and there is nothing to compare with. */
	if (t_host_skips_adjust_meta("vk_xdp.o"))
		goto out;
	if (system("ip -V >/dev/null 2>&1"))
		return t_skip("no iproute2");
	if (t_netns_setup("hrk", &ns)) {
		CHECK(0, "network namespace %s with a veth pair", ns.name);
		t_netns_cleanup();
		return t_done();
	}
	if (!kernel_setup(&k)) {
		if (!kernel_run_socket(&k, ks)) {
			check_expected("kernel skb path", ks);
			compare("kernel skb path vs headroom", ks, hi);
			compare("kernel skb path vs headroom JIT", ks, hj);
		}
		if (!kernel_run_live(&k, kl)) {
			check_expected("kernel frame path", kl);
			compare("kernel frame path vs headroom", kl, hi);
			compare("kernel frame path vs headroom JIT", kl, hj);
		}
		fprintf(stderr,
			"vethk: kernel skb path pass %llu drop %llu tx %llu "
			"aborted %llu back %llu tc %llu other %llu; frame path "
			"pass %llu drop %llu tx %llu aborted %llu back %llu tc "
			"%llu other %llu\n",
			(unsigned long long)ks->counts[C_PASS],
			(unsigned long long)ks->counts[C_DROP],
			(unsigned long long)ks->counts[C_TX],
			(unsigned long long)ks->counts[C_ABORTED],
			(unsigned long long)ks->counts[C_BACK],
			(unsigned long long)ks->tc[0],
			(unsigned long long)ks->counts[C_OTHER],
			(unsigned long long)kl->counts[C_PASS],
			(unsigned long long)kl->counts[C_DROP],
			(unsigned long long)kl->counts[C_TX],
			(unsigned long long)kl->counts[C_ABORTED],
			(unsigned long long)kl->counts[C_BACK],
			(unsigned long long)kl->tc[0],
			(unsigned long long)kl->counts[C_OTHER]);
	}
	kernel_teardown(&k);
	t_netns_cleanup();
out:
	free(ks);
	free(kl);
	free(hi);
	free(hj);
	return t_done();
}
