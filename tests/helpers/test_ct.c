// SPDX-License-Identifier: MIT
/*
 * The conntrack kfuncs (helpers/kfuncs_ct.c over core/ct.c) through
 * progs/helpers/ct.bpf.c, XDP and tc, under the interpreter and the JIT,
 * compared with the kernel's BPF_PROG_TEST_RUN in a network namespace of
 * the test's own: bad option sizes, reserved fields, namespace ids,
 * protocols and tuple sizes, misses, entries inserted by a program and
 * entries given through hr_ct_add (in the kernel: inserted by the same
 * program), found from either direction and zone, with their timeouts
 * and status changed, and NAT set up before insertion. Every answer is
 * checked on headroom's side too, so the test fails without a kernel.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <netinet/in.h>
#include <linux/bpf.h>
#include <linux/netfilter/nf_conntrack_common.h>

#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "core/ct.h"
#include "harness.h"
#include "headroom/ct.h"
#include "headroom/object.h"
#include "headroom/opts.h"
#include "headroom/test_run.h"
#include "loader/loader.h"
#include "oracle.h"

/* progs/helpers/ct.bpf.c's request, after the Ethernet header. */
struct ct_opts {
	int32_t netns_id;
	int32_t error;
	uint8_t l4proto;
	uint8_t dir;
	uint16_t ct_zone_id;
	uint8_t ct_zone_dir;
	uint8_t reserved[3];
};

struct ct_view {
	uint64_t status;
	uint32_t mark;
	uint32_t timeout;
	uint16_t zone_id;
	uint8_t zone_dir;
	uint8_t pad;
	uint16_t l3num;
	uint8_t protonum;
	uint8_t dir1;
	uint32_t osrc[4], odst[4];
	uint16_t osport, odport;
	uint32_t rsrc[4], rdst[4];
	uint16_t rsport, rdport;
	int32_t use;
	uint32_t pad2;
};

struct ct_req {
	uint32_t op;
	uint32_t tuple_sz;
	uint32_t opts_sz;
	uint32_t timeout;
	uint32_t status;
	uint32_t flags;
	uint32_t mark;
	uint32_t nat_addr;
	int32_t nat_port;
	uint32_t pad;
	uint8_t tuple[40];
	struct ct_opts opts;
	uint8_t opts_pad[8];
	int32_t found;
	int32_t inserted;
	int32_t r_timeout;
	int32_t r_status;
	int32_t r_nat_src;
	int32_t r_nat_dst;
	struct ct_view before, after;
} __attribute__((packed));

enum { OP_LOOKUP = 1, OP_ALLOC = 2 };
#define DO_TIMEOUT 1
#define DO_STATUS 2
#define DO_MARK 4
#define DO_NAT_SRC 8
#define DO_NAT_DST 16

#define PKT_SIZE 512

static struct oracle *orc;
static bool kernel;
static const char *prog; /* "xdp_ct" or "tc_ct" */
static uint16_t base; /* port base of this engine and type */
static uint8_t pkt[PKT_SIZE];
static struct ct_req got; /* headroom's last answer */

/* A request for @saddr:@sport -> @daddr:@dport (IPv4 dotted or IPv6). */
static void req(struct ct_req *q, uint32_t op, uint8_t proto, const char *saddr,
		uint16_t sport, const char *daddr, uint16_t dport)
{
	bool v6 = strchr(saddr, ':') != NULL;
	int fam = v6 ? AF_INET6 : AF_INET;
	unsigned int alen = v6 ? 16 : 4;
	uint16_t sp = htons(sport), dp = htons(dport);

	memset(q, 0, sizeof(*q));
	q->op = op;
	q->tuple_sz = v6 ? 36 : 12;
	q->opts_sz = 16;
	q->opts.netns_id = -1;
	q->opts.l4proto = proto;
	inet_pton(fam, saddr, q->tuple);
	inet_pton(fam, daddr, q->tuple + alen);
	memcpy(q->tuple + 2 * alen, &sp, 2);
	memcpy(q->tuple + 2 * alen + 2, &dp, 2);
}

