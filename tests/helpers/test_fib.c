// SPDX-License-Identifier: MIT
/*
 * bpf_fib_lookup (progs/helpers/xdp_fib.bpf.c) against headroom's tables and,
 * in a network namespace of its own with the same devices, routes and
 * neighbours, against the kernel's: every BPF_FIB_LKUP_RET_* the tables
 * can give, the flags, the MTU checks and the struct's output fields.
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <net/if.h>
#include <netinet/in.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "harness.h"
#include "headroom/fib.h"
#include "headroom/headroom.h"

static uint32_t if0, if2;
static const uint8_t mac0[6] = { 2, 0, 0, 0, 0, 0x10 };
static const uint8_t mac2[6] = { 2, 0, 0, 0, 0, 0x12 };

static const char *const setup[] = {
	"ip link add v0 address 02:00:00:00:00:10 type veth peer name v1",
	"ip link add v2 address 02:00:00:00:00:12 mtu 9000 type veth peer "
	"name v3 mtu 9000",
	"ip link set v0 up",
	"ip link set v1 up",
	"ip link set v2 up",
	"ip link set v3 up",
	"sysctl -qw net.ipv4.conf.all.forwarding=1",
	"sysctl -qw net.ipv4.conf.v2.forwarding=0",
	"sysctl -qw net.ipv6.conf.all.forwarding=1",
	"ip route add 10.1.0.0/16 dev v0",
	"ip route add 10.2.0.0/16 via 10.1.0.1 dev v0",
	"ip route add 10.3.0.0/24 via 10.1.0.1 dev v0 mtu lock 1400",
	"ip route add 10.4.0.0/16 dev v2 metric 10",
	"ip route add 10.4.0.0/16 dev v0 metric 20",
	"ip route add blackhole 10.5.0.0/16",
	"ip route add unreachable 10.6.0.0/16",
	"ip route add prohibit 10.7.0.0/16",
	"ip neigh add 10.1.0.1 lladdr 02:00:00:00:01:01 dev v0 nud permanent",
	"ip neigh add 10.1.0.5 lladdr 02:00:00:00:01:05 dev v0 nud permanent",
	"ip neigh add 10.4.0.9 lladdr 02:00:00:00:04:09 dev v2 nud permanent",
	"ip -6 route add fd01::/64 dev v0",
	"ip -6 route add fd02::/64 via fd01::1 dev v0",
	"ip -6 route add blackhole fd05::/64",
	"ip -6 neigh add fd01::1 lladdr 02:00:00:00:06:01 dev v0 nud permanent",
	NULL,
};

static void add_route(int family, const char *dst, int plen, int type,
		      uint32_t ifindex, int gw_family, const char *gw,
		      uint32_t metric, uint32_t mtu)
{
	struct hr_fib_route r = { .family = family,
				  .prefix_len = (uint8_t)plen,
				  .type = type,
				  .ifindex = ifindex,
				  .gw_family = gw_family,
				  .metric = metric,
				  .mtu = mtu };

	inet_pton(family, dst, r.dst);
	if (gw)
		inet_pton(gw_family, gw, r.gw);
	CHECK_EQ(hr_fib_route_add(&r), 0);
}

static void add_neigh(int family, const char *addr, uint32_t ifindex,
		      uint8_t last)
{
	struct hr_fib_neigh n = { .family = family,
				  .ifindex = ifindex,
				  .mac = { 2, 0, 0, 0, 0, last } };

	inet_pton(family, addr, n.addr);
	n.mac[4] = family == AF_INET6 ? 6 : (uint8_t)(last == 9 ? 4 : 1);
	n.mac[5] = last;
	CHECK_EQ(hr_fib_neigh_add(&n), 0);
}

/* The same configuration in headroom's tables; the kernel's metric of a
 * route added without one is 0 (IPv4) or 1024 (IPv6). */
