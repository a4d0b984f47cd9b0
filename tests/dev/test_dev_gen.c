// SPDX-License-Identifier: MIT
/*
 * The generator device: packet formats byte by byte (IPv4 and IPv6; UDP,
 * TCP and ICMP; 802.1Q in band and offloaded), checksums, flows over the
 * address and port ranges, sizes 60 and 3520, queues by RSS hash, and the
 * hints seen by an XDP program through the kfuncs (progs/dev/dev_hints.bpf.c
 * copies them into metadata, read here at the stack). Every run checks
 * the counters add up and no frame is left out.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "harness.h"
#include "headroom/datapath.h"
#include "headroom/map.h"
#include "headroom/devices.h"
#include "headroom/object.h"
#include "core/datapath.h"
#include "core/pool.h"
#include "core/skb.h"
#include "dev/toeplitz.h"

#define MAXCAP 512

struct dev_hints_meta {
	int32_t ret_ts, ret_hash, ret_vlan;
	uint32_t hash, rss_type;
	uint16_t vlan_proto, vlan_tci;
	uint64_t ts;
};

struct cap_pkt {
	uint8_t data[HR_GEN_PKT_MAX];
	uint32_t len;
	uint32_t meta_len;
	struct dev_hints_meta meta;
	uint16_t queue;
};

static struct cap_pkt *cap;
static unsigned int ncap;
static struct hr_dev capdev;

static void cap_deliver(struct hr_dev *dev, struct hr_worker *w,
			struct hr_skb *skb)
{
	if (ncap < MAXCAP) {
		struct cap_pkt *c = &cap[ncap];

		memcpy(c->data, skb->data, skb->len);
		c->len = skb->len;
		c->meta_len = skb->meta_len;
		if (skb->meta_len == sizeof(c->meta))
			memcpy(&c->meta, skb->data - skb->meta_len,
			       sizeof(c->meta));
		c->queue = skb->queue_mapping;
	}
	ncap++;
	hr_skb_free(skb);
}

static uint16_t rd16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static uint32_t sum16(uint32_t sum, const uint8_t *b, size_t len)
{
	size_t i;

	for (i = 0; i + 1 < len; i += 2)
		sum += rd16(b + i);
	if (len & 1)
		sum += (uint32_t)b[len - 1] << 8;
	return sum;
}

static uint16_t fold(uint32_t sum)
{
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)sum;
}

static struct hr_object *obj;

/* Runs a generator with @o through dev_hints to the capture stack. */
static struct hr_dev_counters run_gen(const struct hr_gen_opts *o,
				      struct hr_dev **out_dev,
				      struct hr_datapath **out_dp)
{
	HR_OPTS(hr_dev_counters, c);
	struct hr_datapath *dp;
	struct hr_dev *dev = NULL;
	unsigned int q;
	int err;

	ncap = 0;
	CHECK_EQ(hr_dp_create(NULL, &dp), 0);
	err = hr_dev_gen_create(dp, "gen0", o, &dev);
	CHECK_EQ(err, 0);
	if (err) {
		hr_dp_destroy(dp);
		*out_dev = NULL;
		*out_dp = NULL;
		return c;
	}
	hr_dev_attach_xdp(dev, hr_object_find_prog(obj, "dev_hints"));
	hr_dev_set_stack(dev, &capdev);
	for (q = 0; q < dev->nrxq; q++)
		CHECK_EQ(hr_dp_assign_queue(dp, dev, q, 0), 0);
	CHECK_EQ(hr_dev_open(dev), 0);
	CHECK_EQ(hr_dp_run_until_idle(dp, 10000), 0);
	CHECK_EQ(hr_dev_get_counters(dev, &c), 0);
	/* Accounting: every packet received was passed and delivered. */
	CHECK_EQ(c.rx_packets, hr_dev_gen_sent(dev));
	CHECK_EQ(c.xdp_pass, c.rx_packets);
	CHECK_EQ(c.delivered, c.rx_packets);
	CHECK_EQ(c.drops_total, 0);
	CHECK_EQ(ncap, c.delivered);
	CHECK_EQ(hr_pool_outstanding(dev->pool), 0);
	*out_dev = dev;
	*out_dp = dp;
	return c;
}

struct expect {
	int v6, proto;
	bool vlan_inband;
};

/* Checks one captured packet's headers, lengths and checksums; returns
 * the L4 header (or NULL) and the addresses and ports it carries. */
