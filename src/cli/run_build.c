// SPDX-License-Identifier: MIT
/*
 * `headroom run`: the datapath a config describes, built through the
 * public C API as src/cli/demo_pipeline.c builds its own: programs
 * opened (with .rodata settings and map sizes) and their maps filled,
 * devices created, programs attached, queues given to workers, cpumap
 * and devmap entries written as bpftool would write them.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/bpf.h>

#include <headroom/headroom.h>
#include <headroom/datapath.h>
#include <headroom/devices.h>

#include "cli/cli.h"
#include "cli/run.h"
#include "progs/prog_registry.h"

#define PERR(t, pos, ...) (hr_config_perror((t)->cfg, (pos), __VA_ARGS__))

/* Relative object paths: from the working directory, else beside the
 * config file. */
static char *resolve(const struct hr_config *cfg, const char *spec)
{
	const char *slash = strrchr(cfg->file ? cfg->file : "", '/');
	char *path = NULL, *colon;
	char obj[4096];

	snprintf(obj, sizeof(obj), "%s", spec);
	colon = strrchr(obj, ':');
	if (colon && !strchr(colon, '/'))
		*colon = '\0';
	if (spec[0] == '/' || access(obj, R_OK) == 0 || !slash)
		return strdup(spec);
	if (asprintf(&path, "%.*s/%s", (int)(slash - cfg->file), cfg->file,
		     spec) < 0)
		return NULL;
	return path;
}

static int open_progs(struct run_topo *t)
{
	struct hr_config *cfg = t->cfg;
	int i, j, ret;

	for (i = 0; i < cfg->nprogs; i++) {
		struct hr_cfg_prog *p = &cfg->progs[i];
		HR_OPTS(hr_object_open_opts, o,
			.ncpus = cfg->workers ? cfg->workers : 1,
			.globals = (const char *const *)p->sets,
			.globals_cnt = (size_t)p->nsets,
			.map_sizes = (const char *const *)p->sizes,
			.map_sizes_cnt = (size_t)p->nsizes);
		char *spec = resolve(cfg, p->spec);

		if (!spec)
			return HR_EXIT_LOAD;
		t->prog[i] = hr_cli_open_prog_opts(spec, &o, &t->obj[i]);
		free(spec);
		if (!t->prog[i]) {
			PERR(t, p->pos, "program '%s': cannot load '%s'",
			     p->name, p->spec);
			return HR_EXIT_LOAD;
		}
		for (j = 0; j < p->nmaps; j++) {
			ret = hr_cli_map_preload(t->obj[i], p->maps[j].entries,
						 p->maps[j].n);
			if (ret) {
				PERR(t, p->maps[j].pos,
				     "program '%s': key 'maps': cannot fill map '%s'",
				     p->name, p->maps[j].map);
				return HR_EXIT_USAGE;
			}
		}
	}
	return 0;
}

static struct hr_prog *prog_named(struct run_topo *t, const char *name,
				  const char *type, struct hr_cfg_pos pos,
				  const char *key)
{
	struct hr_cfg_prog *p = hr_config_prog(t->cfg, name);
	struct hr_prog *prog;

	if (!p) {
		PERR(t, pos, "key '%s': no program '%s' in 'programs'", key,
		     name);
		return NULL;
	}
	prog = t->prog[p - t->cfg->progs];
	if (strcmp(hr_prog_type_name(prog), type)) {
		PERR(t, pos,
		     "key '%s': program '%s' is of type %s, expected %s", key,
		     name, hr_prog_type_name(prog), type);
		return NULL;
	}
	return prog;
}

static int make_gen(struct run_topo *t, struct hr_cfg_dev *d,
		    struct hr_dev **dev)
{
	HR_OPTS(hr_gen_opts, o, .flows = d->flows, .pkt_size = d->size,
		.rate_pps = d->rate, .count = d->count,
		.duration_ns = (uint64_t)(d->duration * 1e9), .nrxq = d->nrxq,
		.l4_proto = d->l4_proto, .ip_version = d->ip_version,
		.no_hints = d->no_hints, .vlan = d->vlan,
		.vlan_offload = d->vlan, .vlan_id = d->vlan_id,
		.src_port_min = d->sport_min, .src_port_max = d->sport_max,
		.dst_port_min = d->dport_min, .dst_port_max = d->dport_max);

