// SPDX-License-Identifier: MIT
/*
 * RX hints as JSON, through json-c: the hints file (JSON lines), one
 * object (--hints-const, a pcapng "hr-hints:" comment), and the device
 * profiles saying which of the kernel's metadata kfuncs
 * (bpf_xdp_metadata_rx_*) a driver implements. Anything not understood
 * is an error naming the key, so a typo never silently means "no hint".
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "dev/hints_file.h"

/* enum xdp_rss_hash_type (include/net/xdp.h): the L3/L4 bits. */
#define RSS_L3_IPV4 (1u << 0)
#define RSS_L3_IPV6 (1u << 1)
#define RSS_L3_DYNHDR (1u << 2)
#define RSS_L4 (1u << 3)
#define RSS_L4_TCP (1u << 4)
#define RSS_L4_UDP (1u << 5)
#define RSS_L4_SCTP (1u << 6)
#define RSS_L4_IPSEC (1u << 7)
#define RSS_L4_ICMP (1u << 8)

static const struct {
	const char *name; /* after "XDP_RSS_TYPE_" */
	uint32_t value;
} rss_types[] = {
	{ "NONE", 0 },
	{ "L2", 0 },
	{ "L3_IPV4", RSS_L3_IPV4 },
	{ "L3_IPV6", RSS_L3_IPV6 },
	{ "L3_IPV4_OPT", RSS_L3_IPV4 | RSS_L3_DYNHDR },
	{ "L3_IPV6_EX", RSS_L3_IPV6 | RSS_L3_DYNHDR },
	{ "L4_ANY", RSS_L4 },
	{ "L4_IPV4_TCP", RSS_L3_IPV4 | RSS_L4 | RSS_L4_TCP },
	{ "L4_IPV4_UDP", RSS_L3_IPV4 | RSS_L4 | RSS_L4_UDP },
	{ "L4_IPV4_SCTP", RSS_L3_IPV4 | RSS_L4 | RSS_L4_SCTP },
	{ "L4_IPV4_IPSEC", RSS_L3_IPV4 | RSS_L4 | RSS_L4_IPSEC },
	{ "L4_IPV4_ICMP", RSS_L3_IPV4 | RSS_L4 | RSS_L4_ICMP },
	{ "L4_IPV6_TCP", RSS_L3_IPV6 | RSS_L4 | RSS_L4_TCP },
	{ "L4_IPV6_UDP", RSS_L3_IPV6 | RSS_L4 | RSS_L4_UDP },
	{ "L4_IPV6_SCTP", RSS_L3_IPV6 | RSS_L4 | RSS_L4_SCTP },
	{ "L4_IPV6_IPSEC", RSS_L3_IPV6 | RSS_L4 | RSS_L4_IPSEC },
	{ "L4_IPV6_ICMP", RSS_L3_IPV6 | RSS_L4 | RSS_L4_ICMP },
	{ "L4_IPV6_TCP_EX", RSS_L3_IPV6 | RSS_L4 | RSS_L4_TCP | RSS_L3_DYNHDR },
	{ "L4_IPV6_UDP_EX", RSS_L3_IPV6 | RSS_L4 | RSS_L4_UDP | RSS_L3_DYNHDR },
	{ "L4_IPV6_SCTP_EX",
	  RSS_L3_IPV6 | RSS_L4 | RSS_L4_SCTP | RSS_L3_DYNHDR },
};

#define RSS_PREFIX "XDP_RSS_TYPE_"

const char *hr_rss_type_name(uint32_t type)
{
	size_t i;

	/* "L2" aliases NONE; the first name of a value wins. */
	for (i = 0; i < sizeof(rss_types) / sizeof(rss_types[0]); i++)
		if (rss_types[i].value == type)
			return rss_types[i].name;
	return NULL;
}

static int rss_type_parse(const char *s, uint32_t *out)
{
	size_t i;

	if (!strncmp(s, RSS_PREFIX, strlen(RSS_PREFIX)))
		s += strlen(RSS_PREFIX);
	for (i = 0; i < sizeof(rss_types) / sizeof(rss_types[0]); i++) {
		if (!strcasecmp(s, rss_types[i].name)) {
			*out = rss_types[i].value;
			return 0;
		}
	}
	return -EINVAL;
}

