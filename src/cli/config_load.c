// SPDX-License-Identifier: MIT
/*
 * `headroom run` config files: YAML (JSON is YAML too) loaded with
 * libyaml's document API, then walked node by node into struct
 * hr_config. libyaml keeps every node's start mark, so each error names
 * FILE:LINE:COL, the key, and what was expected there.
 *
 *   workers: 2            engine: jit        duration: 5    interval: 1
 *   cpus: [0, 1]
 *   programs:
 *     NAME: {object: OBJ[:PROG], set: {VAR: V}, map_sizes: {MAP: N},
 *            maps: {MAP: [{key: HEX, value: HEX}]},
 *            cpumap: {MAP: [{cpu: N, qsize: N, program: NAME}]},
 *            devmap: {MAP: [{key: N, device: NAME | ifindex: N,
 *                            egress: NAME}]}}
 *   devices:
 *     NAME: {kind: generator|pcap|veth|sink, ..., queues: [WORKER ...],
 *            rps: [WORKER ...],
 *            xdp: NAME|OBJ[:PROG], tc: NAME|OBJ[:PROG], stack: SINK}
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "cli/cli.h"
#include "cli/config.h"

struct ld {
	struct hr_config *cfg;
	yaml_document_t doc;
};

static struct hr_cfg_pos pos_of(const yaml_node_t *n)
{
	struct hr_cfg_pos p = { (int)n->start_mark.line + 1,
				(int)n->start_mark.column + 1 };

	return p;
}

void hr_config_perror(const struct hr_config *cfg, struct hr_cfg_pos pos,
		      const char *fmt, ...)
{
	va_list ap;

	if (pos.line)
		fprintf(stderr, "headroom run: %s:%d:%d: ", cfg->file, pos.line,
			pos.col);
	else
		fprintf(stderr, "headroom run: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

#define ERR(l, n, ...) \
	(hr_config_perror((l)->cfg, pos_of(n), __VA_ARGS__), -EINVAL)

static yaml_node_t *node(struct ld *l, int id)
{
	return yaml_document_get_node(&l->doc, id);
}

static const char *scalar(const yaml_node_t *n)
{
	return n->type == YAML_SCALAR_NODE ?
		       (const char *)n->data.scalar.value :
		       NULL;
}

static const char *kind_name(const yaml_node_t *n)
{
	switch (n->type) {
	case YAML_MAPPING_NODE:
		return "a mapping";
	case YAML_SEQUENCE_NODE:
		return "a list";
	default:
		return "a scalar";
	}
}

static int want_map(struct ld *l, yaml_node_t *n, const char *key)
{
	if (n->type == YAML_MAPPING_NODE)
		return 0;
	return ERR(l, n, "key '%s': expected a mapping, got %s", key,
		   kind_name(n));
}

/* queues and rps: a list of workers. */
static int want_workers(struct ld *l, yaml_node_t *n, const char *key)
{
	if (n->type == YAML_SEQUENCE_NODE)
		return 0;
	return ERR(l, n, "key '%s': expected a list of workers, got %s", key,
		   kind_name(n));
}

static int get_str(struct ld *l, yaml_node_t *n, const char *key, char **out)
{
	const char *s = scalar(n);

	if (!s || !*s)
		return ERR(l, n,
			   "key '%s': expected a non-empty string, got %s", key,
			   s ? "an empty one" : kind_name(n));
	free(*out);
	*out = strdup(s);
	return *out ? 0 : -ENOMEM;
}

static int get_u64(struct ld *l, yaml_node_t *n, const char *key, uint64_t min,
		   uint64_t max, uint64_t *out)
{
	const char *s = scalar(n);
	unsigned long long v;
	char *end;

	if (!s || !*s || *s == '-' || *s == '+')
		goto bad;
	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || *end || v < min || v > max)
		goto bad;
	*out = v;
	return 0;
