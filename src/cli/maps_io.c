// SPDX-License-Identifier: MIT
/*
 * --map NAME=KEY:VALUE preloads and --dump-maps prints an object's maps:
 * as bpftool's `map dump` prints them, keys and values decoded with the
 * object's BTF (text: libbpf's btf_dump__dump_type_data; --json: bpftool's
 * entry layout, hex and "formatted"), per-CPU values labelled by CPU.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/btf.h>
#include <json-c/json.h>

#include "cli/cli.h"
#include "loader/btf_value.h"

/* Key and value hex of one --map argument, checked against the map. */
static int parse_entry(struct hr_object *obj, const char *arg,
		       struct hr_map **map, uint8_t **key, uint8_t **val,
		       size_t *vlen)
{
	char *copy = strdup(arg), *eq, *colon;
	size_t klen;
	int ret = -EINVAL;

	if (!copy)
		return -ENOMEM;
	eq = strchr(copy, '=');
	colon = eq ? strchr(eq, ':') : NULL;
	if (!eq || !colon) {
		fprintf(stderr,
			"headroom: --map %s: want NAME=KEY:VALUE "
			"(hex)\n",
			arg);
		goto out;
	}
	*eq = *colon = '\0';
	*map = hr_object_find_map(obj, copy);
	if (!*map) {
		fprintf(stderr, "headroom: --map %s: no map '%s'\n", arg, copy);
		goto out;
	}
	if (hr_hex_parse(eq + 1, key, &klen) ||
	    hr_hex_parse(colon + 1, val, vlen)) {
		fprintf(stderr, "headroom: --map %s: not hex\n", arg);
		goto out;
	}
	if (klen != hr_map_key_size(*map)) {
		fprintf(stderr,
			"headroom: --map %s: key is %zu bytes, map '%s' "
			"takes %u\n",
			arg, klen, copy, hr_map_key_size(*map));
		goto out;
	}
	ret = 0;
out:
	free(copy);
	return ret;
}

/* A per-CPU map takes one value for every worker, or all of them. */
static uint8_t *user_value(struct hr_map *map, const uint8_t *val, size_t vlen)
{
	uint32_t vs = hr_map_value_size(map), us = hr_map_user_value_size(map);
	uint32_t step = (vs + 7) & ~7u, off;
	uint8_t *buf;

	if (vlen == us)
		return memcpy(malloc(us), val, us);
	if (!hr_map_is_percpu(map) || vlen != vs)
		return NULL;
	buf = calloc(1, us);
	if (!buf)
		return NULL;
	for (off = 0; off + step <= us; off += step)
		memcpy(buf + off, val, vs);
	return buf;
}

int hr_cli_map_preload(struct hr_object *obj, char **args, int n)
{
	int i, ret = 0;

	for (i = 0; i < n && !ret; i++) {
		uint8_t *key = NULL, *val = NULL, *uval = NULL;
		struct hr_map *map;
		size_t vlen;

		ret = parse_entry(obj, args[i], &map, &key, &val, &vlen);
		if (!ret) {
			uval = user_value(map, val, vlen);
			if (!uval) {
				fprintf(stderr,
					"headroom: --map %s: value is "
					"%zu bytes, map '%s' takes %u\n",
					args[i], vlen, hr_map_name(map),
					hr_map_value_size(map));
				ret = -EINVAL;
			}
		}
		if (!ret) {
			ret = hr_map_update_elem(map, key, uval, 0);
			if (ret)
				fprintf(stderr, "headroom: --map %s: %s%s\n",
					args[i], strerror(-ret),
					ret == -EPERM && hr_map_frozen(map) ?
						" (.rodata is frozen once "
						"loaded, as libbpf freezes "
						"it: set its variables with "
						"--set NAME=VALUE)" :
						"");
		}
		free(key);
		free(val);
		free(uval);
	}
	return ret;
}