static void headroom_setup(void)
{
	struct hr_fib_dev d0 = { .ifindex = if0,
				 .mtu = 1500,
				 .forwarding = true };
	struct hr_fib_dev d2 = { .ifindex = if2, .mtu = 9000 };

	memcpy(d0.mac, mac0, 6);
	memcpy(d2.mac, mac2, 6);
	CHECK_EQ(hr_fib_dev_set(&d0), 0);
	CHECK_EQ(hr_fib_dev_set(&d2), 0);
	hr_fib_set_ipv6_forwarding(true);
	add_route(AF_INET, "10.1.0.0", 16, HR_FIB_UNICAST, if0, 0, NULL, 0, 0);
	add_route(AF_INET, "10.2.0.0", 16, HR_FIB_UNICAST, if0, AF_INET,
		  "10.1.0.1", 0, 0);
	add_route(AF_INET, "10.3.0.0", 24, HR_FIB_UNICAST, if0, AF_INET,
		  "10.1.0.1", 0, 1400);
	add_route(AF_INET, "10.4.0.0", 16, HR_FIB_UNICAST, if2, 0, NULL, 10, 0);
	add_route(AF_INET, "10.4.0.0", 16, HR_FIB_UNICAST, if0, 0, NULL, 20, 0);
	add_route(AF_INET, "10.5.0.0", 16, HR_FIB_BLACKHOLE, 0, 0, NULL, 0, 0);
	add_route(AF_INET, "10.6.0.0", 16, HR_FIB_UNREACHABLE, 0, 0, NULL, 0,
		  0);
	add_route(AF_INET, "10.7.0.0", 16, HR_FIB_PROHIBIT, 0, 0, NULL, 0, 0);
	add_neigh(AF_INET, "10.1.0.1", if0, 1);
	add_neigh(AF_INET, "10.1.0.5", if0, 5);
	add_neigh(AF_INET, "10.4.0.9", if2, 9);
	add_route(AF_INET6, "fd01::", 64, HR_FIB_UNICAST, if0, 0, NULL, 1024,
		  0);
	add_route(AF_INET6, "fd02::", 64, HR_FIB_UNICAST, if0, AF_INET6,
		  "fd01::1", 1024, 0);
	add_route(AF_INET6, "fd05::", 64, HR_FIB_BLACKHOLE, 0, 0, NULL, 1024,
		  0);
	add_neigh(AF_INET6, "fd01::1", if0, 1);
}

struct res {
	int err;
	uint32_t retval;
	uint8_t out[2048];
};

static uint8_t pkt[2048];

static int run_hr(struct hr_prog *p, uint32_t len, struct res *r)
{
	struct hr_test_run_opts o = { .sz = sizeof(o) };

	o.data_in = pkt;
	o.data_size_in = len;
	o.data_out = r->out;
	o.data_size_out = sizeof(r->out);
	r->err = hr_prog_test_run(p, &o);
	r->retval = o.retval;
	return r->err;
}

static int run_k(int fd, uint32_t len, struct res *r)
{
	LIBBPF_OPTS(bpf_test_run_opts, o);

	o.data_in = pkt;
	o.data_size_in = len;
	o.data_out = r->out;
	o.data_size_out = sizeof(r->out);
	r->err = bpf_prog_test_run_opts(fd, &o) ? -errno : 0;
	r->retval = o.retval;
	return r->err;
}

static unsigned int cases, diffs;

static void one(struct hr_object *hobj, struct bpf_object *kobj,
		const char *prog, const struct bpf_fib_lookup *in,
		uint32_t flags, uint32_t short_plen, uint32_t len,
		const char *label)
{
	struct hr_prog *hp = hr_object_find_prog(hobj, prog);
	static struct res h, k;
	int32_t rc;

	memset(pkt, 0, sizeof(pkt));
	memcpy(pkt, &flags, 4);
	memcpy(pkt + 4, &short_plen, 4);
	memcpy(pkt + 8, in, sizeof(*in));
	memset(&h, 0, sizeof(h));
	run_hr(hp, len, &h);
	CHECK_EQ(h.err, 0);
	memcpy(&rc, h.out, 4);
	if (!kobj)
		return;
	memset(&k, 0, sizeof(k));
	run_k(bpf_program__fd(bpf_object__find_program_by_name(kobj, prog)),
	      len, &k);
	cases++;
	if (k.err != h.err || memcmp(k.out, h.out, 8 + sizeof(*in))) {
		char hk[200], hh[200];

		diffs++;
		t_hex(k.out, 8 + sizeof(*in), hk);
		t_hex(h.out, 8 + sizeof(*in), hh);
		CHECK(0, "%s %s:\n  kernel   %s\n  headroom %s", prog, label,
		      hk, hh);
	}
}

static void cases_all(struct hr_object *hobj, struct bpf_object *kobj)
{
	static const char *const v4[] = { "10.1.0.5", "10.1.0.6",   "10.2.3.4",
					  "10.3.0.7", "10.4.0.9",   "10.4.1.1",
					  "10.5.0.1", "10.6.0.1",   "10.7.0.1",
					  "10.9.0.1", "192.168.1.1" };
	static const char *const v6[] = { "fd01::1", "fd01::2", "fd02::5",
					  "fd05::1", "fd09::1" };
	static const uint32_t flags[] = { 0, 1, 2, 4, 1 | 8, 0x40, 16 };
	static const uint16_t tots[] = { 0, 1000, 1401, 1500, 1501 };
	const uint32_t ifs[] = { if0, if2, 999 };
	static const char *const progs[] = { "xdp_fib", "tc_fib" };
	struct bpf_fib_lookup p;
	char label[128];
	unsigned int a, f, i, t, pr, fam;

	for (pr = 0; pr < 2; pr++)
		for (fam = 0; fam < 3; fam++)
			for (a = 0; a < (fam == 1 ? 5u : 11u); a++)
				for (f = 0; f < 7; f++)
					for (i = 0; i < 3; i++)
						for (t = 0; t < 5; t++) {
							memset(&p, 0,
							       sizeof(p));
							p.family =
								fam == 1 ?
									AF_INET6 :
								fam == 2 ?
									7 :
									AF_INET;
							p.ifindex = ifs[i];
							p.tot_len = tots[t];
							if (f == 4)
								p.tbid =
									a & 1 ? 254 :
										100;
							inet_pton(
								fam == 1 ?
									AF_INET6 :
									AF_INET,
								fam == 1 ?
									v6[a] :
									v4[a],
								fam == 1 ?
									(void *)p
										.ipv6_dst :
									(void *)&p
										.ipv4_dst);
							snprintf(
								label,
								sizeof(label),
								"fam %u dst %s flags %#x if %u tot %u",
								p.family,
								fam == 1 ?
									v6[a] :
									v4[a],
								flags[f],
								ifs[i],
								tots[t]);
							one(hobj, kobj,
							    progs[pr], &p,
							    flags[f], 0, 80,
							    label);
						}
	/* A short params struct, and the tc device-MTU check. */
	memset(&p, 0, sizeof(p));
	p.family = AF_INET;
	p.ifindex = if0;
	inet_pton(AF_INET, "10.2.3.4", &p.ipv4_dst);
	one(hobj, kobj, "xdp_fib", &p, 0, 1, 80, "plen 32");
	one(hobj, kobj, "tc_fib", &p, 0, 1, 80, "plen 32");
	one(hobj, kobj, "tc_fib", &p, 0, 0, 1518, "tc 1518");
	one(hobj, kobj, "tc_fib", &p, 0, 0, 1519, "tc 1519");
	one(hobj, kobj, "xdp_fib", &p, 0, 0, 1519, "xdp 1519");
}

