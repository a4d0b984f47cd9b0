// SPDX-License-Identifier: MIT
/*
 * The kernel as oracle for what the tc skb helpers do to the skb metadata
 * (Linux 6.18): progs/helpers/skb_meta_helpers.bpf.c over cases (a metadata
 * length for XDP to make, up to four helper calls for tc ingress), in the
 * kernel's veth path and in headroom's datapath under the interpreter and
 * the JIT (tests/lib/xdp_tc_run.h). Every record must be the same on the
 * three, and some are checked against what 6.18's code gives (the rules in
 * src/helpers/helpers_skb.c) on headroom's side alone, so that the test says
 * something without the kernel too. Without the kernel (root, bpf(),
 * iproute2) the comparison is skipped with the reason, or fails with
 * HEADROOM_REQUIRE_KERNEL=1.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/if_ether.h>
#include <linux/pkt_cls.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "gen_packets.h"
#include "harness.h"
#include "headroom/headroom.h"
#include "kernel_side.h"
#include "core/datapath.h"
#include "xdp_tc_run.h"
#include "../../progs/include/hr_skb_meta_helpers.h"

#define OBJ "skb_meta_helpers.o"
#define ENOTSUPP 524
/* Where a case's packet starts in a frame, and where the shinfo does. */
#define HEADROOM 256u
#define HARD_END (4096u - 320u)

/* One sequence of calls, run once for each metadata length. */
struct seq {
	const char *name;
	uint8_t ipv6;
	uint16_t pkt_len;
	uint8_t nops;
	struct smh_op ops[SMH_NOPS];
};

/* htons for initializers (x86-64: little-endian). */
#define BE16(x) ((uint16_t)(((x)&0xff) << 8 | ((x) >> 8 & 0xff)))
#define OP(h, ...)                             \
	{                                      \
		.helper = SMH_##h, __VA_ARGS__ \
	}
#define PUSH(p, t) OP(VLAN_PUSH, .a = BE16(p), .b = (t))
#define POP OP(VLAN_POP)
#define ROOM(d, m, f) OP(ADJUST_ROOM, .a = (uint32_t)(d), .b = (m), .c = (f))
#define HEAD(n) OP(CHANGE_HEAD, .a = (n))
#define TAIL(n) OP(CHANGE_TAIL, .a = (n))
#define PULL(n) OP(PULL_DATA, .a = (n))
#define PROTO(p) OP(CHANGE_PROTO, .a = BE16(p))
#define MAC BPF_ADJ_ROOM_MAC
#define NET BPF_ADJ_ROOM_NET
/* Room left in front of data in both frames: the filler and headroom. */
#define ROOM_AT(len) (HEADROOM + SMH_WIRE_LEN - (len))
/* Room behind data_end, the same for every case. */
#define TAILROOM (HARD_END - HEADROOM - SMH_WIRE_LEN)

