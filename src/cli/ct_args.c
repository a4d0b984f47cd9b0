// SPDX-License-Identifier: MIT
/*
 * --ct: an entry of the conntrack table the conntrack kfuncs consult
 * (include/headroom/ct.h), in words close to conntrack-tools' listing:
 *
 *   --ct "tcp 10.0.0.2:1234 -> 10.0.0.1:80 established mark 7"
 *   --ct "udp [fd00::2]:53 -> [fd00::1]:53 timeout 30 zone 3"
 *   --ct "tcp 10.0.0.2:1 -> 10.0.0.1:2 syn_sent status seen_reply,0x2000"
 *
 * A TCP state word sets the entry's TCP state; established also sets
 * SEEN_REPLY and ASSURED, as an entry that saw its handshake has. Any
 * word not understood is named in a one-line error.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <linux/netfilter/nf_conntrack_common.h>

#include <headroom/ct.h>
#include <headroom/opts.h>

#include "cli/cli.h"

#define MAX_WORDS 24

static const char *const tcp_states[] = {
	[HR_CT_TCP_SYN_SENT] = "syn_sent",
	[HR_CT_TCP_SYN_RECV] = "syn_recv",
	[HR_CT_TCP_ESTABLISHED] = "established",
	[HR_CT_TCP_FIN_WAIT] = "fin_wait",
	[HR_CT_TCP_CLOSE_WAIT] = "close_wait",
	[HR_CT_TCP_LAST_ACK] = "last_ack",
	[HR_CT_TCP_TIME_WAIT] = "time_wait",
	[HR_CT_TCP_CLOSE] = "close",
	[HR_CT_TCP_SYN_SENT2] = "syn_sent2",
};

/* The IPS_* bits by their names (nf_conntrack_common.h), bit 0 first. */
static const char *const status_bits[] = {
	"expected",	"seen_reply", "assured",       "confirmed",
	"src_nat",	"dst_nat",    "seq_adjust",    "src_nat_done",
	"dst_nat_done", "dying",      "fixed_timeout", "template",
	"untracked",	"helper",     "offload",       "hw_offload",
};

/* What went wrong, for the one-line error. */
struct ct_err {
	const char *word;
	const char *want;
};

static int fail(struct ct_err *e, const char *word, const char *want)
{
	e->word = word;
	e->want = want;
	return -EINVAL;
}

/* A decimal or 0x number no larger than @max, checked in 64 bits. */
static int parse_num(const char *s, uint64_t max, uint64_t *v)
{
	char *end;

	if (!*s || *s == '-')
		return -EINVAL;
	errno = 0;
	*v = strtoull(s, &end, 0);
	return errno || *end || *v > max ? -EINVAL : 0;
}

/* ADDR:PORT, [ADDR6]:PORT; the family, or 0. */
static int parse_endpoint(const char *word, uint8_t addr[16], uint16_t *port)
{
	char buf[64], *s = buf, *colon;
	uint64_t p;
	int fam = AF_INET;

	/* A copy: the word stays whole for the error message. */
	if (snprintf(buf, sizeof(buf), "%s", word) >= (int)sizeof(buf))
		return 0;
	colon = strrchr(s, ':');
	if (!colon || parse_num(colon + 1, UINT16_MAX, &p))
		return 0;
	*colon = '\0';
	if (*s == '[') {
		size_t n = strlen(s);

		if (n < 2 || s[n - 1] != ']')
			return 0;
		s[n - 1] = '\0';
		s++;
		fam = AF_INET6;
	}
	if (inet_pton(fam, s, addr) != 1)
		return 0;
	*port = (uint16_t)p;
	return fam;
}