static int fail(char *why, size_t whysz, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, whysz, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/* A JSON integer in 0 .. @max; json-c keeps integers as 64-bit signed
 * or, above INT64_MAX, unsigned: both are asked for. */
static int get_uint(struct json_object *v, const char *key, uint64_t max,
		    uint64_t *out, char *why, size_t whysz)
{
	if (!json_object_is_type(v, json_type_int))
		return fail(why, whysz,
			    "key \"%s\": want an integer 0..%llu, not %s", key,
			    (unsigned long long)max,
			    json_type_to_name(json_object_get_type(v)));
	if (json_object_get_int64(v) < 0 && json_object_get_uint64(v) == 0)
		return fail(why, whysz, "key \"%s\": %s is negative", key,
			    json_object_get_string(v));
	*out = json_object_get_uint64(v);
	if (*out > max)
		return fail(why, whysz, "key \"%s\": %s is above %llu", key,
			    json_object_get_string(v), (unsigned long long)max);
	return 0;
}

static int get_vlan_proto(struct json_object *v, uint16_t *out, char *why,
			  size_t whysz)
{
	unsigned long x;
	char *end;
	uint64_t u;
	int err;

	if (json_object_is_type(v, json_type_string)) {
		const char *s = json_object_get_string(v);

		errno = 0;
		x = strtoul(s, &end, 0);
		if (errno || !*s || *end || x > UINT16_MAX)
			return fail(why, whysz,
				    "key \"vlan_proto\": '%s' is not a 16-bit "
				    "number (say \"0x8100\" or 33024)",
				    s);
		*out = (uint16_t)x;
		return 0;
	}
	err = get_uint(v, "vlan_proto", UINT16_MAX, &u, why, whysz);
	if (!err)
		*out = (uint16_t)u;
	return err;
}

static int set_key(const char *key, struct json_object *v, struct hr_hint *h,
		   bool *has_index, uint64_t *index, bool *rss_set,
		   bool *proto_set, char *why, size_t whysz)
{
	uint64_t u;
	uint32_t t;
	int err;

	if (!strcmp(key, "index")) {
		err = get_uint(v, key, UINT32_MAX, index, why, whysz);
		*has_index = !err;
		return err;
	}
	if (!strcmp(key, "hash")) {
		err = get_uint(v, key, UINT32_MAX, &u, why, whysz);
		h->hash = (uint32_t)u;
		h->have |= HR_HINT_HASH;
		return err;
	}
	if (!strcmp(key, "rss_type")) {
		*rss_set = true;
		if (json_object_is_type(v, json_type_string)) {
			if (rss_type_parse(json_object_get_string(v), &t))
				return fail(why, whysz,
					    "key \"rss_type\": '%s' is not an "
					    "enum xdp_rss_hash_type name "
					    "(XDP_RSS_TYPE_L4_IPV4_TCP ...)",
					    json_object_get_string(v));
			h->rss_type = t;
			return 0;
		}
		err = get_uint(v, key, UINT32_MAX, &u, why, whysz);
		h->rss_type = (uint32_t)u;
		return err;
	}
	if (!strcmp(key, "timestamp")) {
		err = get_uint(v, key, UINT64_MAX, &h->timestamp, why, whysz);
		h->have |= HR_HINT_TIMESTAMP;
		return err;
	}
	if (!strcmp(key, "vlan_proto")) {
		*proto_set = true;
		return get_vlan_proto(v, &h->vlan_proto, why, whysz);
	}
	if (!strcmp(key, "vlan_tci")) {
		err = get_uint(v, key, UINT16_MAX, &u, why, whysz);
		h->vlan_tci = (uint16_t)u;
		h->have |= HR_HINT_VLAN;
		return err;
	}
	return fail(why, whysz,
		    "unknown key \"%s\" (want index, hash, rss_type, "
		    "timestamp, vlan_proto, vlan_tci)",
		    key);
}

int hr_hints_parse(const char *text, struct hr_hint *h, bool *has_index,
		   uint64_t *index, char *why, size_t whysz)
{
	struct json_tokener *tok = json_tokener_new();
	bool rss_set = false, proto_set = false;
	struct json_object *o;
	size_t len = strlen(text);
	int err = 0;

	memset(h, 0, sizeof(*h));
	*has_index = false;
	*index = 0;
	if (!tok)
		return -ENOMEM;
	o = json_tokener_parse_ex(tok, text, (int)len);
	if (!o) {
		enum json_tokener_error e = json_tokener_get_error(tok);

		err = fail(why, whysz, "not JSON: %s",
			   e == json_tokener_continue ?
				   "unexpected end" :
				   json_tokener_error_desc(e));
		goto out;
	}
	if (text[json_tokener_get_parse_end(tok) +
		 strspn(text + json_tokener_get_parse_end(tok), " \t\r\n")]) {
		err = fail(why, whysz, "characters after the JSON object");
		goto out;
	}
	if (!json_object_is_type(o, json_type_object)) {
		err = fail(why, whysz, "want a JSON object, not %s",
			   json_type_to_name(json_object_get_type(o)));
		goto out;
	}
	json_object_object_foreach(o, key, v)
	{
		err = set_key(key, v, h, has_index, index, &rss_set, &proto_set,
			      why, whysz);
		if (err)
			goto out;
	}
	if (rss_set && !(h->have & HR_HINT_HASH)) {
		err = fail(why, whysz,
			   "key \"rss_type\" without \"hash\": the kfunc "
			   "gives both or neither");
		goto out;
	}
	if (proto_set && !(h->have & HR_HINT_VLAN)) {
		err = fail(why, whysz,
			   "key \"vlan_proto\" without \"vlan_tci\": the kfunc "
			   "gives both or neither");
		goto out;
	}
	if ((h->have & HR_HINT_VLAN) && !proto_set)
		h->vlan_proto = 0x8100; /* ETH_P_8021Q */
out:
	json_object_put(o);
	json_tokener_free(tok);
	return err;
}

static bool blank(const char *s)
{
	return !s[strspn(s, " \t\r\n")];
}

int hr_hints_load(const char *path, size_t npkts, struct hr_hint **out)
{
	struct hr_hint *hints, h;
	unsigned long lineno = 0, beyond = 0;
	uint64_t index, next = 0;
	char *line = NULL, why[256];
	size_t cap = 0;
	bool has_index;
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
		err = hr_hints_parse(line, &h, &has_index, &index, why,
				     sizeof(why));
		if (err) {
			fprintf(stderr, "headroom: %s:%lu: %s\n", path, lineno,
				why);
			break;
		}
		if (!has_index)
			index = next;
		next = index + 1;
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

static const struct {
	const char *name;
	uint8_t have;
} profiles[] = {
	{ "all", HR_HINT_ALL },
	{ "nic", HR_HINT_ALL },
	{ "none", 0 },
	{ "mlx5", HR_HINT_ALL },
	{ "ice", HR_HINT_ALL },
	{ "veth", HR_HINT_ALL },
	{ "mlx4", HR_HINT_HASH | HR_HINT_TIMESTAMP },
	{ "igc", HR_HINT_HASH | HR_HINT_TIMESTAMP },
	{ "stmmac", HR_HINT_TIMESTAMP },
	{ "virtio_net", HR_HINT_HASH },
};

int hr_hints_profile(const char *text, uint8_t *have, char *why, size_t whysz)
{
	const char *s = text;
	size_t i, n;

	for (i = 0; i < sizeof(profiles) / sizeof(profiles[0]); i++) {
		if (!strcmp(text, profiles[i].name)) {
			*have = profiles[i].have;
			return 0;
		}
	}
	*have = 0;
	while (*s) {
		n = strcspn(s, ",");
		if (n == 4 && !strncmp(s, "hash", 4))
			*have |= HR_HINT_HASH;
		else if (n == 9 && !strncmp(s, "timestamp", 9))
			*have |= HR_HINT_TIMESTAMP;
		else if (n == 4 && !strncmp(s, "vlan", 4))
			*have |= HR_HINT_VLAN;
		else
			return fail(
				why, whysz,
				"'%.*s' is neither a hint (hash, timestamp, "
				"vlan) nor a profile (all, none, nic, mlx5, "
				"ice, veth, mlx4, igc, stmmac, virtio_net)",
				(int)n, s);
		s += n;
		if (*s == ',' && !*++s)
			return fail(why, whysz, "'%s' ends with a comma", text);
	}
	if (!*text)
		return fail(why, whysz, "empty profile (say 'none')");
	return 0;
}

int hr_hints_format(const struct hr_hint *h, char *buf, size_t size)
{
	struct json_object *o = json_object_new_object();
	const char *name, *s;
	int n;

	if (!o)
		return -ENOMEM;
	if (h->have & HR_HINT_HASH) {
		json_object_object_add(o, "hash",
				       json_object_new_uint64(h->hash));
		name = hr_rss_type_name(h->rss_type);
		if (name) {
			char full[48];

			snprintf(full, sizeof(full), RSS_PREFIX "%s", name);
			json_object_object_add(o, "rss_type",
					       json_object_new_string(full));
		} else {
			json_object_object_add(
				o, "rss_type",
				json_object_new_uint64(h->rss_type));
		}
	}
	if (h->have & HR_HINT_TIMESTAMP)
		json_object_object_add(o, "timestamp",
				       json_object_new_uint64(h->timestamp));
	if (h->have & HR_HINT_VLAN) {
		json_object_object_add(o, "vlan_proto",
				       json_object_new_uint64(h->vlan_proto));
		json_object_object_add(o, "vlan_tci",
				       json_object_new_uint64(h->vlan_tci));
	}
	s = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN);
	n = snprintf(buf, size, "%s", s);
	json_object_put(o);
	return n < 0 || (size_t)n >= size ? -ENOSPC : n;
}
