// SPDX-License-Identifier: MIT
/*
 * The seed scenarios of the datapath issue, end to end through the public
 * API (generators, pcap, veth pairs, sinks, two worker threads), each under
 * the interpreter and the JIT:
 *
 *  1. DDoS filter (seed 004): IPv4/IPv6 UDP, TCP and ICMP generators into
 *     progs/core/sc_ddos.bpf.c, which drops UDP by the RX hash type alone; a
 *     pcap whose hints contradict its bytes shows it never reads them.
 *  2. Metadata to tc (seeds 000/003): progs/core/sc_meta.bpf.c writes the RX
 *     hash, type and timestamp and a pattern as 8 .. 252 bytes of
 *     metadata; progs/core/sc_meta_tc.bpf.c checks it and sets mark = hash; the
 *     sink checks every skb against the Toeplitz hash of its own headers.
 *  3. cpumap (seed 003): round robin and hash steering to two workers
 *     (progs/core/sc_cpu_rx.bpf.c), a cpumap program reading the RX worker's
 *     metadata (progs/core/sc_cpu_remote.bpf.c), the cpumap counters adding up,
 *     and rings of 8 overflowing with exactly the drops the bulk of 8 and
 *     the flush at the end of a poll make.
 *  4. devmap egress (seed 002): progs/core/sc_devmap.bpf.c redirects through a
 *     DEVMAP entry whose egress program rewrites payload bytes with the
 *     egress and ingress ifindex, to veth pairs whose peers PASS to a
 *     sink; unicast, BPF_F_BROADCAST with and without
 *     BPF_F_EXCLUDE_INGRESS.
 *
 * Every scenario checks exact verdict counts, that received = dropped +
 * transmitted + delivered + counted errors, and that every frame pool ends
 * with zero frames out. A checking sink sees each delivered skb.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <linux/bpf.h>
#include <netinet/in.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"
#include "headroom/datapath.h"
#include "headroom/devices.h"
#include "headroom/map.h"
#include "headroom/object.h"
#include "progs/prog.h"
#include "progs/prog_registry.h"
#include "core/datapath.h"
#include "core/pool.h"
#include "dev/pcap_file.h"
#include "dev/toeplitz.h"
#include "headroom/cpumap.h"

#include "../../progs/include/hr_progs.h"

#define NCPUS 2

static enum hr_engine engine;

static const char *engine_name(void)
{
	return engine == HR_ENGINE_JIT ? "jit" : "interp";
}

static struct hr_object *open_obj(const char *name)
{
	char path[512], err[256] = "";
	HR_OPTS(hr_object_open_opts, oo, .errbuf = err,
		.errbuf_sz = sizeof(err), .ncpus = NCPUS);
	struct hr_object *o = NULL;

	snprintf(path, sizeof(path), "%s/%s", t_progs_dir(), name);
	if (hr_object_open(path, &oo, &o))
		CHECK(0, "open %s: %s", path, err);
	return o;
}

static struct hr_prog *prog(struct hr_object *o, const char *name)
{
	struct hr_prog *p = o ? hr_object_find_prog(o, name) : NULL;

	CHECK(p != NULL, "program %s", name);
	return p;
}

static struct hr_map *map(struct hr_object *o, const char *name)
{
	struct hr_map *m = o ? hr_object_find_map(o, name) : NULL;

	CHECK(m != NULL, "map %s", name);
	return m;
}

static void set_u32(struct hr_map *m, uint32_t key, uint32_t v)
{
	CHECK_EQ(hr_map_update_elem(m, &key, &v, 0), 0);
}

/* The value of @key on CPU @cpu of a PERCPU_ARRAY of u64 (-1: summed). */
static uint64_t percpu(struct hr_map *m, uint32_t key, int cpu)
{
	uint64_t v[NCPUS] = { 0 };

	if (!m || hr_map_user_value_size(m) != sizeof(v) ||
	    hr_map_lookup_elem(m, &key, v)) {
		CHECK(0, "percpu lookup %u", key);
		return 0;
	}
	return cpu < 0 ? v[0] + v[1] : v[cpu];
}

static uint64_t array_u64(struct hr_map *m, uint32_t key)
{
	uint64_t v = 0;

	CHECK_EQ(hr_map_lookup_elem(m, &key, &v), 0);
	return v;
}

static struct hr_dev_counters counters(struct hr_dev *d)
{
	struct hr_dev_counters c;

	memset(&c, 0, sizeof(c));
	c.sz = sizeof(c);
	CHECK_EQ(hr_dev_get_counters(d, &c), 0);
	return c;
}

/* The program really ran under the engine asked for. */
static void check_engine(struct hr_prog *p)
{
	if (!p)
		return;
	if (engine == HR_ENGINE_JIT)
		CHECK(p->vm.jit && !p->vm.jit_refused, "%s: JIT-compiled",
		      p->name);
	else
		CHECK(!p->vm.jit, "%s: interpreted", p->name);
}

static void check_pool(struct hr_dev *d)
{
	CHECK(hr_pool_outstanding(d->pool) == 0, "%s: %u frames out",
	      hr_dev_name(d), hr_pool_outstanding(d->pool));
	CHECK_EQ(hr_pool_bad_puts(d->pool), 0);
}

static struct hr_datapath *dp_new(void)
{
	HR_OPTS(hr_datapath_opts, o, .nworkers = 2, .engine = engine);
	struct hr_datapath *dp = NULL;

	CHECK_EQ(hr_dp_create(&o, &dp), 0);
	return dp;
}

static void run(struct hr_datapath *dp, bool threads)
{
	if (threads)
		CHECK_EQ(hr_dp_start(dp), 0);
	CHECK_EQ(hr_dp_run_until_idle(dp, 20000), 0);
	if (threads)
		hr_dp_stop(dp);
}

