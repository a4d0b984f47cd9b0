// SPDX-License-Identifier: MIT
/*
 * Context access rules and values, with the kernel as oracle:
 *  - each program below loads in headroom exactly when the kernel's
 *    verifier accepts it (struct xdp_md and struct __sk_buff reads and
 *    writes of every width, through moved and spilled context pointers);
 *  - a tc program copying __sk_buff fields into the packet gives the same
 *    bytes under headroom's test run as under the kernel's.
 */
#include <errno.h>
#include <stdarg.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <linux/bpf.h>

#include "harness.h"
#include "vm/asm.h"
#include "progs/prog.h"
#include "progs/ctx.h"
#include <headroom/test_run.h>

#define XMD(f) ((int)offsetof(struct xdp_md, f))
#define SKB(f) ((int)offsetof(struct __sk_buff, f))

struct ctx_case {
	const char *what;
	bool tc;
	uint32_t attach; /* expected attach type (devmap for egress_ifindex) */
	char text[512];
};

static struct hr_prog *make_prog(const struct ctx_case *c, char *err,
				 size_t errsz, int *ret)
{
	struct hr_prog *p = calloc(1, sizeof(*p));
	struct hr_insn *insns;
	uint32_t cnt;

	*ret = hr_asm(c->text, &insns, &cnt, err, errsz);
	if (*ret) {
		free(p);
		return NULL;
	}
	p->name = strdup("ctx_case");
	p->sec = strdup(c->tc ? "tc" : "xdp");
	p->type = c->tc ? &hr_prog_type_tc : &hr_prog_type_xdp;
	p->expected_attach = c->attach;
	p->insns = insns;
	p->cnt = cnt;
	*ret = hr_prog_finalize(p, err, errsz);
	return p;
}

static int kernel_load(const struct ctx_case *c, const struct hr_insn *insns,
		       uint32_t cnt)
{
	char log[4096];
	LIBBPF_OPTS(bpf_prog_load_opts, o, .log_buf = log,
		    .log_size = sizeof(log), .log_level = 0,
		    .expected_attach_type = c->attach);
	int fd;

	fd = bpf_prog_load(c->tc ? BPF_PROG_TYPE_SCHED_CLS : BPF_PROG_TYPE_XDP,
			   "ctx_case", "GPL", (const struct bpf_insn *)insns,
			   cnt, &o);
	if (fd >= 0)
		close(fd);
	return fd >= 0 ? 0 : -errno;
}

static void add(struct ctx_case *cs, int *n, const char *what, bool tc,
		uint32_t attach, const char *fmt, ...)
{
	va_list ap;

	cs[*n].what = what;
	cs[*n].tc = tc;
	cs[*n].attach = attach;
	va_start(ap, fmt);
	vsnprintf(cs[*n].text, sizeof(cs[*n].text), fmt, ap);
	va_end(ap);
	(*n)++;
}

