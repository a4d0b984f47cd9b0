// SPDX-License-Identifier: MIT
/* --map NAME=KEY:VALUE preloads and --dump-maps prints an object's maps. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"

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
				fprintf(stderr, "headroom: --map %s: %s\n",
					args[i], strerror(-ret));
		}
		free(key);
		free(val);
		free(uval);
	}
	return ret;
}

static void dump_value(FILE *f, struct hr_map *map, const uint8_t *val)
{
	uint32_t vs = hr_map_value_size(map), us = hr_map_user_value_size(map);
	uint32_t step = (vs + 7) & ~7u, off;

	if (!hr_map_is_percpu(map)) {
		fprintf(f, "\"value\":\"");
		hr_hex_print(f, val, vs);
		fprintf(f, "\"");
		return;
	}
	fprintf(f, "\"values\":[");
	for (off = 0; off + step <= us; off += step) {
		fprintf(f, "%s\"", off ? "," : "");
		hr_hex_print(f, val + off, vs);
		fprintf(f, "\"");
	}
	fprintf(f, "]");
}

static void dump_entries(FILE *f, struct hr_map *map)
{
	uint32_t ks = hr_map_key_size(map);
	uint8_t *key = calloc(1, ks + 1), *next = calloc(1, ks + 1);
	uint8_t *val = calloc(1, hr_map_user_value_size(map) + 1);
	bool first = true, have = false;

	while (key && next && val &&
	       hr_map_get_next_key(map, have ? key : NULL, next) == 0) {
		memcpy(key, next, ks);
		have = true;
		if (hr_map_lookup_elem(map, key, val))
			continue;
		fprintf(f, "%s{\"key\":\"", first ? "" : ",");
		hr_hex_print(f, key, ks);
		fprintf(f, "\",");
		dump_value(f, map, val);
		fprintf(f, "}");
		first = false;
	}
	free(key);
	free(next);
	free(val);
}

void hr_cli_map_dump(FILE *f, const struct hr_object *obj)
{
	unsigned int i, n = hr_object_map_count(obj);

	fprintf(f, "{\"maps\":[");
	for (i = 0; i < n; i++) {
		struct hr_map *map = hr_object_map(obj, i);
		const char *type = hr_map_type_name(hr_map_type(map));

		fprintf(f,
			"%s{\"name\":\"%s\",\"type\":\"%s\",\"key_size\":%u,"
			"\"value_size\":%u,\"max_entries\":%u,"
			"\"entries\":[",
			i ? "," : "", hr_map_name(map), type ? type : "?",
			hr_map_key_size(map), hr_map_value_size(map),
			hr_map_max_entries(map));
		dump_entries(f, map);
		fprintf(f, "]}");
	}
	fprintf(f, "]}\n");
}