	/* Flows differ by source port unless told otherwise (as the demo's
	 * and xdp-bench's generators): 1024 up. */
	if (d->flows > 1 && !d->sport_min && !d->sport_max && !d->dport_min &&
	    !d->dport_max) {
		o.src_port_min = 1024;
		o.src_port_max =
			(uint16_t)(d->flows < 64512 ? 1023 + d->flows : 65535);
	}
	return hr_dev_gen_create(t->dp, d->name, &o, dev);
}

static int make_dev(struct run_topo *t, int i)
{
	struct hr_cfg_dev *d = &t->cfg->devs[i];
	struct hr_cfg_dev *peer;
	int ret = 0;

	if (t->dev[i])
		return 0; /* the second end of a veth pair */
	switch (d->kind) {
	case HR_CFG_GEN:
		ret = make_gen(t, d, &t->dev[i]);
		break;
	case HR_CFG_PCAP: {
		HR_OPTS(hr_pcap_opts, o, .path = d->path,
			.hints_path = d->hints, .out_path = d->out,
			.loops = d->loops);

		ret = hr_dev_pcap_create(t->dp, d->name, &o, &t->dev[i]);
		break;
	}
	case HR_CFG_VETH: {
		HR_OPTS(hr_veth_opts, o, .nrxq = d->nrxq, .mtu = d->mtu);
		struct hr_dev *b = NULL;

		peer = hr_config_dev(t->cfg, d->peer);
		if (peer && (peer->kind != HR_CFG_VETH || !peer->peer ||
			     strcmp(peer->peer, d->name))) {
			PERR(t, peer->pos,
			     "device '%s': expected kind veth with peer '%s'",
			     peer->name, d->name);
			return HR_EXIT_USAGE;
		}
		if (hr_dp_dev_by_name(t->dp, d->peer)) {
			PERR(t, d->pos, "device '%s': key 'peer': '%s' exists",
			     d->name, d->peer);
			return HR_EXIT_USAGE;
		}
		ret = hr_dev_veth_create_pair(t->dp, d->name, d->peer, &o,
					      &t->dev[i], &b);
		if (!ret && peer)
			t->dev[peer - t->cfg->devs] = b;
		break;
	}
	case HR_CFG_AFXDP: {
		char dir[4096], kobj[4200];
		HR_OPTS(hr_afxdp_opts, o);

		/* The kernel-side program beside the binary's own. */
		if (!hr_cli_progs_dir(dir, sizeof(dir))) {
			snprintf(kobj, sizeof(kobj), "%s/xsk_hints.o", dir);
			o.kern_obj = kobj;
		}
		ret = hr_dev_afxdp_create(t->dp, d->name, d->ifname, &o,
					  &t->dev[i]);
		break;
	}
	case HR_CFG_AFPACKET: {
		HR_OPTS(hr_afpacket_opts, o, .nrxq = d->nrxq);

		ret = hr_dev_afpacket_create(t->dp, d->name, d->ifname, &o,
					     &t->dev[i]);
		break;
	}
	case HR_CFG_TAP:
		ret = hr_dev_tap_create(t->dp, d->name, d->ifname, NULL,
					&t->dev[i]);
		break;
	default: {
		HR_OPTS(hr_sink_opts, o);
		size_t n = d->out ? strlen(d->out) : 0;

		/* pcapng (with per-packet comments) unless named .pcap */
		if (n > 5 && !strcmp(d->out + n - 5, ".pcap"))
			o.pcap_path = d->out;
		else
			o.pcapng_path = d->out;
		ret = hr_dev_sink_create(t->dp, d->name, &o, &t->dev[i]);
	}
	}
	if (ret) {
		PERR(t, d->pos, "device '%s': cannot create it: %s", d->name,
		     strerror(-ret));
		return HR_EXIT_USAGE;
	}
	return 0;
}

