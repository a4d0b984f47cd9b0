// SPDX-License-Identifier: MIT
#include "gen_packets.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#define ETH_P_IPV4 0x0800
#define ETH_P_IPV6 0x86dd
#define ETH_P_ARP 0x0806
#define ETH_P_8021Q 0x8100
#define ETH_P_8021AD 0x88a8

#define P_HOPOPTS 0
#define P_ICMP 1
#define P_TCP 6
#define P_UDP 17
#define P_ROUTING 43
#define P_FRAGMENT 44
#define P_GRE 47
#define P_ICMPV6 58
#define P_DSTOPTS 60

/* A packet being written: where, how far, and its boundaries. */
struct builder {
	uint8_t *buf;
	size_t cap;
	uint32_t len;
	struct gen_info *info;
	struct gen_rng *r;
};

void gen_seed(struct gen_rng *r, uint64_t seed)
{
	r->s = seed ? seed : 0x9e3779b97f4a7c15ull;
}

/* xorshift64*: small, fast and the same everywhere. */
uint32_t gen_u32(struct gen_rng *r)
{
	uint64_t x = r->s;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	r->s = x;
	return (uint32_t)((x * 0x2545f4914f6cdd1dull) >> 32);
}

uint32_t gen_below(struct gen_rng *r, uint32_t n)
{
	return (uint32_t)(((uint64_t)gen_u32(r) * n) >> 32);
}

void gen_fill(struct gen_rng *r, void *buf, size_t len)
{
	uint8_t *p = buf;
	size_t i;

	for (i = 0; i < len; i++)
		p[i] = (uint8_t)gen_u32(r);
}

static void put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static void bound(struct builder *b)
{
	struct gen_info *in = b->info;

	if (in->nbounds && in->bounds[in->nbounds - 1] == b->len)
		return;
	if (in->nbounds < GEN_MAX_BOUNDS)
		in->bounds[in->nbounds++] = b->len;
}

/* @n more bytes at the end, random; NULL when the buffer is full. */
static uint8_t *grow(struct builder *b, uint32_t n)
{
	uint8_t *p;

	if (b->len + n > b->cap)
		return NULL;
	p = b->buf + b->len;
	gen_fill(b->r, p, n);
	b->len += n;
	return p;
}

static void describe(struct builder *b, const char *what)
{
	size_t used = strlen(b->info->desc);

	snprintf(b->info->desc + used, sizeof(b->info->desc) - used, "%s%s",
		 used ? " " : "", what);
}

static void put_eth(struct builder *b, uint16_t proto)
{
	uint8_t *p = grow(b, 14);

	p[0] &= 0xfe; /* unicast destination */
	put16(p + 12, proto);
	bound(b);
}

static void put_vlans(struct builder *b, unsigned int n, uint16_t inner)
{
	uint16_t outer_tpid = n == 2 ? ETH_P_8021AD : ETH_P_8021Q;
	unsigned int i;
	uint8_t *p;

	put_eth(b, n ? outer_tpid : inner);
	for (i = 0; i < n; i++) {
		p = grow(b, 4);
		put16(p + 2, i + 1 < n ? ETH_P_8021Q : inner);
		bound(b);
	}
}

static void put_tcp(struct builder *b)
{
	unsigned int doff = 5 + gen_below(b->r, 11);
	uint8_t *p = grow(b, doff * 4);
	unsigned int i;

	p[12] = (uint8_t)(doff << 4);
	/* Options as a stack writes them: MSS, then NOPs and timestamps. */
	for (i = 20; i < doff * 4; i++)
		p[i] = 1;
	if (doff > 5) {
		p[20] = 2;
		p[21] = 4;
	}
	if (gen_below(b->r, 8) == 0)
		p[12] = (uint8_t)(gen_below(b->r, 5) << 4); /* bad doff */
	b->len = (uint32_t)(p - b->buf) + 20;
	bound(b);
	b->len = (uint32_t)(p - b->buf) + doff * 4;
	bound(b);
	describe(b, doff > 5 ? "tcp+opt" : "tcp");
}

/* The L4 header for protocol @proto, and a payload. */
static void put_l4(struct builder *b, uint8_t proto)
{
	switch (proto) {
	case P_TCP:
		put_tcp(b);
		break;
	case P_UDP:
		grow(b, 8);
		bound(b);
		describe(b, "udp");
		break;
	case P_ICMP:
	case P_ICMPV6:
		grow(b, 8);
		bound(b);
		describe(b, "icmp");
		break;
	default:
		grow(b, 4);
		describe(b, "l4?");
		break;
	}
	grow(b, gen_below(b->r, 48));
}

static uint8_t pick_l4(struct gen_rng *r, bool v6)
{
	switch (gen_below(r, 8)) {
	case 0:
	case 1:
	case 2:
		return P_TCP;
	case 3:
	case 4:
	case 5:
		return P_UDP;
	case 6:
		return v6 ? P_ICMPV6 : P_ICMP;
	default:
		return P_GRE;
	}
}