/* --- the checking sink -------------------------------------------------- */

typedef void (*check_fn)(struct hr_worker *w, struct hr_skb *skb);

static check_fn sink_check;
static void (*sink_deliver)(struct hr_dev *dev, struct hr_worker *w,
			    struct hr_skb *skb);

static void checking_deliver(struct hr_dev *dev, struct hr_worker *w,
			     struct hr_skb *skb)
{
	sink_check(w, skb);
	sink_deliver(dev, w, skb);
}

/* A sink that hands every skb to @fn before counting and freeing it. */
static struct hr_dev *checking_sink(struct hr_datapath *dp, check_fn fn)
{
	struct hr_dev *s = NULL;

	CHECK_EQ(hr_dev_sink_create(dp, "sink0", NULL, &s), 0);
	if (!s)
		return NULL;
	sink_deliver = s->deliver;
	sink_check = fn;
	s->deliver = checking_deliver;
	CHECK_EQ(hr_dev_open(s), 0);
	return s;
}

/* IP protocol of an Ethernet frame (0: not IP). */
static int l4_proto_of(const uint8_t *p, uint32_t len, bool *v6)
{
	uint16_t et = (uint16_t)(p[12] << 8 | p[13]);

	*v6 = et == 0x86dd;
	if (et == 0x0800 && len >= 34)
		return p[23];
	if (et == 0x86dd && len >= 54)
		return p[20];
	return 0;
}

/* The NIC's RSS hash of a generated TCP/UDP/ICMP packet, from its own
 * headers: addresses, then ports for TCP and UDP. */
static uint32_t rss_of(const uint8_t *p, uint32_t len)
{
	uint8_t tuple[36];
	bool v6;
	int proto = l4_proto_of(p, len, &v6);
	size_t alen = v6 ? 16 : 4, l4 = v6 ? 54 : 34;
	bool ports = proto == IPPROTO_TCP || proto == IPPROTO_UDP;

	if (!proto || len < l4 + 4)
		return 0;
	memcpy(tuple, p + (v6 ? 22 : 26), 2 * alen);
	memcpy(tuple + 2 * alen, p + l4, 4);
	return hr_toeplitz(hr_rss_default_key, HR_RSS_KEY_SIZE, tuple,
			   2 * alen + (ports ? 4 : 0));
}

/* --- 1. DDoS filter ------------------------------------------------------ */

struct ddos_gen {
	const char *name;
	int ip_version, l4_proto;
	uint64_t count;
	bool no_hints;
	bool dropped; /* what the filter must do with all of them */
};

static const struct ddos_gen ddos_gens[] = {
	{ "udp4", 4, IPPROTO_UDP, 1000, false, true },
	{ "tcp4", 4, IPPROTO_TCP, 700, false, false },
	{ "udp6", 6, IPPROTO_UDP, 900, false, true },
	{ "icmp4", 4, IPPROTO_ICMP, 300, false, false },
	{ "tcp6", 6, IPPROTO_TCP, 500, false, false },
	{ "icmp6", 6, IPPROTO_ICMPV6, 200, false, false },
	/* No hints: the filter cannot classify and passes them. */
	{ "udp4-nohint", 4, IPPROTO_UDP, 150, true, false },
};

#define NDDOS (sizeof(ddos_gens) / sizeof(ddos_gens[0]))
#define DDOS_PCAP_PKTS 30

static _Atomic uint64_t ddos_delivered[256]; /* by IP protocol */
static _Atomic uint64_t ddos_bad;

static void ddos_check(struct hr_worker *w, struct hr_skb *skb)
{
	bool v6;
	int proto = l4_proto_of(skb->data, skb->len, &v6);

	atomic_fetch_add(&ddos_delivered[proto & 0xff], 1);
	if (skb->meta_len)
		atomic_fetch_add(&ddos_bad, 1);
}

/*
 * DDOS_PCAP_PKTS copies of one IPv4 UDP packet whose hints lie: packet i
 * is reported as UDP (i % 3 == 0), TCP (1) or has no hint line (2). A
 * filter reading the bytes would drop them all.
 */
static int ddos_pcap(char *pcap, char *hints)
{
	struct hr_pcap_writer *w;
	uint8_t pkt[64];
	FILE *f;
	int i;

	snprintf(pcap, 64, "/tmp/hr-scen-%d.pcap", (int)getpid());
	snprintf(hints, 64, "/tmp/hr-scen-%d.hints", (int)getpid());
	memset(pkt, 0, sizeof(pkt));
	memcpy(pkt, "\x02\0\0\0\0\x01\x02\0\0\0\0\x02\x08\x00", 14);
	pkt[14] = 0x45;
	pkt[17] = 50; /* total length */
	pkt[22] = 64;
	pkt[23] = IPPROTO_UDP;
	pkt[35] = 9;
	pkt[37] = 9; /* ports 9 -> 9 */
	if (hr_pcap_writer_open(pcap, &w))
		return -1;
	for (i = 0; i < DDOS_PCAP_PKTS; i++)
		hr_pcap_writer_write(w, pkt, sizeof(pkt));
	hr_pcap_writer_close(w);
	f = fopen(hints, "w");
	if (!f)
		return -1;
	for (i = 0; i < DDOS_PCAP_PKTS; i++)
		if (i % 3 != 2)
			fprintf(f,
				"{\"index\":%d,\"hash\":%d,\"rss_type\":%u}\n",
				i, 1000 + i,
				i % 3 ? XDP_RSS_TYPE_L4_IPV4_TCP :
					XDP_RSS_TYPE_L4_IPV4_UDP);
	fclose(f);
	return 0;
}

