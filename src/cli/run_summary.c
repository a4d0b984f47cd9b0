// SPDX-License-Identifier: MIT
/*
 * `headroom run`'s closing account: each device's counters and each
 * cpumap entry's, and the books of the whole run. Every frame a device
 * received ends exactly one way, so
 *
 *   received (all devices, veth peers included)
 *     = XDP drop + aborted + drops (every reason: redirect and TX errors,
 *       tc shot, egress program, ring full ...) + cpumap drops (ring full,
 *       entry teardown, cpumap program) + delivered to a stack + tc stolen
 *       + transmitted (XDP_TX and redirects out of a device; a veth's
 *       come back as its peer's received)
 *
 * once the datapath is idle. A sink's own received are the skbs
 * delivered to it (already counted as delivered) and its transmitted
 * the frames sent to it (counted as transmitted): it adds nothing.
 * Printed as text, or one JSON object (json-c).
 */
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>
#include <headroom/headroom.h>
#include <headroom/cpumap.h>
#include <headroom/datapath.h>

#include "cli/run.h"

struct books {
	uint64_t rx, xdp_drop, aborted, drops, cpumap_drops, delivered, stolen,
		tx;
};

static uint64_t books_out(const struct books *b)
{
	return b->xdp_drop + b->aborted + b->drops + b->cpumap_drops +
	       b->delivered + b->stolen + b->tx;
}

#define JU(o, k, v) \
	json_object_object_add(o, k, json_object_new_uint64((uint64_t)(v)))

static json_object *dev_json(struct hr_dev *dev,
			     const struct hr_dev_counters *c)
{
	json_object *o = json_object_new_object(),
		    *d = json_object_new_object();
	const char *n;
	unsigned int i;

	json_object_object_add(o, "name",
			       json_object_new_string(hr_dev_name(dev)));
	JU(o, "ifindex", hr_dev_ifindex(dev));
	JU(o, "rx_packets", c->rx_packets);
	JU(o, "rx_bytes", c->rx_bytes);
	JU(o, "tx_packets", c->tx_packets);
	JU(o, "tx_bytes", c->tx_bytes);
	JU(o, "xdp_aborted", c->xdp_aborted);
	JU(o, "xdp_drop", c->xdp_drop);
	JU(o, "xdp_pass", c->xdp_pass);
	JU(o, "xdp_tx", c->xdp_tx);
	JU(o, "xdp_redirect", c->xdp_redirect);
	JU(o, "xdp_exception", c->xdp_exception);
	JU(o, "delivered", c->delivered);
	JU(o, "tc_stolen", c->tc_stolen);
	JU(o, "tc_redirect", c->tc_redirect);
	JU(o, "drops_total", c->drops_total);
	for (i = 0; (n = hr_dev_drop_name(i)); i++)
		if (i < HR_DEV_COUNTERS_DROPS && c->drops[i])
			JU(d, n, c->drops[i]);
	json_object_object_add(o, "drops", d);
	return o;
}

static void dev_text(FILE *f, struct hr_dev *dev,
		     const struct hr_dev_counters *c)
{
	const char *n;
	unsigned int i;

	fprintf(f,
		"  %-10s rx %llu  xdp: drop %llu aborted %llu pass %llu tx %llu "
		"redirect %llu  tx %llu  delivered %llu  tc: stolen %llu "
		"redirect %llu  drops %llu",
		hr_dev_name(dev), (unsigned long long)c->rx_packets,
		(unsigned long long)c->xdp_drop,
		(unsigned long long)c->xdp_aborted,
		(unsigned long long)c->xdp_pass, (unsigned long long)c->xdp_tx,
		(unsigned long long)c->xdp_redirect,
		(unsigned long long)c->tx_packets,
		(unsigned long long)c->delivered,
		(unsigned long long)c->tc_stolen,
		(unsigned long long)c->tc_redirect,
		(unsigned long long)c->drops_total);
	for (i = 0; (n = hr_dev_drop_name(i)); i++)
		if (i < HR_DEV_COUNTERS_DROPS && c->drops[i])
			fprintf(f, " %s=%llu", n,
				(unsigned long long)c->drops[i]);
	fputc('\n', f);
}

/* Every entry of every watched cpumap; adds their drops to @b. */
static json_object *cpumaps(struct run_topo *t, FILE *f, bool json,
			    struct books *b)
{
	json_object *arr = json_object_new_array();
	unsigned int nw = hr_dp_worker_count(t->dp), src;
	int m;