static const struct seq seqs[] = {
	/* VLAN: the first push only sets the accelerated tag. */
	{ "push", 0, 100, 1, { PUSH(0x8100, 5) } },
	{ "push push", 0, 100, 2, { PUSH(0x8100, 5), PUSH(0x8100, 6) } },
	{ "push push pop",
	  0,
	  100,
	  3,
	  { PUSH(0x8100, 5), PUSH(0x88a8, 6), POP } },
	{ "push push pop pop",
	  0,
	  100,
	  4,
	  { PUSH(0x8100, 5), PUSH(0x8100, 6), POP, POP } },
	{ "push x3",
	  0,
	  100,
	  3,
	  { PUSH(0x88a8, 1), PUSH(0x8100, 2), PUSH(0x8100, 3) } },
	{ "push x4",
	  0,
	  100,
	  4,
	  { PUSH(0x88a8, 1), PUSH(0x8100, 2), PUSH(0x8100, 3),
	    PUSH(0x1234, 4) } },
	{ "push x3 pop",
	  0,
	  100,
	  4,
	  { PUSH(0x8100, 1), PUSH(0x8100, 2), PUSH(0x8100, 3), POP } },
	{ "pop untagged", 0, 100, 1, { POP } },
	{ "push pop pop", 0, 100, 3, { PUSH(0x8100, 9), POP, POP } },
	{ "push x2 v6", 1, 120, 2, { PUSH(0x8100, 5), PUSH(0x8100, 6) } },
	/* bpf_skb_adjust_room */
	{ "room +1 mac", 0, 100, 1, { ROOM(1, MAC, 0) } },
	{ "room +4 mac", 0, 100, 1, { ROOM(4, MAC, 0) } },
	{ "room +20 net", 0, 100, 1, { ROOM(20, NET, 0) } },
	{ "room +256 mac", 0, 100, 1, { ROOM(256, MAC, 0) } },
	{ "room +1000 net", 0, 100, 1, { ROOM(1000, NET, 0) } },
	{ "room -4 net", 0, 100, 1, { ROOM(-4, NET, 0) } },
	{ "room -20 mac", 0, 100, 1, { ROOM(-20, MAC, 0) } },
	{ "room -1 net", 0, 100, 1, { ROOM(-1, NET, 0) } },
	{ "room +20 -20", 0, 100, 2, { ROOM(20, MAC, 0), ROOM(-20, MAC, 0) } },
	{ "room encap ipip",
	  0,
	  100,
	  1,
	  { ROOM(20, MAC, BPF_F_ADJ_ROOM_ENCAP_L3_IPV4) } },
	{ "room encap udp",
	  0,
	  100,
	  1,
	  { ROOM(28, MAC,
		 BPF_F_ADJ_ROOM_ENCAP_L3_IPV4 | BPF_F_ADJ_ROOM_ENCAP_L4_UDP) } },
	{ "room encap bad",
	  0,
	  100,
	  1,
	  { ROOM(20, MAC,
		 BPF_F_ADJ_ROOM_ENCAP_L3_IPV4 |
			 BPF_F_ADJ_ROOM_ENCAP_L3_IPV6) } },
	{ "room past headroom", 0, 100, 1, { ROOM(2000, MAC, 0) } },
	{ "room past headroom, bad encap",
	  0,
	  400,
	  1,
	  { ROOM(2000, MAC,
		 BPF_F_ADJ_ROOM_ENCAP_L3_IPV4 |
			 BPF_F_ADJ_ROOM_ENCAP_L3_IPV6) } },
	{ "room bad mode", 0, 100, 1, { ROOM(4, 7, 0) } },
	{ "room too far", 0, 100, 1, { ROOM(0x1000, MAC, 0) } },
	{ "room v6 +40 net", 1, 120, 1, { ROOM(40, NET, 0) } },
	{ "room v6 -8 net", 1, 120, 1, { ROOM(-8, NET, 0) } },
	{ "room v6 encap",
	  1,
	  120,
	  1,
	  { ROOM(40, MAC, BPF_F_ADJ_ROOM_ENCAP_L3_IPV6) } },
	/* bpf_skb_change_head */
	{ "head 0", 0, 100, 1, { HEAD(0) } },
	{ "head 1", 0, 100, 1, { HEAD(1) } },
	{ "head 14", 0, 100, 1, { HEAD(14) } },
	{ "head 64", 0, 100, 1, { HEAD(64) } },
	{ "head 1000", 0, 100, 1, { HEAD(1000) } },
	{ "head past headroom", 0, 100, 1, { HEAD(ROOM_AT(100) + 1) } },
	{ "head flags", 0, 100, 1, { OP(CHANGE_HEAD, .a = 14, .c = 1) } },
	{ "head 14 twice", 0, 100, 2, { HEAD(14), HEAD(14) } },
	/* bpf_skb_change_tail: growth past the tailroom reallocates. */
	{ "tail 14", 0, 100, 1, { TAIL(14) } },
	{ "tail 34", 0, 100, 1, { TAIL(34) } },
	{ "tail 60", 0, 100, 1, { TAIL(60) } },
	{ "tail same", 0, 100, 1, { TAIL(100) } },
	{ "tail +1", 0, 100, 1, { TAIL(101) } },
	{ "tail +100", 0, 100, 1, { TAIL(200) } },
	{ "tail to the end", 0, 100, 1, { TAIL(100 + TAILROOM) } },
	{ "tail past the end", 0, 100, 1, { TAIL(100 + TAILROOM + 1) } },
	{ "tail 3000", 0, 400, 1, { TAIL(3000) } },
	{ "tail too long", 0, 100, 1, { TAIL(16065) } },
	{ "tail flags", 0, 100, 1, { OP(CHANGE_TAIL, .a = 200, .c = 1) } },
	{ "tail 60 then 200", 0, 100, 2, { TAIL(60), TAIL(200) } },
	/* bpf_skb_pull_data */
	{ "pull 0", 0, 100, 1, { PULL(0) } },
	{ "pull 14", 0, 100, 1, { PULL(14) } },
	{ "pull all", 0, 100, 1, { PULL(100) } },
	{ "pull past", 0, 100, 1, { PULL(101) } },
	/* bpf_skb_change_proto */
	{ "proto 4to6", 0, 100, 1, { PROTO(ETH_P_IPV6) } },
	{ "proto 6to4", 1, 120, 1, { PROTO(ETH_P_IP) } },
	{ "proto 4to6to4", 0, 100, 2, { PROTO(ETH_P_IPV6), PROTO(ETH_P_IP) } },
	{ "proto 4to4", 0, 100, 1, { PROTO(ETH_P_IP) } },
	{ "proto flags",
	  0,
	  100,
	  1,
	  { OP(CHANGE_PROTO, .a = BE16(ETH_P_IPV6), .c = 1) } },
	/* Stores, checksums, loads: the metadata stays. */
	{ "store 0", 0, 100, 1, { OP(STORE_BYTES, .a = 0, .b = 8) } },
	{ "store tail", 0, 100, 1, { OP(STORE_BYTES, .a = 92, .b = 8) } },
	{ "store past", 0, 100, 1, { OP(STORE_BYTES, .a = 96, .b = 8) } },
	{ "store flags",
	  0,
	  100,
	  1,
	  { OP(STORE_BYTES, .a = 0, .b = 8, .c = 4) } },
	{ "store hash",
	  0,
	  100,
	  1,
	  { OP(STORE_BYTES, .a = 20, .b = 4, .c = BPF_F_INVALIDATE_HASH) } },
	{ "l3 csum",
	  0,
	  100,
	  1,
	  { OP(L3_CSUM, .a = 24, .b = 0x0200000a,
	       .c = 0x0300000aull | 4ull << 32) } },
	{ "l4 csum",
	  0,
	  100,
	  1,
	  { OP(L4_CSUM, .a = 40, .b = 0x0200000a,
	       .c = 0x0300000aull | (4ull | BPF_F_PSEUDO_HDR) << 32) } },
	{ "l4 csum bad", 0, 100, 1, { OP(L4_CSUM, .a = 41, .c = 4ull << 32) } },
	{ "load", 0, 100, 1, { OP(LOAD_BYTES, .a = 10, .b = 8) } },
	{ "load past", 0, 100, 1, { OP(LOAD_BYTES, .a = 95, .b = 8) } },
	{ "dynptr write", 0, 100, 1, { OP(DYNPTR_WRITE, .a = 2, .b = 8) } },
	{ "dynptr write past",
	  0,
	  100,
	  1,
	  { OP(DYNPTR_WRITE, .a = 96, .b = 8) } },
	/* Redirects: a sent clone leaves the original uncloned by
	 * reallocating its head. */
	{ "clone self", 0, 400, 1, { OP(CLONE_REDIRECT, .a = SMH_SELF) } },
	{ "clone missing", 0, 400, 1, { OP(CLONE_REDIRECT, .a = 9999) } },
	{ "clone flags",
	  0,
	  400,
	  1,
	  { OP(CLONE_REDIRECT, .a = SMH_SELF, .c = 2) } },
	{ "redirect", 0, 400, 1, { OP(REDIRECT, .a = 1) } },
	/* Through a dynptr made before: the metadata, or once it is gone,
	 * the packet at the MAC header. */
	{ "meta memset", 0, 100, 1, { OP(META_MEMSET, .a = 2, .b = 4) } },
	{ "push push, meta memset",
	  0,
	  100,
	  3,
	  { PUSH(0x8100, 1), PUSH(0x8100, 2),
	    OP(META_MEMSET, .a = 0, .b = 4) } },
	{ "tail past, meta memset",
	  0,
	  400,
	  2,
	  { TAIL(3000), OP(META_MEMSET, .a = 1, .b = 3) } },
	{ "meta memset past", 0, 100, 1, { OP(META_MEMSET, .a = 1, .b = 4) } },
	/* Sequences. */
	{ "push push, tail past",
	  0,
	  400,
	  3,
	  { PUSH(0x8100, 1), PUSH(0x8100, 2), TAIL(3000) } },
	{ "tail past, push push",
	  0,
	  400,
	  3,
	  { TAIL(3000), PUSH(0x8100, 1), PUSH(0x8100, 2) } },
	{ "clone, push push",
	  0,
	  400,
	  3,
	  { OP(CLONE_REDIRECT, .a = SMH_SELF), PUSH(0x8100, 1),
	    PUSH(0x8100, 2) } },
	{ "head 14, 4to6", 0, 100, 2, { HEAD(14), PROTO(ETH_P_IPV6) } },
	{ "room +20, push x2, pop",
	  0,
	  100,
	  4,
	  { ROOM(20, NET, 0), PUSH(0x8100, 1), PUSH(0x8100, 2), POP } },
	{ "room -4, head 8", 0, 100, 2, { ROOM(-4, NET, 0), HEAD(8) } },
	{ "head past, room +4",
	  0,
	  100,
	  2,
	  { HEAD(ROOM_AT(100) + 1), ROOM(4, MAC, 0) } },
	{ "tail 60, pull, store",
	  0,
	  100,
	  3,
	  { TAIL(60), PULL(0), OP(STORE_BYTES, .a = 0, .b = 8) } },
};