bad:
	return ERR(l, n, "key '%s': expected an integer %llu..%llu, got '%s'",
		   key, (unsigned long long)min, (unsigned long long)max,
		   s ? s : kind_name(n));
}

static int get_u32(struct ld *l, yaml_node_t *n, const char *key, uint32_t min,
		   uint32_t max, uint32_t *out)
{
	uint64_t v;
	int ret = get_u64(l, n, key, min, max, &v);

	if (!ret)
		*out = (uint32_t)v;
	return ret;
}

static int get_secs(struct ld *l, yaml_node_t *n, const char *key, double *out)
{
	const char *s = scalar(n);
	char *end;
	double v;

	if (!s || !*s)
		goto bad;
	v = strtod(s, &end);
	if (*end || !(v >= 0 && v <= 86400 * 365.0))
		goto bad;
	*out = v;
	return 0;
bad:
	return ERR(l, n, "key '%s': expected seconds 0..31536000, got '%s'",
		   key, s ? s : kind_name(n));
}

static int get_bool(struct ld *l, yaml_node_t *n, const char *key, bool *out)
{
	const char *s = scalar(n);

	if (s && (!strcmp(s, "true") || !strcmp(s, "yes") || !strcmp(s, "on")))
		*out = true;
	else if (s &&
		 (!strcmp(s, "false") || !strcmp(s, "no") || !strcmp(s, "off")))
		*out = false;
	else
		return ERR(l, n, "key '%s': expected true or false, got '%s'",
			   key, s ? s : kind_name(n));
	return 0;
}

/* "N" or "MIN-MAX" into a port range. */
static int get_ports(struct ld *l, yaml_node_t *n, const char *key,
		     uint16_t *lo, uint16_t *hi)
{
	const char *s = scalar(n);
	unsigned long a, b;
	char *end;

	if (!s || *s < '0' || *s > '9')
		goto bad;
	a = strtoul(s, &end, 10);
	b = a;
	if (*end == '-') {
		if (end[1] < '0' || end[1] > '9')
			goto bad;
		b = strtoul(end + 1, &end, 10);
	}
	if (*end || a > 65535 || b > 65535 || b < a)
		goto bad;
	*lo = (uint16_t)a;
	*hi = (uint16_t)b;
	return 0;
bad:
	return ERR(l, n,
		   "key '%s': expected a port or MIN-MAX (0..65535), got '%s'",
		   key, s ? s : kind_name(n));
}

#define FOR_PAIRS(l, m, k, v, ks)                                  \
	for (yaml_node_pair_t *p_ = (m)->data.mapping.pairs.start; \
	     p_ < (m)->data.mapping.pairs.top &&                   \
	     ((k) = node(l, p_->key), (v) = node(l, p_->value),    \
	     (ks) = scalar(k) ? scalar(k) : "");                   \
	     p_++)

static int unknown(struct ld *l, yaml_node_t *k, const char *where,
		   const char *expected)
{
	return ERR(l, k, "%s: unknown key '%s' (expected %s)", where,
		   scalar(k) ? scalar(k) : "?", expected);
}