static void test_ddos(void)
{
	struct hr_dev *gen[NDDOS] = { 0 }, *pcap = NULL, *sink;
	uint64_t drop = 0, pass = 0, nohint = 0, total = 0;
	uint64_t want_proto[256] = { 0 };
	char pcap_path[64], hints_path[64];
	struct hr_datapath *dp = dp_new();
	struct hr_object *o = open_obj("sc_ddos.o");
	struct hr_prog *p = prog(o, "sc_ddos");
	struct hr_dev_counters c;
	unsigned int i, k;

	if (!dp || !p)
		goto out;
	memset(ddos_delivered, 0, sizeof(ddos_delivered));
	atomic_store(&ddos_bad, 0);
	sink = checking_sink(dp, ddos_check);
	for (i = 0; i < NDDOS; i++) {
		const struct ddos_gen *d = &ddos_gens[i];
		HR_OPTS(hr_gen_opts, go, .ip_version = d->ip_version,
			.l4_proto = d->l4_proto, .count = d->count, .flows = 16,
			.src_port_min = 1000, .src_port_max = 1015,
			.pkt_size = 100, .no_hints = d->no_hints);

		CHECK_EQ(hr_dev_gen_create(dp, d->name, &go, &gen[i]), 0);
		if (!gen[i])
			goto out;
		hr_dev_attach_xdp(gen[i], p);
		hr_dev_set_stack(gen[i], sink);
		CHECK_EQ(hr_dp_assign_queue(dp, gen[i], 0, i % 2), 0);
		CHECK_EQ(hr_dev_open(gen[i]), 0);
	}
	if (ddos_pcap(pcap_path, hints_path)) {
		CHECK(0, "writing %s", pcap_path);
		goto out;
	}
	{
		HR_OPTS(hr_pcap_opts, po, .path = pcap_path,
			.hints_path = hints_path);

		CHECK_EQ(hr_dev_pcap_create(dp, "pcap0", &po, &pcap), 0);
	}
	if (!pcap)
		goto out;
	hr_dev_attach_xdp(pcap, p);
	hr_dev_set_stack(pcap, sink);
	CHECK_EQ(hr_dp_assign_queue(dp, pcap, 0, 1), 0);
	CHECK_EQ(hr_dev_open(pcap), 0);

	run(dp, true);

	for (i = 0; i < NDDOS; i++) {
		const struct ddos_gen *d = &ddos_gens[i];

		c = counters(gen[i]);
		CHECK(c.rx_packets == d->count, "%s: rx %llu", d->name,
		      (unsigned long long)c.rx_packets);
		CHECK(c.xdp_drop == (d->dropped ? d->count : 0),
		      "%s: %llu dropped", d->name,
		      (unsigned long long)c.xdp_drop);
		CHECK(c.xdp_pass == (d->dropped ? 0 : d->count),
		      "%s: %llu passed", d->name,
		      (unsigned long long)c.xdp_pass);
		CHECK_EQ(c.xdp_aborted + c.xdp_tx + c.xdp_redirect, 0);
		/* received = dropped + delivered (nothing else happens) */
		CHECK_EQ(c.rx_packets, c.xdp_drop + c.delivered);
		CHECK_EQ(c.delivered, c.xdp_pass);
		CHECK_EQ(c.drops_total, 0);
		total += d->count;
		if (d->no_hints)
			nohint += d->count;
		else if (d->dropped)
			drop += d->count;
		else
			pass += d->count;
		if (!d->dropped)
			want_proto[d->l4_proto] += d->count;
		check_pool(gen[i]);
	}
	/* The pcap: by the hints, not by its (all UDP) bytes. */
	c = counters(pcap);
	CHECK_EQ(hr_dev_pcap_packets(pcap), DDOS_PCAP_PKTS);
	CHECK_EQ(c.rx_packets, DDOS_PCAP_PKTS);
	CHECK_EQ(c.xdp_drop, DDOS_PCAP_PKTS / 3);
	CHECK_EQ(c.xdp_pass, 2 * DDOS_PCAP_PKTS / 3);
	CHECK_EQ(c.delivered, c.xdp_pass);
	CHECK_EQ(c.rx_packets, c.xdp_drop + c.delivered);
	check_pool(pcap);
	drop += DDOS_PCAP_PKTS / 3;
	pass += DDOS_PCAP_PKTS / 3;
	nohint += DDOS_PCAP_PKTS / 3;
	want_proto[IPPROTO_UDP] += 2 * DDOS_PCAP_PKTS / 3;
	total += DDOS_PCAP_PKTS;

	/* The program's own counters, summed over the two workers. */
	CHECK_EQ(percpu(map(o, "sc_ddos_stats"), 0, -1), drop);
	CHECK_EQ(percpu(map(o, "sc_ddos_stats"), 1, -1), pass);
	CHECK_EQ(percpu(map(o, "sc_ddos_stats"), 2, -1), nohint);
	CHECK_EQ(drop + pass + nohint, total);
	/* What the stack saw, protocol by protocol. */
	c = counters(sink);
	CHECK_EQ(c.rx_packets, pass + nohint);
	for (k = 0; k < 256; k++)
		CHECK(atomic_load(&ddos_delivered[k]) == want_proto[k],
		      "protocol %u: %llu delivered, want %llu", k,
		      (unsigned long long)atomic_load(&ddos_delivered[k]),
		      (unsigned long long)want_proto[k]);
	CHECK_EQ(atomic_load(&ddos_bad), 0);
	check_engine(p);
	fprintf(stderr,
		"ddos [%s]: %llu packets, %llu UDP dropped by hint, "
		"%llu passed, %llu without hints\n",
		engine_name(), (unsigned long long)total,
		(unsigned long long)drop, (unsigned long long)pass,
		(unsigned long long)nohint);
out:
	hr_dp_destroy(dp);
	hr_object_close(o);
	unlink(pcap_path);
	unlink(hints_path);
}