/*
 * Headroom only: where 6.18 reads memory outside the skb's buffer (data_meta
 * in front of the head after pushes into the metadata's room, a dynptr
 * made before the metadata was cleared reaching past the packet), headroom
 * ends the run at the first such byte. Not sent to the kernel.
 */
static const struct seq hr_only[] = {
	{ "head to 8 bytes of room", 0, 100, 1, { HEAD(ROOM_AT(100) - 8) } },
	{ "clone, old dynptr past the packet",
	  0,
	  100,
	  1,
	  { OP(CLONE_REDIRECT, .a = SMH_SELF) } },
	{ "clone, memset past the packet",
	  0,
	  100,
	  2,
	  { OP(CLONE_REDIRECT, .a = SMH_SELF),
	    OP(META_MEMSET, .a = 0, .b = 200) } },
};

#define NSEQS (sizeof(seqs) / sizeof(seqs[0]))
#define NHR_ONLY (sizeof(hr_only) / sizeof(hr_only[0]))
#define HR_ONLY_META 252

static const uint8_t meta_lens[] = { 0, 4, 32, 252, 8, 100 };

static struct smh_case cases[SMH_NCASES];
static const struct seq *case_seq[SMH_NCASES];
/* Cases; the first nkernel of them go to the kernel too. */
static unsigned int ncases, nkernel;

