// SPDX-License-Identifier: MIT
/*
 * bpf_skb_set_tunnel_key, bpf_skb_get_tunnel_key, bpf_skb_set_tunnel_opt
 * and bpf_skb_get_tunnel_opt (tc_tunnel_key.bpf.c): every key size the
 * kernel knows and some it does not, every flag and bad ones, IPv4 and
 * IPv6, options of good and bad sizes, a get with no tunnel metadata and
 * a get after a set in one program, under both engines, compared with
 * the kernel's BPF_PROG_TEST_RUN: return values, the bytes the gets
 * filled and every __sk_buff field. Metadata a packet arrives with
 * (hr_test_run_opts.tunnel_in) cannot be given to a kernel test run: it
 * is checked against the values the kernel's rules give, and against a
 * real collect_md vxlan device ("hrtunvx", in a network namespace of the
 * test's own): frames sent to it through a veth, what its tc ingress
 * program read with the gets (tc_tunnel_record) compared byte for byte
 * with headroom given the metadata the frame carried.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <net/if.h>
#include <sched.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <linux/bpf.h>
#include <linux/if_packet.h>

#include <bpf/libbpf.h>

#include <headroom/map.h>
#include <headroom/object.h>
#include <headroom/test_run.h>
#include <headroom/tunnel.h>

#include "check/check.h"
#include "gen_packets.h"
#include "harness.h"
#include "oracle.h"

#define OBJ "tc_tunnel_key.o"
#define PKT_LEN (14 + 256 + 64)
#define KEY_AT 14
#define NO_CALL 15
#define NSIZES 10 /* the programs' size selectors */
#define F_IPV6 (1u << 0)
#define F_ZERO_CSUM (1u << 1)
#define F_DF (1u << 2)
#define F_SEQ (1u << 3)
#define F_NO_KEY (1u << 4) /* set; BPF_F_TUNINFO_FLAGS for get */

static struct oracle *orc;
static unsigned int cases, diffs;
static uint8_t pkt[PKT_LEN];

static void run(const char *prog, const struct __sk_buff *s, const char *label)
{
	struct oracle_case c = { .obj = OBJ,
				 .prog = prog,
				 .data = pkt,
				 .size = sizeof(pkt),
				 .skb = s };
	int ret = oracle_check(orc, &c, label);

	cases++;
	if (ret != 1)
		diffs++;
	CHECK(ret == 1, "%s differs from the kernel (%d)", label, ret);
}

/* The packet: Ethernet to an experimental type, then @key and a byte
 * pattern. */
static void make_pkt(const struct bpf_tunnel_key *key, uint8_t seed)
{
	size_t i;

	memset(pkt, 2, 12);
	pkt[12] = 0x88;
	pkt[13] = 0xb5;
	for (i = 14; i < sizeof(pkt); i++)
		pkt[i] = (uint8_t)(i * 7 + seed);
	memcpy(pkt + KEY_AT, key, sizeof(*key));
}

/* Keys to set: IPv4 with no label, IPv6 with a label above 20 bits, one
 * with tunnel_ext set (refused), one with an IPv4 label (refused unless
 * IPv6). */
static void key_variant(int v, struct bpf_tunnel_key *k)
{
	static const uint8_t r6[16] = { 0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0,
					0,    0,    0,	  0,	0, 0, 0, 1 };
	static const uint8_t l6[16] = { 0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0,
					0,    0,    0,	  0,	0, 0, 0, 2 };

	memset(k, 0, sizeof(*k));
	k->tunnel_id = 0x12345678;
	k->tunnel_tos = 0x1c;
	k->tunnel_ttl = 64;
	if (v == 1) {
		memcpy(k->remote_ipv6, r6, 16);
		memcpy(k->local_ipv6, l6, 16);
		k->tunnel_label = 0xabcdef12;
		return;
	}
	k->remote_ipv4 = 0xc0000201; /* 192.0.2.1, host order */
	k->local_ipv4 = 0xc0000202;
	k->remote_ipv6[2] = 0x11111111; /* what the IPv4 get zeroes */
	if (v == 2)
		k->tunnel_ext = 1;
	if (v == 3)
		k->tunnel_label = 5;
}

