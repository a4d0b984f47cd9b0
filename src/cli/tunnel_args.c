// SPDX-License-Identifier: MIT
/*
 * --tunnel: the tunnel metadata a tc test run's packets arrive with, as a
 * collect_md tunnel device (`ip link add ... type vxlan external`,
 * geneve, gre ...) attaches it, in words close to iproute2's
 * (`encap ip id ... dst ...`, `tc ... tunnel_key set ...`):
 *
 *   --tunnel "id 42 remote 192.0.2.1 local 192.0.2.2 tos 0 ttl 64"
 *   --tunnel "id 7 remote 2001:db8::1 local 2001:db8::2 label 0x12345 \
 *             csum opts 0102030405060708"
 *
 * and how the metadata a program set (bpf_skb_set_tunnel_key) is shown.
 * Flags: key (on unless nokey, as vxlan and geneve receive), csum, seq,
 * df, oam, crit; opts set the GENEVE option bit unless opts-type names
 * another (vxlan, erspan, gtp, pfcp).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include <json-c/json.h>

#include "cli/cli.h"

/* Names of the HR_TUNNEL_F_* bits, by bit number. */
static const char *const flag_names[] = {
	"csum",	     "routing", "key",	      "seq",	 "strict", "rec",
	"version",   "nokey",	"df",	      "oam",	 "crit",   "geneve-opt",
	"vxlan-opt", "nocache", "erspan-opt", "gtp-opt", "vti",	   "pfcp-opt",
};

#define NFLAGS (sizeof(flag_names) / sizeof(flag_names[0]))

/* The flag words a SPEC may give (the rest describe what a set left). */
static int flag_word(const char *w, uint32_t *flags)
{
	static const char *const settable[] = { "csum", "seq", "df", "oam",
						"crit" };
	size_t i, b;

	if (!strcmp(w, "nokey")) {
		*flags &= ~HR_TUNNEL_F_KEY;
		return 1;
	}
	if (!strcmp(w, "key")) {
		*flags |= HR_TUNNEL_F_KEY;
		return 1;
	}
	for (i = 0; i < sizeof(settable) / sizeof(settable[0]); i++) {
		if (strcmp(w, settable[i]))
			continue;
		for (b = 0; b < NFLAGS; b++)
			if (!strcmp(flag_names[b], w))
				*flags |= 1u << b;
		return 1;
	}
	return 0;
}

static int opts_type(const char *w, uint32_t *bit)
{
	static const struct {
		const char *name;
		uint32_t bit;
	} types[] = {
		{ "geneve", HR_TUNNEL_F_GENEVE_OPT },
		{ "vxlan", HR_TUNNEL_F_VXLAN_OPT },
		{ "erspan", HR_TUNNEL_F_ERSPAN_OPT },
		{ "gtp", HR_TUNNEL_F_GTP_OPT },
		{ "pfcp", HR_TUNNEL_F_PFCP_OPT },
	};
	size_t i;

	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		if (!strcmp(w, types[i].name)) {
			*bit = types[i].bit;
			return 0;
		}
	return -EINVAL;
}

static int bad(const char *arg, const char *word, const char *why)
{
	fprintf(stderr, "headroom: --tunnel '%s': '%s': %s\n", arg, word, why);
	return -EINVAL;
}

static int set_opts(struct hr_tunnel_md *md, const char *hex)
{
	uint8_t *b;
	size_t n;

	if (hr_hex_parse(hex, &b, &n))
		return -EINVAL;
	if (!n || n > HR_TUNNEL_OPTS_MAX) {
		free(b);
		return -ERANGE;
	}
	memcpy(md->opts, b, n);
	md->opts_len = (uint8_t)n;
	free(b);
	return 0;
}

/* One "WORD VALUE" pair; 0, or -EINVAL after the message. */
static int value_word(const char *arg, const char *k, const char *v,
		      struct hr_tunnel_md *md, int *fam, uint32_t *opt_bit)
{
	uint8_t *addr = !strcmp(k, "remote") ? md->remote :
			!strcmp(k, "local")  ? md->local :
					       NULL;
	uint32_t x;
	int f, err;

	if (addr) {
		f = hr_cli_addr(v, addr);
		if (!f)
			return bad(arg, v, "not an IPv4 or IPv6 address");
		if (*fam && f != *fam)
			return bad(arg, v,
				   "remote and local must be one family");
		*fam = f;
		return 0;
	}
	if (!strcmp(k, "opts")) {
		err = set_opts(md, v);
		return err ? bad(arg, v,
				 err == -ERANGE ?
					 "want 1 to 255 bytes of options" :
					 "not hex bytes") :
			     0;
	}
	if (!strcmp(k, "opts-type"))
		return opts_type(v, opt_bit) ?
			       bad(arg, v,
				   "want geneve, vxlan, erspan, gtp or pfcp") :
			       0;
	if (hr_cli_u32(v, &x))
		return bad(arg, v, "not a number (0 to 4294967295)");
	if (!strcmp(k, "id")) {
		md->id = x;
	} else if (!strcmp(k, "tos") || !strcmp(k, "ttl")) {
		if (x > 255)
			return bad(arg, v, "above 255");
		*(k[1] == 'o' ? &md->tos : &md->ttl) = (uint8_t)x;
	} else if (!strcmp(k, "label")) {
		if (x > 0xfffff)
			return bad(arg, v, "an IPv6 flow label has 20 bits");
		md->label = x;
	} else {
		return bad(arg, k, "unknown word");
	}
	return 0;
}

