// SPDX-License-Identifier: MIT
/*
 * headroom bench: the topology of each mode, built through the public
 * datapath API as xdp-bench sets up its programs and maps on a device:
 *
 *   drop pass tx rxhash meta   in (RSS queues over the workers) -> XDP
 *                              [-> skb -> tc -> sink]
 *   pass, meta with --rps      in (one queue, worker 0) -> XDP -> skb
 *                              -> RPS to the --rps workers -> tc -> sink
 *   redirect, redirect-map     in -> XDP -> veth0 => veth1 (XDP_DROP)
 *   redirect-cpu               in -> XDP -> cpumap -> --cpu workers ->
 *                              cpumap program [-> skb -> tc -> sink]
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <linux/bpf.h>
#include <netinet/in.h>

#include "cli/bench.h"
#include "cli/cli.h"
#include "progs/prog_registry.h" /* hr_prog_fd, for map values */

struct bench_cpumap_val {
	uint32_t qsize;
	uint32_t prog_fd;
};

struct bench_devmap_val {
	uint32_t ifindex;
	uint32_t prog_fd;
};

static struct hr_prog *open_prog(const struct bench *b, const char *dir,
				 const char *spec, const char *const *globals,
				 size_t nglobals, struct hr_object **obj)
{
	char path[4096];
	HR_OPTS(hr_object_open_opts, o, .ncpus = b->o.workers,
		.globals = globals, .globals_cnt = nglobals);

	if (dir) {
		snprintf(path, sizeof(path), "%s/%s", dir, spec);
		spec = path;
	}
	return hr_cli_open_prog_opts(spec, &o, obj);
}

static struct hr_map *first_map_of(struct hr_object *obj, uint32_t type)
{
	unsigned int i;

	for (i = 0; i < hr_object_map_count(obj); i++)
		if (hr_map_type(hr_object_map(obj, i)) == type)
			return hr_object_map(obj, i);
	return NULL;
}

static int fail(const char *what, int err)
{
	fprintf(stderr, "headroom bench: %s: %s\n", what, strerror(-err));
	return HR_EXIT_RUN;
}

static int make_input(struct bench *b)
{
	const struct bench_opts *o = &b->o;
	/* With RPS, one RX queue: the steering spreads the work. */
	bool spread = (o->mode == BM_DROP || o->mode == BM_PASS ||
		       o->mode == BM_TX || o->mode == BM_RXHASH ||
		       o->mode == BM_META) &&
		      !o->nrps;
	unsigned int q, nq = spread && !o->pcap ? o->workers : 1;
	int ret;

	if (o->pcap) {
		HR_OPTS(hr_pcap_opts, po, .path = o->pcap, .loops = o->loops);

		ret = hr_dev_pcap_create(b->dp, "pcap0", &po, &b->in);
		if (ret) {
			fprintf(stderr, "headroom bench: %s: %s\n", o->pcap,
				strerror(-ret));
			return HR_EXIT_USAGE;
		}
	} else {
		/* Default: 60 bytes, or what the headers need. */
		uint32_t hdrs = 14 + (o->ipv6 ? 40 : 20) +
				(o->proto == IPPROTO_TCP ? 20 : 8);
		uint32_t size = o->size ? o->size : hdrs > 60 ? hdrs : 60;
		HR_OPTS(hr_gen_opts, go, .flows = o->flows, .pkt_size = size,
			.count = o->count, .rate_pps = o->rate, .nrxq = nq,
			.ip_version = o->ipv6 ? 6 : 4, .l4_proto = o->proto,
			.src_port_min = 1024,
			.src_port_max = (uint16_t)(1024 + o->flows - 1));

		if (o->flows > 64512) /* past the port range: addresses */
			go.src_addr_count = o->flows;
		ret = hr_dev_gen_create(b->dp, "gen0", &go, &b->in);
		if (ret)
			return fail("cannot create the generator", ret);
	}
	for (q = 0; q < nq; q++) {
		ret = hr_dp_assign_queue(b->dp, b->in, q, q % o->workers);
		if (ret)
			return fail("cannot assign a queue", ret);
	}
	return 0;
}

static int make_sink(struct bench *b)
{
	int ret = hr_dev_sink_create(b->dp, "sink0", NULL, &b->sink);

	if (ret)
		return fail("cannot create the sink", ret);
	hr_dev_set_stack(b->in, b->sink);
	return 0;
}

/* veth0 => veth1, veth1's XDP_DROP (a veth end needs an XDP program to
 * take XDP frames, as the kernel's veth needs one for its NAPI). */