/* --- 2. metadata to tc --------------------------------------------------- */

#define SC_META_MUL 0x9e3779b1u
#define META_PKTS 2000

static struct {
	uint32_t len;
	uint32_t rss_type;
	uint64_t ts_min, ts_max;
	_Atomic uint64_t seen, bad_len, bad_mark, bad_hint, bad_ts, bad_pat;
	_Atomic uint64_t per_worker[2];
} mc;

static uint64_t realtime_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void meta_check(struct hr_worker *w, struct hr_skb *skb)
{
	const uint32_t *m = (const uint32_t *)(skb->data - skb->meta_len);
	uint32_t hash = rss_of(skb->data, skb->len), i;
	uint64_t ts;

	atomic_fetch_add(&mc.seen, 1);
	atomic_fetch_add(&mc.per_worker[w->id & 1], 1);
	if (skb->meta_len != mc.len) {
		atomic_fetch_add(&mc.bad_len, 1);
		return;
	}
	/* mark = the hash in the metadata = the skb's hash = the RSS hash
	 * of the packet's own headers. */
	if (skb->mark != hash || m[0] != hash || skb->hash != hash ||
	    !skb->l4_hash)
		atomic_fetch_add(&mc.bad_mark, 1);
	if (m[1] != mc.rss_type)
		atomic_fetch_add(&mc.bad_hint, 1);
	if (mc.len >= 16) {
		ts = (uint64_t)m[3] << 32 | m[2];
		if (ts < mc.ts_min || ts > mc.ts_max)
			atomic_fetch_add(&mc.bad_ts, 1);
	}
	for (i = 4; i < mc.len / 4; i++)
		if (m[i] != (hash ^ (i * SC_META_MUL))) {
			atomic_fetch_add(&mc.bad_pat, 1);
			break;
		}
}

#define META_OUTER 48 /* the outer header sc_meta strips for 252 */
#define META_TS_BASE 1700000000000000000ull

/*
 * META_PKTS IPv4 UDP packets behind a META_OUTER-byte outer header, with
 * hints: the RSS hash of the inner headers, its type, a timestamp.
 */
static int meta_pcap(char *pcap, char *hints)
{
	uint8_t pkt[META_OUTER + 128], *in = pkt + META_OUTER;
	struct hr_pcap_writer *w;
	FILE *f;
	int i;

	snprintf(pcap, 64, "/tmp/hr-scen-meta-%d.pcap", (int)getpid());
	snprintf(hints, 64, "/tmp/hr-scen-meta-%d.hints", (int)getpid());
	memset(pkt, 0x55, META_OUTER);
	memset(in, 0, 128);
	memcpy(in, "\x02\0\0\0\0\x01\x02\0\0\0\0\x02\x08\x00", 14);
	in[14] = 0x45;
	in[16] = 0;
	in[17] = 114;
	in[22] = 64;
	in[23] = IPPROTO_UDP;
	memcpy(in + 26, "\xc6\x12\x00\x01\xc6\x12\x01\x01", 8);
	in[37] = 9;
	if (hr_pcap_writer_open(pcap, &w))
		return -1;
	f = fopen(hints, "w");
	if (!f) {
		hr_pcap_writer_close(w);
		return -1;
	}
	for (i = 0; i < META_PKTS; i++) {
		in[34] = (uint8_t)((5000 + i % 97) >> 8);
		in[35] = (uint8_t)(5000 + i % 97);
		hr_pcap_writer_write(w, pkt, sizeof(pkt));
		fprintf(f,
			"{\"index\":%d,\"hash\":%u,\"rss_type\":%u,"
			"\"timestamp\":%llu}\n",
			i, rss_of(in, 128), XDP_RSS_TYPE_L4_IPV4_UDP,
			(unsigned long long)(META_TS_BASE + i));
	}
	hr_pcap_writer_close(w);
	fclose(f);
	return 0;
}

/* @len bytes of metadata on packets from a generator (2 queues on 2
 * workers), or (@pcap) from meta_pcap() with the outer header stripped. */