static const uint8_t *check_pkt(const struct cap_pkt *p,
				const struct hr_gen_opts *o,
				const struct expect *e, uint8_t *src,
				uint8_t *dst, uint16_t *sport, uint16_t *dport)
{
	const uint8_t *b = p->data, *ip, *l4;
	size_t alen = e->v6 ? 16 : 4;
	uint32_t l4_len, sum;
	unsigned int i;

	CHECK(!memcmp(b, o->dst_mac, 6), "dst mac");
	CHECK(!memcmp(b + 6, o->src_mac, 6), "src mac");
	b += 12;
	if (e->vlan_inband) {
		CHECK_EQ(rd16(b), 0x8100);
		CHECK_EQ(rd16(b + 2), (o->vlan_prio << 13) | o->vlan_id);
		b += 4;
	}
	CHECK_EQ(rd16(b), e->v6 ? 0x86dd : 0x0800);
	ip = b + 2;
	if (e->v6) {
		CHECK_EQ(ip[0], 0x60);
		l4_len = rd16(ip + 4);
		CHECK_EQ(l4_len, p->len - (uint32_t)(ip - p->data) - 40);
		CHECK_EQ(ip[6],
			 e->proto == IPPROTO_ICMP ? IPPROTO_ICMPV6 : e->proto);
		CHECK_EQ(ip[7], 64);
		memcpy(src, ip + 8, 16);
		memcpy(dst, ip + 24, 16);
		l4 = ip + 40;
	} else {
		CHECK_EQ(ip[0], 0x45);
		CHECK_EQ(rd16(ip + 2), p->len - (uint32_t)(ip - p->data));
		CHECK_EQ(ip[9], e->proto);
		CHECK_EQ(ip[8], 64);
		/* A valid header sums to 0xffff. */
		CHECK_EQ(fold(sum16(0, ip, 20)), 0xffff);
		l4_len = rd16(ip + 2) - 20;
		memcpy(src, ip + 12, 4);
		memcpy(dst, ip + 16, 4);
		l4 = ip + 20;
	}
	sum = 0;
	if (e->proto != IPPROTO_ICMP || e->v6) {
		sum = sum16(sum16(0, src, alen), dst, alen);
		sum += (e->proto == IPPROTO_ICMP ? IPPROTO_ICMPV6 : e->proto) +
		       l4_len;
	}
	CHECK_EQ(fold(sum16(sum, l4, l4_len)), 0xffff);
	*sport = *dport = 0;
	if (e->proto == IPPROTO_UDP) {
		CHECK_EQ(rd16(l4 + 4), l4_len);
		*sport = rd16(l4);
		*dport = rd16(l4 + 2);
	} else if (e->proto == IPPROTO_TCP) {
		CHECK_EQ(l4[12], 0x50);
		CHECK_EQ(l4[13], 0x10);
		*sport = rd16(l4);
		*dport = rd16(l4 + 2);
	} else {
		CHECK_EQ(l4[0], e->v6 ? 128 : 8);
		CHECK_EQ(l4[1], 0);
	}
	/* The payload pattern: byte i of the payload is i. */
	for (i = 0;
	     l4 + (e->proto == IPPROTO_TCP ? 20 : 8) + i < p->data + p->len;
	     i++)
		if (l4[(e->proto == IPPROTO_TCP ? 20 : 8) + i] != (uint8_t)i)
			break;
	CHECK(l4 + (e->proto == IPPROTO_TCP ? 20 : 8) + i == p->data + p->len,
	      "payload byte %u", i);
	return l4;
}

static uint32_t expect_hash(const uint8_t *src, const uint8_t *dst, size_t alen,
			    uint16_t sport, uint16_t dport, bool ports)
{
	uint8_t in[36];

	memcpy(in, src, alen);
	memcpy(in + alen, dst, alen);
	in[2 * alen] = (uint8_t)(sport >> 8);
	in[2 * alen + 1] = (uint8_t)sport;
	in[2 * alen + 2] = (uint8_t)(dport >> 8);
	in[2 * alen + 3] = (uint8_t)dport;
	return hr_toeplitz(hr_rss_default_key, HR_RSS_KEY_SIZE, in,
			   2 * alen + (ports ? 4 : 0));
}