static void key_cases(void)
{
	static const uint32_t set_flags[] = {
		0,
		F_IPV6,
		F_ZERO_CSUM | F_DF | F_SEQ,
		F_NO_KEY,
		F_IPV6 | F_ZERO_CSUM | F_DF | F_SEQ | F_NO_KEY,
		1u << 5,
		1u << 31,
	};
	struct bpf_tunnel_key key;
	struct __sk_buff s;
	char label[128];
	uint32_t ss, sf, gs, gf, get_flags[4];
	int v;

	for (v = 0; v < 4; v++) {
		key_variant(v, &key);
		make_pkt(&key, (uint8_t)v);
		for (ss = 0; ss <= NSIZES; ss++)
			for (sf = 0; sf < 7; sf++)
				for (gs = 0; gs <= NSIZES; gs++) {
					uint32_t fam = set_flags[sf] & F_IPV6;
					uint32_t sel = ss == NSIZES ? NO_CALL :
								      ss;
					uint32_t gsel = gs == NSIZES ? NO_CALL :
								       gs;

					/* The get's flags: the set's family,
					 * with the tunnel flags, the other
					 * family, an unknown flag. */
					get_flags[0] = fam;
					get_flags[1] = fam | F_NO_KEY;
					get_flags[2] = fam ^ F_IPV6;
					get_flags[3] = fam | 2;
					for (gf = 0; gf < 4; gf++) {
						if (gf >= 2 && gs % 3)
							continue;
						oracle_skb_cb(&s, sel,
							      set_flags[sf],
							      gsel,
							      get_flags[gf]);
						snprintf(label, sizeof(label),
							 "key v%d set %u/%#x "
							 "get %u/%#x",
							 v, sel, set_flags[sf],
							 gsel, get_flags[gf]);
						run("tc_tunnel_key", &s, label);
					}
				}
	}
}

static void opt_cases(void)
{
	static const uint32_t whats[] = { 0,	       1,	    3,
					  1 | 3u << 4, 1 | 0u << 4, 1 | 5u << 4,
					  1 | 4u << 4 };
	struct bpf_tunnel_key key;
	struct __sk_buff s;
	char label[128];
	uint32_t w, f, so, go, what;

	key_variant(0, &key);
	make_pkt(&key, 9);
	for (w = 0; w < sizeof(whats) / sizeof(whats[0]); w++)
		for (f = 0; f < 2; f++)
			for (so = 0; so < NSIZES; so++)
				for (go = 0; go < NSIZES; go++) {
					what = whats[w];
					/* bits 4..7 NO_CALL: no second set */
					if (w < 3)
						what |= NO_CALL << 4;
					oracle_skb_cb(&s, what, f ? F_IPV6 : 0,
						      so, go);
					snprintf(label, sizeof(label),
						 "opt what %#x flags %u set %u "
						 "get %u",
						 what, f, so, go);
					run("tc_tunnel_opt", &s, label);
				}
}

/* No metadata at all: what every get answers on a test run's skb. */
static void rx_none_cases(void)
{
	static const uint32_t flags[] = { 0, F_IPV6, F_NO_KEY, 2, 1u << 31 };
	struct bpf_tunnel_key key;
	struct __sk_buff s;
	char label[96];
	uint32_t sel, f;

	key_variant(0, &key);
	make_pkt(&key, 3);
	for (sel = 0; sel < NSIZES; sel++)
		for (f = 0; f < 5; f++) {
			oracle_skb_cb(&s, sel, flags[f], sel, 0);
			snprintf(label, sizeof(label), "rx none key %u/%#x",
				 sel, flags[f]);
			run("tc_tunnel_rx", &s, label);
		}
}