static void test_meta_tc(uint32_t len, int ip_version, int l4_proto, bool pcap)
{
	char pcap_path[64] = "", hints_path[64] = "";
	HR_OPTS(hr_gen_opts, go, .ip_version = ip_version, .l4_proto = l4_proto,
		.count = META_PKTS, .flows = 64, .src_port_min = 2000,
		.src_port_max = 2063, .pkt_size = 128, .nrxq = 2);
	struct hr_datapath *dp = dp_new();
	struct hr_object *x = open_obj("sc_meta.o");
	struct hr_object *t = open_obj("sc_meta_tc.o");
	struct hr_prog *xp = prog(x, "sc_meta"), *tp = prog(t, "sc_meta_tc");
	struct hr_map *ts = map(t, "sc_meta_tc_stats");
	struct hr_dev *gen = NULL, *sink;
	struct hr_dev_counters c;

	if (!dp || !xp || !tp || !ts)
		goto out;
	memset(&mc, 0, sizeof(mc));
	mc.len = len;
	mc.rss_type =
		(ip_version == 6 ? XDP_RSS_L3_IPV6 : XDP_RSS_L3_IPV4) |
		XDP_RSS_L4 |
		(l4_proto == IPPROTO_TCP ? XDP_RSS_L4_TCP : XDP_RSS_L4_UDP);
	sink = checking_sink(dp, meta_check);
	if (pcap) {
		HR_OPTS(hr_pcap_opts, po, .path = pcap_path,
			.hints_path = hints_path);

		mc.ts_min = META_TS_BASE;
		mc.ts_max = META_TS_BASE + META_PKTS - 1;
		if (meta_pcap(pcap_path, hints_path))
			CHECK(0, "writing %s", pcap_path);
		else
			CHECK_EQ(hr_dev_pcap_create(dp, "pcap0", &po, &gen), 0);
	} else {
		mc.ts_min = realtime_ns();
		mc.ts_max = mc.ts_min + 60000000000ull;
		CHECK_EQ(hr_dev_gen_create(dp, "gen0", &go, &gen), 0);
	}
	if (!gen || !sink)
		goto out;
	set_u32(map(x, "sc_meta_cfg"), 0, len);
	set_u32(map(x, "sc_meta_cfg"), 1, pcap ? META_OUTER : 0);
	set_u32(map(t, "sc_meta_tc_cfg"), 0, len);
	hr_dev_attach_xdp(gen, xp);
	hr_dev_attach_tc(gen, tp);
	hr_dev_set_stack(gen, sink);
	CHECK_EQ(hr_dp_assign_queue(dp, gen, 0, 0), 0);
	if (!pcap)
		CHECK_EQ(hr_dp_assign_queue(dp, gen, 1, 1), 0);
	CHECK_EQ(hr_dev_open(gen), 0);
	run(dp, true);

	c = counters(gen);
	CHECK_EQ(c.rx_packets, META_PKTS);
	CHECK(c.xdp_pass == META_PKTS, "meta %u: %llu passed (aborted %llu)",
	      len, (unsigned long long)c.xdp_pass,
	      (unsigned long long)c.xdp_aborted);
	CHECK_EQ(c.delivered, META_PKTS);
	CHECK_EQ(c.rx_packets, c.xdp_drop + c.xdp_aborted + c.delivered +
				       c.drops_total + c.tc_stolen);
	CHECK_EQ(counters(sink).rx_packets, META_PKTS);
	/* tc's view. */
	CHECK_EQ(percpu(ts, 0, -1), META_PKTS);
	CHECK(percpu(ts, 1, -1) == META_PKTS, "meta %u: tc ok %llu", len,
	      (unsigned long long)percpu(ts, 1, -1));
	CHECK_EQ(percpu(ts, 2, -1) + percpu(ts, 3, -1) + percpu(ts, 4, -1) +
			 percpu(ts, 5, -1),
		 0);
	/* The sink's view of every skb. */
	CHECK_EQ(atomic_load(&mc.seen), META_PKTS);
	CHECK(pcap || (atomic_load(&mc.per_worker[0]) &&
		       atomic_load(&mc.per_worker[1])),
	      "both queues delivered");
	CHECK(atomic_load(&mc.bad_len) == 0, "meta %u: %llu bad lengths", len,
	      (unsigned long long)atomic_load(&mc.bad_len));
	CHECK(atomic_load(&mc.bad_mark) == 0, "meta %u: %llu bad marks", len,
	      (unsigned long long)atomic_load(&mc.bad_mark));
	CHECK(atomic_load(&mc.bad_hint) == 0, "meta %u: %llu bad types", len,
	      (unsigned long long)atomic_load(&mc.bad_hint));
	CHECK(atomic_load(&mc.bad_ts) == 0, "meta %u: %llu bad stamps", len,
	      (unsigned long long)atomic_load(&mc.bad_ts));
	CHECK(atomic_load(&mc.bad_pat) == 0, "meta %u: %llu bad patterns", len,
	      (unsigned long long)atomic_load(&mc.bad_pat));
	check_pool(gen);
	check_engine(xp);
	check_engine(tp);
out:
	hr_dp_destroy(dp);
	hr_object_close(x);
	hr_object_close(t);
	if (pcap) {
		unlink(pcap_path);
		unlink(hints_path);
	}
}

/* --- 3. cpumap ------------------------------------------------------------ */

#define SC_CPU_MAGIC 0x53435055u

struct sc_cpu_meta {
	uint32_t magic, hash, target, rx_cpu;
};

struct cpumap_val {
	uint32_t qsize;
	uint32_t prog;
};

static struct {
	bool by_hash;
	_Atomic uint64_t per_worker[2];
	_Atomic uint64_t bad_meta, bad_cpu, bad_hash;
} cc;

static void cpu_check(struct hr_worker *w, struct hr_skb *skb)
{
	const struct sc_cpu_meta *m = (const void *)(skb->data - skb->meta_len);
	uint32_t hash = rss_of(skb->data, skb->len);

	atomic_fetch_add(&cc.per_worker[w->id & 1], 1);
	if (skb->meta_len != sizeof(*m) || m->magic != SC_CPU_MAGIC ||
	    m->rx_cpu != 0) {
		atomic_fetch_add(&cc.bad_meta, 1);
		return;
	}
	/* Built into an skb on the worker the program chose. */
	if (m->target != w->id)
		atomic_fetch_add(&cc.bad_cpu, 1);
	if (m->hash != hash || (cc.by_hash && (hash & 1) != w->id))
		atomic_fetch_add(&cc.bad_hash, 1);
}

struct cpu_setup {
	struct hr_datapath *dp;
	struct hr_object *rx, *rem;
	struct hr_prog *rxp, *remp;
	struct hr_map *cmap;
	struct hr_dev *gen, *sink;
};