static int wire_dev(struct run_topo *t, int i)
{
	struct hr_cfg_dev *d = &t->cfg->devs[i];
	struct hr_dev *dev = t->dev[i];
	struct hr_prog *p;
	int q, ret;

	if (d->xdp) {
		p = prog_named(t, d->xdp, "xdp", d->xdp_pos, "xdp");
		if (!p)
			return HR_EXIT_USAGE;
		hr_dev_attach_xdp(dev, p);
	}
	if (d->tc) {
		p = prog_named(t, d->tc, "tc", d->tc_pos, "tc");
		if (!p)
			return HR_EXIT_USAGE;
		hr_dev_attach_tc(dev, p);
	}
	if (d->stack) {
		struct hr_cfg_dev *s = hr_config_dev(t->cfg, d->stack);

		if (!s || s->kind != HR_CFG_SINK) {
			PERR(t, d->stack_pos,
			     "key 'stack': expected the name of a sink device, got '%s'",
			     d->stack);
			return HR_EXIT_USAGE;
		}
		hr_dev_set_stack(dev, t->dev[s - t->cfg->devs]);
	}
	if (d->kind == HR_CFG_SINK)
		return hr_dev_open(dev) ? HR_EXIT_USAGE : 0;
	if (!d->nqueues) {
		d->nqueues = 1; /* queue 0 on worker 0 */
		d->queues[0].queue = 0;
		d->queues[0].worker = 0;
	}
	for (q = 0; q < d->nqueues; q++) {
		ret = hr_dp_assign_queue(t->dp, dev, d->queues[q].queue,
					 d->queues[q].worker);
		if (ret) {
			PERR(t, d->pos,
			     "device '%s': key 'queues': queue %u on worker %u: %s (workers: %u)",
			     d->name, d->queues[q].queue, d->queues[q].worker,
			     strerror(-ret), hr_dp_worker_count(t->dp));
			return HR_EXIT_USAGE;
		}
	}
	for (q = 0; d->rps && q < d->nqueues; q++) {
		ret = hr_dev_set_rps(dev, d->queues[q].queue, d->rps);
		if (ret) {
			PERR(t, d->rps_pos,
			     "device '%s': key 'rps': queue %u: %s (workers: %u)",
			     d->name, d->queues[q].queue, strerror(-ret),
			     hr_dp_worker_count(t->dp));
			return HR_EXIT_USAGE;
		}
	}
	ret = hr_dev_open(dev);
	if (ret) {
		PERR(t, d->pos, "device '%s': cannot open: %s", d->name,
		     strerror(-ret));
		return HR_EXIT_USAGE;
	}
	return 0;
}

struct cpumap_val {
	uint32_t qsize;
	uint32_t prog_fd;
};

struct devmap_val {
	uint32_t ifindex;
	uint32_t prog_fd;
};

static struct hr_map *map_named(struct run_topo *t, int i, const char *name,
				uint32_t type, struct hr_cfg_pos pos)
{
	struct hr_map *m = hr_object_find_map(t->obj[i], name);
	struct hr_cfg_prog *p = &t->cfg->progs[i];
	uint32_t mt = m ? hr_map_type(m) : 0;

	if (type == BPF_MAP_TYPE_DEVMAP && mt == BPF_MAP_TYPE_DEVMAP_HASH)
		mt = BPF_MAP_TYPE_DEVMAP;
	if (!m || mt != type) {
		PERR(t, pos, "program '%s': %s map '%s' %s", p->name,
		     hr_map_type_name(type), name,
		     m ? "is of another type" : "is not in the object");
		return NULL;
	}
	return m;
}

static int fill_cpumap(struct run_topo *t, int i)
{
	struct hr_cfg_prog *p = &t->cfg->progs[i];
	struct hr_map *m;
	int j, ret;

	if (!p->cpumap)
		return 0;
	m = map_named(t, i, p->cpumap, BPF_MAP_TYPE_CPUMAP, p->pos);
	if (!m)
		return HR_EXIT_USAGE;
	for (j = 0; j < p->ncpu; j++) {
		struct hr_cfg_cpumap_entry *c = &p->cpu[j];
		struct cpumap_val v = { c->qsize, 0 };
		struct hr_prog *cp = NULL;

		if (c->prog) {
			cp = prog_named(t, c->prog, "xdp/cpumap", c->pos,
					"program");
			if (!cp)
				return HR_EXIT_USAGE;
			v.prog_fd = (uint32_t)hr_prog_fd(cp);
		}
		if (c->cpu >= hr_dp_worker_count(t->dp)) {
			PERR(t, c->pos,
			     "cpumap entry: key 'cpu': %u, but there are %u workers",
			     c->cpu, hr_dp_worker_count(t->dp));
			return HR_EXIT_USAGE;
		}
		ret = hr_map_update_elem(m, &c->cpu, &v, 0);
		if (ret) {
			PERR(t, c->pos, "cpumap entry %u: %s", c->cpu,
			     strerror(-ret));
			return HR_EXIT_USAGE;
		}
	}
	if (t->ncpumaps < 8) {
		t->cpumaps[t->ncpumaps++] = m;
		hr_dp_watch_map(t->dp, m);
	}
	return 0;
}