/* Runs @q on both sides (or headroom's alone): 1 when they agree. */
static int run(const struct ct_req *q, const char *label)
{
	struct oracle_case c = {
		.obj = "ct.o", .prog = prog, .data = pkt, .size = sizeof(pkt)
	};
	struct __sk_buff skb;
	int ret;

	memset(pkt, 0, sizeof(pkt));
	memcpy(pkt + 14, q, sizeof(*q));
	if (prog[0] == 't') {
		memset(&skb, 0, sizeof(skb));
		c.skb = &skb;
	}
	ret = oracle_check(orc, &c, label);
	CHECK(ret == 1, "%s: %s", label, ret == 0 ? "differs" : "not run");
	memcpy(&got, oracle_headroom_result(orc)->out + 14, sizeof(got));
	CHECK_EQ(oracle_headroom_result(orc)->retval, 2);
	return ret;
}

/* The kernel's side alone (for its entries headroom gets by hr_ct_add). */
static void run_kernel(const struct ct_req *q)
{
	struct oracle_case c = {
		.obj = "ct.o", .prog = prog, .data = pkt, .size = sizeof(pkt)
	};
	struct oracle_result r;
	struct __sk_buff skb;
	struct ct_req out;

	if (!kernel)
		return;
	memset(pkt, 0, sizeof(pkt));
	memcpy(pkt + 14, q, sizeof(*q));
	if (prog[0] == 't') {
		memset(&skb, 0, sizeof(skb));
		c.skb = &skb;
	}
	CHECK(oracle_run_kernel(orc, &c, &r) == 0, "kernel setup run");
	memcpy(&out, r.out + 14, sizeof(out));
	CHECK(out.inserted == 1, "kernel setup entry inserted");
}

/* A call that fails with @err before anything is found or made. */
static void bad(uint32_t op, const char *what, void (*tweak)(struct ct_req *),
		int err)
{
	struct ct_req q;
	char label[120];

	req(&q, op, IPPROTO_TCP, "10.9.0.1", 1000, "10.9.0.2", 80);
	tweak(&q);
	snprintf(label, sizeof(label), "%s %s %s", prog,
		 op == OP_LOOKUP ? "lookup" : "alloc", what);
	run(&q, label);
	CHECK(!got.found && got.opts.error == err, "%s: found %d error %d",
	      label, got.found, got.opts.error);
}

static void sz8(struct ct_req *q)
{
	q->opts_sz = 8;
}

static void sz20(struct ct_req *q)
{
	q->opts_sz = 20;
}

static void sz12_zone(struct ct_req *q)
{
	q->opts_sz = 12;
	q->opts.ct_zone_id = 1;
}

static void reserved(struct ct_req *q)
{
	q->opts.reserved[2] = 1;
}

static void netns_m2(struct ct_req *q)
{
	q->opts.netns_id = -2;
}

static void netns_0(struct ct_req *q)
{
	q->opts.netns_id = 0;
}

static void icmp(struct ct_req *q)
{
	q->opts.l4proto = IPPROTO_ICMP;
}

static void icmp_netns_m2(struct ct_req *q)
{
	q->opts.l4proto = IPPROTO_ICMP;
	q->opts.netns_id = -2;
}

static void tuple20(struct ct_req *q)
{
	q->tuple_sz = 20;
}

static void nothing(struct ct_req *q)
{
}

static void errors(void)
{
	static const uint32_t ops[] = { OP_LOOKUP, OP_ALLOC };
	unsigned int i;

	for (i = 0; i < 2; i++) {
		bad(ops[i], "opts__sz 8", sz8, -EINVAL);
		bad(ops[i], "opts__sz 20", sz20, -EINVAL);
		bad(ops[i], "12-byte opts with a zone", sz12_zone, -EINVAL);
		bad(ops[i], "reserved set", reserved, -EINVAL);
		bad(ops[i], "netns_id -2", netns_m2, -EINVAL);
		bad(ops[i], "netns_id 0", netns_0, -ENONET);
		bad(ops[i], "ICMP", icmp, -EPROTO);
		bad(ops[i], "tuple__sz 20", tuple20, -EAFNOSUPPORT);
	}
	/* The lookup checks the protocol before the namespace id, the
	 * allocation after. */
	bad(OP_LOOKUP, "ICMP and netns_id -2", icmp_netns_m2, -EPROTO);
	bad(OP_ALLOC, "ICMP and netns_id -2", icmp_netns_m2, -EINVAL);
	bad(OP_LOOKUP, "miss", nothing, -ENOENT);
}