static void add_case(const struct seq *q, uint8_t meta_len)
{
	struct smh_case *c = &cases[ncases];

	if (ncases == SMH_NCASES)
		return;
	memset(c, 0, sizeof(*c));
	c->magic = SMH_MAGIC;
	c->idx = (uint16_t)ncases;
	c->meta_len = meta_len;
	c->nops = q->nops;
	c->pkt_len = q->pkt_len;
	memcpy(c->ops, q->ops, sizeof(c->ops));
	case_seq[ncases++] = q;
}

static void make_cases(void)
{
	unsigned int i, j;

	for (i = 0; i < sizeof(meta_lens); i++)
		for (j = 0; j < NSEQS; j++)
			add_case(&seqs[j], meta_lens[i]);
	nkernel = ncases;
	for (j = 0; j < NHR_ONLY; j++)
		add_case(&hr_only[j], HR_ONLY_META);
	CHECK(ncases == nkernel + NHR_ONLY, "%u cases", ncases);
}

static void src_addr(uint8_t *p, uint16_t idx)
{
	p[0] = SMH_SRC0;
	p[1] = SMH_SRC1;
	p[2] = SMH_SRC2;
	p[3] = (uint8_t)(idx >> 8);
	p[4] = (uint8_t)idx;
	p[5] = 0;
}

/* Ethernet, IPv4 or IPv6, UDP, payload: @c->pkt_len bytes into @p, the
 * source address naming the case. */