/* maps: {MAP: [{key: HEX, value: HEX}]} */
static int load_maps(struct ld *l, struct hr_cfg_prog *p, yaml_node_t *m)
{
	yaml_node_t *k, *v, *ek, *ev;
	const char *ks, *eks;
	int ret = want_map(l, m, "maps");

	FOR_PAIRS(l, m, k, v, ks)
	{
		struct hr_cfg_map_load *ml;
		yaml_node_item_t *it;

		if (ret)
			break;
		if (v->type != YAML_SEQUENCE_NODE)
			return ERR(l, v,
				   "key '%s': expected a list of {key, value}",
				   ks);
		if (p->nmaps == HR_CFG_MAX)
			return ERR(l, k, "key 'maps': at most %d maps",
				   HR_CFG_MAX);
		ml = &p->maps[p->nmaps++];
		ml->map = strdup(ks);
		ml->pos = pos_of(k);
		for (it = v->data.sequence.items.start;
		     !ret && it < v->data.sequence.items.top; it++) {
			yaml_node_t *e = node(l, *it);
			char *key = NULL, *val = NULL, *s;

			ret = want_map(l, e, ks);
			FOR_PAIRS(l, e, ek, ev, eks)
			{
				if (ret)
					break;
				if (!strcmp(eks, "key"))
					ret = get_str(l, ev, "key", &key);
				else if (!strcmp(eks, "value"))
					ret = get_str(l, ev, "value", &val);
				else
					ret = unknown(l, ek, "map entry",
						      "key, value");
			}
			if (!ret && (!key || !val))
				ret = ERR(
					l, e,
					"map '%s' entry: expected both 'key' and 'value' (hex)",
					ks);
			if (!ret && ml->n == HR_CFG_MAX)
				ret = ERR(l, e, "map '%s': at most %d entries",
					  ks, HR_CFG_MAX);
			if (!ret && asprintf(&s, "%s=%s:%s", ks, key, val) > 0)
				ml->entries[ml->n++] = s;
			free(key);
			free(val);
		}
	}
	return ret;
}

static int load_cpumap(struct ld *l, struct hr_cfg_prog *p, yaml_node_t *m)
{
	yaml_node_t *k, *v, *ek, *ev;
	const char *ks, *eks;
	int ret = want_map(l, m, "cpumap");

	FOR_PAIRS(l, m, k, v, ks)
	{
		yaml_node_item_t *it;

		if (ret)
			break;
		if (p->cpumap)
			return ERR(l, k, "key 'cpumap': one map a program");
		if (v->type != YAML_SEQUENCE_NODE)
			return ERR(
				l, v,
				"key '%s': expected a list of {cpu, qsize, program}",
				ks);
		p->cpumap = strdup(ks);
		for (it = v->data.sequence.items.start;
		     !ret && it < v->data.sequence.items.top; it++) {
			yaml_node_t *e = node(l, *it);
			struct hr_cfg_cpumap_entry *c;

			if (p->ncpu == HR_CFG_MAX)
				return ERR(l, e, "at most %d entries",
					   HR_CFG_MAX);
			c = &p->cpu[p->ncpu++];
			c->pos = pos_of(e);
			c->qsize = 1024;
			ret = want_map(l, e, ks);
			FOR_PAIRS(l, e, ek, ev, eks)
			{
				if (ret)
					break;
				if (!strcmp(eks, "cpu"))
					ret = get_u32(l, ev, "cpu", 0, 15,
						      &c->cpu);
				else if (!strcmp(eks, "qsize"))
					ret = get_u32(l, ev, "qsize", 1, 16384,
						      &c->qsize);
				else if (!strcmp(eks, "program"))
					ret = get_str(l, ev, "program",
						      &c->prog);
				else
					ret = unknown(l, ek, "cpumap entry",
						      "cpu, qsize, program");
			}
		}
	}
	return ret;
}