/* An entry headroom gets from hr_ct_add, the kernel from the program. */
static void given_entry(void)
{
	HR_OPTS(hr_ct_entry_opts, e, .family = AF_INET, .proto = IPPROTO_TCP,
		.sport = base, .dport = 80, .mark = 7, .timeout = 10);
	struct ct_req q;
	char label[80];

	inet_pton(AF_INET, "10.0.0.2", e.src);
	inet_pton(AF_INET, "10.0.0.1", e.dst);
	req(&q, OP_ALLOC, IPPROTO_TCP, "10.0.0.2", base, "10.0.0.1", 80);
	q.flags = DO_MARK;
	q.mark = 7;
	run_kernel(&q);
	CHECK_EQ(hr_ct_add(&e), 0);
	CHECK_EQ(hr_ct_add(&e), -EEXIST);

	req(&q, OP_LOOKUP, IPPROTO_TCP, "10.0.0.2", base, "10.0.0.1", 80);
	snprintf(label, sizeof(label), "%s given entry", prog);
	run(&q, label);
	CHECK(got.found && got.opts.error == 0 && got.opts.dir == 0,
	      "%s: found %d error %d dir %d", label, got.found, got.opts.error,
	      got.opts.dir);
	CHECK_EQ(got.before.mark, 7);
	CHECK_EQ(got.before.status, IPS_CONFIRMED);
	CHECK_EQ(got.before.timeout, 10);
	CHECK_EQ(got.before.l3num, AF_INET);
	CHECK_EQ(got.before.protonum, IPPROTO_TCP);
	CHECK_EQ(got.before.dir1, 1);
	CHECK_EQ(got.before.osport, htons(base));
	CHECK_EQ(got.before.rsport, htons(80));
	CHECK_EQ(got.before.zone_dir, 3);
	CHECK_EQ(got.before.use, 2); /* the table's and the program's */

	/* From the reply direction, and with the 12-byte options. */
	req(&q, OP_LOOKUP, IPPROTO_TCP, "10.0.0.1", 80, "10.0.0.2", base);
	q.opts_sz = 12;
	snprintf(label, sizeof(label), "%s given entry, reply tuple", prog);
	run(&q, label);
	CHECK(got.found && got.opts.dir == 1, "%s: found %d dir %d", label,
	      got.found, got.opts.dir);

	/* UDP and another zone miss it. */
	req(&q, OP_LOOKUP, IPPROTO_UDP, "10.0.0.2", base, "10.0.0.1", 80);
	snprintf(label, sizeof(label), "%s given entry as UDP", prog);
	run(&q, label);
	CHECK(!got.found && got.opts.error == -ENOENT, "%s", label);
	req(&q, OP_LOOKUP, IPPROTO_TCP, "10.0.0.2", base, "10.0.0.1", 80);
	q.opts.ct_zone_id = 5;
	snprintf(label, sizeof(label), "%s given entry, zone 5", prog);
	run(&q, label);
	CHECK(!got.found && got.opts.error == -ENOENT &&
		      got.opts.ct_zone_dir == 3,
	      "%s: found %d zone dir %d", label, got.found,
	      got.opts.ct_zone_dir);

	/* Timeout and status changed through the found entry. */
	req(&q, OP_LOOKUP, IPPROTO_TCP, "10.0.0.2", base, "10.0.0.1", 80);
	q.flags = DO_TIMEOUT | DO_STATUS | DO_MARK;
	q.timeout = 20000;
	q.status = IPS_CONFIRMED | IPS_SEEN_REPLY | IPS_ASSURED;
	q.mark = 8;
	snprintf(label, sizeof(label), "%s change timeout and status", prog);
	run(&q, label);
	CHECK(got.found && !got.r_timeout && !got.r_status, "%s: %d %d", label,
	      got.r_timeout, got.r_status);
	CHECK_EQ(got.after.timeout, 20);
	CHECK_EQ(got.after.status,
		 IPS_CONFIRMED | IPS_SEEN_REPLY | IPS_ASSURED);
	CHECK_EQ(got.after.mark, 8);

	/* ASSURED cannot be cleared, nor CONFIRMED. */
	q.flags = DO_STATUS;
	q.status = IPS_CONFIRMED | IPS_SEEN_REPLY;
	snprintf(label, sizeof(label), "%s clear ASSURED", prog);
	run(&q, label);
	CHECK_EQ(got.r_status, -EBUSY);
	q.status = IPS_SEEN_REPLY | IPS_ASSURED;
	snprintf(label, sizeof(label), "%s clear CONFIRMED", prog);
	run(&q, label);
	CHECK_EQ(got.r_status, -EBUSY);
	CHECK_EQ(got.after.mark, 8);
}