static int cpu_setup(struct cpu_setup *s, uint64_t count, uint32_t qsize,
		     bool by_hash)
{
	HR_OPTS(hr_gen_opts, go, .count = count, .flows = 64,
		.src_port_min = 3000, .src_port_max = 3063, .pkt_size = 100);
	struct cpumap_val v = { qsize, 0 };
	uint32_t k;

	memset(s, 0, sizeof(*s));
	memset(&cc, 0, sizeof(cc));
	cc.by_hash = by_hash;
	s->dp = dp_new();
	s->rx = open_obj("sc_cpu_rx.o");
	s->rem = open_obj("sc_cpu_remote.o");
	s->rxp = prog(s->rx, "sc_cpu_rx");
	s->remp = prog(s->rem, "sc_cpu_remote");
	s->cmap = map(s->rx, "sc_cpu_map");
	if (!s->dp || !s->rxp || !s->remp || !s->cmap)
		return -1;
	s->sink = checking_sink(s->dp, cpu_check);
	CHECK_EQ(hr_dev_gen_create(s->dp, "gen0", &go, &s->gen), 0);
	if (!s->gen || !s->sink)
		return -1;
	hr_dev_attach_xdp(s->gen, s->rxp);
	hr_dev_set_stack(s->gen, s->sink);
	/* The generator's queue first: worker 0 polls it before key 0's
	 * ring. */
	CHECK_EQ(hr_dp_assign_queue(s->dp, s->gen, 0, 0), 0);
	CHECK_EQ(hr_dev_open(s->gen), 0);
	set_u32(map(s->rx, "sc_cpu_cfg"), 0, by_hash);
	v.prog = (uint32_t)hr_prog_fd(s->remp);
	for (k = 0; k < 2; k++)
		CHECK_EQ(hr_map_update_elem(s->cmap, &k, &v, 0), 0);
	return 0;
}

static void cpu_teardown(struct cpu_setup *s)
{
	uint32_t k;

	if (s->cmap)
		for (k = 0; k < 2; k++)
			hr_map_delete_elem(s->cmap, &k);
	hr_dp_destroy(s->dp);
	hr_object_close(s->rx);
	hr_object_close(s->rem);
}

/*
 * The counters of both entries add up: redirected = flushed towards the
 * rings = ring-full drops + taken by the remote side = program PASS =
 * skbs delivered; the program's per-CPU counts match, none out. Returns
 * the drops.
 */
static uint64_t cpu_account(struct cpu_setup *s, uint64_t count,
			    const uint64_t steered[2])
{
	struct hr_cpumap_kthread_stats ks;
	struct hr_cpumap_enq_stats es;
	struct hr_map *rs = map(s->rem, "sc_rem_stats");
	struct hr_dev_counters g = counters(s->gen);
	uint64_t drops = 0, delivered = 0;
	uint32_t k;

	CHECK_EQ(g.rx_packets, count);
	CHECK_EQ(g.xdp_redirect, count);
	CHECK_EQ(g.redirect_err_total, 0);
	CHECK_EQ(g.xdp_drop + g.xdp_aborted + g.xdp_pass + g.xdp_tx, 0);
	CHECK_EQ(steered[0] + steered[1], count);
	for (k = 0; k < 2; k++) {
		CHECK_EQ(hr_cpumap_enqueue_stats(s->cmap, 0, k, &es), 0);
		CHECK_EQ(hr_cpumap_kthread_stats(s->cmap, k, &ks), 0);
		CHECK_EQ(es.processed, steered[k]);
		CHECK_EQ(es.processed, es.drops + ks.processed);
		CHECK(es.bulks && es.processed <= 8 * es.bulks,
		      "bulks of at most 8: %llu in %llu",
		      (unsigned long long)es.processed,
		      (unsigned long long)es.bulks);
		CHECK_EQ(ks.processed, ks.xdp_pass + ks.xdp_drop +
					       ks.xdp_redirect + ks.drops);
		CHECK_EQ(ks.xdp_drop + ks.xdp_redirect + ks.drops, 0);
		CHECK_EQ(ks.delivered, ks.xdp_pass);
		/* The cpumap program ran on worker k, and only there. */
		CHECK_EQ(percpu(rs, 0, (int)k), ks.processed);
		CHECK_EQ(percpu(rs, 1, (int)k), ks.processed);
		CHECK_EQ(atomic_load(&cc.per_worker[k]), ks.delivered);
		drops += es.drops;
		delivered += ks.delivered;
	}
	CHECK_EQ(percpu(rs, 2, -1) + percpu(rs, 3, -1), 0);
	CHECK_EQ(g.delivered, delivered);
	/* received = delivered + counted cpumap drops */
	CHECK_EQ(g.rx_packets, g.delivered + drops);
	CHECK_EQ(counters(s->sink).rx_packets, delivered);
	CHECK_EQ(atomic_load(&cc.bad_meta), 0);
	CHECK_EQ(atomic_load(&cc.bad_cpu), 0);
	CHECK_EQ(atomic_load(&cc.bad_hash), 0);
	check_pool(s->gen);
	check_engine(s->rxp);
	check_engine(s->remp);
	return drops;
}

/* Rings large enough for everything: no drop, exact steering. */
static void test_cpumap_steer(bool by_hash)
{
	const uint64_t count = 4000;
	struct cpu_setup s;
	uint64_t steered[2];
	struct hr_map *st;

	if (cpu_setup(&s, count, 4096, by_hash))
		goto out;
	run(s.dp, true);
	st = map(s.rx, "sc_cpu_steered");
	steered[0] = array_u64(st, 1);
	steered[1] = array_u64(st, 2);
	CHECK_EQ(cpu_account(&s, count, steered), 0);
	if (by_hash)
		CHECK(steered[0] && steered[1], "hash: both CPUs (%llu, %llu)",
		      (unsigned long long)steered[0],
		      (unsigned long long)steered[1]);
	else
		CHECK(steered[0] == count / 2 && steered[1] == count / 2,
		      "round robin: %llu, %llu", (unsigned long long)steered[0],
		      (unsigned long long)steered[1]);
	CHECK_EQ(array_u64(st, 0), by_hash ? 0 : count);
	fprintf(stderr, "cpumap [%s] %s: %llu + %llu, no drop\n", engine_name(),
		by_hash ? "hash" : "round robin",
		(unsigned long long)steered[0], (unsigned long long)steered[1]);
out:
	cpu_teardown(&s);
}