/* Results that hold with or without the kernel. */
static void expectations(struct hr_object *hobj)
{
	struct hr_prog *hp = hr_object_find_prog(hobj, "xdp_fib");
	struct bpf_fib_lookup p, *o;
	static struct res r;
	int32_t rc;

	memset(&p, 0, sizeof(p));
	p.family = AF_INET;
	p.ifindex = if0;
	inet_pton(AF_INET, "10.2.3.4", &p.ipv4_dst);
	memset(pkt, 0, 80);
	memcpy(pkt + 8, &p, sizeof(p));
	run_hr(hp, 80, &r);
	memcpy(&rc, r.out, 4);
	o = (struct bpf_fib_lookup *)(r.out + 8);
	CHECK_EQ(rc, BPF_FIB_LKUP_RET_SUCCESS);
	CHECK_EQ(o->ifindex, if0);
	CHECK(!memcmp(o->smac, mac0, 6), "smac");
	CHECK(!memcmp(o->dmac, "\x02\0\0\0\x01\x01", 6), "dmac");
	CHECK_EQ(o->ipv4_dst, htonl(0x0a010001));
	CHECK_EQ(o->mtu_result, 1500);
	inet_pton(AF_INET, "10.5.0.1", &p.ipv4_dst);
	memcpy(pkt + 8, &p, sizeof(p));
	run_hr(hp, 80, &r);
	memcpy(&rc, r.out, 4);
	CHECK_EQ(rc, BPF_FIB_LKUP_RET_BLACKHOLE);
	inet_pton(AF_INET, "10.3.0.9", &p.ipv4_dst);
	p.tot_len = 1401;
	memcpy(pkt + 8, &p, sizeof(p));
	run_hr(hp, 80, &r);
	memcpy(&rc, r.out, 4);
	CHECK_EQ(rc, BPF_FIB_LKUP_RET_FRAG_NEEDED);
	CHECK_EQ(((struct bpf_fib_lookup *)(r.out + 8))->mtu_result, 1400);
}

int main(void)
{
	struct hr_object_open_opts opts = { .sz = sizeof(opts) };
	struct bpf_object *kobj = NULL;
	struct hr_object *hobj;
	char path[512], why[256];
	bool kernel = t_have_kernel(why, sizeof(why));
	int i;

	snprintf(path, sizeof(path), "%s/xdp_fib.o", t_progs_dir());
	CHECK_EQ(hr_object_open(path, &opts, &hobj), 0);
	if (!hobj)
		return t_done();
	if (kernel && unshare(CLONE_NEWNET) == 0) {
		for (i = 0; setup[i]; i++)
			if (system(setup[i])) {
				fprintf(stderr, "setup failed: %s\n", setup[i]);
				kernel = false;
				break;
			}
		if0 = if_nametoindex("v0");
		if2 = if_nametoindex("v2");
		kobj = kernel ? bpf_object__open_file(path, NULL) : NULL;
		if (kobj && bpf_object__load(kobj)) {
			bpf_object__close(kobj);
			kobj = NULL;
		}
		CHECK(kobj != NULL, "kernel object");
	} else {
		fprintf(stderr, "no kernel oracle (%s): headroom only\n",
			kernel ? "unshare failed" : why);
		if0 = 2;
		if2 = 4;
	}
	headroom_setup();
	expectations(hobj);
	cases_all(hobj, kobj);
	printf("fib: %u cases against the kernel, %u differences\n", cases,
	       diffs);
	hr_fib_flush();
	bpf_object__close(kobj);
	hr_object_close(hobj);
	return t_done();
}