static int rx_headroom(const struct hr_tunnel_md *in, uint32_t ksel,
		       uint32_t kflags, uint32_t osel, struct oracle_result *r)
{
	struct __sk_buff s;
	HR_OPTS(hr_tunnel_md, out);
	struct oracle_case c = { .obj = OBJ,
				 .prog = "tc_tunnel_rx",
				 .data = pkt,
				 .size = sizeof(pkt),
				 .skb = &s,
				 .tunnel_in = in,
				 .tunnel_out = &out };
	int err;

	oracle_skb_cb(&s, ksel, kflags, osel, 0);
	err = oracle_run_headroom(orc, &c, r);
	if (err)
		return err;
	if (r->err)
		return r->err;
	/* Nothing set: the skb keeps what it arrived with. */
	CHECK(out.family == in->family && !out.tx && out.id == in->id &&
		      !memcmp(out.remote, in->remote, 16) &&
		      out.opts_len == in->opts_len,
	      "tunnel_out is not tunnel_in");
	return 0;
}

/* Metadata a packet arrived with, as a vxlan or geneve device in
 * collect_md mode gives it: the values the kernel's rules give. */
static void rx_given_cases(void)
{
	HR_OPTS(hr_tunnel_md, md, .family = AF_INET, .id = 0x100000042ull,
		.tos = 0x10, .ttl = 63,
		.flags = HR_TUNNEL_F_KEY | HR_TUNNEL_F_CSUM |
			 HR_TUNNEL_F_GENEVE_OPT,
		.opts_len = 8, .opts = { 1, 2, 3, 4, 5, 6, 7, 8 });
	struct oracle_result r;
	struct bpf_tunnel_key k;
	uint8_t want_opt[16] = { 1, 2, 3, 4, 5, 6, 7, 8 };

	inet_pton(AF_INET, "192.0.2.1", md.remote);
	inet_pton(AF_INET, "192.0.2.2", md.local);
	make_pkt(&(struct bpf_tunnel_key){ 0 }, 1);
	/* Full key with flags, options of 16 bytes (zero-filled). */
	CHECK_EQ(rx_headroom(&md, 0, F_NO_KEY, 8, &r), 0);
	memcpy(&k, r.out + KEY_AT, sizeof(k));
	CHECK_EQ(r.skb_out.cb[0], 0);
	CHECK_EQ(r.skb_out.cb[1], 8);
	CHECK_EQ(k.tunnel_id, 0x42);
	CHECK_EQ(k.remote_ipv4, 0xc0000201);
	CHECK_EQ(k.local_ipv4, 0xc0000202);
	CHECK_EQ(k.tunnel_tos, 0x10);
	CHECK_EQ(k.tunnel_ttl, 63);
	CHECK_EQ(k.tunnel_flags, htons(0x0805));
	CHECK_EQ(k.tunnel_label, 0);
	CHECK(!memcmp(r.out + KEY_AT + 48, want_opt, 16), "options");
	/* Past the 44 bytes the get leaves the buffer alone. */
	CHECK_EQ(r.out[KEY_AT + 44], 0xa5);
	/* Without BPF_F_TUNINFO_FLAGS tunnel_ext is zeroed; options too
	 * long for the buffer: -ENOMEM and zeroes. */
	CHECK_EQ(rx_headroom(&md, 0, 0, 0, &r), 0);
	memcpy(&k, r.out + KEY_AT, sizeof(k));
	CHECK_EQ(k.tunnel_ext, 0);
	CHECK_EQ((int32_t)r.skb_out.cb[1], -12);
	CHECK_EQ(r.out[KEY_AT + 48], 0);
	/* The wrong family: -EPROTO; a compat size: its bytes only. */
	CHECK_EQ(rx_headroom(&md, 0, F_IPV6, 8, &r), 0);
	CHECK_EQ((int32_t)r.skb_out.cb[0], -71);
	CHECK_EQ(rx_headroom(&md, 4, 0, 8, &r), 0);
	CHECK_EQ(r.skb_out.cb[0], 0);
	CHECK_EQ(r.out[KEY_AT + 8], 0xa5);
	/* No option bit: -ENOENT whatever the length. */
	md.flags = HR_TUNNEL_F_KEY;
	CHECK_EQ(rx_headroom(&md, 0, 0, 8, &r), 0);
	CHECK_EQ((int32_t)r.skb_out.cb[1], -2);

	/* IPv6, with a flow label; the IPv6-only compat size 8 refused. */
	md.family = AF_INET6;
	md.label = 0xbcdef;
	inet_pton(AF_INET6, "2001:db8::1", md.remote);
	inet_pton(AF_INET6, "2001:db8::2", md.local);
	CHECK_EQ(rx_headroom(&md, 0, F_IPV6, 8, &r), 0);
	memcpy(&k, r.out + KEY_AT, sizeof(k));
	CHECK_EQ(r.skb_out.cb[0], 0);
	CHECK(!memcmp(k.remote_ipv6, md.remote, 16), "remote_ipv6");
	CHECK(!memcmp(k.local_ipv6, md.local, 16), "local_ipv6");
	CHECK_EQ(k.tunnel_label, 0xbcdef);
	CHECK_EQ(rx_headroom(&md, 4, F_IPV6, 8, &r), 0);
	CHECK_EQ((int32_t)r.skb_out.cb[0], -22);
	CHECK_EQ(r.out[KEY_AT], 0);

	/* What the test run refuses: a label on IPv4, no family, TX. */
	md.family = AF_INET;
	CHECK_EQ(rx_headroom(&md, 0, 0, 8, &r), -22);
	md.label = 0;
	md.family = 0;
	CHECK_EQ(rx_headroom(&md, 0, 0, 8, &r), -22);
	md.family = AF_INET;
	md.tx = true;
	CHECK_EQ(rx_headroom(&md, 0, 0, 8, &r), -22);
}