static int parse_status(char *s, uint32_t *status)
{
	char *save = NULL, *t;
	uint64_t v;
	size_t i;

	for (t = strtok_r(s, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		for (i = 0; i < sizeof(status_bits) / sizeof(status_bits[0]);
		     i++)
			if (!strcasecmp(t, status_bits[i]))
				break;
		if (i < sizeof(status_bits) / sizeof(status_bits[0]))
			v = 1ull << i;
		else if (parse_num(t, UINT32_MAX, &v))
			return -EINVAL;
		*status |= (uint32_t)v;
	}
	return 0;
}

static int tcp_state(const char *w)
{
	size_t i;

	for (i = 1; i < sizeof(tcp_states) / sizeof(tcp_states[0]); i++)
		if (!strcasecmp(w, tcp_states[i]))
			return (int)i;
	return 0;
}

/* "mark N", "timeout SECS", "zone N", "status FLAGS" or a TCP state:
 * the words used (1 or 2). */
static int parse_option(char **w, int n, struct hr_ct_entry_opts *o,
			struct ct_err *e)
{
	int st = tcp_state(w[0]);
	uint64_t v;

	if (st) {
		if (o->proto != IPPROTO_TCP)
			return fail(e, w[0], "a TCP state: the entry is UDP");
		o->tcp_state = (uint8_t)st;
		if (st == HR_CT_TCP_ESTABLISHED)
			o->status |= IPS_SEEN_REPLY | IPS_ASSURED;
		return 1;
	}
	if (n < 2)
		return fail(e, w[0],
			    "mark, timeout, zone, status or a TCP state, "
			    "with its value");
	if (!strcmp(w[0], "mark")) {
		if (parse_num(w[1], UINT32_MAX, &v))
			return fail(e, w[1], "a mark of 0 to 4294967295");
		o->mark = (uint32_t)v;
	} else if (!strcmp(w[0], "timeout")) {
		if (parse_num(w[1], UINT32_MAX, &v) || !v)
			return fail(e, w[1], "a timeout of 1 to 4294967295 s");
		o->timeout = (uint32_t)v;
	} else if (!strcmp(w[0], "zone")) {
		if (parse_num(w[1], UINT16_MAX, &v))
			return fail(e, w[1], "a zone of 0 to 65535");
		o->zone = (uint16_t)v;
	} else if (!strcmp(w[0], "status")) {
		if (parse_status(w[1], &o->status))
			return fail(e, w[1],
				    "status bits: seen_reply,assured,... or "
				    "a number");
	} else {
		return fail(e, w[0],
			    "mark, timeout, zone, status or a TCP state");
	}
	return 2;
}

static int parse_ct(char **w, int n, struct hr_ct_entry_opts *o,
		    struct ct_err *e)
{
	int fam, i, used;

	if (n < 1)
		return fail(e, "", "tcp or udp");
	if (!strcmp(w[0], "tcp"))
		o->proto = IPPROTO_TCP;
	else if (!strcmp(w[0], "udp"))
		o->proto = IPPROTO_UDP;
	else
		return fail(e, w[0], "tcp or udp");
	if (n < 4 || strcmp(w[2], "->"))
		return fail(e, n < 3 ? w[n - 1] : w[2],
			    "'SRC:PORT -> DST:PORT' after the protocol");
	fam = parse_endpoint(w[1], o->src, &o->sport);
	if (!fam)
		return fail(e, w[1], "ADDR:PORT or [ADDR6]:PORT");
	o->family = fam;
	if (parse_endpoint(w[3], o->dst, &o->dport) != fam)
		return fail(e, w[3], "ADDR:PORT of the source's family");
	for (i = 4; i < n; i += used) {
		used = parse_option(w + i, n - i, o, e);
		if (used < 0)
			return used;
	}
	return 0;
}

int hr_cli_ct_arg(const char *arg)
{
	HR_OPTS(hr_ct_entry_opts, o);
	char *copy = strdup(arg), *w[MAX_WORDS], *save = NULL, *t;
	struct ct_err e = { 0 };
	int n = 0, ret;

	if (!copy)
		return -ENOMEM;
	for (t = strtok_r(copy, " \t", &save); t && n < MAX_WORDS;
	     t = strtok_r(NULL, " \t", &save))
		w[n++] = t;
	if (t)
		ret = fail(&e, t, "at most 24 words");
	else
		ret = parse_ct(w, n, &o, &e);
	if (!ret)
		ret = hr_ct_add(&o);
	if (ret == -EINVAL && e.want)
		fprintf(stderr,
			"headroom: --ct '%s': '%s' not understood: "
			"want %s\n",
			arg, e.word, e.want);
	else if (ret)
		fprintf(stderr, "headroom: --ct '%s': %s\n", arg,
			ret == -EEXIST ? "the entry (or its reply) is there "
					 "already" :
					 strerror(-ret));
	free(copy);
	return ret;
}