static int build_cases(struct ctx_case *cs)
{
	int n = 0;

	/* struct xdp_md */
	add(cs, &n, "xdp read data", false, 0,
	    "ldxw %%r0, [%%r1+%d]\nmov %%r0, 2\nexit\n", XMD(data));
	add(cs, &n, "xdp read all fields", false, 0,
	    "ldxw %%r2, [%%r1+%d]\nldxw %%r2, [%%r1+%d]\nldxw %%r2, [%%r1+%d]\n"
	    "ldxw %%r2, [%%r1+%d]\nldxw %%r2, [%%r1+%d]\nmov %%r0, 2\nexit\n",
	    XMD(data), XMD(data_end), XMD(data_meta), XMD(ingress_ifindex),
	    XMD(rx_queue_index));
	add(cs, &n, "xdp 8-byte read of data", false, 0,
	    "ldxdw %%r0, [%%r1+%d]\nmov %%r0, 2\nexit\n", XMD(data));
	add(cs, &n, "xdp 2-byte read of ingress_ifindex", false, 0,
	    "ldxh %%r0, [%%r1+%d]\nmov %%r0, 2\nexit\n", XMD(ingress_ifindex));
	add(cs, &n, "xdp write data", false, 0,
	    "mov %%r2, 0\nstxw [%%r1+%d], %%r2\nmov %%r0, 2\nexit\n",
	    XMD(data));
	add(cs, &n, "xdp write rx_queue_index", false, 0,
	    "stw [%%r1+%d], 1\nmov %%r0, 2\nexit\n", XMD(rx_queue_index));
	add(cs, &n, "xdp read egress_ifindex", false, 0,
	    "ldxw %%r0, [%%r1+%d]\nmov %%r0, 2\nexit\n", XMD(egress_ifindex));
	add(cs, &n, "xdp/devmap read egress_ifindex", false, BPF_XDP_DEVMAP,
	    "ldxw %%r0, [%%r1+%d]\nmov %%r0, 2\nexit\n", XMD(egress_ifindex));
	add(cs, &n, "xdp read past the end", false, 0,
	    "ldxw %%r0, [%%r1+%d]\nmov %%r0, 2\nexit\n",
	    (int)sizeof(struct xdp_md));
	add(cs, &n, "xdp unaligned read", false, 0,
	    "ldxw %%r0, [%%r1+2]\nmov %%r0, 2\nexit\n");
	add(cs, &n, "xdp write through a moved pointer", false, 0,
	    "mov %%r6, %%r1\nadd %%r6, 4\nstw [%%r6+0], 0\nmov %%r0, 2\n"
	    "exit\n");
	add(cs, &n, "xdp write through a spilled pointer", false, 0,
	    "stxdw [%%r10-8], %%r1\nldxdw %%r3, [%%r10-8]\nstw [%%r3+0], 0\n"
	    "mov %%r0, 2\nexit\n");
	add(cs, &n, "xdp read through a spilled pointer", false, 0,
	    "stxdw [%%r10-8], %%r1\nldxdw %%r3, [%%r10-8]\n"
	    "ldxw %%r0, [%%r3+%d]\nmov %%r0, 2\nexit\n",
	    XMD(data_end));
	add(cs, &n, "xdp atomic add on the context", false, 0,
	    "mov %%r2, 1\nlock add32 [%%r1+%d], %%r2\nmov %%r0, 2\nexit\n",
	    XMD(ingress_ifindex));

	/* struct __sk_buff */
	add(cs, &n, "tc write mark", true, 0,
	    "stw [%%r1+%d], 7\nmov %%r0, 0\nexit\n", SKB(mark));
	add(cs, &n, "tc write priority, tc_index, tc_classid, cb", true, 0,
	    "stw [%%r1+%d], 1\nstw [%%r1+%d], 2\nstw [%%r1+%d], 3\n"
	    "stw [%%r1+%d], 4\nstw [%%r1+%d], 5\nmov %%r0, 0\nexit\n",
	    SKB(priority), SKB(tc_index), SKB(tc_classid), SKB(cb[0]),
	    SKB(cb[4]));
	add(cs, &n, "tc write len", true, 0,
	    "stw [%%r1+%d], 1\nmov %%r0, 0\nexit\n", SKB(len));
	add(cs, &n, "tc write data", true, 0,
	    "stw [%%r1+%d], 1\nmov %%r0, 0\nexit\n", SKB(data));
	add(cs, &n, "tc write protocol", true, 0,
	    "stw [%%r1+%d], 1\nmov %%r0, 0\nexit\n", SKB(protocol));
	add(cs, &n, "tc 2-byte write of mark", true, 0,
	    "sth [%%r1+%d], 1\nmov %%r0, 0\nexit\n", SKB(mark));
	add(cs, &n, "tc narrow reads", true, 0,
	    "ldxb %%r2, [%%r1+%d]\nldxh %%r2, [%%r1+%d]\nldxb %%r2, [%%r1+%d]\n"
	    "mov %%r0, 0\nexit\n",
	    SKB(len), SKB(len), SKB(protocol) + 1);
	add(cs, &n, "tc 2-byte read of data", true, 0,
	    "ldxh %%r0, [%%r1+%d]\nmov %%r0, 0\nexit\n", SKB(data));
	add(cs, &n, "tc read family", true, 0,
	    "ldxw %%r0, [%%r1+%d]\nmov %%r0, 0\nexit\n", SKB(family));
	add(cs, &n, "tc read tstamp 8 bytes", true, 0,
	    "ldxdw %%r0, [%%r1+%d]\nmov %%r0, 0\nexit\n", SKB(tstamp));
	add(cs, &n, "tc read tstamp 4 bytes", true, 0,
	    "ldxw %%r0, [%%r1+%d]\nmov %%r0, 0\nexit\n", SKB(tstamp));
	add(cs, &n, "tc write hwtstamp", true, 0,
	    "mov %%r2, 0\nstxdw [%%r1+%d], %%r2\nmov %%r0, 0\nexit\n",
	    SKB(hwtstamp));
	add(cs, &n, "tc cb read across its end", true, 0,
	    "ldxdw %%r0, [%%r1+%d]\nmov %%r0, 0\nexit\n", SKB(cb[4]));
	return n;
}