/* What a program set, as tunnel_out shows it (headroom only). */
static void set_out_case(void)
{
	struct bpf_tunnel_key key;
	struct oracle_result r;
	struct __sk_buff s;
	HR_OPTS(hr_tunnel_md, out);
	struct oracle_case c = { .obj = OBJ,
				 .prog = "tc_tunnel_key",
				 .data = pkt,
				 .size = sizeof(pkt),
				 .skb = &s,
				 .tunnel_out = &out };
	uint8_t remote[4] = { 192, 0, 2, 1 };

	key_variant(0, &key);
	make_pkt(&key, 0);
	oracle_skb_cb(&s, 0, F_DF, 0, 0);
	CHECK_EQ(oracle_run_headroom(orc, &c, &r), 0);
	CHECK_EQ(r.err, 0);
	CHECK(out.tx && out.family == AF_INET, "set metadata shown");
	CHECK(!memcmp(out.remote, remote, 4), "remote");
	CHECK_EQ(out.id, 0x12345678);
	CHECK_EQ(out.flags, HR_TUNNEL_F_NOCACHE | HR_TUNNEL_F_DONT_FRAGMENT |
				    HR_TUNNEL_F_CSUM | HR_TUNNEL_F_KEY);
	/* A set then get reads the receive side's view: swapped. */
	memcpy(&key, r.out + KEY_AT, sizeof(key));
	CHECK_EQ(key.remote_ipv4, 0xc0000202);
	CHECK_EQ(key.local_ipv4, 0xc0000201);
	oracle_skb_cb(&s, NO_CALL, 0, 0, 0);
	CHECK_EQ(oracle_run_headroom(orc, &c, &r), 0);
	CHECK(out.family == 0, "nothing set, nothing shown");
}

/* --- a real collect_md vxlan device ------------------------------- */

/* tc_tunnel_record's map value. */
struct tun_seen {
	int32_t key_ret;
	int32_t opt_ret;
	uint8_t key[44];
	uint8_t opt[16];
	uint32_t count;
};

#define INNER_LEN 64