static void packet(const struct smh_case *c, bool ipv6, uint8_t *p)
{
	uint32_t len = c->pkt_len;
	uint8_t *ip = p + ETH_HLEN, *udp = ip + 40;
	struct gen_rng r;
	uint16_t v;

	gen_seed(&r, c->idx);
	gen_ipv4_udp(&r, p, len);
	src_addr(p + 6, c->idx);
	if (!ipv6)
		return;
	/* The same with an IPv6 header of fd00::1 -> fd00::2. */
	v = htons(ETH_P_IPV6);
	memcpy(p + 12, &v, 2);
	memset(ip, 0, 40 + 8);
	ip[0] = 0x60;
	v = htons((uint16_t)(len - ETH_HLEN - 40));
	memcpy(ip + 4, &v, 2);
	memcpy(udp + 4, &v, 2);
	ip[6] = 17;
	ip[7] = 64;
	ip[8] = ip[24] = 0xfd;
	ip[23] = 1;
	ip[39] = 2;
}

/* The wire frame of case @i: filler, then the packet. */
static uint32_t wire_frame(void *arg, unsigned int i, uint8_t *buf)
{
	const struct smh_case *c = &cases[i];
	uint32_t fill = SMH_WIRE_LEN - c->pkt_len, k;

	memset(buf, 0xff, 6);
	src_addr(buf + 6, c->idx);
	buf[12] = SMH_ETH_P_FILL >> 8;
	buf[13] = SMH_ETH_P_FILL & 0xff;
	for (k = ETH_HLEN; k < fill; k++)
		buf[k] = SMH_FILL_BYTE(c->idx, k);
	packet(c, case_seq[i]->ipv6, buf + fill);
	return SMH_WIRE_LEN;
}

/* ---- records ---- */

struct field {
	const char *name;
	size_t off, size;
};

#define NAME(f) #f
#define FSIZE(f) sizeof(((struct smh_rec *)0)->f)
#define F(f)                                                   \
	{                                                      \
		NAME(f), offsetof(struct smh_rec, f), FSIZE(f) \
	}

static const struct field fields[] = {
	F(seen),       F(xdp),	    F(meta_len0),    F(old_create),
	F(old_size),   F(protocol), F(vlan_present), F(vlan_tci),
	F(vlan_proto), F(len),	    F(data0),	     F(step[0]),
	F(step[1]),    F(step[2]),  F(step[3]),	     F(new_create),
	F(new_size),   F(new_rd),   F(old_size_end), F(old_rd),
	F(pkt_rd),     F(meta),	    F(new_bytes),    F(old_bytes),
	F(pkt),
};

/*
 * @r with what cannot be compared cleared: how far data moved once the
 * metadata is gone (the kernel then has reallocated the head, headroom
 * moved the packet inside its frame).
 */
static struct smh_rec comparable(const struct smh_rec *r)
{
	struct smh_rec c = *r;
	unsigned int i;

	for (i = 0; i < SMH_NOPS; i++)
		if (!c.step[i].meta_len)
			c.step[i].moved = 0;
	return c;
}

static bool same(const struct smh_rec *ka, const struct smh_rec *hb, char *why,
		 size_t whysz)
{
	struct smh_rec a = comparable(ka), b = comparable(hb);
	const uint8_t *x = (const void *)&a, *y = (const void *)&b;
	size_t i, j;

	if (!memcmp(&a, &b, sizeof(a)))
		return true;
	for (i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
		const struct field *f = &fields[i];

		if (!memcmp(x + f->off, y + f->off, f->size))
			continue;
		for (j = 0; j < f->size && x[f->off + j] == y[f->off + j]; j++)
			;
		if (f->size == 4 || f->size == sizeof(struct smh_step)) {
			int32_t va[4] = { 0 }, vb[4] = { 0 };

			memcpy(va, x + f->off, f->size);
			memcpy(vb, y + f->off, f->size);
			snprintf(why, whysz, "%s: %d %d %d %d vs %d %d %d %d",
				 f->name, va[0], va[1], va[2], va[3], vb[0],
				 vb[1], vb[2], vb[3]);
		} else {
			snprintf(why, whysz, "%s[%zu]: %#x vs %#x", f->name, j,
				 x[f->off + j], y[f->off + j]);
		}
		return false;
	}
	snprintf(why, whysz, "padding");
	return false;
}

static void compare(const char *who, const struct smh_rec *k,
		    const struct smh_rec *h, unsigned int n,
		    unsigned int *diffs)
{
	unsigned int i, bad = 0;
	char why[200];

	for (i = 0; i < n; i++) {
		if (same(&k[i], &h[i], why, sizeof(why))) {
			t_passed++;
			continue;
		}
		t_failed++;
		(*diffs)++;
		if (bad++ < 12)
			fprintf(stderr, "FAIL %s: case %u (%s, meta %u): %s\n",
				who, i, case_seq[i]->name, cases[i].meta_len,
				why);
	}
}

