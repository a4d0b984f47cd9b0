// SPDX-License-Identifier: MIT
/*
 * A small parser for the hints file: flat JSON objects whose values are
 * non-negative integers. Anything else is an error naming the line, so a
 * typo never silently means "no hint".
 */
#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dev/hints_file.h"

static const char *skip_ws(const char *s)
{
	while (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n')
		s++;
	return s;
}

static const char *parse_key(const char *s, char *key, size_t keysz,
			     const char **err)
{
	size_t n = 0;

	if (*s != '"') {
		*err = "expected a quoted field name";
		return NULL;
	}
	for (s++; *s && *s != '"'; s++) {
		if (n + 1 >= keysz) {
			*err = "field name too long";
			return NULL;
		}
		key[n++] = *s;
	}
	if (*s != '"') {
		*err = "unterminated field name";
		return NULL;
	}
	key[n] = 0;
	return s + 1;
}

static const char *parse_uint(const char *s, uint64_t *v, const char **err)
{
	uint64_t x = 0;

	if (!isdigit((unsigned char)*s)) {
		*err = "expected a non-negative integer value";
		return NULL;
	}
	for (; isdigit((unsigned char)*s); s++) {
		if (x > (UINT64_MAX - 9) / 10) {
			*err = "integer value too large";
			return NULL;
		}
		x = x * 10 + (uint64_t)(*s - '0');
	}
	*v = x;
	return s;
}

/* Stores field @key; NULL, or why not. */
static const char *set_field(const char *key, uint64_t v, uint64_t *index,
			     bool *have_index, struct hr_hint *h)
{
	if (!strcmp(key, "index")) {
		*index = v;
		*have_index = true;
	} else if (!strcmp(key, "hash")) {
		if (v > UINT32_MAX)
			return "hash does not fit 32 bits";
		h->hash = (uint32_t)v;
		h->have |= HR_HINT_HASH;
	} else if (!strcmp(key, "rss_type")) {
		if (v > UINT32_MAX)
			return "rss_type does not fit 32 bits";
		h->rss_type = (uint32_t)v;
	} else if (!strcmp(key, "timestamp")) {
		h->timestamp = v;
		h->have |= HR_HINT_TIMESTAMP;
	} else if (!strcmp(key, "vlan_proto")) {
		if (v > UINT16_MAX)
			return "vlan_proto does not fit 16 bits";
		h->vlan_proto = (uint16_t)v;
	} else if (!strcmp(key, "vlan_tci")) {
		if (v > UINT16_MAX)
			return "vlan_tci does not fit 16 bits";
		h->vlan_tci = (uint16_t)v;
		h->have |= HR_HINT_VLAN;
	} else {
		return "unknown field";
	}
	return NULL;
}

const char *hr_hints_parse_line(const char *line, uint64_t *index,
				struct hr_hint *h)
{
	const char *s = skip_ws(line), *err = NULL;
	bool have_index = false, vlan_proto_set = false;
	char key[32];
	uint64_t v;

	memset(h, 0, sizeof(*h));
	if (*s++ != '{')
		return "expected '{'";
	s = skip_ws(s);
	while (*s != '}') {
		s = parse_key(s, key, sizeof(key), &err);
		if (!s)
			return err;
		s = skip_ws(s);
		if (*s++ != ':')
			return "expected ':' after the field name";
		s = parse_uint(skip_ws(s), &v, &err);
		if (!s)
			return err;
		err = set_field(key, v, index, &have_index, h);
		if (err)
			return err;
		if (!strcmp(key, "vlan_proto"))
			vlan_proto_set = true;
		s = skip_ws(s);
		if (*s == ',')
			s = skip_ws(s + 1);
		else if (*s != '}')
			return "expected ',' or '}'";
	}
	if (*skip_ws(s + 1))
		return "trailing characters after '}'";
	if (!have_index)
		return "no \"index\" field";
	if ((h->have & HR_HINT_VLAN) && !vlan_proto_set)
		h->vlan_proto = 0x8100; /* ETH_P_8021Q */
	return NULL;
}

static bool blank(const char *s)
{
	return !*skip_ws(s);
}

int hr_hints_load(const char *path, size_t npkts, struct hr_hint **out)
{
	struct hr_hint *hints, h;
	unsigned long lineno = 0, beyond = 0;
	char *line = NULL;
	size_t cap = 0;
	const char *why;
	uint64_t index;
	FILE *f;
	int err = 0;

	f = fopen(path, "r");
	if (!f) {
		err = -errno;
		fprintf(stderr, "headroom: %s: %s\n", path, strerror(errno));
		return err;
	}
	hints = calloc(npkts ? npkts : 1, sizeof(*hints));
	if (!hints) {
		fclose(f);
		return -ENOMEM;
	}
	while (getline(&line, &cap, f) >= 0) {
		lineno++;
		if (blank(line))
			continue;
		why = hr_hints_parse_line(line, &index, &h);
		if (why) {
			fprintf(stderr, "headroom: %s:%lu: %s\n", path, lineno,
				why);
			err = -EINVAL;
			break;
		}
		if (index >= npkts) {
			beyond++;
			continue;
		}
		hints[index] = h;
	}
	free(line);
	fclose(f);
	if (err) {
		free(hints);
		return err;
	}
	if (beyond)
		fprintf(stderr,
			"headroom: %s: %lu lines name packets beyond the %zu "
			"of the capture; ignored\n",
			path, beyond, npkts);
	*out = hints;
	return 0;
}