static void test_rules(bool kernel)
{
	static struct ctx_case cs[64];
	int n = build_cases(cs), i, hret, kret;
	char err[512];

	for (i = 0; i < n; i++) {
		struct hr_prog *p = make_prog(&cs[i], err, sizeof(err), &hret);

		CHECK(p != NULL, "%s: does not assemble: %s", cs[i].what, err);
		if (!p)
			continue;
		if (kernel) {
			kret = kernel_load(&cs[i], p->insns, p->cnt);
			CHECK((hret == 0) == (kret == 0),
			      "%s: kernel %s (%d), headroom %s (%s)",
			      cs[i].what, kret ? "refuses" : "loads", kret,
			      hret ? "refuses" : "loads", hret ? err : "");
		}
		if (hret)
			CHECK(strstr(err, "context") ||
				      strstr(err, "bpf_context"),
			      "%s: message '%s' does not name the context",
			      cs[i].what, err);
		hr_prog_free(p);
	}
	printf("context rules: %d programs%s\n", n,
	       kernel ? ", each loads in headroom iff the kernel loads it" :
			"");
}

/* A tc program storing __sk_buff fields into the packet after the
 * Ethernet header, guarded by a data_end check for the verifier. */
static const struct {
	const char *name;
	int off;
	int size;
} fields[] = {
	{ "len", SKB(len), 4 },
	{ "pkt_type", SKB(pkt_type), 4 },
	{ "mark", SKB(mark), 4 },
	{ "queue_mapping", SKB(queue_mapping), 4 },
	{ "protocol", SKB(protocol), 4 },
	{ "vlan_present", SKB(vlan_present), 4 },
	{ "vlan_tci", SKB(vlan_tci), 4 },
	{ "vlan_proto", SKB(vlan_proto), 4 },
	{ "priority", SKB(priority), 4 },
	{ "ingress_ifindex", SKB(ingress_ifindex), 4 },
	{ "ifindex", SKB(ifindex), 4 },
	{ "tc_index", SKB(tc_index), 4 },
	{ "cb0", SKB(cb[0]), 4 },
	{ "cb4", SKB(cb[4]), 4 },
	{ "hash", SKB(hash), 4 },
	{ "tc_classid", SKB(tc_classid), 4 },
	{ "napi_id", SKB(napi_id), 4 },
	{ "wire_len", SKB(wire_len), 4 },
	{ "gso_segs", SKB(gso_segs), 4 },
	{ "gso_size", SKB(gso_size), 4 },
	{ "data_meta - data", -1, 4 },
};

#define NFIELDS (sizeof(fields) / sizeof(fields[0]))

static void field_prog(char *buf, size_t sz)
{
	size_t n = 0, i;

	n += (size_t)snprintf(buf + n, sz - n,
			      "ldxw %%r2, [%%r1+%d]\nldxw %%r3, [%%r1+%d]\n"
			      "mov %%r4, %%r2\nadd %%r4, %zu\n"
			      "jgt %%r4, %%r3, out\n",
			      SKB(data), SKB(data_end), 14 + 4 * NFIELDS);
	for (i = 0; i < NFIELDS; i++) {
		if (fields[i].off < 0)
			n += (size_t)snprintf(
				buf + n, sz - n,
				"ldxw %%r5, [%%r1+%d]\nmov %%r6, %%r2\n"
				"sub %%r6, %%r5\nstxw [%%r2+%zu], %%r6\n",
				SKB(data_meta), 14 + 4 * i);
		else
			n += (size_t)snprintf(buf + n, sz - n,
					      "ldxw %%r5, [%%r1+%d]\n"
					      "stxw [%%r2+%zu], %%r5\n",
					      fields[i].off, 14 + 4 * i);
	}
	snprintf(buf + n, sz - n, "out:\nmov %%r0, 0\nexit\n");
}