/* The inner frame both sides' program sees: Ethernet to 0x88b5. */
static void inner_frame(uint8_t *f)
{
	static const uint8_t macs[12] = { 2, 0, 0, 0, 0, 0x0a,
					  2, 0, 0, 0, 0, 0x0b };
	size_t i;

	memcpy(f, macs, 12);
	f[12] = 0x88;
	f[13] = 0xb5;
	for (i = 14; i < INNER_LEN; i++)
		f[i] = (uint8_t)i;
}

/* A VXLAN group policy extension: GBP_ON | the second flags byte << 16
 * | the policy id. */
#define GBP_ON (1u << 31)
#define GBP_DONT_LEARN (0x40u << 16)
#define GBP_APPLIED (0x08u << 16)

/* The outer headers of one frame to the vxlan device. */
struct outer {
	int family;
	uint32_t vni;
	uint32_t gbp; /* GBP_*, 0: none */
	uint8_t tos; /* IPv6: the traffic class */
	uint8_t ttl; /* IPv6: the hop limit */
	uint32_t label; /* IPv6 flow label */
	bool csum; /* a UDP checksum (IPv6 always has one) */
};

#define REMOTE4 "192.0.2.1"
#define LOCAL4 "192.0.2.2"
#define REMOTE6 "2001:db8::1"
#define LOCAL6 "2001:db8::2"