static int load_devmap(struct ld *l, struct hr_cfg_prog *p, yaml_node_t *m)
{
	yaml_node_t *k, *v, *ek, *ev;
	const char *ks, *eks;
	int ret = want_map(l, m, "devmap");

	FOR_PAIRS(l, m, k, v, ks)
	{
		yaml_node_item_t *it;

		if (ret)
			break;
		if (p->devmap)
			return ERR(l, k, "key 'devmap': one map a program");
		if (v->type != YAML_SEQUENCE_NODE)
			return ERR(
				l, v,
				"key '%s': expected a list of {key, device, egress}",
				ks);
		p->devmap = strdup(ks);
		for (it = v->data.sequence.items.start;
		     !ret && it < v->data.sequence.items.top; it++) {
			yaml_node_t *e = node(l, *it);
			struct hr_cfg_devmap_entry *d;

			if (p->ndm == HR_CFG_MAX)
				return ERR(l, e, "at most %d entries",
					   HR_CFG_MAX);
			d = &p->dm[p->ndm++];
			d->pos = pos_of(e);
			ret = want_map(l, e, ks);
			FOR_PAIRS(l, e, ek, ev, eks)
			{
				if (ret)
					break;
				if (!strcmp(eks, "key"))
					ret = get_u32(l, ev, "key", 0,
						      UINT32_MAX, &d->key);
				else if (!strcmp(eks, "device"))
					ret = get_str(l, ev, "device", &d->dev);
				else if (!strcmp(eks, "ifindex"))
					ret = get_u32(l, ev, "ifindex", 1,
						      UINT32_MAX, &d->ifindex);
				else if (!strcmp(eks, "egress"))
					ret = get_str(l, ev, "egress",
						      &d->egress);
				else
					ret = unknown(
						l, ek, "devmap entry",
						"key, device, ifindex, egress");
			}
			if (!ret && !d->dev == !d->ifindex)
				ret = ERR(
					l, e,
					"devmap entry: expected one of 'device' or 'ifindex'");
		}
	}
	return ret;
}

/* set: {VAR: VALUE} and map_sizes: {MAP: N} as "NAME=VALUE" strings. */
static int load_assign(struct ld *l, yaml_node_t *m, const char *key,
		       char **out, int *n, bool numeric)
{
	yaml_node_t *k, *v;
	const char *ks;
	int ret = want_map(l, m, key);

	FOR_PAIRS(l, m, k, v, ks)
	{
		uint64_t num;
		char *s;

		if (ret)
			break;
		if (*n == HR_CFG_MAX)
			return ERR(l, k, "key '%s': at most %d entries", key,
				   HR_CFG_MAX);
		if (numeric) {
			ret = get_u64(l, v, ks, 1, UINT32_MAX, &num);
			if (ret)
				break;
		} else if (!scalar(v) || !*scalar(v)) {
			return ERR(l, v, "key '%s': expected a number", ks);
		}
		if (asprintf(&s, "%s=%s", ks, scalar(v)) < 0)
			return -ENOMEM;
		out[(*n)++] = s;
	}
	return ret;
}

static int load_prog(struct ld *l, yaml_node_t *k, yaml_node_t *m,
		     const char *name)
{
	struct hr_config *cfg = l->cfg;
	struct hr_cfg_prog *p;
	yaml_node_t *pk, *pv;
	const char *ks;
	int ret = 0;

	if (hr_config_prog(cfg, name))
		return ERR(l, k, "programs: '%s' is defined twice", name);
	if (cfg->nprogs == HR_CFG_MAX)
		return ERR(l, k, "programs: at most %d", HR_CFG_MAX);
	p = &cfg->progs[cfg->nprogs++];
	p->name = strdup(name);
	p->pos = pos_of(k);
	if (scalar(m)) /* NAME: OBJ[:PROG] */
		return get_str(l, m, name, &p->spec);
	ret = want_map(l, m, name);
	FOR_PAIRS(l, m, pk, pv, ks)
	{
		if (ret)
			break;
		if (!strcmp(ks, "object"))
			ret = get_str(l, pv, "object", &p->spec);
		else if (!strcmp(ks, "set"))
			ret = load_assign(l, pv, "set", p->sets, &p->nsets,
					  false);
		else if (!strcmp(ks, "map_sizes"))
			ret = load_assign(l, pv, "map_sizes", p->sizes,
					  &p->nsizes, true);
		else if (!strcmp(ks, "maps"))
			ret = load_maps(l, p, pv);
		else if (!strcmp(ks, "cpumap"))
			ret = load_cpumap(l, p, pv);
		else if (!strcmp(ks, "devmap"))
			ret = load_devmap(l, p, pv);
		else
			ret = unknown(
				l, pk, name,
				"object, set, map_sizes, maps, cpumap, devmap");
	}
	if (!ret && !p->spec)
		ret = ERR(l, m,
			  "program '%s': expected key 'object' (OBJ[:PROG])",
			  name);
	return ret;
}