/* ---- the two sides ---- */

/* The addresses the program recorded made offsets from data0. */
static void relative(struct smh_rec *recs)
{
	unsigned int i, j;

	for (i = 0; i < ncases; i++) {
		for (j = 0; j < cases[i].nops; j++)
			recs[i].step[j].moved =
				(int32_t)((uint32_t)recs[i].step[j].moved -
					  recs[i].data0);
		recs[i].data0 = 0;
	}
}

static int hr_fill_cases(struct hr_object *o)
{
	struct hr_map *m = hr_object_find_map(o, "smh_cases");
	uint32_t i;

	for (i = 0; i < ncases; i++)
		if (!m || hr_map_update_elem(m, &i, &cases[i], 0))
			return -1;
	return 0;
}

static int run_headroom(enum hr_engine engine, struct smh_rec *recs)
{
	char path[512], err[256] = "";
	HR_OPTS(hr_object_open_opts, oo, .errbuf = err,
		.errbuf_sz = sizeof(err), .ncpus = 1);
	struct t_frames f = { .n = ncases, .frame = wire_frame };
	struct hr_dev_counters dc;
	struct hr_object *o = NULL;
	struct hr_map *m;
	uint32_t i;
	int rc = -1;

	snprintf(path, sizeof(path), "%s/%s", t_progs_dir(), OBJ);
	if (hr_object_open(path, &oo, &o)) {
		CHECK(0, "headroom: open %s: %s", path, err);
		return -1;
	}
	m = hr_object_find_map(o, "smh_recs");
	if (!m || hr_fill_cases(o)) {
		CHECK(0, "headroom: maps");
	} else if (!t_dp_xdp_tc(engine, o, "smh_xdp", "smh_tc", &f, &dc)) {
		/* Every case through XDP_PASS to tc, which shot it. */
		CHECK_EQ(dc.xdp_pass, ncases);
		CHECK_EQ(dc.drops[HR_DROP_TC_SHOT], ncases);
		for (i = 0, rc = 0; i < ncases; i++)
			rc |= hr_map_lookup_elem(m, &i, &recs[i]);
		CHECK_EQ(rc, 0);
		relative(recs);
	}
	hr_object_close(o);
	return rc;
}

static int run_kernel(const struct t_netns *ns, struct smh_rec *recs)
{
	struct t_frames f = { .n = nkernel, .frame = wire_frame };
	struct t_krecs r = { "smh_recs", recs, sizeof(*recs), nkernel };
	struct bpf_object *o = t_kopen(OBJ);
	int fd = o ? t_kmap(o, "smh_cases") : -1;
	uint32_t i;
	int rc = -1;

	for (i = 0; fd >= 0 && i < nkernel; i++)
		if (bpf_map_update_elem(fd, &i, &cases[i], 0))
			fd = -1;
	if (fd < 0) {
		CHECK(0, "kernel: object or smh_cases");
	} else if (!t_veth_xdp_tc(ns, o, "smh_xdp", "smh_tc", &f, &r)) {
		relative(recs);
		rc = 0;
	}
	bpf_object__close(o);
	return rc;
}

/* ---- what 6.18 gives, checked on headroom's records alone ---- */

static const struct smh_rec *find(const struct smh_rec *recs, const char *name,
				  uint8_t meta_len, unsigned int *idx)
{
	unsigned int i;

	for (i = 0; i < ncases; i++)
		if (cases[i].meta_len == meta_len &&
		    !strcmp(case_seq[i]->name, name)) {
			*idx = i;
			return &recs[i];
		}
	CHECK(0, "no case %s meta %u", name, meta_len);
	return NULL;
}

/*
 * Whether data_meta .. data of @r shows, with the metadata staying where
 * XDP left it while data moved by @moved: filler bytes where data_meta
 * is now in front of the old metadata, metadata bytes, then the bytes
 * the packet's first @moved (or rather the MAC header moved over it)
 * left - only the first two are checked, up to @upto bytes.
 */