/*
 * Rings of 8, round robin, polled on this thread (worker 0: generator
 * then key 0's ring; then worker 1: key 1's ring). A poll of 64 gives
 * each key 32 frames: bulks of 8 flushed at the 9th, 17th and 25th frame
 * and at the end of the poll. Key 0: the first round's first bulk and
 * end bulk get in (its ring is drained between them), later rounds only
 * the end bulk; key 1's ring is drained once a round: one bulk in. Over
 * 10 rounds of 64: key 0 takes 16 + 9 * 8 = 88 of 320, key 1 80 of 320.
 */
static void test_cpumap_small_ring(bool threads)
{
	const uint64_t count = 640;
	struct hr_cpumap_enq_stats e0, e1;
	struct cpu_setup s;
	uint64_t steered[2], drops;
	struct hr_map *st;

	if (cpu_setup(&s, count, 8, false))
		goto out;
	run(s.dp, threads);
	st = map(s.rx, "sc_cpu_steered");
	steered[0] = array_u64(st, 1);
	steered[1] = array_u64(st, 2);
	CHECK_EQ(steered[0], count / 2);
	CHECK_EQ(steered[1], count / 2);
	drops = cpu_account(&s, count, steered);
	hr_cpumap_enqueue_stats(s.cmap, 0, 0, &e0);
	hr_cpumap_enqueue_stats(s.cmap, 0, 1, &e1);
	if (!threads) {
		CHECK_EQ(e0.processed - e0.drops, 88);
		CHECK_EQ(e0.drops, 232);
		CHECK_EQ(e1.processed - e1.drops, 80);
		CHECK_EQ(e1.drops, 240);
		CHECK_EQ(e0.bulks, 40);
		CHECK_EQ(e1.bulks, 40);
	}
	fprintf(stderr,
		"cpumap [%s] qsize 8 %s: %llu delivered, %llu ring-full "
		"drops\n",
		engine_name(), threads ? "threaded" : "one thread",
		(unsigned long long)(count - drops), (unsigned long long)drops);
out:
	cpu_teardown(&s);
}

/* --- 4. devmap egress ----------------------------------------------------- */

#define SC_DM_OFF 42
#define SC_DM_MARK 0xee
#define DM_PKTS 1500

struct dm_setup {
	struct hr_datapath *dp;
	struct hr_object *o;
	struct hr_prog *redir, *egress, *peer;
	struct hr_map *dm;
	struct hr_dev *gen, *a[2], *b[2], *sink;
};

static struct {
	uint32_t gen_ifindex;
	uint32_t b_ifindex[2], a_ifindex[2];
	_Atomic uint64_t per_b[2], bad;
} dc;

static void dm_check(struct hr_worker *w, struct hr_skb *skb)
{
	const uint8_t *d = skb->data;
	int i = skb->ifindex == dc.b_ifindex[0] ? 0 :
		skb->ifindex == dc.b_ifindex[1] ? 1 :
						  -1;

	if (i < 0 || skb->len < SC_DM_OFF + 3 || skb->meta_len) {
		atomic_fetch_add(&dc.bad, 1);
		return;
	}
	atomic_fetch_add(&dc.per_b[i], 1);
	/* Rewritten by the egress program of the entry towards a[i]. */
	if (d[SC_DM_OFF] != dc.a_ifindex[i] ||
	    d[SC_DM_OFF + 1] != dc.gen_ifindex ||
	    d[SC_DM_OFF + 2] != SC_DM_MARK)
		atomic_fetch_add(&dc.bad, 1);
}

struct dv {
	uint32_t ifindex;
	uint32_t prog;
};

static int dm_setup(struct dm_setup *s, uint32_t mode)
{
	HR_OPTS(hr_gen_opts, go, .count = DM_PKTS, .flows = 8,
		.src_port_min = 4000, .src_port_max = 4007, .pkt_size = 128);
	HR_OPTS(hr_veth_opts, vo, .mtu = 1500);
	static const char *names[4] = { "veth0", "veth1", "veth2", "veth3" };
	struct dv v;
	uint32_t k;
	int i;

	memset(s, 0, sizeof(*s));
	memset(&dc, 0, sizeof(dc));
	s->dp = dp_new();
	s->o = open_obj("sc_devmap.o");
	s->redir = prog(s->o, "sc_dm_redirect");
	s->egress = prog(s->o, "sc_dm_egress");
	s->peer = prog(s->o, "sc_dm_peer");
	s->dm = map(s->o, "sc_dm_map");
	if (!s->dp || !s->redir || !s->egress || !s->peer || !s->dm)
		return -1;
	s->sink = checking_sink(s->dp, dm_check);
	CHECK_EQ(hr_dev_gen_create(s->dp, "gen0", &go, &s->gen), 0);
	for (i = 0; i < 2; i++)
		CHECK_EQ(hr_dev_veth_create_pair(s->dp, names[2 * i],
						 names[2 * i + 1], &vo,
						 &s->a[i], &s->b[i]),
			 0);
	if (!s->sink || !s->gen || !s->a[0] || !s->a[1])
		return -1;
	dc.gen_ifindex = hr_dev_ifindex(s->gen);
	hr_dev_attach_xdp(s->gen, s->redir);
	CHECK_EQ(hr_dp_assign_queue(s->dp, s->gen, 0, 0), 0);
	CHECK_EQ(hr_dev_open(s->gen), 0);
	for (i = 0; i < 2; i++) {
		dc.a_ifindex[i] = hr_dev_ifindex(s->a[i]);
		dc.b_ifindex[i] = hr_dev_ifindex(s->b[i]);
		hr_dev_attach_xdp(s->b[i], s->peer);
		hr_dev_set_stack(s->b[i], s->sink);
		CHECK_EQ(hr_dp_assign_queue(s->dp, s->b[i], 0, 1), 0);
		CHECK_EQ(hr_dev_open(s->a[i]), 0);
		CHECK_EQ(hr_dev_open(s->b[i]), 0);
	}
	/* Key 0: the ingress device itself, no egress program; keys 1, 2:
	 * the veths, with it. */
	v.ifindex = dc.gen_ifindex;
	v.prog = 0;
	k = 0;
	CHECK_EQ(hr_map_update_elem(s->dm, &k, &v, 0), 0);
	v.prog = (uint32_t)hr_prog_fd(s->egress);
	for (k = 1; k < 3; k++) {
		v.ifindex = dc.a_ifindex[k - 1];
		CHECK_EQ(hr_map_update_elem(s->dm, &k, &v, 0), 0);
	}
	set_u32(map(s->o, "sc_dm_cfg"), 0, mode);
	return 0;
}