/* Entries moved to another layout and back keep every field (the
 * lookup after compares them with the kernel's); a layout whose fields
 * overrun it is refused. */
static void relayout(void)
{
	struct hr_ct_layout l = hr_ct_layout_6_18;

	l.size = 320;
	l.timeout = 260;
	l.status = 288;
	l.mark = 300;
	CHECK_EQ(hr_ct_set_layout(&l), 0);
	l.mark = 318;
	CHECK_EQ(hr_ct_set_layout(&l), -EINVAL);
	CHECK_EQ(hr_ct_set_layout(&hr_ct_layout_6_18), 0);
}

/* The C API's own answers, and an IPv6 entry given through it. */
static void api(void)
{
	HR_OPTS(hr_ct_entry_opts, e, .family = AF_INET6, .proto = IPPROTO_UDP,
		.sport = base, .dport = 53, .timeout = 10, .zone = 4);
	struct hr_ct_entry_opts old = { .sz = 8 };
	struct ct_req q;
	char label[80];

	inet_pton(AF_INET6, "fd00::5", e.src);
	inet_pton(AF_INET6, "fd00::6", e.dst);
	CHECK_EQ(hr_ct_add(NULL), -EINVAL);
	CHECK_EQ(hr_ct_add(&old), -EINVAL);
	e.family = AF_UNIX;
	CHECK_EQ(hr_ct_add(&e), -EINVAL);
	e.family = AF_INET6;
	e.tcp_state = HR_CT_TCP_ESTABLISHED; /* UDP has no TCP state */
	CHECK_EQ(hr_ct_add(&e), -EINVAL);
	e.tcp_state = 0;
	e.zone_dir = 4;
	CHECK_EQ(hr_ct_add(&e), -EINVAL);
	e.zone_dir = 0;

	req(&q, OP_ALLOC, IPPROTO_UDP, "fd00::5", base, "fd00::6", 53);
	q.opts.ct_zone_id = 4;
	run_kernel(&q);
	CHECK_EQ(hr_ct_add(&e), 0);
	relayout();
	req(&q, OP_LOOKUP, IPPROTO_UDP, "fd00::6", 53, "fd00::5", base);
	q.opts.ct_zone_id = 4;
	snprintf(label, sizeof(label), "%s given IPv6 entry, zone 4", prog);
	run(&q, label);
	CHECK(got.found && got.opts.dir == 1 && got.before.zone_id == 4 &&
		      got.before.l3num == AF_INET6 && got.before.timeout == 10,
	      "%s: found %d dir %d", label, got.found, got.opts.dir);
}