static int make_veth(struct bench *b, const char *dir)
{
	static const char *const drop[] = { "action=1" };
	HR_OPTS(hr_veth_opts, vo, .mtu = 1500);
	struct hr_prog *p;
	int ret;

	ret = hr_dev_veth_create_pair(b->dp, "veth0", "veth1", &vo, &b->va,
				      &b->vb);
	if (ret)
		return fail("cannot create the veth pair", ret);
	p = open_prog(b, dir, "bench_action.o", drop, 1, &b->peer_obj);
	if (!p)
		return HR_EXIT_LOAD;
	hr_dev_attach_xdp(b->vb, p);
	ret = hr_dp_assign_queue(b->dp, b->vb, 0, b->o.workers - 1);
	if (!ret)
		ret = hr_dev_open(b->va);
	if (!ret)
		ret = hr_dev_open(b->vb);
	return ret ? fail("cannot open the veth pair", ret) : 0;
}

static int attach_tc(struct bench *b, const char *dir)
{
	struct hr_prog *p =
		open_prog(b, dir, "bench_tc.o", NULL, 0, &b->tc_obj);

	if (!p)
		return HR_EXIT_LOAD;
	b->tc_seen = hr_object_find_map(b->tc_obj, "tc_seen");
	hr_dev_attach_tc(b->in, p);
	return 0;
}

/* The built-in RX program of each mode, and its .rodata settings. */
static struct hr_prog *builtin_rx(struct bench *b, const char *dir)
{
	const struct bench_opts *o = &b->o;
	static const char *const verdict[] = { "action=1", "action=1",
					       "action=2", "action=3",
					       "action=4" };
	char g[4][48];
	const char *gl[4] = { g[0], g[1], g[2], g[3] };
	const char *spec = "bench_action.o";
	size_t n = 0;
	int v;

	switch (o->mode) {
	case BM_DROP:
	case BM_PASS:
	case BM_TX:
	case BM_REDIRECT:
		v = o->mode == BM_DROP ? 1 :
		    o->mode == BM_PASS ? 2 :
		    o->mode == BM_TX   ? 3 :
					 4;
		snprintf(g[n++], sizeof(g[0]), "%s", verdict[v]);
		snprintf(g[n++], sizeof(g[0]), "touch=%d", o->touch);
		if (o->mode == BM_REDIRECT)
			snprintf(g[n++], sizeof(g[0]), "redirect_ifindex=%u",
				 hr_dev_ifindex(b->va));
		break;
	case BM_RXHASH:
		spec = "bench_rxhash.o";
		snprintf(g[n++], sizeof(g[0]), "notouch=%d", o->notouch);
		break;
	case BM_META:
		spec = "bench_hints.o";
		break;
	case BM_REDIRECT_CPU:
		spec = o->by_hash ? "bench_cpu_hash.o:bench_cpu_rx" :
				    "bench_cpu.o:bench_cpu_rx";
		snprintf(g[n++], sizeof(g[0]), "ncpus=%u", o->ncpus);
		snprintf(g[n++], sizeof(g[0]), "remote_action=%d",
			 o->remote_pass ? 2 : 1);
		break;
	case BM_REDIRECT_MAP:
		spec = "bench_devmap.o:bench_devmap";
		break;
	}
	return open_prog(b, dir, spec, gl, n, &b->rx_obj);
}

static int fill_cpumap(struct bench *b)
{
	struct bench_cpumap_val v = { 2048, 0 };
	struct hr_map *avail = hr_object_find_map(b->rx_obj, "cpus_available");
	struct hr_prog *remote =
		hr_object_find_prog(b->rx_obj, "bench_cpu_remote");
	uint32_t i, cpu;
	int ret;

	b->cpumap = first_map_of(b->rx_obj, BPF_MAP_TYPE_CPUMAP);
	if (!b->cpumap) {
		fprintf(stderr, "headroom bench: %s has no CPUMAP\n",
			b->o.prog ? b->o.prog : "bench_cpu.o");
		return HR_EXIT_LOAD;
	}
	if (remote && !b->o.prog) {
		v.prog_fd = (uint32_t)hr_prog_fd(remote);
		b->remote_seen = hr_object_find_map(b->rx_obj, "remote_seen");
	}
	for (i = 0; i < b->o.ncpus; i++) {
		cpu = (uint32_t)b->o.cpus[i];
		ret = hr_map_update_elem(b->cpumap, &cpu, &v, 0);
		if (!ret && avail)
			ret = hr_map_update_elem(avail, &i, &cpu, 0);
		if (ret)
			return fail("cannot fill the cpumap", ret);
	}
	hr_dp_watch_map(b->dp, b->cpumap);
	return 0;
}