static void check_shift(const struct smh_rec *r, unsigned int idx,
			int32_t moved, uint32_t upto, const char *what)
{
	uint32_t m = cases[idx].meta_len, fill, i;
	uint8_t want;
	bool ok = true;

	fill = SMH_WIRE_LEN - cases[idx].pkt_len;
	for (i = 0; i < upto && i < m; i++) {
		int32_t at = (int32_t)i + moved; /* from the old data_meta */

		if (at < 0)
			want = SMH_FILL_BYTE(
				idx, (uint32_t)((int32_t)(fill - m) + at));
		else
			want = SMH_META_BYTE(idx, (uint32_t)at);
		if (r->meta[i] != want)
			ok = false;
	}
	CHECK(ok, "%s: data_meta shows the metadata moved by %d", what, moved);
}

static void test_model(const struct smh_rec *h)
{
	uint8_t pkt[SMH_WIRE_LEN];
	const struct smh_rec *r;
	unsigned int i;

	/* Untouched by stores, loads, checksums, pulls, redirect. */
	r = find(h, "store 0", 32, &i);
	if (r) {
		CHECK_EQ(r->step[0].rc, 0);
		CHECK_EQ(r->step[0].meta_len, 32);
		check_shift(r, i, 0, 32, "store");
		CHECK(!memcmp(r->new_bytes, r->meta, 32), "dynptr = data_meta");
	}
	/* Two pushes: one tag in the packet, data 4 bytes back, the
	 * metadata where it was: data_meta starts 4 filler bytes early. */
	r = find(h, "push push", 32, &i);
	if (r) {
		CHECK_EQ(r->step[1].rc, 0);
		CHECK_EQ(r->step[1].meta_len, 32);
		CHECK_EQ(r->step[1].moved, -4);
		check_shift(r, i, -4, 32, "push push");
		CHECK(!memcmp(r->old_bytes, r->meta, 32), "old dynptr too");
	}
	r = find(h, "room +256 mac", 32, &i);
	if (r) {
		CHECK_EQ(r->step[0].rc, 0);
		CHECK_EQ(r->step[0].moved, -256);
		check_shift(r, i, -256, 32, "room +256");
	}
	r = find(h, "room -4 net", 252, &i);
	if (r) {
		CHECK_EQ(r->step[0].rc, 0);
		CHECK_EQ(r->step[0].moved, 4);
		check_shift(r, i, 4, 248, "room -4");
	}
	r = find(h, "head 14", 4, &i);
	if (r) {
		CHECK_EQ(r->step[0].moved, -14);
		check_shift(r, i, -14, 4, "head 14");
	}
	/* Past the tailroom the head is reallocated: no metadata, while a
	 * dynptr made before keeps its size and reads at the MAC header. */
	r = find(h, "tail past the end", 32, &i);
	if (r) {
		CHECK_EQ(r->step[0].rc, 0);
		CHECK_EQ(r->step[0].meta_len, 0);
		CHECK_EQ(r->new_size, 0);
		CHECK_EQ(r->old_size_end, 32);
		CHECK_EQ(r->old_rd, 0);
		CHECK(!memcmp(r->old_bytes, r->pkt, 32), "old dynptr: packet");
	}
	r = find(h, "tail to the end", 32, &i);
	if (r) {
		CHECK_EQ(r->step[0].rc, 0);
		CHECK_EQ(r->step[0].meta_len, 32);
		check_shift(r, i, 0, 32, "tail to the end");
	}
	r = find(h, "clone self", 4, &i);
	if (r) {
		CHECK_EQ(r->step[0].rc, 0);
		CHECK_EQ(r->step[0].meta_len, 0);
	}
	r = find(h, "clone missing", 4, &i);
	if (r) {
		CHECK_EQ(r->step[0].rc, -EINVAL);
		CHECK_EQ(r->step[0].meta_len, 4);
	}
	r = find(h, "head past headroom", 8, &i);
	if (r) {
		CHECK_EQ(r->step[0].rc, 0);
		CHECK_EQ(r->step[0].meta_len, 0);
	}
	/* The expansion comes before the encap checks. */
	r = find(h, "room past headroom, bad encap", 8, &i);
	if (r) {
		CHECK_EQ(r->step[0].rc, -EINVAL);
		CHECK_EQ(r->step[0].meta_len, 0);
	}
	/* 6.18's data_meta would be 244 bytes in front of the buffer:
	 * headroom's starts at the head, and the skb_meta dynptr, of the
	 * kernel's size, ends the run at its first read there. */
	r = find(h, "head to 8 bytes of room", HR_ONLY_META, &i);
	if (r) {
		CHECK_EQ(r->seen, 1);
		CHECK_EQ(r->step[0].rc, 0);
		CHECK_EQ(r->step[0].meta_len, 8);
		CHECK_EQ(r->new_create, 0);
		CHECK_EQ(r->new_size, HR_ONLY_META);
		CHECK_EQ(r->old_size_end, 0); /* never got there */
	}
	/* A 252-byte dynptr from before the clone reads at the MAC header
	 * of a 100-byte packet: ended there. */
	r = find(h, "clone, old dynptr past the packet", HR_ONLY_META, &i);
	if (r) {
		CHECK_EQ(r->step[0].meta_len, 0);
		CHECK_EQ(r->new_create, 0);
		CHECK_EQ(r->old_size_end, HR_ONLY_META);
		CHECK_EQ(r->pkt[0], 0); /* never got there */
	}
	/* The same through bpf_dynptr_memset: ended at the call. */
	r = find(h, "clone, memset past the packet", HR_ONLY_META, &i);
	if (r) {
		CHECK_EQ(r->step[0].meta_len, 0);
		CHECK_EQ(r->step[1].len, 0); /* never got there */
	}
	/* A dynptr made before the metadata was cleared writes the packet
	 * at the MAC header. */
	r = find(h, "tail past, meta memset", 4, &i);
	if (r) {
		packet(&cases[i], false, pkt);
		memset(pkt + 1, SMH_MEMSET_BYTE, 3);
		CHECK_EQ(r->step[1].rc, 0);
		CHECK(!memcmp(r->pkt, pkt, sizeof(r->pkt)),
		      "memset of the packet: %02x %02x %02x %02x %02x",
		      r->pkt[0], r->pkt[1], r->pkt[2], r->pkt[3], r->pkt[4]);
	}
}