/*
 * mode 0: unicast to key 1 (a[0]); 1: broadcast excluding the ingress
 * device (a[0] and a[1]); 2: broadcast to all three (the copy to the
 * generator leaves on its wire, not rewritten).
 */
static void test_devmap(uint32_t mode, bool threads)
{
	struct hr_veth_stats vs;
	struct hr_dev_counters g, a, b;
	uint64_t copies = 0, delivered = 0, ring_full = 0, egress = 0;
	struct hr_map *stats;
	struct dm_setup s;
	int i;

	if (dm_setup(&s, mode))
		goto out;
	run(s.dp, threads);
	stats = map(s.o, "sc_dm_stats");
	g = counters(s.gen);
	CHECK_EQ(g.rx_packets, DM_PKTS);
	CHECK_EQ(g.xdp_redirect, DM_PKTS);
	CHECK_EQ(g.redirect_err_total, 0);
	CHECK_EQ(g.drops_total, 0);
	/* The copy to the ingress device, sent unchanged. */
	CHECK_EQ(g.tx_packets, mode == 2 ? DM_PKTS : 0);
	for (i = 0; i < 2; i++) {
		uint64_t want = i == 0 || mode ? DM_PKTS : 0;

		a = counters(s.a[i]);
		b = counters(s.b[i]);
		hr_dev_veth_stats(s.a[i], &vs);
		/* Each copy reached a[i]'s transmit: sent to b[i] or
		 * refused at a full ring, counted. */
		CHECK_EQ(a.tx_packets + a.drops_total, want);
		CHECK_EQ(vs.xmit, a.tx_packets);
		CHECK_EQ(vs.xmit_err_ring_full, a.drops_total);
		CHECK_EQ(vs.xmit_err_mtu + vs.xmit_err_enxio, 0);
		CHECK_EQ(a.drops[HR_DROP_EGRESS_PROG], 0);
		CHECK_EQ(b.rx_packets, a.tx_packets);
		CHECK_EQ(b.xdp_pass, b.rx_packets);
		CHECK_EQ(b.delivered, b.xdp_pass);
		CHECK_EQ(atomic_load(&dc.per_b[i]), b.delivered);
		if (!threads)
			CHECK(b.delivered == want, "mode %u: %llu via b%d",
			      mode, (unsigned long long)b.delivered, i);
		copies += want;
		delivered += b.delivered;
		ring_full += vs.xmit_err_ring_full;
		check_pool(s.a[i]);
		check_pool(s.b[i]);
	}
	/* Every copy: delivered with the rewritten bytes, or counted. */
	CHECK_EQ(copies, delivered + ring_full);
	CHECK_EQ(counters(s.sink).rx_packets, delivered);
	CHECK_EQ(atomic_load(&dc.bad), 0);
	/* The egress program ran once per copy towards a veth. */
	egress = percpu(stats, 0, -1);
	CHECK_EQ(egress, copies);
	CHECK_EQ(percpu(stats, 1, -1), delivered);
	CHECK_EQ(percpu(stats, 2, -1), 0);
	check_pool(s.gen);
	check_engine(s.redir);
	check_engine(s.egress);
	check_engine(s.peer);
	fprintf(stderr,
		"devmap [%s] mode %u %s: %llu copies of %u packets, %llu "
		"delivered rewritten, %llu ring-full\n",
		engine_name(), mode, threads ? "threaded" : "one thread",
		(unsigned long long)copies, DM_PKTS,
		(unsigned long long)delivered, (unsigned long long)ring_full);
out:
	hr_dp_destroy(s.dp);
	hr_object_close(s.o);
}

int main(void)
{
	/* 216: the most 256 bytes of headroom hold above a struct xdp_frame;
	 * 252, the kernel's limit, after a 48-byte decap. */
	static const uint32_t meta_lens[] = { 8, 12, 32, 64, 128, 216 };
	static const enum hr_engine engines[] = { HR_ENGINE_INTERP,
						  HR_ENGINE_JIT };
	unsigned int e, i;
	uint32_t mode;

	for (e = 0; e < 2; e++) {
		engine = engines[e];
		test_ddos();
		for (i = 0; i < sizeof(meta_lens) / sizeof(meta_lens[0]); i++)
			test_meta_tc(meta_lens[i], i & 1 ? 6 : 4,
				     i & 1 ? IPPROTO_UDP : IPPROTO_TCP, false);
		test_meta_tc(252, 4, IPPROTO_UDP, true);
		test_cpumap_steer(false);
		test_cpumap_steer(true);
		test_cpumap_small_ring(false);
		test_cpumap_small_ring(true);
		for (mode = 0; mode < 3; mode++) {
			test_devmap(mode, false);
			test_devmap(mode, true);
		}
	}
	return t_done();
}