static int fill_devmap(struct run_topo *t, int i)
{
	struct hr_cfg_prog *p = &t->cfg->progs[i];
	struct hr_map *m;
	int j, ret;

	if (!p->devmap)
		return 0;
	m = map_named(t, i, p->devmap, BPF_MAP_TYPE_DEVMAP, p->pos);
	if (!m)
		return HR_EXIT_USAGE;
	for (j = 0; j < p->ndm; j++) {
		struct hr_cfg_devmap_entry *e = &p->dm[j];
		struct devmap_val v = { e->ifindex, 0 };
		struct hr_prog *ep;

		if (e->dev) {
			struct hr_dev *dev = hr_dp_dev_by_name(t->dp, e->dev);

			if (!dev) {
				PERR(t, e->pos,
				     "devmap entry: key 'device': no device '%s'",
				     e->dev);
				return HR_EXIT_USAGE;
			}
			v.ifindex = hr_dev_ifindex(dev);
		}
		if (e->egress) {
			ep = prog_named(t, e->egress, "xdp/devmap", e->pos,
					"egress");
			if (!ep)
				return HR_EXIT_USAGE;
			v.prog_fd = (uint32_t)hr_prog_fd(ep);
		}
		if (hr_map_value_size(m) != sizeof(v) && e->egress) {
			PERR(t, e->pos,
			     "devmap entry: key 'egress': map '%s' has 4-byte values, without room for a program",
			     p->devmap);
			return HR_EXIT_USAGE;
		}
		ret = hr_map_update_elem(m, &e->key, &v, 0);
		if (ret) {
			PERR(t, e->pos, "devmap entry %u: %s", e->key,
			     strerror(-ret));
			return HR_EXIT_USAGE;
		}
	}
	return 0;
}

int run_build(struct run_topo *t)
{
	struct hr_config *cfg = t->cfg;
	HR_OPTS(hr_datapath_opts, o, .nworkers = cfg->workers,
		.cpus = cfg->ncpus ? cfg->cpus : NULL, .engine = cfg->engine);
	int i, ret;

	if (cfg->ncpus && (unsigned int)cfg->ncpus != cfg->workers) {
		if (!cfg->workers) {
			cfg->workers = (unsigned int)cfg->ncpus;
			o.nworkers = cfg->workers;
		} else {
			fprintf(stderr,
				"headroom run: %s: 'cpus' names %d CPUs for %u workers\n",
				cfg->file, cfg->ncpus, cfg->workers);
			return HR_EXIT_USAGE;
		}
	}
	ret = hr_dp_create(&o, &t->dp);
	if (ret) {
		fprintf(stderr,
			"headroom run: cannot create the datapath: %s\n",
			strerror(-ret));
		return HR_EXIT_USAGE;
	}
	ret = open_progs(t);
	for (i = 0; !ret && i < cfg->ndevs; i++)
		ret = make_dev(t, i);
	for (i = 0; !ret && i < cfg->nprogs; i++)
		ret = fill_cpumap(t, i);
	for (i = 0; !ret && i < cfg->nprogs; i++)
		ret = fill_devmap(t, i);
	for (i = 0; !ret && i < cfg->ndevs; i++)
		ret = wire_dev(t, i);
	return ret;
}

void run_teardown(struct run_topo *t)
{
	uint32_t key;
	int i;

	/* Entries first: they hold programs and, on cpumaps, NAPIs. */
	for (i = 0; i < t->ncpumaps; i++)
		for (key = 0; key < hr_map_max_entries(t->cpumaps[i]); key++)
			hr_map_delete_elem(t->cpumaps[i], &key);
	hr_dp_destroy(t->dp);
	for (i = 0; i < HR_CFG_MAX; i++)
		hr_object_close(t->obj[i]);
	memset(t->obj, 0, sizeof(t->obj));
	t->dp = NULL;
}