static uint64_t now_realtime(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* One format: @n packets over @flows flows, all checked. */
static void test_format(int v6, int proto, bool vlan, bool offload,
			uint32_t size, uint32_t flows)
{
	HR_OPTS(hr_gen_opts, o, .ip_version = v6 ? 6 : 4, .l4_proto = proto,
		.src_mac = { 2, 0, 0, 0, 0, 1 },
		.dst_mac = { 2, 0, 0, 0, 0, 2 }, .flows = flows,
		.src_addr_count = 3, .dst_addr_count = 2, .src_port_min = 1000,
		.src_port_max = 1004, .dst_port_min = 80, .dst_port_max = 81,
		.pkt_size = size, .vlan = vlan, .vlan_offload = offload,
		.vlan_id = 100, .vlan_prio = 5, .count = 3 * flows + 1);
	struct expect e = { v6, proto, vlan && !offload };
	size_t alen = v6 ? 16 : 4;
	struct hr_datapath *dp;
	struct hr_dev *dev;
	uint64_t t0 = now_realtime();
	unsigned int i;

	fprintf(stderr, "format v%d proto %d vlan %d/%d size %u flows %u\n",
		v6 ? 6 : 4, proto, vlan, offload, size, flows);
	run_gen(&o, &dev, &dp);
	if (!dev)
		return;
	CHECK_EQ(ncap, 3 * flows + 1);
	for (i = 0; i < ncap && i < MAXCAP; i++) {
		const struct cap_pkt *p = &cap[i];
		uint8_t src[16], dst[16];
		uint16_t sport, dport;
		uint32_t f = i % flows, rss;
		bool ports = proto != IPPROTO_ICMP;

		CHECK_EQ(p->len, size);
		check_pkt(p, &o, &e, src, dst, &sport, &dport);
		/* Flow f's tuple: one queue, so round robin is global. */
		CHECK_EQ(src[alen - 1], 1 + f % 3);
		CHECK_EQ(dst[alen - 1], 1 + f % 2);
		if (ports) {
			CHECK_EQ(sport, 1000 + f % 5);
			CHECK_EQ(dport, 80 + f % 2);
		}
		/* The hints, as the program read them. */
		CHECK_EQ(p->meta_len, sizeof(struct dev_hints_meta));
		CHECK_EQ(p->meta.ret_hash, 0);
		CHECK_EQ(p->meta.hash,
			 expect_hash(src, dst, alen, sport, dport, ports));
		rss = v6 ? 2 : 1;
		if (proto == IPPROTO_TCP)
			rss |= 8 | 16;
		else if (proto == IPPROTO_UDP)
			rss |= 8 | 32;
		CHECK_EQ(p->meta.rss_type, rss);
		CHECK_EQ(p->meta.ret_ts, 0);
		CHECK(p->meta.ts >= t0 - 1000000 &&
			      p->meta.ts <= now_realtime() + 1000000,
		      "timestamp %llu", (unsigned long long)p->meta.ts);
		if (vlan && offload) {
			CHECK_EQ(p->meta.ret_vlan, 0);
			CHECK_EQ(p->meta.vlan_proto, htons(0x8100));
			CHECK_EQ(p->meta.vlan_tci, (5 << 13) | 100);
		} else {
			CHECK_EQ(p->meta.ret_vlan, -ENODATA);
		}
	}
	hr_dp_destroy(dp);
}

/* Exact bytes of one small packet, against a hand-built one. */
static void test_exact_bytes(void)
{
	static const uint8_t want[42] = {
		/* eth */ 0x02,
		0,
		0,
		0,
		0,
		0x02,
		0x02,
		0,
		0,
		0,
		0,
		0x01,
		0x08,
		0x00,
		/* ip */ 0x45,
		0,
		0,
		46,
		0,
		0,
		0x40,
		0,
		64,
		17,
		0,
		0,
		10,
		0,
		0,
		1,
		10,
		0,
		0,
		2,
		/* udp */ 0x30,
		0x39,
		0x00,
		0x35,
		0,
		26,
		0,
		0,
	};
	HR_OPTS(hr_gen_opts, o, .src_mac = { 2, 0, 0, 0, 0, 1 },
		.dst_mac = { 2, 0, 0, 0, 0, 2 }, .src_addr = { 10, 0, 0, 1 },
		.dst_addr = { 10, 0, 0, 2 }, .src_port_min = 12345,
		.src_port_max = 12345, .dst_port_min = 53, .dst_port_max = 53,
		.count = 1);
	struct hr_datapath *dp;
	struct hr_dev *dev;
	uint8_t got[42];

	run_gen(&o, &dev, &dp);
	if (!dev)
		return;
	CHECK_EQ(ncap, 1);
	CHECK_EQ(cap[0].len, 60);
	memcpy(got, cap[0].data, 42);
	/* Checksums were verified by check_pkt elsewhere; compare the rest. */
	got[24] = got[25] = 0;
	got[40] = got[41] = 0;
	CHECK(!memcmp(got, want, 42), "header bytes differ");
	CHECK_EQ(fold(sum16(0, cap[0].data + 14, 20)), 0xffff);
	CHECK_EQ(rd16(cap[0].data + 24), 0x26bd);
	hr_dp_destroy(dp);
}

/* Flows spread over 4 queues by hash % 4, with the counts round robin
 * gives each flow. */
static void test_queues(void)
{
	HR_OPTS(hr_gen_opts, o, .flows = 16, .src_port_min = 1,
		.src_port_max = 16, .count = 100, .nrxq = 4);
	unsigned int per_flow[16] = { 0 }, i, q;
	struct hr_datapath *dp;
	struct hr_dev *dev;

	run_gen(&o, &dev, &dp);
	if (!dev)
		return;
	CHECK_EQ(ncap, 100);
	for (i = 0; i < ncap; i++) {
		const uint8_t *udp = cap[i].data + 34;
		uint32_t h = cap[i].meta.hash;

		/* skb_record_rx_queue keeps the queue + 1. */
		q = cap[i].queue;
		CHECK_EQ(q, h % 4 + 1);
		per_flow[(rd16(udp) - 1) % 16]++;
	}
	for (i = 0; i < 16; i++)
		CHECK_EQ(per_flow[i], 100 / 16 + (i < 100 % 16));
	hr_dp_destroy(dp);
}

/* A device without hints answers -EOPNOTSUPP; without metadata support
 * the program cannot make room (it aborts, counted). */
static void test_no_hints(void)
{
	HR_OPTS(hr_gen_opts, o, .count = 5, .no_hints = true);
	HR_OPTS(hr_gen_opts, o2, .count = 5, .no_meta = true);
	HR_OPTS(hr_dev_counters, c);
	struct hr_datapath *dp;
	struct hr_dev *dev;

	run_gen(&o, &dev, &dp);
	if (dev) {
		CHECK_EQ(ncap, 5);
		CHECK_EQ(cap[0].meta.ret_hash, -EOPNOTSUPP);
		CHECK_EQ(cap[0].meta.ret_ts, -EOPNOTSUPP);
		CHECK_EQ(cap[0].meta.ret_vlan, -EOPNOTSUPP);
		hr_dp_destroy(dp);
	}
	CHECK_EQ(hr_dp_create(NULL, &dp), 0);
	CHECK_EQ(hr_dev_gen_create(dp, "gen1", &o2, &dev), 0);
	hr_dev_attach_xdp(dev, hr_object_find_prog(obj, "dev_hints"));
	CHECK_EQ(hr_dp_assign_queue(dp, dev, 0, 0), 0);
	CHECK_EQ(hr_dev_open(dev), 0);
	CHECK_EQ(hr_dp_run_until_idle(dp, 10000), 0);
	CHECK_EQ(hr_dev_get_counters(dev, &c), 0);
	CHECK_EQ(c.rx_packets, 5);
	CHECK_EQ(c.xdp_aborted, 5);
	CHECK_EQ(c.xdp_exception, 5);
	CHECK_EQ(hr_pool_outstanding(dev->pool), 0);
	hr_dp_destroy(dp);
}

static void test_bad_opts(void)
{
	HR_OPTS(hr_gen_opts, small, .pkt_size = 59);
	HR_OPTS(hr_gen_opts, big, .pkt_size = 3521);
	HR_OPTS(hr_gen_opts, hdr, .ip_version = 6, .l4_proto = IPPROTO_TCP,
		.vlan = true, .pkt_size = 77);
	HR_OPTS(hr_gen_opts, ok, .ip_version = 6, .l4_proto = IPPROTO_TCP,
		.vlan = true, .pkt_size = 78);
	struct hr_datapath *dp;
	struct hr_dev *dev;

	CHECK_EQ(hr_dp_create(NULL, &dp), 0);
	CHECK_EQ(hr_dev_gen_create(dp, "g", &small, &dev), -EINVAL);
	CHECK_EQ(hr_dev_gen_create(dp, "g", &big, &dev), -EINVAL);
	CHECK_EQ(hr_dev_gen_create(dp, "g", &hdr, &dev), -EINVAL);
	CHECK_EQ(hr_dev_gen_create(dp, "g", &ok, &dev), 0);
	hr_dp_destroy(dp);
}

/* A rate paces the generator: 2000 pps for 100 ms sends about 200. */
static void test_rate(void)
{
	HR_OPTS(hr_gen_opts, o, .rate_pps = 2000, .duration_ns = 100000000ull);
	struct hr_datapath *dp;
	struct hr_dev *dev;
	uint64_t sent;

	run_gen(&o, &dev, &dp);
	if (!dev)
		return;
	sent = hr_dev_gen_sent(dev);
	CHECK(sent >= 150 && sent <= 202, "sent %llu",
	      (unsigned long long)sent);
	hr_dp_destroy(dp);
}

/*
 * Frames a program left untouched are recycled without being written
 * again (gen.c gen_refill); those it wrote are written afresh: every
 * packet dev_scribble sees is the generator's, though it scribbles on
 * every other one. A small pool on a started worker recycles each frame
 * many times through the worker's return cache.
 */
static void test_recycled_content(void)
{
	HR_OPTS(hr_gen_opts, o, .count = 20000, .flows = 4,
		.src_port_min = 1024, .src_port_max = 1027, .pool_frames = 256,
		.dst_mac = { 0x02, 0, 0, 0, 0, 1 });
	HR_OPTS(hr_dev_counters, c);
	char path[512], err[256];
	HR_OPTS(hr_object_open_opts, oo, .errbuf = err,
		.errbuf_sz = sizeof(err));
	struct hr_object *sobj;
	struct hr_datapath *dp;
	struct hr_dev *dev;
	uint64_t seen[2] = { 0 };
	uint32_t k;

	snprintf(path, sizeof(path), "%s/dev_scribble.o", t_progs_dir());
	if (hr_object_open(path, &oo, &sobj)) {
		CHECK(0, "open %s: %s", path, err);
		return;
	}
	CHECK_EQ(hr_dp_create(NULL, &dp), 0);
	CHECK_EQ(hr_dev_gen_create(dp, "gen0", &o, &dev), 0);
	hr_dev_attach_xdp(dev, hr_object_find_prog(sobj, "dev_scribble"));
	CHECK_EQ(hr_dp_assign_queue(dp, dev, 0, 0), 0);
	CHECK_EQ(hr_dev_open(dev), 0);
	CHECK_EQ(hr_dp_start(dp), 0);
	CHECK_EQ(hr_dp_run_until_idle(dp, 10000), 0);
	hr_dp_stop(dp);
	CHECK_EQ(hr_dev_get_counters(dev, &c), 0);
	for (k = 0; k < 2; k++)
		CHECK_EQ(hr_map_lookup_elem(hr_object_find_map(sobj, "seen"),
					    &k, &seen[k]),
			 0);
	CHECK_EQ(c.xdp_drop, 20000);
	CHECK_EQ(seen[0], 20000);
	CHECK_EQ(seen[1], 0);
	CHECK_EQ(hr_pool_outstanding(dev->pool), 0);
	hr_dp_destroy(dp);
	hr_object_close(sobj);
}

int main(void)
{
	char path[512], err[256];
	HR_OPTS(hr_object_open_opts, oo, .errbuf = err,
		.errbuf_sz = sizeof(err));
	static const int protos[] = { IPPROTO_UDP, IPPROTO_TCP, IPPROTO_ICMP };
	unsigned int v, p;

	cap = calloc(MAXCAP, sizeof(*cap));
	capdev.deliver = cap_deliver;
	snprintf(path, sizeof(path), "%s/dev_hints.o", t_progs_dir());
	if (hr_object_open(path, &oo, &obj)) {
		CHECK(0, "open %s: %s", path, err);
		return t_done();
	}
	test_exact_bytes();
	for (v = 0; v < 2; v++)
		for (p = 0; p < 3; p++)
			test_format(v, protos[p], false, false, 60 + 40 * v, 7);
	test_format(0, IPPROTO_UDP, true, false, 60, 6);
	test_format(0, IPPROTO_UDP, true, true, 60, 6);
	test_format(1, IPPROTO_TCP, true, false, 3520, 5);
	test_format(1, IPPROTO_TCP, true, true, 3520, 5);
	test_format(0, IPPROTO_ICMP, false, false, 3520, 3);
	test_queues();
	test_no_hints();
	test_bad_opts();
	test_rate();
	test_recycled_content();
	hr_object_close(obj);
	free(cap);
	return t_done();
}