/* queues: [W0, W1 ...] (queue i on worker Wi) or [{queue: Q, worker: W}]. */
static int load_queues(struct ld *l, struct hr_cfg_dev *d, yaml_node_t *s)
{
	yaml_node_item_t *it;
	int ret = want_workers(l, s, "queues");

	for (it = s->data.sequence.items.start;
	     !ret && it < s->data.sequence.items.top; it++) {
		yaml_node_t *e = node(l, *it), *k, *v;
		struct hr_cfg_queue *q;
		const char *ks;

		if (d->nqueues == HR_CFG_MAX)
			return ERR(l, e, "key 'queues': at most %d",
				   HR_CFG_MAX);
		q = &d->queues[d->nqueues];
		q->queue = (uint32_t)d->nqueues++;
		if (scalar(e)) {
			ret = get_u32(l, e, "queues", 0, 15, &q->worker);
			continue;
		}
		ret = want_map(l, e, "queues");
		FOR_PAIRS(l, e, k, v, ks)
		{
			if (ret)
				break;
			if (!strcmp(ks, "queue"))
				ret = get_u32(l, v, "queue", 0, 63, &q->queue);
			else if (!strcmp(ks, "worker"))
				ret = get_u32(l, v, "worker", 0, 15,
					      &q->worker);
			else
				ret = unknown(l, k, "queue", "queue, worker");
		}
	}
	return ret;
}

/* rps: [W ...]: the workers RPS steers each RX queue's skbs to. */
static int load_rps(struct ld *l, struct hr_cfg_dev *d, yaml_node_t *s)
{
	yaml_node_item_t *it;
	uint32_t w = 0;
	int ret = want_workers(l, s, "rps");

	d->rps_pos = pos_of(s);
	for (it = s->data.sequence.items.start;
	     !ret && it < s->data.sequence.items.top; it++) {
		ret = get_u32(l, node(l, *it), "rps", 0, 15, &w);
		d->rps |= 1u << w;
	}
	return ret;
}

static int load_proto(struct ld *l, yaml_node_t *v, struct hr_cfg_dev *d)
{
	const char *s = scalar(v);

	if (s && !strcmp(s, "udp"))
		d->l4_proto = 17;
	else if (s && !strcmp(s, "tcp"))
		d->l4_proto = 6;
	else if (s && !strcmp(s, "icmp"))
		d->l4_proto = 1;
	else
		return ERR(l, v,
			   "key 'proto': expected udp, tcp or icmp, got '%s'",
			   s ? s : kind_name(v));
	return 0;
}

static int load_kind(struct ld *l, yaml_node_t *v, struct hr_cfg_dev *d)
{
	static const char *const names[] = { "generator", "pcap",  "veth",
					     "sink",	  "afxdp", "afpacket",
					     "tap" };
	const char *s = scalar(v);
	unsigned int i;

	for (i = 0; s && i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(s, names[i])) {
			d->kind = (enum hr_cfg_kind)i;
			return 0;
		}
	return ERR(l, v,
		   "key 'kind': expected generator, pcap, veth, sink, afxdp, "
		   "afpacket or tap, got '%s'",
		   s ? s : kind_name(v));
}

/* A program given inline as OBJ[:PROG] becomes an unnamed entry. */
static int load_dev_prog(struct ld *l, yaml_node_t *v, const char *key,
			 char **out, struct hr_cfg_pos *pos)
{
	struct hr_config *cfg = l->cfg;
	struct hr_cfg_prog *p;
	int ret = get_str(l, v, key, out);

	*pos = pos_of(v);
	if (ret || hr_config_prog(cfg, *out) || !strstr(*out, ".o"))
		return ret;
	if (cfg->nprogs == HR_CFG_MAX)
		return ERR(l, v, "programs: at most %d", HR_CFG_MAX);
	p = &cfg->progs[cfg->nprogs++];
	p->name = strdup(*out);
	p->spec = strdup(*out);
	p->pos = *pos;
	return p->name && p->spec ? 0 : -ENOMEM;
}