/* Entries a program allocates, sets up and inserts. */
static void inserted(void)
{
	struct ct_req q;
	char label[80];

	req(&q, OP_ALLOC, IPPROTO_TCP, "10.1.0.2", base, "10.1.0.1", 443);
	q.flags = DO_TIMEOUT | DO_STATUS | DO_MARK;
	q.timeout = 5001; /* rounded up to 1251 jiffies */
	q.status = IPS_SEEN_REPLY | IPS_ASSURED | IPS_HELPER;
	q.mark = 9;
	snprintf(label, sizeof(label), "%s alloc and insert", prog);
	run(&q, label);
	CHECK(got.found && got.inserted && !got.r_status, "%s: %d %d %d", label,
	      got.found, got.inserted, got.r_status);
	CHECK_EQ(got.before.timeout, 1251);
	CHECK_EQ(got.before.status, IPS_SEEN_REPLY | IPS_ASSURED | IPS_HELPER);
	CHECK_EQ(got.after.status,
		 IPS_CONFIRMED | IPS_SEEN_REPLY | IPS_ASSURED | IPS_HELPER);
	CHECK_EQ(got.after.timeout, 5);
	CHECK_EQ(got.after.mark, 9);
	CHECK_EQ(got.before.use, 0);
	CHECK_EQ(got.after.use, 2);

	/* The same tuple again: the insertion fails. */
	q.flags = 0;
	snprintf(label, sizeof(label), "%s insert again", prog);
	run(&q, label);
	CHECK(got.found && !got.inserted, "%s: %d %d", label, got.found,
	      got.inserted);
	CHECK_EQ(got.before.timeout, 2500);

	req(&q, OP_LOOKUP, IPPROTO_TCP, "10.1.0.2", base, "10.1.0.1", 443);
	snprintf(label, sizeof(label), "%s lookup inserted", prog);
	run(&q, label);
	CHECK(got.found && got.before.mark == 9, "%s: %d mark %u", label,
	      got.found, got.before.mark);

	/* set_status may not set CONFIRMED on an allocated entry. */
	req(&q, OP_ALLOC, IPPROTO_UDP, "10.1.0.3", base, "10.1.0.1", 53);
	q.flags = DO_STATUS;
	q.status = IPS_CONFIRMED;
	snprintf(label, sizeof(label), "%s set_status CONFIRMED", prog);
	run(&q, label);
	CHECK_EQ(got.r_status, -EBUSY);

	/* IPv6, in zone 3 one way only. */
	req(&q, OP_ALLOC, IPPROTO_UDP, "fd00::2", base, "fd00::1", 53);
	q.opts.ct_zone_id = 3;
	q.opts.ct_zone_dir = 1;
	snprintf(label, sizeof(label), "%s IPv6 zone 3", prog);
	run(&q, label);
	CHECK(got.inserted && got.after.zone_id == 3 &&
		      got.after.zone_dir == 1 && got.after.l3num == AF_INET6,
	      "%s", label);
	req(&q, OP_LOOKUP, IPPROTO_UDP, "fd00::2", base, "fd00::1", 53);
	q.opts.ct_zone_id = 3;
	snprintf(label, sizeof(label), "%s IPv6 zone 3 lookup", prog);
	run(&q, label);
	CHECK(got.found && got.opts.dir == 0, "%s", label);
	req(&q, OP_LOOKUP, IPPROTO_UDP, "fd00::1", 53, "fd00::2", base);
	q.opts.ct_zone_id = 3;
	snprintf(label, sizeof(label), "%s IPv6 zone 3 reply lookup", prog);
	run(&q, label);
	CHECK(!got.found, "%s: the zone is the original direction's", label);
	req(&q, OP_LOOKUP, IPPROTO_UDP, "fd00::1", 53, "fd00::2", base);
	snprintf(label, sizeof(label), "%s IPv6 zone 0 reply lookup", prog);
	run(&q, label);
	CHECK(got.found && got.opts.dir == 1, "%s", label);
}

static void nat(void)
{
	struct ct_req q;
	char label[80];

	req(&q, OP_ALLOC, IPPROTO_UDP, "10.2.0.2", base, "10.2.0.1", 53);
	q.flags = DO_NAT_SRC | DO_NAT_DST;
	inet_pton(AF_INET, "192.0.2.7", &q.nat_addr);
	q.nat_port = base + 1; /* each reply tuple its own */
	snprintf(label, sizeof(label), "%s NAT", prog);
	run(&q, label);
	CHECK(got.inserted && !got.r_nat_src && !got.r_nat_dst, "%s: %d %d %d",
	      label, got.inserted, got.r_nat_src, got.r_nat_dst);
	CHECK_EQ(got.before.status, IPS_SRC_NAT | IPS_DST_NAT |
					    IPS_SRC_NAT_DONE |
					    IPS_DST_NAT_DONE);
	CHECK_EQ(got.before.rdst[0], q.nat_addr);
	CHECK_EQ(got.before.rsrc[0], q.nat_addr);
	CHECK_EQ(got.before.rdport, htons(base + 1));
	CHECK_EQ(got.before.rsport, htons(base + 1));

	/* A second source NAT on one entry: NF_DROP, -ENOMEM. */
	req(&q, OP_ALLOC, IPPROTO_UDP, "10.2.0.3", base, "10.2.0.1", 53);
	q.flags = DO_NAT_SRC | DO_NAT_DST;
	q.nat_port = -1;
	snprintf(label, sizeof(label), "%s NAT without port", prog);
	run(&q, label);
	CHECK(got.inserted && !got.r_nat_src && !got.r_nat_dst, "%s", label);
	CHECK_EQ(got.before.rdport, htons(base));
}