	for (m = 0; m < t->ncpumaps; m++) {
		struct hr_map *map = t->cpumaps[m];
		uint32_t key;

		for (key = 0; key < hr_map_max_entries(map); key++) {
			struct hr_cpumap_kthread_stats k;
			struct hr_cpumap_enq_stats e;
			uint64_t enq = 0, full = 0;
			json_object *o;

			if (hr_cpumap_kthread_stats(map, key, &k))
				continue;
			for (src = 0; src < nw; src++)
				if (!hr_cpumap_enqueue_stats(map, src, key,
							     &e)) {
					enq += e.processed;
					full += e.drops;
				}
			if (!enq && !k.processed)
				continue;
			b->cpumap_drops += full + k.drops + k.xdp_drop;
			if (!json) {
				fprintf(f,
					"  cpumap %s[%u]  enqueued %llu  ring full %llu  "
					"processed %llu  prog: pass %llu drop %llu "
					"redirect %llu  teardown drops %llu  skbs %llu\n",
					hr_map_name(map), key,
					(unsigned long long)enq,
					(unsigned long long)full,
					(unsigned long long)k.processed,
					(unsigned long long)k.xdp_pass,
					(unsigned long long)k.xdp_drop,
					(unsigned long long)k.xdp_redirect,
					(unsigned long long)k.drops,
					(unsigned long long)k.delivered);
				continue;
			}
			o = json_object_new_object();
			json_object_object_add(
				o, "map",
				json_object_new_string(hr_map_name(map)));
			JU(o, "cpu", key);
			JU(o, "enqueued", enq);
			JU(o, "ring_full", full);
			JU(o, "processed", k.processed);
			JU(o, "xdp_pass", k.xdp_pass);
			JU(o, "xdp_drop", k.xdp_drop);
			JU(o, "xdp_redirect", k.xdp_redirect);
			JU(o, "teardown_drops", k.drops);
			JU(o, "delivered", k.delivered);
			json_object_array_add(arr, o);
		}
	}
	return arr;
}

bool run_summary(struct run_topo *t, FILE *f, bool json, double seconds)
{
	json_object *root = json_object_new_object(),
		    *devs = json_object_new_array(), *acc, *cm;
	struct books b;
	bool ok;
	int i;

	memset(&b, 0, sizeof(b));
	if (!json)
		fprintf(f, "\nsummary after %.2f s:\n", seconds);
	for (i = 0; i < t->cfg->ndevs; i++) {
		struct hr_dev_counters c;

		memset(&c, 0, sizeof(c));
		c.sz = sizeof(c);
		if (!t->dev[i] || hr_dev_get_counters(t->dev[i], &c))
			continue;
		if (json)
			json_object_array_add(devs, dev_json(t->dev[i], &c));
		else
			dev_text(f, t->dev[i], &c);
		if (t->cfg->devs[i].kind == HR_CFG_SINK)
			continue;
		b.rx += c.rx_packets;
		b.xdp_drop += c.xdp_drop;
		b.aborted += c.xdp_aborted;
		b.drops += c.drops_total;
		b.delivered += c.delivered;
		b.stolen += c.tc_stolen;
		b.tx += c.tx_packets;
	}
	cm = cpumaps(t, f, json, &b);
	ok = b.rx == books_out(&b);
	if (!json) {
		fprintf(f,
			"account: received %llu = XDP drop %llu + aborted %llu + "
			"drops %llu + cpumap drops %llu + delivered %llu + tc "
			"stolen %llu + transmitted %llu: %s\n",
			(unsigned long long)b.rx,
			(unsigned long long)b.xdp_drop,
			(unsigned long long)b.aborted,
			(unsigned long long)b.drops,
			(unsigned long long)b.cpumap_drops,
			(unsigned long long)b.delivered,
			(unsigned long long)b.stolen, (unsigned long long)b.tx,
			ok ? "the books balance" : "THE BOOKS DO NOT BALANCE");
		json_object_put(devs);
		json_object_put(cm);
		json_object_put(root);
		return ok;
	}
	acc = json_object_new_object();
	JU(acc, "received", b.rx);
	JU(acc, "xdp_drop", b.xdp_drop);
	JU(acc, "xdp_aborted", b.aborted);
	JU(acc, "drops", b.drops);
	JU(acc, "cpumap_drops", b.cpumap_drops);
	JU(acc, "delivered", b.delivered);
	JU(acc, "tc_stolen", b.stolen);
	JU(acc, "transmitted", b.tx);
	json_object_object_add(acc, "balanced", json_object_new_boolean(ok));
	json_object_object_add(root, "summary",
			       json_object_new_double(seconds));
	json_object_object_add(root, "devices", devs);
	json_object_object_add(root, "cpumaps", cm);
	json_object_object_add(root, "account", acc);
	fprintf(f, "%s\n",
		json_object_to_json_string_ext(root, JSON_C_TO_STRING_PLAIN));
	json_object_put(root);
	return ok;
}