char *hr_cli_spec_file(const char *spec)
{
	char *path = strdup(spec), *colon;

	if (!path)
		return NULL;
	/* As hr_cli_open_prog_opts(): PROG.o:SEL unless the whole names a
	 * file. */
	colon = strrchr(path, ':');
	if (colon && colon[1] && !strchr(colon, '/') && access(path, F_OK))
		*colon = '\0';
	return path;
}

struct dump {
	FILE *f;
	bool json;
	struct btf *btf;
	struct hr_map *map;
	uint32_t key_id, value_id;
	uint32_t ks, vs, step, ncpus;
};

/* One value as text: BTF-decoded, else bpftool's spaced hex. */
static void text_value(const struct dump *d, uint32_t id, const uint8_t *p,
		       uint32_t n)
{
	char *text = NULL;
	uint32_t i;

	if (id && d->btf && !hr_btf_value_text(d->btf, id, p, n, 0, &text)) {
		fputs(text, d->f);
		free(text);
		return;
	}
	for (i = 0; i < n; i++)
		fprintf(d->f, "%s%02x", i ? " " : "", p[i]);
}

static void text_entry(const struct dump *d, const uint8_t *key,
		       const uint8_t *val)
{
	uint32_t cpu;

	fputs("key: ", d->f);
	text_value(d, d->key_id, key, d->ks);
	if (!hr_map_is_percpu(d->map)) {
		fputs("  value: ", d->f);
		text_value(d, d->value_id, val, d->vs);
		fputc('\n', d->f);
		return;
	}
	fputc('\n', d->f);
	for (cpu = 0; cpu < d->ncpus; cpu++) {
		fprintf(d->f, "value (CPU %02u): ", cpu);
		text_value(d, d->value_id, val + cpu * d->step, d->vs);
		fputc('\n', d->f);
	}
}

/* A decoded value, or NULL when the BTF does not say (bpftool leaves
 * "formatted" out then). */
static struct json_object *json_value(const struct dump *d, uint32_t id,
				      const uint8_t *p, uint32_t n)
{
	struct json_object *o = NULL;

	if (!id || !d->btf || hr_btf_value_json(d->btf, id, p, n, &o))
		return NULL;
	return o;
}

static int jadd(struct json_object *o, const char *k, struct json_object *v)
{
	if (!v)
		return -ENOMEM;
	if (json_object_object_add(o, k, v)) {
		json_object_put(v);
		return -ENOMEM;
	}
	return 0;
}

/* The values of a per-CPU entry: [{"cpu":N,"value":V}], V hex or
 * decoded. */
static struct json_object *cpu_values(const struct dump *d, const uint8_t *val,
				      bool formatted)
{
	struct json_object *a = json_object_new_array(), *e, *v;
	uint32_t cpu;

	for (cpu = 0; a && cpu < d->ncpus; cpu++) {
		const uint8_t *p = val + cpu * d->step;

		e = json_object_new_object();
		v = formatted ? json_value(d, d->value_id, p, d->vs) :
				hr_btf_value_hex_json(p, d->vs);
		if (!e || jadd(e, "cpu", json_object_new_int((int)cpu)) ||
		    jadd(e, "value", v) || json_object_array_add(a, e)) {
			json_object_put(e);
			json_object_put(a);
			return NULL;
		}
	}
	return a;
}

/* bpftool's print_entry_json(): hex key and value(s), then "formatted"
 * with the same decoded from BTF. */
static struct json_object *json_entry(const struct dump *d, const uint8_t *key,
				      const uint8_t *val)
{
	struct json_object *e = json_object_new_object(), *fmt = NULL;
	bool percpu = hr_map_is_percpu(d->map);
	struct json_object *fk, *fv;
	int ret;

	if (!e)
		return NULL;
	ret = jadd(e, "key", hr_btf_value_hex_json(key, d->ks));
	if (!ret)
		ret = percpu ? jadd(e, "values", cpu_values(d, val, false)) :
			       jadd(e, "value",
				    hr_btf_value_hex_json(val, d->vs));
	fv = d->value_id ? (percpu ? cpu_values(d, val, true) :
				     json_value(d, d->value_id, val, d->vs)) :
			   NULL;
	if (!ret && fv) {
		fmt = json_object_new_object();
		fk = json_value(d, d->key_id, key, d->ks);
		/* Global data maps have no key type: bpftool shows the
		 * value alone. */
		if (fk)
			ret = jadd(fmt, "key", fk);
		if (!ret)
			ret = jadd(fmt, percpu ? "values" : "value", fv);
		fv = NULL;
		if (!ret)
			ret = jadd(e, "formatted", fmt);
	}
	json_object_put(fv);
	if (ret) {
		json_object_put(e);
		return NULL;
	}
	return e;
}