static int dev_key(struct ld *l, struct hr_cfg_dev *d, yaml_node_t *k,
		   yaml_node_t *v, const char *ks)
{
	uint32_t u = 0;
	int ret;

	if (!strcmp(ks, "kind"))
		return 0; /* read first */
	if (!strcmp(ks, "xdp"))
		return load_dev_prog(l, v, ks, &d->xdp, &d->xdp_pos);
	if (!strcmp(ks, "tc"))
		return load_dev_prog(l, v, ks, &d->tc, &d->tc_pos);
	if (!strcmp(ks, "queues") && d->kind != HR_CFG_SINK)
		return load_queues(l, d, v);
	if (!strcmp(ks, "rps") && d->kind != HR_CFG_SINK)
		return load_rps(l, d, v);
	if (!strcmp(ks, "stack") && d->kind != HR_CFG_SINK) {
		d->stack_pos = pos_of(v);
		return get_str(l, v, ks, &d->stack);
	}
	switch (d->kind) {
	case HR_CFG_GEN:
		if (!strcmp(ks, "flows"))
			return get_u32(l, v, ks, 1, 1u << 24, &d->flows);
		if (!strcmp(ks, "size"))
			return get_u32(l, v, ks, 60, 3520, &d->size);
		if (!strcmp(ks, "rate"))
			return get_u64(l, v, ks, 0, 1000000000, &d->rate);
		if (!strcmp(ks, "count"))
			return get_u64(l, v, ks, 0, UINT64_MAX, &d->count);
		if (!strcmp(ks, "duration"))
			return get_secs(l, v, ks, &d->duration);
		if (!strcmp(ks, "rx_queues"))
			return get_u32(l, v, ks, 1, 64, &d->nrxq);
		if (!strcmp(ks, "proto"))
			return load_proto(l, v, d);
		if (!strcmp(ks, "ip")) {
			ret = get_u32(l, v, ks, 4, 6, &u);
			if (!ret && u == 5)
				return ERR(l, v, "key 'ip': expected 4 or 6");
			d->ip_version = (int)u;
			return ret;
		}
		if (!strcmp(ks, "hints")) {
			bool h = true;

			ret = get_bool(l, v, ks, &h);
			d->no_hints = !h;
			return ret;
		}
		if (!strcmp(ks, "vlan")) {
			ret = get_u32(l, v, ks, 1, 4094, &u);
			d->vlan = true;
			d->vlan_id = (uint16_t)u;
			return ret;
		}
		if (!strcmp(ks, "src_ports"))
			return get_ports(l, v, ks, &d->sport_min,
					 &d->sport_max);
		if (!strcmp(ks, "dst_ports"))
			return get_ports(l, v, ks, &d->dport_min,
					 &d->dport_max);
		return unknown(l, k, d->name,
			       "kind, flows, size, rate, count, duration, "
			       "rx_queues, proto, ip, hints, vlan, src_ports, "
			       "dst_ports, queues, rps, xdp, tc, "
			       "stack");
	case HR_CFG_PCAP:
		if (!strcmp(ks, "file"))
			return get_str(l, v, ks, &d->path);
		if (!strcmp(ks, "hints"))
			return get_str(l, v, ks, &d->hints);
		if (!strcmp(ks, "out"))
			return get_str(l, v, ks, &d->out);
		if (!strcmp(ks, "loops"))
			return get_u32(l, v, ks, 0, UINT32_MAX, &d->loops);
		return unknown(
			l, k, d->name,
			"kind, file, hints, out, loops, queues, rps, xdp, "
			"tc, stack");
	case HR_CFG_VETH:
		if (!strcmp(ks, "peer"))
			return get_str(l, v, ks, &d->peer);
		if (!strcmp(ks, "mtu"))
			return get_u32(l, v, ks, 68, 65535, &d->mtu);
		if (!strcmp(ks, "rx_queues"))
			return get_u32(l, v, ks, 1, 64, &d->nrxq);
		return unknown(l, k, d->name,
			       "kind, peer, mtu, rx_queues, queues, rps, xdp, "
			       "tc, stack");
	case HR_CFG_AFXDP:
	case HR_CFG_AFPACKET:
	case HR_CFG_TAP:
		if (!strcmp(ks, "ifname"))
			return get_str(l, v, ks, &d->ifname);
		if (!strcmp(ks, "rx_queues") && d->kind == HR_CFG_AFPACKET)
			return get_u32(l, v, ks, 1, 64, &d->nrxq);
		return unknown(l, k, d->name,
			       d->kind == HR_CFG_AFPACKET ?
				       "kind, ifname, rx_queues, queues, rps, "
				       "xdp, tc, stack" :
				       "kind, ifname, queues, rps, xdp, tc, "
				       "stack");
	default:
		if (!strcmp(ks, "pcap"))
			return get_str(l, v, ks, &d->out);
		return unknown(l, k, d->name, "kind, pcap");
	}
}