static void put16(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

/* The IP header of @o before @udp_len bytes of UDP; its length. The
 * UDP checksum's pseudo-header sum into *@sum. */
static size_t ip_header(uint8_t *ip, const struct outer *o, size_t udp_len,
			uint32_t *sum)
{
	bool v6 = o->family == AF_INET6;
	size_t alen = v6 ? 16 : 4, hlen = v6 ? 40 : 20;
	uint8_t *src = ip + (v6 ? 8 : 12);
	uint32_t w;

	memset(ip, 0, hlen);
	inet_pton(o->family, v6 ? REMOTE6 : REMOTE4, src);
	inet_pton(o->family, v6 ? LOCAL6 : LOCAL4, src + alen);
	*sum = gen_sum16(src, 2 * alen, 0) + 17 + (uint32_t)udp_len;
	if (v6) {
		w = 6u << 28 | (uint32_t)o->tos << 20 | o->label;
		put16(ip, w >> 16);
		put16(ip + 2, w);
		put16(ip + 4, (uint32_t)udp_len);
		ip[6] = 17;
		ip[7] = o->ttl;
		return hlen;
	}
	ip[0] = 0x45;
	ip[1] = o->tos;
	put16(ip + 2, (uint32_t)(hlen + udp_len));
	ip[8] = o->ttl;
	ip[9] = 17;
	put16(ip + 10, (uint16_t)~gen_fold(gen_sum16(ip, hlen, 0)));
	return hlen;
}

/* Ethernet, IP REMOTE -> LOCAL as @o says, UDP to 4789, VXLAN (with
 * its group policy extension if any), the inner frame; its length. */
static size_t vxlan_frame(uint8_t *f, const struct outer *o)
{
	static const uint8_t macs[12] = { 2, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 1 };
	size_t udp_len = 8 + 8 + INNER_LEN, hlen;
	uint8_t *udp, *vx;
	uint32_t sum;
	uint16_t c;

	memcpy(f, macs, 12);
	put16(f + 12, o->family == AF_INET6 ? 0x86dd : 0x0800);
	hlen = ip_header(f + 14, o, udp_len, &sum);
	udp = f + 14 + hlen;
	vx = udp + 8;
	memset(udp, 0, udp_len);
	put16(udp, 12345);
	put16(udp + 2, 4789);
	put16(udp + 4, (uint32_t)udp_len);
	vx[0] = 0x08; /* VNI present */
	if (o->gbp & GBP_ON) {
		vx[0] |= 0x80;
		vx[1] = (uint8_t)(o->gbp >> 16);
		put16(vx + 2, o->gbp);
	}
	vx[4] = (uint8_t)(o->vni >> 16);
	put16(vx + 5, o->vni);
	inner_frame(vx + 8);
	if (o->csum || o->family == AF_INET6) {
		c = (uint16_t)~gen_fold(gen_sum16(udp, udp_len, sum));
		put16(udp + 6, c ? c : 0xffff);
	}
	return 14 + hlen + udp_len;
}

static int sh(const char *cmd)
{
	return t_run_cmd(cmd, NULL, 0);
}

/* hrtun0 <-> hrtun1 (192.0.2.2), and hrtunvx, vxlan external (with the
 * group policy extension, whose options a get_tunnel_opt reads) on 4789,
 * in the test's own network namespace. */
static int ns_setup(void)
{
	static const char *const cmds[] = {
		"ip link set lo up",
		"ip link add hrtun0 type veth peer name hrtun1",
		"ip link set hrtun1 address 02:00:00:00:00:02",
		"ip addr add 192.0.2.2/24 dev hrtun1",
		"ip addr add 2001:db8::2/64 dev hrtun1 nodad",
		"ip link set hrtun0 up",
		"ip link set hrtun1 up",
		"ip link add hrtunvx type vxlan external gbp dstport 4789",
		"ip link set hrtunvx up",
		"echo 0 > /proc/sys/net/ipv4/conf/all/rp_filter",
		"echo 0 > /proc/sys/net/ipv4/conf/hrtun1/rp_filter",
	};
	size_t i;

	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		if (sh(cmds[i])) {
			CHECK(0, "'%s' failed", cmds[i]);
			return -1;
		}
	return 0;
}

static int send_frame(const uint8_t *f, size_t len)
{
	struct sockaddr_ll sll = { .sll_family = AF_PACKET,
				   .sll_ifindex = (int)if_nametoindex("hrtun0"),
				   .sll_halen = 6 };
	int fd = socket(AF_PACKET, SOCK_RAW, 0);
	ssize_t n;

	if (fd < 0)
		return -errno;
	memcpy(sll.sll_addr, f, 6);
	n = sendto(fd, f, len, 0, (struct sockaddr *)&sll, sizeof(sll));
	close(fd);
	return n == (ssize_t)len ? 0 : -EIO;
}

/* The kernel's record of the next test frame, waited for (delivery runs
 * in softirq, after sendto returns). */
static int kernel_seen(struct bpf_map *map, uint32_t before, struct tun_seen *v)
{
	uint32_t zero = 0;
	int i;

	for (i = 0; i < 200; i++) {
		if (bpf_map__lookup_elem(map, &zero, sizeof(zero), v,
					 sizeof(*v), 0))
			return -EIO;
		if (v->count > before)
			return 0;
		usleep(10000);
	}
	return -ETIMEDOUT;
}

/* headroom's record of the inner frame run with @md given. */
static int headroom_seen(const struct hr_tunnel_md *md, struct tun_seen *v)
{
	struct hr_object *obj = oracle_headroom_object(orc, OBJ);
	struct hr_map *map = obj ? hr_object_find_map(obj, "tun_seen") : NULL;
	uint8_t inner[INNER_LEN];
	struct oracle_result r;
	struct oracle_case c = { .obj = OBJ,
				 .prog = "tc_tunnel_record",
				 .data = inner,
				 .size = sizeof(inner),
				 .tunnel_in = md };
	uint32_t zero = 0;

	if (!map)
		return -ENOENT;
	inner_frame(inner);
	if (oracle_run_headroom(orc, &c, &r) || r.err)
		return -EIO;
	return hr_map_lookup_elem(map, &zero, v);
}

/* One frame through the vxlan device and through headroom given the
 * metadata it should carry: the records must be byte for byte equal. */
/* The metadata the device should attach to @o's frame (udp_tun_rx_dst:
 * the outer header's addresses, tos, ttl, label; KEY, CSUM when the UDP
 * checksum is not zero; the group policy as a struct vxlan_metadata, the
 * policy id and its two flags at bits 22 and 19, in host order). */
static void outer_md(const struct outer *o, struct hr_tunnel_md *md)
{
	bool v6 = o->family == AF_INET6;
	uint32_t gbp;

	md->family = o->family;
	md->id = o->vni;
	md->tos = o->tos;
	md->ttl = o->ttl;
	md->label = o->label;
	md->flags = HR_TUNNEL_F_KEY;
	if (o->csum || v6)
		md->flags |= HR_TUNNEL_F_CSUM;
	inet_pton(o->family, v6 ? REMOTE6 : REMOTE4, md->remote);
	inet_pton(o->family, v6 ? LOCAL6 : LOCAL4, md->local);
	if (o->gbp & GBP_ON) {
		gbp = (o->gbp & 0xffff) |
		      (o->gbp & GBP_DONT_LEARN ? 1u << 22 : 0) |
		      (o->gbp & GBP_APPLIED ? 1u << 19 : 0);
		md->flags |= HR_TUNNEL_F_VXLAN_OPT;
		md->opts_len = 4;
		memcpy(md->opts, &gbp, 4);
	}
}

/* Not merely equal on both sides: what the device received. */
static void check_seen(const struct tun_seen *k, const struct hr_tunnel_md *md)
{
	struct bpf_tunnel_key key;

	memcpy(&key, k->key, sizeof(key));
	CHECK_EQ(k->key_ret, 0);
	CHECK_EQ(key.tunnel_id, md->id);
	CHECK_EQ(key.tunnel_tos, md->tos);
	CHECK_EQ(key.tunnel_ttl, md->ttl);
	CHECK_EQ(key.tunnel_label, md->label);
	CHECK_EQ(ntohs(key.tunnel_flags), md->flags);
	CHECK_EQ(k->opt_ret, md->opts_len ? md->opts_len : -ENOENT);
}

/* One frame through the vxlan device and through headroom given the
 * metadata it should carry: the records must be byte for byte equal. */
static void vxlan_case(struct bpf_map *map, const struct outer *o)
{
	HR_OPTS(hr_tunnel_md, md);
	struct tun_seen k, h, before;
	uint8_t f[256];
	uint32_t zero = 0;
	size_t len = vxlan_frame(f, o);
	char kh[2 * sizeof(k) + 1], hh[2 * sizeof(h) + 1];

	outer_md(o, &md);
	memset(&before, 0, sizeof(before));
	CHECK(!bpf_map__lookup_elem(map, &zero, sizeof(zero), &before,
				    sizeof(before), 0),
	      "tun_seen lookup");
	CHECK_EQ(send_frame(f, len), 0);
	if (kernel_seen(map, before.count, &k)) {
		CHECK(0, "vni %u: the vxlan device's program saw nothing",
		      o->vni);
		return;
	}
	CHECK_EQ(headroom_seen(&md, &h), 0);
	cases++;
	if (!memcmp(&k, &h, offsetof(struct tun_seen, count))) {
		check_seen(&k, &md);
		return;
	}
	diffs++;
	t_hex(&k, offsetof(struct tun_seen, count), kh);
	t_hex(&h, offsetof(struct tun_seen, count), hh);
	CHECK(0, "vxlan IPv%d vni %u:\n kernel   %s\n headroom %s",
	      o->family == AF_INET6 ? 6 : 4, o->vni, kh, hh);
}

static void vxlan_cases(void)
{
	struct bpf_object *kobj = oracle_kernel_object(orc, OBJ);
	struct bpf_program *prog = kobj ? bpf_object__find_program_by_name(
						  kobj, "tc_tunnel_record") :
					  NULL;
	struct bpf_map *map =
		kobj ? bpf_object__find_map_by_name(kobj, "tun_seen") : NULL;
	LIBBPF_OPTS(bpf_tc_hook, hook, .attach_point = BPF_TC_INGRESS);
	LIBBPF_OPTS(bpf_tc_opts, opts);
	static const struct outer outers[] = {
		{ .family = AF_INET, .vni = 42, .tos = 0x10, .ttl = 63 },
		{ .family = AF_INET, .vni = 0xabcdef, .ttl = 1, .csum = true },
		{ .family = AF_INET,
		  .vni = 7,
		  .tos = 0xfc,
		  .ttl = 255,
		  .csum = true },
		{ .family = AF_INET,
		  .vni = 9,
		  .ttl = 64,
		  .gbp = GBP_ON | 0x1234 },
		{ .family = AF_INET,
		  .vni = 10,
		  .tos = 0x20,
		  .ttl = 3,
		  .csum = true,
		  .gbp = GBP_ON | GBP_DONT_LEARN | GBP_APPLIED | 0xfffe },
		{ .family = AF_INET6,
		  .vni = 11,
		  .tos = 0xb8,
		  .ttl = 64,
		  .label = 0xabcde },
		{ .family = AF_INET6,
		  .vni = 0xffffff,
		  .ttl = 2,
		  .gbp = GBP_ON | 0x42 },
	};
	size_t i;

	CHECK(prog && map, "the kernel's tc_tunnel_record");
	if (!prog || !map)
		return;
	if (unshare(CLONE_NEWNET)) {
		CHECK(0, "unshare: %s", strerror(errno));
		return;
	}
	if (ns_setup())
		return;
	hook.ifindex = (int)if_nametoindex("hrtunvx");
	opts.prog_fd = bpf_program__fd(prog);
	if (bpf_tc_hook_create(&hook) || bpf_tc_attach(&hook, &opts)) {
		CHECK(0, "tc attach on hrtunvx");
	} else {
		for (i = 0; i < sizeof(outers) / sizeof(outers[0]); i++)
			vxlan_case(map, &outers[i]);
	}
	bpf_tc_hook_destroy(&hook);
	sh("ip link del hrtunvx");
	sh("ip link del hrtun0");
}

/* headroom check models the four helpers: tc_tunnel_record (no other
 * helper but the map lookup) is predicted accepted, as the kernel does. */
static void check_case(void)
{
	struct hr_object *obj = oracle_headroom_object(orc, OBJ);
	struct hr_prog *prog =
		obj ? hr_object_find_prog(obj, "tc_tunnel_record") : NULL;
	struct hr_check_result r;

	CHECK(prog != NULL, "tc_tunnel_record");
	if (!prog)
		return;
	CHECK_EQ(hr_check_predict(prog, &r), 0);
	CHECK(r.verdict == HR_CHECK_ACCEPT, "check: %d at insn %d: %s",
	      (int)r.verdict, r.insn, r.reason);
}

static void all_cases(void)
{
	key_cases();
	opt_cases();
	rx_none_cases();
}

int main(void)
{
	static const int engines[] = { HR_ENGINE_INTERP, HR_ENGINE_JIT };
	char why[128];
	unsigned int e;

	CHECK(oracle_new(&orc) == 0, "oracle");
	oracle_set_print_limit(orc, 5);
	for (e = 0; e < 2; e++) {
		oracle_set_engine(orc, engines[e]);
		rx_given_cases();
		set_out_case();
	}
	check_case();
	if (!t_have_kernel(why, sizeof(why))) {
		oracle_free(orc);
		t_skip(why);
		return t_done();
	}
	for (e = 0; e < 2; e++) {
		oracle_set_engine(orc, engines[e]);
		all_cases();
		printf("tunnel key (%s): %u cases against the kernel, %u "
		       "differences\n",
		       e ? "jit" : "interp", cases, diffs);
	}
	/* Last: it leaves the test in a network namespace of its own. */
	vxlan_cases();
	printf("tunnel key: %u cases in all, with a vxlan external device's "
	       "metadata, %u differences\n",
	       cases, diffs);
	oracle_summary(orc);
	oracle_free(orc);
	return t_done();
}