/* Every entry, in get_next_key order; how many. */
static unsigned int dump_entries(struct dump *d, struct json_object *arr)
{
	uint8_t *key = calloc(1, d->ks + 1), *next = calloc(1, d->ks + 1);
	uint8_t *val = calloc(1, hr_map_user_value_size(d->map) + 1);
	unsigned int n = 0;
	bool have = false;

	while (key && next && val &&
	       hr_map_get_next_key(d->map, have ? key : NULL, next) == 0) {
		struct json_object *e;

		memcpy(key, next, d->ks);
		have = true;
		if (hr_map_lookup_elem(d->map, key, val))
			continue;
		n++;
		if (!arr) {
			text_entry(d, key, val);
			continue;
		}
		e = json_entry(d, key, val);
		if (e && json_object_array_add(arr, e))
			json_object_put(e);
	}
	free(key);
	free(next);
	free(val);
	return n;
}

static void dump_map(struct dump *d)
{
	const char *type = hr_map_type_name(hr_map_type(d->map));
	struct json_object *o, *arr;
	unsigned int n;

	d->ks = hr_map_key_size(d->map);
	d->vs = hr_map_value_size(d->map);
	d->step = (d->vs + 7) & ~7u;
	d->ncpus = hr_map_is_percpu(d->map) ?
			   hr_map_user_value_size(d->map) / d->step :
			   1;
	d->key_id = d->value_id = 0;
	if (d->btf)
		hr_btf_value_map_types(d->btf, hr_map_name(d->map), &d->key_id,
				       &d->value_id);
	if (!d->json) {
		fprintf(d->f,
			"map %s: %s  key %uB  value %uB  max_entries %u\n",
			hr_map_name(d->map), type ? type : "?", d->ks, d->vs,
			hr_map_max_entries(d->map));
		n = dump_entries(d, NULL);
		fprintf(d->f, "Found %u element%s\n", n, n == 1 ? "" : "s");
		return;
	}
	o = json_object_new_object();
	arr = json_object_new_array();
	if (!o || !arr ||
	    jadd(o, "map", json_object_new_string(hr_map_name(d->map))) ||
	    jadd(o, "type", json_object_new_string(type ? type : "?")) ||
	    jadd(o, "key_size", json_object_new_int((int)d->ks)) ||
	    jadd(o, "value_size", json_object_new_int((int)d->vs)) ||
	    jadd(o, "max_entries",
		 json_object_new_int64(hr_map_max_entries(d->map)))) {
		json_object_put(o);
		json_object_put(arr);
		return;
	}
	dump_entries(d, arr);
	if (!jadd(o, "entries", arr))
		fprintf(d->f, "%s\n",
			json_object_to_json_string_ext(o,
						       JSON_C_TO_STRING_PLAIN));
	json_object_put(o);
}

void hr_cli_map_dump(FILE *f, const struct hr_object *obj, const char *spec,
		     bool json)
{
	struct dump d = { .f = f, .json = json };
	unsigned int i, n = hr_object_map_count(obj);
	char *path = spec ? hr_cli_spec_file(spec) : NULL;

	/* Without BTF the keys and values are hex, as bpftool's. */
	if (path && hr_btf_value_open(path, &d.btf))
		d.btf = NULL;
	for (i = 0; i < n; i++) {
		d.map = hr_object_map(obj, i);
		dump_map(&d);
	}
	btf__free(d.btf);
	free(path);
}