/* SMH_DUMP=1: each case's steps on both sides, for reading. */
static void dump(const struct smh_rec *k, const struct smh_rec *h)
{
	unsigned int i, j;
	char why[200];

	for (i = 0; i < ncases; i++) {
		fprintf(stderr, "%3u %-30s m%-3u", i, case_seq[i]->name,
			cases[i].meta_len);
		for (j = 0; j < cases[i].nops; j++)
			fprintf(stderr, " [%d %u %u %d|%d %u %u %d]",
				k[i].step[j].rc, k[i].step[j].meta_len,
				k[i].step[j].len, k[i].step[j].moved,
				h[i].step[j].rc, h[i].step[j].meta_len,
				h[i].step[j].len, h[i].step[j].moved);
		fprintf(stderr, " %s\n",
			same(&k[i], &h[i], why, sizeof(why)) ? "same" : why);
	}
}

int main(void)
{
	static struct smh_rec k[SMH_NCASES], hi[SMH_NCASES], hj[SMH_NCASES];
	unsigned int diffs = 0;
	struct t_netns ns;
	char why[256];

	make_cases();
	if (run_headroom(HR_ENGINE_INTERP, hi) ||
	    run_headroom(HR_ENGINE_JIT, hj))
		return t_done();
	compare("headroom JIT vs interpreter", hi, hj, ncases, &diffs);
	test_model(hi);
	/* A failure of headroom's own checks is one with or without the
	 * kernel. */
	if (!t_have_kernel(why, sizeof(why)))
		return t_failed ? t_done() : t_skip(why);
	if (system("ip -V >/dev/null 2>&1"))
		return t_failed ? t_done() : t_skip("no iproute2");
	/* A host difference (kernel_side.h): the kernel's program cannot
	 * load, and there is nothing to compare with. */
	if (t_host_skips_adjust_meta("skb_meta_helpers.o's smh_xdp"))
		return t_done();
	if (t_netns_setup("hrh", &ns)) {
		CHECK(0, "network namespace %s with a veth pair", ns.name);
	} else if (!run_kernel(&ns, k)) {
		diffs = 0;
		compare("kernel veth vs headroom interpreter", k, hi, nkernel,
			&diffs);
		compare("kernel veth vs headroom JIT", k, hj, nkernel, &diffs);
		printf("skb metadata after tc helpers: %u kernel cases, each "
		       "against the interpreter and the JIT: %u differences\n",
		       nkernel, diffs);
		if (getenv("SMH_DUMP"))
			dump(k, hi);
	}
	t_netns_cleanup();
	return t_done();
}