/* The running kernel's BTF lays struct nf_conn out as the default the
 * table uses when a program brings no target BTF of its own. */
static void layout(void)
{
	struct btf *btf = btf__parse("/sys/kernel/btf/vmlinux", NULL);
	struct hr_ct_layout l;

	if (!btf) {
		printf("no /sys/kernel/btf/vmlinux: layout not compared\n");
		return;
	}
	CHECK_EQ(hr_ld_ct_layout(btf, &l), 0);
	CHECK(!memcmp(&l, &hr_ct_layout_6_18, sizeof(l)),
	      "vmlinux nf_conn: size %u timeout %u status %u mark %u", l.size,
	      l.timeout, l.status, l.mark);
	btf__free(btf);
}

/* What the verifier refuses ends the run; a reference never released is
 * let go at the end (SAN=1 would see the entry leak otherwise). */
static void containment(void)
{
	HR_OPTS(hr_ct_entry_opts, e, .family = AF_INET, .proto = IPPROTO_TCP,
		.sport = 1, .dport = 2);
	HR_OPTS(hr_object_open_opts, oo);
	struct hr_object *obj = NULL;
	struct hr_prog *p;
	char path[512];
	int eng;

	inet_pton(AF_INET, "10.7.0.2", e.src);
	inet_pton(AF_INET, "10.7.0.1", e.dst);
	CHECK_EQ(hr_ct_add(&e), 0);
	t_prog_path("ct_forged.o", path, sizeof(path));
	CHECK_EQ(hr_object_open(path, &oo, &obj), 0);
	p = obj ? hr_object_find_prog(obj, "ct_forged") : NULL;
	CHECK(p != NULL, "ct_forged");
	for (eng = HR_ENGINE_INTERP; p && eng <= HR_ENGINE_JIT; eng++) {
		CHECK_EQ(t_run_selector(p, 0, eng, NULL), HR_ABORT_NONE);
		CHECK_EQ(t_run_selector(p, 1, eng, NULL), HR_ABORT_OOB_LOAD);
		CHECK_EQ(t_run_selector(p, 2, eng, NULL), HR_ABORT_HELPER_ARG);
		CHECK_EQ(t_run_selector(p, 3, eng, NULL), HR_ABORT_HELPER_ARG);
		CHECK_EQ(t_run_selector(p, 4, eng, NULL), HR_ABORT_HELPER_ARG);
		CHECK_EQ(t_run_selector(p, 5, eng, NULL), HR_ABORT_RDONLY);
	}
	hr_object_close(obj);
	hr_ct_flush();
}

/* Timeouts: a fixed one refuses changes, one of 0 expires the entry,
 * and status bits the kernel keeps to itself are left alone. */
