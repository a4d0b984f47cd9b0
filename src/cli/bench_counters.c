// SPDX-License-Identifier: MIT
/*
 * headroom bench: one reading of the counters a mode reports, from the
 * devices, the cpumap (its xdp_cpumap_enqueue / _kthread counters) and
 * the per-CPU arrays of the built-in programs, as xdp-bench reads its
 * per-CPU maps: every CPU's value summed by the reader.
 */
#include <string.h>
#include <time.h>

#include "cli/bench.h"
#include "headroom/cpumap.h"

uint64_t bench_percpu_sum(struct hr_map *map, uint32_t key)
{
	uint64_t v[BENCH_MAX_CPUS] = { 0 }, sum = 0;
	uint32_t i, n;

	if (!map)
		return 0;
	n = hr_map_user_value_size(map) / 8;
	if (n > BENCH_MAX_CPUS || hr_map_lookup_elem(map, &key, v))
		return 0;
	for (i = 0; i < n; i++)
		sum += v[i];
	return sum;
}

static void dev_counters(struct hr_dev *dev, struct hr_dev_counters *c)
{
	memset(c, 0, sizeof(*c));
	c->sz = sizeof(*c);
	if (dev)
		hr_dev_get_counters(dev, c);
}

static void cpumap_counters(struct bench *b, struct bench_snap *s)
{
	struct hr_cpumap_enq_stats e;
	struct hr_cpumap_kthread_stats k;
	unsigned int i, src;
	uint32_t key;

	for (i = 0; i < b->o.ncpus; i++) {
		key = (uint32_t)b->o.cpus[i];
		for (src = 0; src < b->o.workers; src++) {
			if (hr_cpumap_enqueue_stats(b->cpumap, src, key, &e))
				continue;
			s->enq += e.processed;
			s->enq_drops += e.drops;
			s->enq_bulks += e.bulks;
		}
		if (hr_cpumap_kthread_stats(b->cpumap, key, &k))
			continue;
		s->kt_processed += k.processed;
		s->kt_drops += k.drops;
		s->kt_pass += k.xdp_pass;
		s->kt_drop += k.xdp_drop;
		s->kt_redirect += k.xdp_redirect;
		s->kt_sched += k.sched;
	}
}

/* Every worker's backlog (RPS), summed. */
static void backlog_counters(struct bench *b, struct bench_snap *s)
{
	struct hr_backlog_stats bs;
	unsigned int w;

	for (w = 0; w < b->o.workers; w++) {
		memset(&bs, 0, sizeof(bs));
		bs.sz = sizeof(bs);
		if (hr_dp_get_backlog_stats(b->dp, w, &bs))
			continue;
		s->rps_enq += bs.enqueued;
		s->rps_drops += bs.dropped;
		s->rps_proc += bs.processed;
	}
}

void bench_read(struct bench *b, struct bench_snap *s)
{
	struct timespec ts;
	unsigned int i;

	memset(s, 0, sizeof(*s));
	clock_gettime(CLOCK_MONOTONIC, &ts);
	s->t = (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
	dev_counters(b->in, &s->in);
	dev_counters(b->vb, &s->vb);
	if (b->va)
		hr_dev_veth_stats(b->va, &s->va_tx);
	if (b->cpumap)
		cpumap_counters(b, s);
	if (b->o.nrps)
		backlog_counters(b, s);
	s->remote_seen = bench_percpu_sum(b->remote_seen, 0);
	s->tc_seen = bench_percpu_sum(b->tc_seen, 0);
	s->tc_meta = bench_percpu_sum(b->tc_seen, 1);
	s->egress_seen = bench_percpu_sum(b->egress_seen, 0);
	if (b->rxhash_types)
		for (i = 0; i < BENCH_RXHASH_TYPES; i++)
			s->types[i] = bench_percpu_sum(b->rxhash_types, i);
}

/* The bits of enum xdp_rss_hash_type (include/net/xdp.h). */
const char *bench_rxhash_name(unsigned int i, char *buf, size_t sz)
{
	static const char *const l4[] = { "TCP", "UDP", "SCTP", "IPSEC",
					  "ICMP" };
	const char *l3 = i & 1 ? "IPv4" : i & 2 ? "IPv6" : "L2";
	size_t n;
	unsigned int b;

	if (i == BENCH_RXHASH_TYPES - 1)
		return "no-hash";
	n = (size_t)snprintf(buf, sz, "%s%s", l3, i & 4 ? "-EX" : "");
	for (b = 0; b < 5; b++)
		if (i & (16u << b) && n < sz)
			n += (size_t)snprintf(buf + n, sz - n, "-%s", l4[b]);
	if ((i & 8) && !(i & 0x1f0) && n < sz)
		snprintf(buf + n, sz - n, "-L4");
	return buf;
}