static const char *const value_words[] = {
	"id", "remote", "local", "tos", "ttl", "label", "opts", "opts-type"
};

static bool takes_value(const char *w)
{
	size_t i;

	for (i = 0; i < sizeof(value_words) / sizeof(value_words[0]); i++)
		if (!strcmp(w, value_words[i]))
			return true;
	return false;
}

int hr_cli_tunnel_arg(const char *arg, struct hr_tunnel_md *md)
{
	char *copy = strdup(arg), *w[HR_CLI_MAX_WORDS];
	uint32_t opt_bit = HR_TUNNEL_F_GENEVE_OPT;
	int n, i, fam = 0, err = 0;

	if (!copy)
		return -ENOMEM;
	memset(md, 0, sizeof(*md));
	md->sz = sizeof(*md);
	md->flags = HR_TUNNEL_F_KEY;
	n = hr_cli_words(copy, w);
	if (n <= 0)
		err = bad(arg, "", n ? "too many words" : "empty");
	for (i = 0; !err && i < n; i++) {
		if (flag_word(w[i], &md->flags))
			continue;
		if (!takes_value(w[i]))
			err = bad(arg, w[i], "unknown word");
		else if (i + 1 >= n)
			err = bad(arg, w[i], "wants a value after it");
		else
			err = value_word(arg, w[i], w[i + 1], md, &fam,
					 &opt_bit);
		i++;
	}
	md->family = fam ? fam : AF_INET;
	if (!err && md->label && md->family != AF_INET6)
		err = bad(arg, "label", "a flow label needs IPv6 addresses");
	if (md->opts_len)
		md->flags |= opt_bit;
	free(copy);
	return err;
}

static void flags_text(uint32_t flags, char *buf, size_t size)
{
	size_t b, len = 0;

	buf[0] = '\0';
	for (b = 0; b < NFLAGS && len < size; b++)
		if (flags & (1u << b))
			len += (size_t)snprintf(buf + len, size - len, "%s%s",
						len ? "," : "", flag_names[b]);
}

void hr_cli_tunnel_text(const struct hr_tunnel_md *md, char *buf, size_t size)
{
	char remote[INET6_ADDRSTRLEN], local[INET6_ADDRSTRLEN], flags[200];
	char *opts = md->opts_len ? hr_hex_str(md->opts, md->opts_len) : NULL;
	int len;

	inet_ntop(md->family, md->remote, remote, sizeof(remote));
	inet_ntop(md->family, md->local, local, sizeof(local));
	flags_text(md->flags, flags, sizeof(flags));
	len = snprintf(buf, size,
		       "id %llu remote %s local %s tos %u ttl %u flags %s",
		       (unsigned long long)md->id, remote, local, md->tos,
		       md->ttl, flags[0] ? flags : "none");
	if (len > 0 && (size_t)len < size && md->family == AF_INET6)
		len += snprintf(buf + len, size - (size_t)len, " label %#x",
				md->label);
	if (len > 0 && (size_t)len < size && opts)
		snprintf(buf + len, size - (size_t)len, " opts %s", opts);
	free(opts);
}

struct json_object *hr_cli_tunnel_json(const struct hr_tunnel_md *md)
{
	struct json_object *o = json_object_new_object(), *fl;
	char a[INET6_ADDRSTRLEN];
	char *opts;
	size_t b;

	fl = json_object_new_array();
	if (!o || !fl) {
		json_object_put(o);
		json_object_put(fl);
		return NULL;
	}
	json_object_object_add(o, "id", json_object_new_uint64(md->id));
	inet_ntop(md->family, md->remote, a, sizeof(a));
	json_object_object_add(o, "remote", json_object_new_string(a));
	inet_ntop(md->family, md->local, a, sizeof(a));
	json_object_object_add(o, "local", json_object_new_string(a));
	json_object_object_add(o, "tos", json_object_new_int(md->tos));
	json_object_object_add(o, "ttl", json_object_new_int(md->ttl));
	json_object_object_add(o, "label", json_object_new_uint64(md->label));
	for (b = 0; b < NFLAGS; b++)
		if (md->flags & (1u << b))
			json_object_array_add(
				fl, json_object_new_string(flag_names[b]));
	json_object_object_add(o, "flags", fl);
	opts = hr_hex_str(md->opts, md->opts_len);
	json_object_object_add(o, "opts",
			       json_object_new_string(opts ? opts : ""));
	free(opts);
	return o;
}
