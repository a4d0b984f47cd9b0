// SPDX-License-Identifier: MIT
/*
 * --fib-dev, --route and --neigh: the tables bpf_fib_lookup consults, in
 * words close to iproute2's:
 *
 *   --fib-dev "2 mtu 1500 mac 02:00:00:00:00:02 addr 10.0.0.2 forwarding"
 *   --route "10.1.0.0/16 via 10.0.0.1 dev 2 metric 10 mtu 1400"
 *   --route "blackhole 10.5.0.0/16"   (also unreachable, prohibit, local)
 *   --neigh "10.0.0.1 lladdr 02:00:00:00:01:01 dev 2"
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include <headroom/fib.h>

#include "cli/cli.h"

int hr_cli_words(char *s, char **w)
{
	int n = 0;
	char *save = NULL, *t;

	for (t = strtok_r(s, " \t", &save); t && n < HR_CLI_MAX_WORDS;
	     t = strtok_r(NULL, " \t", &save))
		w[n++] = t;
	return t ? -E2BIG : n;
}

int hr_cli_addr(const char *s, uint8_t out[16])
{
	memset(out, 0, 16);
	if (inet_pton(AF_INET, s, out) == 1)
		return AF_INET;
	if (inet_pton(AF_INET6, s, out) == 1)
		return AF_INET6;
	return 0;
}

static int parse_mac(const char *s, uint8_t mac[6])
{
	unsigned int b[6], i;

	if (sscanf(s, "%x:%x:%x:%x:%x:%x", &b[0], &b[1], &b[2], &b[3], &b[4],
		   &b[5]) != 6)
		return -EINVAL;
	for (i = 0; i < 6; i++) {
		if (b[i] > 0xff)
			return -EINVAL;
		mac[i] = (uint8_t)b[i];
	}
	return 0;
}

int hr_cli_u32(const char *s, uint32_t *v)
{
	char *end;
	unsigned long x;

	/* strtoul takes "-1" as ULONG_MAX, and wraps larger negatives. */
	if (strchr(s, '-'))
		return -EINVAL;
	errno = 0;
	x = strtoul(s, &end, 0);
	if (errno || !*s || *end || x > UINT32_MAX)
		return -EINVAL;
	*v = (uint32_t)x;
	return 0;
}

static int route_type(const char *w, enum hr_fib_type *t)
{
	static const struct {
		const char *name;
		enum hr_fib_type type;
	} types[] = {
		{ "blackhole", HR_FIB_BLACKHOLE },
		{ "unreachable", HR_FIB_UNREACHABLE },
		{ "prohibit", HR_FIB_PROHIBIT },
		{ "local", HR_FIB_LOCAL },
	};
	size_t i;

	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		if (!strcmp(w, types[i].name)) {
			*t = types[i].type;
			return 1;
		}
	return 0;
}

static int parse_prefix(char *s, struct hr_fib_route *r)
{
	char *slash = strchr(s, '/');
	uint32_t len;

	if (slash)
		*slash = '\0';
	r->family = hr_cli_addr(s, r->dst);
	if (!r->family)
		return -EINVAL;
	len = r->family == AF_INET ? 32 : 128;
	if (slash && (hr_cli_u32(slash + 1, &len) ||
		      len > (r->family == AF_INET ? 32u : 128u)))
		return -EINVAL;
	r->prefix_len = (uint8_t)len;
	return 0;
}

static int parse_route(char **w, int n, struct hr_fib_route *r)
{
	int i = 0;

	memset(r, 0, sizeof(*r));
	if (i < n && route_type(w[i], &r->type))
		i++;
	if (i >= n || parse_prefix(w[i++], r))
		return -EINVAL;
	for (; i + 1 < n; i += 2) {
		if (!strcmp(w[i], "via")) {
			r->gw_family = hr_cli_addr(w[i + 1], r->gw);
			if (!r->gw_family)
				return -EINVAL;
		} else if (!strcmp(w[i], "dev")) {
			if (hr_cli_u32(w[i + 1], &r->ifindex))
				return -EINVAL;
		} else if (!strcmp(w[i], "metric")) {
			if (hr_cli_u32(w[i + 1], &r->metric))
				return -EINVAL;
		} else if (!strcmp(w[i], "mtu")) {
			if (hr_cli_u32(w[i + 1], &r->mtu))
				return -EINVAL;
		} else if (!strcmp(w[i], "src")) {
			if (!hr_cli_addr(w[i + 1], r->prefsrc))
				return -EINVAL;
		} else {
			return -EINVAL;
		}
	}
	return i == n ? 0 : -EINVAL;
}

static int parse_neigh(char **w, int n, struct hr_fib_neigh *nb)
{
	int i;

	memset(nb, 0, sizeof(*nb));
	if (n < 1 || !(nb->family = hr_cli_addr(w[0], nb->addr)))
		return -EINVAL;
	for (i = 1; i + 1 < n; i += 2) {
		if (!strcmp(w[i], "lladdr")) {
			if (parse_mac(w[i + 1], nb->mac))
				return -EINVAL;
		} else if (!strcmp(w[i], "dev")) {
			if (hr_cli_u32(w[i + 1], &nb->ifindex))
				return -EINVAL;
		} else {
			return -EINVAL;
		}
	}
	return i == n ? 0 : -EINVAL;
}

static int parse_fib_dev(char **w, int n, struct hr_fib_dev *d)
{
	uint8_t a[16];
	int i;

	memset(d, 0, sizeof(*d));
	if (n < 1 || hr_cli_u32(w[0], &d->ifindex))
		return -EINVAL;
	for (i = 1; i < n; i++) {
		if (!strcmp(w[i], "forwarding")) {
			d->forwarding = true;
		} else if (i + 1 >= n) {
			return -EINVAL;
		} else if (!strcmp(w[i], "mtu")) {
			if (hr_cli_u32(w[++i], &d->mtu))
				return -EINVAL;
		} else if (!strcmp(w[i], "mac")) {
			if (parse_mac(w[++i], d->mac))
				return -EINVAL;
		} else if (!strcmp(w[i], "addr")) {
			int fam = hr_cli_addr(w[++i], a);

			if (fam == AF_INET)
				memcpy(d->addr4, a, 4);
			else if (fam == AF_INET6)
				memcpy(d->addr6, a, 16);
			else
				return -EINVAL;
		} else {
			return -EINVAL;
		}
	}
	return 0;
}

int hr_cli_fib_arg(int which, const char *arg)
{
	char *copy = strdup(arg), *w[HR_CLI_MAX_WORDS];
	struct hr_fib_route r;
	struct hr_fib_neigh nb;
	struct hr_fib_dev d;
	int n, ret = -EINVAL;

	if (!copy)
		return -ENOMEM;
	n = hr_cli_words(copy, w);
	if (n > 0) {
		if (which == 'R' && !parse_route(w, n, &r))
			ret = hr_fib_route_add(&r);
		else if (which == 'N' && !parse_neigh(w, n, &nb))
			ret = hr_fib_neigh_add(&nb);
		else if (which == 'F' && !parse_fib_dev(w, n, &d))
			ret = hr_fib_dev_set(&d);
	}
	free(copy);
	if (ret)
		fprintf(stderr, "headroom: --%s '%s': %s\n",
			which == 'R' ? "route" :
			which == 'N' ? "neigh" :
				       "fib-dev",
			arg,
			ret == -EINVAL ? "not understood" : strerror(-ret));
	return ret;
}