static int load_dev(struct ld *l, yaml_node_t *k, yaml_node_t *m,
		    const char *name)
{
	struct hr_config *cfg = l->cfg;
	yaml_node_t *dk, *dv, *kind = NULL;
	struct hr_cfg_dev *d;
	const char *ks;
	int ret;

	if (strlen(name) >= 16)
		return ERR(l, k, "devices: name '%s' is longer than 15", name);
	if (hr_config_dev(cfg, name))
		return ERR(l, k, "devices: '%s' is defined twice", name);
	if (cfg->ndevs == HR_CFG_MAX)
		return ERR(l, k, "devices: at most %d", HR_CFG_MAX);
	ret = want_map(l, m, name);
	if (ret)
		return ret;
	d = &cfg->devs[cfg->ndevs++];
	d->name = strdup(name);
	d->pos = pos_of(k);
	FOR_PAIRS(l, m, dk, dv, ks)
	if (!strcmp(ks, "kind"))
		kind = dv;
	if (!kind)
		return ERR(l, m,
			   "device '%s': expected key 'kind' "
			   "(generator, pcap, veth, sink, afxdp, afpacket "
			   "or tap)",
			   name);
	ret = load_kind(l, kind, d);
	FOR_PAIRS(l, m, dk, dv, ks)
	{
		if (ret)
			break;
		ret = dev_key(l, d, dk, dv, ks);
	}
	if (!ret && d->kind == HR_CFG_PCAP && !d->path)
		ret = ERR(l, m, "device '%s': expected key 'file'", name);
	if (!ret && d->kind == HR_CFG_VETH && !d->peer)
		ret = ERR(l, m, "device '%s': expected key 'peer'", name);
	if (!ret && d->kind >= HR_CFG_AFXDP && !d->ifname)
		ret = ERR(l, m, "device '%s': expected key 'ifname'", name);
	if (!ret && d->ifname && strlen(d->ifname) >= 16)
		ret = ERR(l, m, "device '%s': ifname '%s' is longer than 15",
			  name, d->ifname);
	return ret;
}

static int load_section(struct ld *l, yaml_node_t *m, const char *key,
			int (*fn)(struct ld *, yaml_node_t *, yaml_node_t *,
				  const char *))
{
	yaml_node_t *k, *v;
	const char *ks;
	int ret = want_map(l, m, key);

	FOR_PAIRS(l, m, k, v, ks)
	{
		if (ret)
			break;
		ret = fn(l, k, v, ks);
	}
	return ret;
}

