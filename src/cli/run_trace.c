// SPDX-License-Identifier: MIT
/*
 * `headroom run --trace N`: the datapath's per-packet events
 * (src/core/trace.h) printed one line a stage, as text or one JSON
 * object a line (json-c), and the filter choosing which packets to
 * follow: dev=NAME, queue=N, skip=N (the first N candidates passed
 * over), every=N (one candidate in N).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>
#include <headroom/headroom.h>

#include "cli/cli.h"
#include "cli/run.h"
#include "core/trace.h"

static struct {
	bool json;
	char dev[16];
	bool by_dev, by_queue;
	unsigned long long queue, skip, every, seen;
} to;

static bool filter(void *arg, const struct hr_trace_event *rx)
{
	if (to.by_dev && (!rx->dev || strcmp(rx->dev, to.dev)))
		return false;
	if (to.by_queue && rx->queue != to.queue)
		return false;
	if (to.seen++ < to.skip)
		return false;
	return !to.every || (to.seen - to.skip - 1) % to.every == 0;
}

static const char *verdict(const struct hr_trace_event *ev, char *buf,
			   size_t sz)
{
	const char *n = ev->prog ? hr_prog_action_name(ev->prog,
						       (uint64_t)ev->verdict) :
				   NULL;

	if (n)
		return n;
	snprintf(buf, sz, "%lld", (long long)ev->verdict);
	return buf;
}

static void hex(char *out, const uint8_t *p, uint32_t n)
{
	uint32_t i;

	if (n > HR_TRACE_META_MAX)
		n = HR_TRACE_META_MAX;
	for (i = 0; i < n; i++)
		sprintf(out + 2 * i, "%02x", p[i]);
	out[2 * n] = '\0';
}

static bool has_verdict(enum hr_trace_stage s)
{
	return s == HR_TRACE_XDP || s == HR_TRACE_CPUMAP_PROG ||
	       s == HR_TRACE_DEVMAP_PROG || s == HR_TRACE_TC;
}

static bool has_meta(enum hr_trace_stage s)
{
	return has_verdict(s) || s == HR_TRACE_SKB || s == HR_TRACE_DELIVER;
}

static bool has_target(enum hr_trace_stage s)
{
	return s == HR_TRACE_BULK || s == HR_TRACE_FLUSH ||
	       s == HR_TRACE_CPUMAP;
}

#define JADD(o, k, v) json_object_object_add(o, k, v)

static void emit_json(const struct hr_trace_event *ev)
{
	json_object *o = json_object_new_object();
	char vb[24], mh[2 * HR_TRACE_META_MAX + 1];

	JADD(o, "trace", json_object_new_uint64(ev->id));
	JADD(o, "stage",
	     json_object_new_string(hr_trace_stage_name(ev->stage)));
	if (ev->worker != -1u)
		JADD(o, "worker", json_object_new_int((int)ev->worker));
	if (ev->dev) {
		JADD(o, "dev", json_object_new_string(ev->dev));
		JADD(o, "ifindex", json_object_new_int((int)ev->ifindex));
	}
	if (ev->stage == HR_TRACE_RX || ev->stage == HR_TRACE_SKB)
		JADD(o, "queue", json_object_new_int((int)ev->queue));
	if (ev->len)
		JADD(o, "len", json_object_new_int((int)ev->len));
	if (ev->has_hash)
		JADD(o, "hash", json_object_new_uint64(ev->hash));
	if (ev->stage == HR_TRACE_RX && ev->has_hash)
		JADD(o, "rss_type", json_object_new_uint64(ev->rss_type));
	if (ev->has_ts)
		JADD(o, "timestamp", json_object_new_uint64(ev->timestamp));
	if (ev->has_vlan)
		JADD(o, "vlan_tci", json_object_new_int(ev->vlan_tci));
	if (has_verdict(ev->stage)) {
		JADD(o, "verdict",
		     json_object_new_string(verdict(ev, vb, sizeof(vb))));
		JADD(o, "retval", json_object_new_int64(ev->verdict));
		if (ev->prog)
			JADD(o, "prog",
			     json_object_new_string(hr_prog_name(ev->prog)));
	}
	if (has_meta(ev->stage)) {
		hex(mh, ev->meta, ev->meta_len);
		JADD(o, "meta", json_object_new_string(mh));
		JADD(o, "meta_len", json_object_new_int((int)ev->meta_len));
	}
	if (ev->stage == HR_TRACE_TC || ev->stage == HR_TRACE_DELIVER)
		JADD(o, "mark", json_object_new_uint64(ev->mark));
	if (ev->target_kind) {
		JADD(o, "target_kind", json_object_new_string(ev->target_kind));
		JADD(o, "target", json_object_new_uint64(ev->target));
		if (ev->target_dev)
			JADD(o, "target_dev",
			     json_object_new_string(ev->target_dev));
	}
	if (ev->stage == HR_TRACE_BULK)
		JADD(o, "bulk_count", json_object_new_int((int)ev->bulk_count));
	if (ev->stage == HR_TRACE_FLUSH)
		JADD(o, "sent", json_object_new_boolean(ev->sent));
	if (ev->err)
		JADD(o, "error", json_object_new_string(strerror(-ev->err)));
	fprintf(stdout, "%s\n",
		json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN));
	json_object_put(o);
}

static void emit_text(const struct hr_trace_event *ev)
{
	char vb[24], mh[2 * HR_TRACE_META_MAX + 1], w[16] = "-";
	FILE *f = stdout;

	if (ev->worker != -1u)
		snprintf(w, sizeof(w), "w%u", ev->worker);
	fprintf(f, "trace %-4llu %-11s %-3s %-8s", (unsigned long long)ev->id,
		hr_trace_stage_name(ev->stage), w, ev->dev ? ev->dev : "");
	switch (ev->stage) {
	case HR_TRACE_RX:
		fprintf(f, " queue %u len %u", ev->queue, ev->len);
		if (ev->has_hash)
			fprintf(f, " hash 0x%08x rss_type 0x%x", ev->hash,
				ev->rss_type);
		else
			fprintf(f, " no hash");
		if (ev->has_ts)
			fprintf(f, " timestamp %llu",
				(unsigned long long)ev->timestamp);
		if (ev->has_vlan)
			fprintf(f, " vlan_tci 0x%04x", ev->vlan_tci);
		break;
	case HR_TRACE_REDIRECT_ERR:
		fprintf(f, " %s", strerror(-ev->err));
		break;
	case HR_TRACE_FREE:
		fprintf(f, " frame back to its pool");
		break;
	default:
		break;
	}
	if (has_verdict(ev->stage))
		fprintf(f, " %s (%s)", verdict(ev, vb, sizeof(vb)),
			ev->prog ? hr_prog_name(ev->prog) : "?");
	if (ev->stage == HR_TRACE_XDP && ev->target_kind)
		fprintf(f, " -> %s %u%s%s", ev->target_kind, ev->target,
			ev->target_dev ? " " : "",
			ev->target_dev ? ev->target_dev : "");
	if (has_target(ev->stage))
		fprintf(f, " %s %u%s%s", ev->target_kind, ev->target,
			ev->target_dev ? " " : "",
			ev->target_dev ? ev->target_dev : "");
	if (ev->stage == HR_TRACE_BULK)
		fprintf(f, " (%u queued)", ev->bulk_count);
	if (ev->stage == HR_TRACE_FLUSH)
		fprintf(f, " %s", ev->sent ? "sent" : "refused");
	if (ev->stage == HR_TRACE_SKB || ev->stage == HR_TRACE_DELIVER)
		fprintf(f, " len %u", ev->len);
	if (ev->stage == HR_TRACE_SKB && ev->has_hash)
		fprintf(f, " hash 0x%08x", ev->hash);
	if (ev->stage == HR_TRACE_TC || ev->stage == HR_TRACE_DELIVER)
		fprintf(f, " mark 0x%x", ev->mark);
	if (has_meta(ev->stage)) {
		hex(mh, ev->meta, ev->meta_len);
		fprintf(f, " meta %u%s%s", ev->meta_len,
			ev->meta_len ? " " : "", mh);
	}
	fputc('\n', f);
}

static void emit(void *arg, const struct hr_trace_event *ev)
{
	if (to.json)
		emit_json(ev);
	else
		emit_text(ev);
}

static int parse_filter(const char *spec)
{
	char *copy = strdup(spec), *tok, *save = NULL;
	int ret = 0;

	if (!copy)
		return -ENOMEM;
	for (tok = strtok_r(copy, ",", &save); tok && !ret;
	     tok = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(tok, '='), *end;
		unsigned long long v = 0;

		if (!eq || !eq[1]) {
			ret = -EINVAL;
			break;
		}
		*eq++ = '\0';
		if (!strcmp(tok, "dev")) {
			if (strlen(eq) >= sizeof(to.dev))
				ret = -EINVAL;
			snprintf(to.dev, sizeof(to.dev), "%s", eq);
			to.by_dev = true;
			continue;
		}
		errno = 0;
		v = strtoull(eq, &end, 0);
		if (errno || *end || *eq == '-')
			ret = -EINVAL;
		else if (!strcmp(tok, "queue") && v < 64)
			to.by_queue = true, to.queue = v;
		else if (!strcmp(tok, "skip"))
			to.skip = v;
		else if (!strcmp(tok, "every") && v > 0)
			to.every = v;
		else
			ret = -EINVAL;
	}
	free(copy);
	return ret;
}

int run_trace_start(struct run_topo *t, unsigned long long n,
		    const struct run_trace_opts *o)
{
	struct hr_trace_opts opts = { .max_packets = n,
				      .filter = filter,
				      .emit = emit };

	memset(&to, 0, sizeof(to));
	to.json = o->json;
	if (o->filter && parse_filter(o->filter)) {
		fprintf(stderr,
			"headroom: --trace-filter '%s': want "
			"dev=NAME,queue=N,skip=N,every=N\n",
			o->filter);
		return HR_EXIT_USAGE;
	}
	if (hr_trace_start(&opts)) {
		fprintf(stderr, "headroom: cannot start the trace\n");
		return HR_EXIT_USAGE;
	}
	return 0;
}

void run_trace_stop(void)
{
	hr_trace_stop();
}