static int fill_devmap(struct bench *b, const char *dir)
{
	struct bench_devmap_val v = { hr_dev_ifindex(b->va), 0 };
	struct hr_prog *eg = NULL;
	uint32_t key = 0;
	int ret;

	b->devmap = first_map_of(b->rx_obj, BPF_MAP_TYPE_DEVMAP);
	if (!b->devmap) {
		fprintf(stderr, "headroom bench: %s has no DEVMAP\n",
			b->o.prog ? b->o.prog : "bench_devmap.o");
		return HR_EXIT_LOAD;
	}
	if (b->o.egress) {
		eg = open_prog(b, NULL, b->o.egress, NULL, 0, &b->egress_obj);
	} else if (b->o.load_egress) {
		eg = hr_object_find_prog(b->rx_obj, "bench_devmap_egress");
		b->egress_seen = hr_object_find_map(b->rx_obj, "egress_seen");
		if (!eg) /* with --prog: the built-in one from its object */
			eg = open_prog(b, dir,
				       "bench_devmap.o:bench_devmap_egress",
				       NULL, 0, &b->egress_obj);
		if (eg && b->egress_obj)
			b->egress_seen = hr_object_find_map(b->egress_obj,
							    "egress_seen");
	}
	if ((b->o.egress || b->o.load_egress) && !eg)
		return HR_EXIT_LOAD;
	if (eg)
		v.prog_fd = (uint32_t)hr_prog_fd(eg);
	ret = hr_map_update_elem(b->devmap, &key, &v, 0);
	if (ret) {
		fprintf(stderr,
			"headroom bench: cannot set devmap entry 0 (ifindex "
			"%u%s): %s\n",
			v.ifindex, eg ? ", egress program" : "",
			strerror(-ret));
		return HR_EXIT_RUN;
	}
	return 0;
}

/* --rps: the input's queue steers to those workers. */
static int set_rps(struct bench *b)
{
	uint32_t mask = 0;
	unsigned int i;
	int ret;

	for (i = 0; i < b->o.nrps; i++)
		mask |= 1u << b->o.rps[i];
	ret = hr_dev_set_rps(b->in, 0, mask);
	return ret ? fail("cannot set RPS on the input queue", ret) : 0;
}

int bench_build(struct bench *b, const char *dir)
{
	const struct bench_opts *o = &b->o;
	HR_OPTS(hr_datapath_opts, dpo, .nworkers = o->workers,
		.engine = o->engine);
	int ret;

	ret = hr_dp_create(&dpo, &b->dp);
	if (ret)
		return fail("cannot create the datapath", ret);
	ret = make_input(b);
	if (!ret && (o->mode == BM_REDIRECT || o->mode == BM_REDIRECT_MAP))
		ret = make_veth(b, dir);
	if (!ret && (o->mode == BM_PASS || o->mode == BM_META ||
		     o->mode == BM_REDIRECT_CPU))
		ret = make_sink(b);
	if (!ret && o->nrps)
		ret = set_rps(b);
	if (ret)
		return ret;
	b->rx_prog = o->prog ?
			     open_prog(b, NULL, o->prog, NULL, 0, &b->rx_obj) :
			     builtin_rx(b, dir);
	if (!b->rx_prog)
		return HR_EXIT_LOAD;
	if (!o->prog && o->mode == BM_RXHASH)
		b->rxhash_types = hr_object_find_map(b->rx_obj, "rxhash_types");
	if (o->mode == BM_REDIRECT_CPU)
		ret = fill_cpumap(b);
	if (!ret && o->mode == BM_REDIRECT_MAP)
		ret = fill_devmap(b, dir);
	if (!ret && (o->mode == BM_META ||
		     (o->mode == BM_REDIRECT_CPU && o->remote_pass)))
		ret = attach_tc(b, dir);
	if (ret)
		return ret;
	hr_dev_attach_xdp(b->in, b->rx_prog);
	ret = hr_dev_open(b->in);
	if (!ret && b->sink)
		ret = hr_dev_open(b->sink);
	return ret ? fail("cannot open the devices", ret) : 0;
}

void bench_destroy(struct bench *b)
{
	hr_dp_destroy(b->dp);
	hr_object_close(b->rx_obj);
	hr_object_close(b->peer_obj);
	hr_object_close(b->tc_obj);
	hr_object_close(b->egress_obj);
}