static int load_cpus(struct ld *l, yaml_node_t *s)
{
	yaml_node_item_t *it;
	uint32_t c = 0;
	int ret = 0;

	if (s->type != YAML_SEQUENCE_NODE)
		return ERR(l, s, "key 'cpus': expected a list of host CPUs");
	for (it = s->data.sequence.items.start;
	     !ret && it < s->data.sequence.items.top; it++) {
		if (l->cfg->ncpus == 16)
			return ERR(l, node(l, *it), "key 'cpus': at most 16");
		ret = get_u32(l, node(l, *it), "cpus", 0, 4095, &c);
		l->cfg->cpus[l->cfg->ncpus++] = (int)c;
	}
	return ret;
}

static int load_root(struct ld *l, yaml_node_t *root)
{
	struct hr_config *cfg = l->cfg;
	yaml_node_t *k, *v, *progs = NULL, *devs = NULL;
	const char *ks;
	int ret;

	if (!root) {
		fprintf(stderr, "headroom run: %s: empty, expected a mapping\n",
			cfg->file);
		return -EINVAL;
	}
	ret = want_map(l, root, "(top level)");
	FOR_PAIRS(l, root, k, v, ks)
	{
		if (ret)
			break;
		if (!strcmp(ks, "workers")) {
			ret = get_u32(l, v, ks, 1, 16, &cfg->workers);
		} else if (!strcmp(ks, "cpus")) {
			ret = load_cpus(l, v);
		} else if (!strcmp(ks, "engine")) {
			const char *s = scalar(v);

			if (!s || hr_cli_engine(s, &cfg->engine))
				ret = ERR(
					l, v,
					"key 'engine': expected interp, jit or jit-checked, got '%s'",
					s ? s : kind_name(v));
		} else if (!strcmp(ks, "duration")) {
			ret = get_secs(l, v, ks, &cfg->duration);
		} else if (!strcmp(ks, "interval")) {
			ret = get_secs(l, v, ks, &cfg->interval);
		} else if (!strcmp(ks, "programs")) {
			progs = v;
		} else if (!strcmp(ks, "devices")) {
			devs = v;
		} else {
			ret = unknown(l, k, "(top level)",
				      "workers, cpus, engine, duration, "
				      "interval, programs, devices");
		}
	}
	/* Programs first: devices name them. */
	if (!ret && progs)
		ret = load_section(l, progs, "programs", load_prog);
	if (!ret && devs)
		ret = load_section(l, devs, "devices", load_dev);
	if (!ret && !devs)
		ret = ERR(l, root, "expected key 'devices'");
	return ret;
}

int hr_config_load(const char *path, struct hr_config *cfg)
{
	yaml_parser_t parser;
	struct ld l = { .cfg = cfg };
	FILE *f;
	int ret;

	memset(cfg, 0, sizeof(*cfg));
	cfg->file = path;
	cfg->interval = 1;
	f = fopen(path, "rb");
	if (!f) {
		fprintf(stderr, "headroom run: %s: %s\n", path,
			strerror(errno));
		return -EINVAL;
	}
	if (!yaml_parser_initialize(&parser)) {
		fclose(f);
		return -ENOMEM;
	}
	yaml_parser_set_input_file(&parser, f);
	if (!yaml_parser_load(&parser, &l.doc)) {
		struct hr_cfg_pos p = { (int)parser.problem_mark.line + 1,
					(int)parser.problem_mark.column + 1 };

		hr_config_perror(cfg, p, "%s%s%s",
				 parser.context ? parser.context : "",
				 parser.context ? ": " : "",
				 parser.problem ? parser.problem : "not YAML");
		yaml_parser_delete(&parser);
		fclose(f);
		return -EINVAL;
	}
	ret = load_root(&l, yaml_document_get_root_node(&l.doc));
	yaml_document_delete(&l.doc);
	yaml_parser_delete(&parser);
	fclose(f);
	if (ret)
		hr_config_free(cfg);
	return ret;
}