static void put_ipv4(struct builder *b)
{
	unsigned int ihl = gen_below(b->r, 3) ? 5 : 6 + gen_below(b->r, 10);
	uint8_t proto = pick_l4(b->r, false);
	uint8_t *p = grow(b, ihl * 4);
	uint16_t frag = 0;
	unsigned int i;

	p[0] = (uint8_t)(0x40 | ihl);
	if (gen_below(b->r, 16) == 0)
		p[0] = (uint8_t)(0x40 | gen_below(b->r, 5)); /* bad IHL */
	if (gen_below(b->r, 10) == 0)
		frag = gen_below(b->r, 2) ? 0x2000 : 0x0000 | 0x00b9;
	put16(p + 6, frag);
	p[9] = proto;
	for (i = 20; i < ihl * 4; i++)
		p[i] = 1; /* NOP options */
	b->len = (uint32_t)(p - b->buf) + 20;
	bound(b);
	b->len = (uint32_t)(p - b->buf) + ihl * 4;
	bound(b);
	describe(b, ihl > 5 ? "ipv4+opt" : "ipv4");
	put_l4(b, proto);
}

static const uint8_t ext_kinds[] = { P_HOPOPTS, P_ROUTING, P_FRAGMENT,
				     P_DSTOPTS };

static void put_ipv6(struct builder *b)
{
	unsigned int next_ext = gen_below(b->r, 3) ? 0 : gen_below(b->r, 6);
	uint8_t *p = grow(b, 40), *nh = p + 6, *e;
	unsigned int i, len;
	uint8_t kind;

	p[0] = 0x60 | (p[0] & 0x0f);
	bound(b);
	describe(b, "ipv6");
	for (i = 0; i < next_ext; i++) {
		kind = ext_kinds[gen_below(b->r, 4)];
		*nh = kind;
		len = kind == P_FRAGMENT ? 8 : 8 * (1 + gen_below(b->r, 3));
		e = grow(b, len);
		if (kind == P_FRAGMENT) {
			/* Mostly first fragments, so L4 is still there. */
			put16(e + 2, gen_below(b->r, 4) ? 0x0001 : 0x0b91);
			describe(b, "+frag");
		} else {
			e[1] = (uint8_t)(len / 8 - 1);
			describe(b, kind == P_HOPOPTS ? "+hbh" :
				    kind == P_ROUTING ? "+rt" :
							"+dst");
		}
		b->len = (uint32_t)(e - b->buf) + 2;
		bound(b);
		b->len = (uint32_t)(e - b->buf) + len;
		bound(b);
		nh = e;
	}
	*nh = pick_l4(b->r, true);
	put_l4(b, *nh);
}

uint32_t gen_packet(struct gen_rng *r, uint8_t *buf, size_t cap,
		    struct gen_info *info)
{
	struct gen_info scratch;
	struct builder b = { .buf = buf, .cap = cap, .r = r };
	unsigned int vlans = gen_below(r, 4);
	unsigned int kind = gen_below(r, 16);

	b.info = info ? info : &scratch;
	memset(b.info, 0, sizeof(*b.info));
	bound(&b);
	if (vlans > 2)
		vlans = 0;
	if (vlans)
		describe(&b, vlans == 2 ? "qinq" : "vlan");
	if (kind < 7) {
		put_vlans(&b, vlans, ETH_P_IPV4);
		put_ipv4(&b);
	} else if (kind < 13) {
		put_vlans(&b, vlans, ETH_P_IPV6);
		put_ipv6(&b);
	} else if (kind < 15) {
		put_vlans(&b, vlans, ETH_P_ARP);
		grow(&b, 28);
		bound(&b);
		describe(&b, "arp");
	} else {
		put_vlans(&b, vlans, 0x88b5); /* local experimental */
		grow(&b, gen_below(r, 64));
		describe(&b, "other");
	}
	bound(&b);
	b.info->len = b.len;
	return b.len;
}

uint32_t gen_cut(struct gen_rng *r, const struct gen_info *info)
{
	uint32_t at;

	if (!info->nbounds)
		return info->len;
	at = info->bounds[gen_below(r, info->nbounds)];
	switch (gen_below(r, 3)) {
	case 0:
		if (at > 1)
			at--;
		break;
	case 1:
		if (at < info->len)
			at++;
		break;
	}
	return at ? at : 1;
}

uint32_t gen_ipv4_udp(struct gen_rng *r, uint8_t *buf, uint32_t len)
{
	uint8_t hdr[42] = { 0 };
	uint32_t n = len < sizeof(hdr) ? len : sizeof(hdr);

	gen_fill(r, buf, len);
	memcpy(hdr, buf, 12);
	hdr[0] &= 0xfe;
	put16(hdr + 12, ETH_P_IPV4);
	hdr[14] = 0x45;
	put16(hdr + 16, (uint16_t)(len > 14 ? len - 14 : 0));
	hdr[22] = 64;
	hdr[23] = P_UDP;
	hdr[26] = 10;
	hdr[29] = 1;
	hdr[30] = 10;
	hdr[33] = 2;
	put16(hdr + 34, 4000);
	put16(hdr + 36, 5000);
	put16(hdr + 38, (uint16_t)(len > 34 ? len - 34 : 0));
	memcpy(buf, hdr, n);
	return len;
}

uint32_t gen_sum16(const uint8_t *p, size_t len, uint32_t sum)
{
	size_t i;

	for (i = 0; i + 1 < len; i += 2)
		sum += (uint32_t)(p[i] << 8 | p[i + 1]);
	if (len & 1)
		sum += (uint32_t)p[len - 1] << 8;
	return sum;
}

uint16_t gen_fold(uint32_t sum)
{
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)sum;
}