static void timeouts(void)
{
	struct ct_req q;
	char label[80];

	req(&q, OP_ALLOC, IPPROTO_TCP, "10.3.0.2", base, "10.3.0.1", 22);
	q.flags = DO_STATUS | DO_TIMEOUT;
	q.status = IPS_FIXED_TIMEOUT | IPS_SRC_NAT | (1u << 16);
	q.timeout = 0xffffffff;
	snprintf(label, sizeof(label), "%s fixed timeout", prog);
	run(&q, label);
	CHECK(got.inserted && !got.r_status, "%s", label);
	CHECK_EQ(got.before.status, IPS_FIXED_TIMEOUT);
	CHECK_EQ(got.before.timeout, 0x7fffffff);
	req(&q, OP_LOOKUP, IPPROTO_TCP, "10.3.0.2", base, "10.3.0.1", 22);
	q.flags = DO_TIMEOUT;
	q.timeout = 1000;
	snprintf(label, sizeof(label), "%s change a fixed timeout", prog);
	run(&q, label);
	CHECK(got.found && got.r_timeout == -EPERM, "%s: %d", label,
	      got.r_timeout);

	req(&q, OP_ALLOC, IPPROTO_UDP, "10.3.0.3", base, "10.3.0.1", 22);
	snprintf(label, sizeof(label), "%s entry to expire", prog);
	run(&q, label);
	req(&q, OP_LOOKUP, IPPROTO_UDP, "10.3.0.3", base, "10.3.0.1", 22);
	q.flags = DO_TIMEOUT;
	q.timeout = 0;
	snprintf(label, sizeof(label), "%s change timeout to 0", prog);
	run(&q, label);
	CHECK(got.found && !got.r_timeout, "%s", label);
	q.flags = 0;
	snprintf(label, sizeof(label), "%s expired entry", prog);
	run(&q, label);
	CHECK(!got.found && got.opts.error == -ENOENT, "%s", label);
}

/* Each program of ct_wrong_ctx.o calls the other type's twin: refused
 * at load by headroom, and by the kernel when there is one. */
static void wrong_ctx(void)
{
	static const char *const names[] = { "tc_xdp_lookup",
					     "xdp_skb_lookup" };
	struct bpf_object *kobj;
	struct bpf_program *kp;
	struct hr_object *obj;
	libbpf_print_fn_t pr;
	char path[512];
	unsigned int i;

	t_prog_path("ct_wrong_ctx.o", path, sizeof(path));
	for (i = 0; i < 2; i++) {
		HR_OPTS(hr_object_open_opts, oo, .only_prog = names[i]);

		obj = NULL;
		CHECK(hr_object_open(path, &oo, &obj) == -EINVAL,
		      "headroom refuses %s", names[i]);
		hr_object_close(obj);
		if (!kernel)
			continue;
		kobj = bpf_object__open_file(path, NULL);
		CHECK(kobj != NULL, "kernel open %s", path);
		if (!kobj)
			continue;
		bpf_object__for_each_program(kp, kobj)
			bpf_program__set_autoload(
				kp, !strcmp(bpf_program__name(kp), names[i]));
		/* Its verifier log is expected: not printed. */
		pr = libbpf_set_print(NULL);
		CHECK(bpf_object__load(kobj) != 0, "the kernel refuses %s",
		      names[i]);
		libbpf_set_print(pr);
		bpf_object__close(kobj);
	}
}

int main(void)
{
	static const int engines[] = { HR_ENGINE_INTERP, HR_ENGINE_JIT };
	static const char *const progs[] = { "xdp_ct", "tc_ct" };
	char why[200];
	unsigned int e, p;

	kernel = t_have_kernel(why, sizeof(why));
	if (kernel && unshare(CLONE_NEWNET)) {
		snprintf(why, sizeof(why), "unshare(CLONE_NEWNET): %s",
			 strerror(errno));
		kernel = false;
	}
	CHECK(oracle_new(&orc) == 0, "oracle");
	if (!orc)
		return t_done();
	oracle_set_headroom_only(orc, !kernel);
	CHECK_EQ(hr_ct_count(), 0);
	layout();
	containment();
	wrong_ctx();
	for (e = 0; e < 2; e++)
		for (p = 0; p < 2; p++) {
			oracle_set_engine(orc, engines[e]);
			prog = progs[p];
			base = (uint16_t)(20000 + 100 * (2 * e + p));
			errors();
			given_entry();
			api();
			inserted();
			nat();
			timeouts();
		}
	CHECK(hr_ct_count() > 0, "entries inserted");
	hr_ct_flush();
	CHECK_EQ(hr_ct_count(), 0);
	oracle_summary(orc);
	oracle_free(orc);
	if (!kernel) {
		t_done();
		return t_skip(why);
	}
	return t_done();
}