static void test_field_values(void)
{
	static char text[8192];
	struct ctx_case c = { .what = "fields", .tc = true };
	uint8_t pkt[128], kout[256], hout[256];
	struct __sk_buff in = { 0 }, kctx, hctx;
	struct hr_prog *p;
	char err[512];
	int ret, fd, k;
	size_t i;

	field_prog(text, sizeof(text));
	snprintf(c.text, sizeof(c.text), "%s", "");
	p = calloc(1, sizeof(*p));
	{
		struct hr_insn *insns;
		uint32_t cnt;

		ret = hr_asm(text, &insns, &cnt, err, sizeof(err));
		CHECK(ret == 0, "field program: %s", err);
		if (ret) {
			free(p);
			return;
		}
		p->name = strdup("fields");
		p->sec = strdup("tc");
		p->type = &hr_prog_type_tc;
		p->insns = insns;
		p->cnt = cnt;
	}
	ret = hr_prog_finalize(p, err, sizeof(err));
	CHECK(ret == 0, "field program does not load: %s", err);
	fd = kernel_load(&c, p->insns, p->cnt) == 0 ? 0 : -1;
	{
		LIBBPF_OPTS(bpf_prog_load_opts, o);

		fd = bpf_prog_load(BPF_PROG_TYPE_SCHED_CLS, "fields", "GPL",
				   (const struct bpf_insn *)p->insns, p->cnt,
				   &o);
	}
	CHECK(fd >= 0, "kernel refuses the field program: %s", strerror(errno));
	memset(pkt, 0, sizeof(pkt));
	/* A broadcast IPv4 frame, then one to another host, then ARP. */
	for (k = 0; k < 3 && fd >= 0 && !ret; k++) {
		LIBBPF_OPTS(bpf_test_run_opts, ko, .data_in = pkt,
			    .data_size_in = sizeof(pkt), .data_out = kout,
			    .data_size_out = sizeof(kout), .ctx_in = &in,
			    .ctx_size_in = sizeof(in), .ctx_out = &kctx,
			    .ctx_size_out = sizeof(kctx));
		HR_OPTS(hr_test_run_opts, ho, .data_in = pkt,
			.data_size_in = sizeof(pkt), .data_out = hout,
			.data_size_out = sizeof(hout), .ctx_in = &in,
			.ctx_size_in = sizeof(in), .ctx_out = &hctx,
			.ctx_size_out = sizeof(hctx));

		memset(pkt, k == 0 ? 0xff : 0x02, 6);
		pkt[12] = 0x08;
		pkt[13] = k == 2 ? 0x06 : 0x00;
		pkt[14] = 0x45;
		in.mark = 0x1000 + (uint32_t)k;
		in.priority = 7;
		in.cb[0] = 0xc0ffee;
		in.cb[4] = 0xdead;
		memset(kout, 0, sizeof(kout));
		memset(hout, 0, sizeof(hout));
		memset(&kctx, 0, sizeof(kctx));
		memset(&hctx, 0, sizeof(hctx));
		CHECK(bpf_prog_test_run_opts(fd, &ko) == 0, "kernel run: %s",
		      strerror(errno));
		CHECK_EQ(hr_prog_test_run(p, &ho), 0);
		CHECK_EQ(ho.retval, ko.retval);
		for (i = 0; i < NFIELDS; i++) {
			uint32_t kv, hv;

			memcpy(&kv, kout + 14 + 4 * i, 4);
			memcpy(&hv, hout + 14 + 4 * i, 4);
			CHECK(kv == hv,
			      "packet %d: __sk_buff.%s kernel 0x%x "
			      "headroom 0x%x",
			      k, fields[i].name, kv, hv);
		}
		CHECK(!memcmp(&kctx, &hctx, sizeof(kctx)),
		      "packet %d: ctx_out differs", k);
	}
	if (fd >= 0)
		close(fd);
	hr_prog_free(p);
	printf("__sk_buff values: %zu fields on 3 packets compared with the "
	       "kernel\n",
	       NFIELDS);
}

int main(void)
{
	char why[256];
	bool kernel = t_have_kernel(why, sizeof(why));

	libbpf_set_print(NULL);
	test_rules(kernel);
	if (!kernel)
		return t_skip(why);
	test_field_values();
	return t_done();
}
