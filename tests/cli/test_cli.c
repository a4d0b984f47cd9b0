// SPDX-License-Identifier: MIT
/*
 * The headroom command as users run it: every program under progs/ through
 * `headroom test --json`, compared with the live kernel's BPF_PROG_TEST_RUN
 * of the same object and packets; then the command's errors and exit codes.
 */
#include <dirent.h>
#include <stdarg.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "harness.h"
#include "gen_packets.h"
#include "kernel_side.h"

#define NPKTS 7
#define META_LEN 8
#define OUT_MAX 16384

/* Objects the kernel loads but headroom cannot run yet, and why. */
static const struct {
	const char *obj;
	const char *why;
} not_yet[] = {
	{ NULL, NULL }, /* none at the moment */
};

/*
 * Where headroom and the kernel part by design, recognised by what the
 * kernel's loader says: headroom runs these.
 */
static const struct {
	const char *log;
	const char *why;
} by_design[] = {
	{ "metadata kfuncs require device-bound program",
	  "the kernel takes metadata kfuncs only in device-bound programs, "
	  "which it cannot test-run; headroom test binds to a device "
	  "without hints (-EOPNOTSUPP)" },
	{ "failed to resolve CO-RE relocation",
	  "a reachable instruction libbpf poisoned: headroom loads the "
	  "program as libbpf does and aborts a run that reaches it "
	  "(HR_ABORT_CORE_POISON)" },
	{ "failed to auto-pin at",
	  "no bpffs mounted for libbpf's pinning; headroom pins by name in "
	  "its own map store" },
	{ "legacy map definitions in 'maps' section are not supported",
	  "libbpf 1.x dropped SEC(\"maps\"); headroom loads it as older "
	  "libbpf and iproute2 did" },
};

/* Test-only objects the kernel's verifier refuses on purpose: not compared
 * (their tests compare headroom's two engines instead). */
static const struct {
	const char *obj;
	const char *why;
} test_only[] = {
	{ "jit_tc_calls.o",
	  "aborts and reads of registers a tail call keeps, on purpose; "
	  "tests/vm/test_jit.c runs it under both engines" },
	{ "bounds_facts.o",
	  "map value accesses one byte past the value and stale packet "
	  "pointers, on purpose; tests/vm/test_bounds.c runs it under both "
	  "engines" },
	{ "contain_callback.o",
	  "loads from raw addresses inside bpf_loop callbacks, on purpose; "
	  "tests/vm/test_containment.c checks that both engines abort them" },
	{ "limits_work.o",
	  "locks taken twice or held at exit and writes outside ring "
	  "buffer records, on purpose (the verifier refuses them); "
	  "tests/helpers/test_helper_limits.c checks each abort" },
	{ "abort_access.o",
	  "one aborting memory access a region, on purpose (the verifier "
	  "refuses them); tests/cli/test_abort_access.sh checks each abort's "
	  "detail under every engine" },
	{ "skb_meta_dynptr_forged.o",
	  "dynptrs forged on the stack, on purpose (the verifier refuses "
	  "them); tests/helpers/test_skb_meta_dynptr.c checks that the run ends" },
	{ "user_ringbuf_forged.o",
	  "bpf_user_ringbuf_drain callbacks reaching past their sample and "
	  "their const dynptr, on purpose (the verifier refuses them); "
	  "tests/helpers/test_user_ringbuf_drain.c checks that each run "
	  "ends" },
	{ "dynptr_local_forged.o",
	  "local dynptrs forged on the stack, on purpose (the verifier "
	  "refuses them); tests/helpers/test_dynptr_mem.c checks that the run "
	  "ends" },
	{ "bits_ring_snprintf_forged.o",
	  "a bits iterator and a ring buffer dynptr forged on the stack and "
	  "bpf_snprintf formats the verifier checks at load, on purpose (it "
	  "refuses them); tests/helpers/test_snprintf.c checks each answer "
	  "and that the forged runs end" },
	{ "ct_forged.o",
	  "a conntrack entry read past its end and released wrongly, on "
	  "purpose (the verifier refuses them); tests/helpers/test_ct.c "
	  "checks that each run ends" },
	{ "xdp_obj_refused.o",
	  "a struct past what bpf_mem_alloc serves, on purpose (the "
	  "verifier refuses it); tests/helpers/test_obj.c checks both "
	  "refusals" },
	{ "xdp_obj_forged.o",
	  "allocated objects read and written past their end and after "
	  "bpf_obj_drop, dropped twice and leaked, on purpose (the verifier "
	  "refuses them); tests/helpers/test_obj.c checks each abort" },
	{ "xdp_percpu_obj_forged.o",
	  "per-CPU objects dropped twice, reached from the run's own "
	  "reference or the stack, read past a copy and leaked, on purpose "
	  "(the verifier refuses them); tests/helpers/test_percpu_obj.c "
	  "checks each abort" },
	{ "xdp_throw_cb.o",
	  "bpf_throw from a bpf_loop callback, on purpose (the verifier "
	  "refuses it); tests/helpers/test_throw.c checks that the run ends" },
	{ "xdp_trap.o",
	  "__bpf_trap on a path the packet picks, on purpose (the verifier "
	  "refuses a reachable one); tests/helpers/test_throw.c checks both "
	  "paths" },
};

static char klog[1 << 16];
static size_t klog_len;

static int capture_print(enum libbpf_print_level level, const char *fmt,
			 va_list ap)
{
	int n;

	if (klog_len >= sizeof(klog) - 1)
		return 0;
	n = vsnprintf(klog + klog_len, sizeof(klog) - klog_len, fmt, ap);
	if (n > 0)
		klog_len += (size_t)n < sizeof(klog) - klog_len ?
				    (size_t)n :
				    sizeof(klog) - klog_len - 1;
	return 0;
}

struct pkt {
	uint8_t buf[8192];
	uint32_t len;
};

static char bin[4096];

/* Objects the kernel and headroom cannot agree on across two processes
 * (random ones, per-process answers; tests/lib/harness.c's list) are
 * compared elsewhere, in one process. */
static const char *not_yet_reason(const char *obj)
{
	const char *why;
	size_t i;

	if (t_prog_by_design(obj, T_RANDOM | T_PER_PROCESS | T_KERNEL_STATE,
			     &why))
		return why;

	for (i = 0; i < sizeof(not_yet) / sizeof(not_yet[0]); i++)
		if (not_yet[i].obj && !strcmp(not_yet[i].obj, obj))
			return not_yet[i].why;
	return NULL;
}

/* Why headroom runs what the kernel just refused (its log is in klog). */
static const char *by_design_reason(void)
{
	size_t i;

	for (i = 0; i < sizeof(by_design) / sizeof(by_design[0]); i++)
		if (strstr(klog, by_design[i].log))
			return by_design[i].why;
	return NULL;
}

/* The kernel's answer for one packet, in the CLI's JSON terms. */
struct answer {
	int err;
	uint32_t retval;
	char data[2 * OUT_MAX + 1];
	char meta[2 * 256 + 1];
};

static void kernel_answer(int fd, bool xdp, const struct pkt *p,
			  uint32_t metalen, struct answer *a)
{
	static uint8_t in[8192 + 256], out[OUT_MAX];
	struct xdp_md md_in = { 0 }, md_out = { 0 };
	LIBBPF_OPTS(bpf_test_run_opts, o);

	memset(in, 0xa0, metalen);
	memcpy(in + metalen, p->buf, p->len);
	o.data_in = in;
	o.data_size_in = metalen + p->len;
	o.data_out = out;
	o.data_size_out = sizeof(out);
	if (xdp) {
		md_in.data = metalen;
		md_in.data_end = metalen + p->len;
		o.ctx_in = &md_in;
		o.ctx_size_in = sizeof(md_in);
		o.ctx_out = &md_out;
		o.ctx_size_out = sizeof(md_out);
	}
	a->err = bpf_prog_test_run_opts(fd, &o) ? -errno : 0;
	a->retval = o.retval;
	if (xdp) {
		t_hex(out, md_out.data, a->meta);
		/* data_size_out includes fragments; ctx_out.data_end is
		 * the end of the linear part. */
		t_hex(out + md_out.data,
		      o.data_size_out > md_out.data ?
			      o.data_size_out - md_out.data :
			      0,
		      a->data);
	} else {
		a->meta[0] = '\0';
		t_hex(out, o.data_size_out, a->data);
	}
}

/* Pulls "key":"value" or "key":number out of one JSON line. */
static bool json_field(const char *line, const char *key, char *val,
		       size_t valsz)
{
	char pat[64];
	const char *p, *e;

	snprintf(pat, sizeof(pat), "\"%s\":", key);
	p = strstr(line, pat);
	if (!p)
		return false;
	p += strlen(pat);
	if (*p == '"') {
		e = strchr(++p, '"');
	} else {
		e = p + strcspn(p, ",}");
	}
	if (!e || (size_t)(e - p) >= valsz)
		return false;
	memcpy(val, p, e - p);
	val[e - p] = '\0';
	return true;
}

static void compare_line(const char *label, unsigned int i, const char *line,
			 const struct answer *k)
{
	static char data[2 * OUT_MAX + 1];
	char retval[32], meta[600], error[256];

	if (!line) {
		CHECK(0, "%s pkt %u: no output line", label, i);
		return;
	}
	if (!json_field(line, "error", error, sizeof(error)))
		snprintf(error, sizeof(error), "null");
	if (k->err) {
		/* The kernel refused the input; so must headroom, naming
		 * the same errno. */
		CHECK(strstr(error, strerror(-k->err)) != NULL,
		      "%s pkt %u: kernel err %d (%s), headroom '%s'", label, i,
		      k->err, strerror(-k->err), line);
		return;
	}
	if (!json_field(line, "retval", retval, sizeof(retval)) ||
	    !json_field(line, "data", data, sizeof(data)) ||
	    !json_field(line, "meta", meta, sizeof(meta))) {
		CHECK(0, "%s pkt %u: malformed line '%s'", label, i, line);
		return;
	}
	CHECK(strtoul(retval, NULL, 0) == k->retval,
	      "%s pkt %u: retval kernel %u headroom %s", label, i, k->retval,
	      retval);
	CHECK(!strcmp(data, k->data),
	      "%s pkt %u: data\n  kernel   %s\n  "
	      "headroom %s",
	      label, i, k->data, data);
	CHECK(!strcmp(meta, k->meta), "%s pkt %u: meta kernel %s headroom %s",
	      label, i, k->meta, meta);
}

/* One program of a freshly loaded kernel object against one CLI run. */
static void compare_prog(const char *path, const char *obj_name,
			 const char *prog_name, bool xdp,
			 const struct pkt *pkts, uint32_t metalen)
{
	static char cmd[1 << 17], out[1 << 20];
	struct bpf_object *kobj;
	struct bpf_program *kprog;
	struct answer k;
	char label[256], *line, *save = NULL;
	size_t n;
	int i, rc;

	snprintf(label, sizeof(label), "%s:%s meta %u", obj_name, prog_name,
		 metalen);
	/* A fresh kernel object per comparison: maps start as the CLI's;
	 * programs the host's kfunc restriction refuses left out. */
	kobj = t_kload(obj_name, NULL, 0, NULL);
	if (!kobj) {
		CHECK(0, "%s: kernel no longer loads it", label);
		return;
	}
	kprog = bpf_object__find_program_by_name(kobj, prog_name);
	n = (size_t)snprintf(cmd, sizeof(cmd), "%s test %s:%s --json", bin,
			     path, prog_name);
	if (metalen) {
		n += (size_t)snprintf(cmd + n, sizeof(cmd) - n, " --meta ");
		for (i = 0; i < (int)metalen; i++)
			n += (size_t)snprintf(cmd + n, sizeof(cmd) - n, "a0");
	}
	for (i = 0; i < NPKTS; i++) {
		char hex[2 * sizeof(pkts[i].buf) + 1];

		t_hex(pkts[i].buf, pkts[i].len, hex);
		n += (size_t)snprintf(cmd + n, sizeof(cmd) - n, " --hex %s",
				      hex);
	}
	snprintf(cmd + n, sizeof(cmd) - n, " 2>/dev/null");
	rc = t_run_cmd(cmd, out, sizeof(out));
	CHECK(rc == 0 || rc == 3, "%s: exit %d", label, rc);
	line = strtok_r(out, "\n", &save);
	for (i = 0; i < NPKTS; i++) {
		kernel_answer(bpf_program__fd(kprog), xdp, &pkts[i], metalen,
			      &k);
		compare_line(label, (unsigned int)i, line, &k);
		line = strtok_r(NULL, "\n", &save);
	}
	/* Each headroom process starts with its own pins: so does each
	 * kernel comparison (where bpffs is mounted, libbpf pinned them). */
	bpf_object__unpin_maps(kobj, NULL);
	bpf_object__close(kobj);
}

/* Every program of @kobj the kernel can test-run, compared; those left
 * out of it (fd -1, the host's kfunc restriction) are not. */
static void compare_progs(const char *path, const char *name,
			  struct bpf_object *kobj, const struct pkt *pkts)
{
	struct bpf_program *p;

	bpf_object__for_each_program(p, kobj)
	{
		enum bpf_prog_type t = bpf_program__type(p);
		enum bpf_attach_type a = bpf_program__expected_attach_type(p);
		bool xdp = t == BPF_PROG_TYPE_XDP;

		if (!xdp && t != BPF_PROG_TYPE_SCHED_CLS)
			continue;
		if (xdp && (a == BPF_XDP_DEVMAP || a == BPF_XDP_CPUMAP))
			continue; /* not test-runnable in the kernel */
		if (bpf_program__fd(p) < 0)
			continue;
		compare_prog(path, name, bpf_program__name(p), xdp, pkts, 0);
		if (xdp)
			compare_prog(path, name, bpf_program__name(p), xdp,
				     pkts, META_LEN);
	}
}

/*
 * An object the kernel refuses because of the host's kfunc restriction
 * (kernel_side.h): a known host difference, not the kernel's verdict on
 * the object, so nothing is counted for the refused programs. Headroom
 * must still run it, and the programs the kernel loads on their own are
 * compared. False when the kernel refuses the others too: then that is
 * its verdict on the object.
 */
static bool compare_host_refused(const char *path, const char *name,
				 const struct pkt *pkts)
{
	char left[512], cmd[16384];
	struct bpf_object *kobj = t_kload(name, left, sizeof(left), NULL);
	int rc;

	if (!kobj) {
		printf("note: %s: the kernel refuses it for another reason "
		       "too\n",
		       name);
		return false;
	}
	printf("note: %s: %s not compared: %s\n", name, left, t_host_note());
	snprintf(cmd, sizeof(cmd), "%s test %s --hex %s 2>/dev/null", bin, path,
		 "0200000000020200000000010800450000140000000040110000");
	rc = t_run_cmd(cmd, NULL, 0);
	CHECK(rc == 0, "%s: headroom exits %d", name, rc);
	compare_progs(path, name, kobj, pkts);
	bpf_object__close(kobj);
	return true;
}

static void compare_object(const char *dir, const char *name,
			   const struct pkt *pkts)
{
	struct bpf_object *kobj;
	char path[4096], cmd[16384];
	const char *why = not_yet_reason(name);
	size_t i;
	int rc, err = 0;

	for (i = 0; i < sizeof(test_only) / sizeof(test_only[0]); i++) {
		if (!strcmp(test_only[i].obj, name)) {
			printf("note: %s not compared: %s\n", name,
			       test_only[i].why);
			return;
		}
	}
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	klog_len = 0;
	klog[0] = '\0';
	kobj = bpf_object__open_file(path, NULL);
	if (kobj)
		err = bpf_object__load(kobj);
	if (kobj && err && t_host_refusal(err, klog)) {
		bpf_object__close(kobj);
		if (compare_host_refused(path, name, pkts))
			return;
		kobj = NULL;
	}
	if (!kobj || err) {
		const char *design = by_design_reason();

		/* What the kernel refuses, headroom must refuse too, unless
		 * it runs it by design. */
		snprintf(
			cmd, sizeof(cmd), "%s test %s --hex %s 2>/dev/null",
			bin, path,
			"0200000000020200000000010800450000140000000040110000");
		rc = t_run_cmd(cmd, NULL, 0);
		if (design)
			printf("note: %s: %s\n", name, design);
		CHECK(rc == (design ? 0 : 1),
		      "%s: the kernel refuses it, headroom exits %d", name, rc);
		bpf_object__close(kobj);
		return;
	}
	if (why) {
		printf("note: %s not compared: %s\n", name, why);
		bpf_object__close(kobj);
		return;
	}
	/* What the kernel loads and headroom refuses by design. */
	if (t_prog_by_design(name, T_REFUSED, &why)) {
		snprintf(
			cmd, sizeof(cmd), "%s test %s --hex %s 2>/dev/null",
			bin, path,
			"0200000000020200000000010800450000140000000040110000");
		rc = t_run_cmd(cmd, NULL, 0);
		printf("note: %s: %s\n", name, why);
		CHECK(rc == 1, "%s: headroom should refuse it, exits %d", name,
		      rc);
		bpf_object__close(kobj);
		return;
	}
	compare_progs(path, name, kobj, pkts);
	bpf_object__close(kobj);
}

static void test_map_dump(const struct pkt *pkts);

static void test_all_progs(void)
{
	struct pkt pkts[NPKTS];
	struct gen_rng rng;
	struct gen_info info;
	struct dirent *e;
	unsigned int nobj = 0;
	DIR *d;
	int i;

	gen_seed(&rng, 0x5eed);
	for (i = 0; i < NPKTS; i++)
		pkts[i].len = gen_packet(&rng, pkts[i].buf, sizeof(pkts[i].buf),
					 &info);
	/* A 6000-byte frame: multi-buffer in both (3520 linear bytes, the
	 * rest in fragments). */
	memset(pkts[NPKTS - 2].buf + 14, 0, 6000 - 14);
	pkts[NPKTS - 2].len = 6000;
	pkts[NPKTS - 1].len = 10; /* too short: both refuse it */
	d = opendir(t_progs_dir());
	CHECK(d != NULL, "cannot open %s", t_progs_dir());
	if (!d)
		return;
	while ((e = readdir(d))) {
		size_t l = strlen(e->d_name);

		if (l < 3 || strcmp(e->d_name + l - 2, ".o"))
			continue;
		compare_object(t_progs_dir(), e->d_name, pkts);
		nobj++;
	}
	closedir(d);
	printf("compared %u objects under %s with the kernel\n", nobj,
	       t_progs_dir());
	CHECK(nobj >= 10, "only %u objects found", nobj);
	test_map_dump(pkts);
}

static void expect_exit(const char *args, int want, const char *what)
{
	char cmd[8192];
	int rc;

	snprintf(cmd, sizeof(cmd), "%s %s >/dev/null 2>&1", bin, args);
	rc = t_run_cmd(cmd, NULL, 0);
	CHECK(rc == want, "%s: '%s' exits %d, want %d", what, args, rc, want);
}

/*
 * --map and --dump-maps against the kernel: the same preload and packets
 * into xdp_counter in both, then every entry of the HASH map and the
 * per-CPU counter sums must agree.
 */
static void test_map_dump(const struct pkt *pkts)
{
	static char cmd[1 << 17], out[1 << 17];
	static char hex[2 * sizeof(((struct pkt *)0)->buf) + 1];
	char path[4096], want[256];
	struct bpf_object *kobj;
	struct bpf_map *km;
	uint32_t key = 0x0100000a, k2;
	uint64_t v = 5, got;
	size_t n;
	int i, rc, fd, nkeys = 0;

	snprintf(path, sizeof(path), "%s/xdp_counter.o", t_progs_dir());
	kobj = bpf_object__open_file(path, NULL);
	if (!kobj || bpf_object__load(kobj)) {
		CHECK(0, "kernel cannot load %s", path);
		bpf_object__close(kobj);
		return;
	}
	km = bpf_object__find_map_by_name(kobj, "src_bytes");
	fd = bpf_map__fd(km);
	CHECK(bpf_map_update_elem(fd, &key, &v, 0) == 0, "kernel preload");
	n = (size_t)snprintf(cmd, sizeof(cmd),
			     "%s test %s --json --dump-maps "
			     "--map src_bytes=0a000001:0500000000000000",
			     bin, path);
	for (i = 0; i < NPKTS - 1; i++) {
		struct answer a;

		kernel_answer(
			bpf_program__fd(bpf_object__next_program(kobj, NULL)),
			true, &pkts[i], 0, &a);
		t_hex(pkts[i].buf, pkts[i].len, hex);
		n += (size_t)snprintf(cmd + n, sizeof(cmd) - n, " --hex %s",
				      hex);
	}
	rc = t_run_cmd(cmd, out, sizeof(out));
	CHECK(rc == 0, "--dump-maps run exits %d", rc);
	CHECK(strstr(out, "{\"map\":\"src_bytes\"") != NULL,
	      "no map dump in output");
	/* Every kernel entry appears in the dump with the same value, in
	 * bpftool's layout: bytes as "0xNN" strings. */
	for (k2 = 0; bpf_map_get_next_key(fd, nkeys ? &key : NULL, &k2) == 0;
	     key = k2, nkeys++) {
		const uint8_t *kb = (const uint8_t *)&k2;
		const uint8_t *vb = (const uint8_t *)&got;
		size_t w = 0;
		int b;

		bpf_map_lookup_elem(fd, &k2, &got);
		w += (size_t)snprintf(want + w, sizeof(want) - w, "{\"key\":[");
		for (b = 0; b < 4; b++)
			w += (size_t)snprintf(want + w, sizeof(want) - w,
					      "%s\"0x%02x\"", b ? "," : "",
					      kb[b]);
		w += (size_t)snprintf(want + w, sizeof(want) - w,
				      "],\"value\":[");
		for (b = 0; b < 8; b++)
			w += (size_t)snprintf(want + w, sizeof(want) - w,
					      "%s\"0x%02x\"", b ? "," : "",
					      vb[b]);
		snprintf(want + w, sizeof(want) - w, "]");
		CHECK(strstr(out, want) != NULL, "dump lacks kernel entry %s",
		      want);
	}
	CHECK(nkeys >= 2, "kernel map has %d keys", nkeys);
	bpf_object__close(kobj);
}

static void test_exit_codes(void)
{
	char args[8192], out[65536];
	const char *dir = t_progs_dir();
	int rc;

	expect_exit("", 2, "no command");
	expect_exit("frobnicate", 2, "unknown command");
	expect_exit("help", 0, "help");
	expect_exit("test --help", 0, "test --help");
	expect_exit("test", 2, "no object");
	snprintf(args, sizeof(args), "test %s/xdp_demo.o", dir);
	expect_exit(args, 2, "no packets");
	snprintf(args, sizeof(args), "test %s/xdp_demo.o --hex zz", dir);
	expect_exit(args, 2, "bad hex");
	snprintf(args, sizeof(args), "test %s/xdp_demo.o --hex 00 --engine x",
		 dir);
	expect_exit(args, 2, "bad engine");
	snprintf(args, sizeof(args), "test %s/xdp_demo.o --hex 00 --repeat 0",
		 dir);
	expect_exit(args, 2, "bad repeat");
	expect_exit("test /nonexistent.o --hex 00", 1, "missing object");
	snprintf(args, sizeof(args), "test %s/xdp_demo.o:nosuchprog --hex 00",
		 dir);
	expect_exit(args, 1, "missing program");
	snprintf(args, sizeof(args),
		 "test %s/tc_read_meta.o --hex "
		 "020000000002020000000001080045000014 --meta 00000000",
		 dir);
	/* Each packet fails as the kernel's skb test run fails it. */
	expect_exit(args, 3, "--meta on tc");
	snprintf(args, sizeof(args), "test %s/xdp_demo.o --hex 0102", dir);
	expect_exit(args, 3, "packet too short");
	snprintf(args, sizeof(args), "test %s/xdp_demo.o --pcap /nonexistent",
		 dir);
	expect_exit(args, 2, "missing pcap");
	/* One program of the object cannot load: asking for the other by
	 * name leaves it out (libbpf's autoload off); otherwise the load
	 * fails naming the kfunc. */
	snprintf(args, sizeof(args),
		 "test %s/cli_partial.o:cli_good --hex "
		 "0200000000020200000000010800450000140000000040110000",
		 dir);
	expect_exit(args, 0, "the loadable program of a partial object");
	snprintf(args, sizeof(args),
		 "test %s/cli_partial.o --hex "
		 "0200000000020200000000010800450000140000000040110000",
		 dir);
	expect_exit(args, 1, "a partial object without a selector");
	snprintf(args, sizeof(args),
		 "test %s/cli_partial.o:cli_bad --hex "
		 "0200000000020200000000010800450000140000000040110000",
		 dir);
	expect_exit(args, 1, "the program with the unknown kfunc");

	/* .rodata is frozen once loaded: --map on it is refused, saying
	 * --set is the way (as a skeleton sets it before load). */
	snprintf(args, sizeof(args),
		 "%s test %s/bench_action.o --hex 000000000000000000000000 "
		 "--map bench_ac.rodata=00000000:010000000000000000000000 "
		 "2>&1",
		 bin, dir);
	rc = t_run_cmd(args, out, sizeof(out));
	CHECK(rc == 2 && strstr(out, "Operation not permitted") &&
		      strstr(out, "--set"),
	      "--map on .rodata: exit %d: %s", rc, out);

	/* --help tells of every option the command takes. */
	snprintf(args, sizeof(args), "%s test --help", bin);
	rc = t_run_cmd(args, out, sizeof(out));
	CHECK(rc == 0 && strstr(out, "--pcap") && strstr(out, "--hex") &&
		      strstr(out, "--meta") && strstr(out, "--repeat") &&
		      strstr(out, "--json") && strstr(out, "--out") &&
		      strstr(out, "--engine"),
	      "test --help incomplete");
}

/*
 * --fib-dev, --route and --neigh feed bpf_fib_lookup: xdp_fib writes the
 * return code and the filled struct bpf_fib_lookup back into the packet
 * (test_fib compares the helper itself with the kernel).
 */
static void test_fib_args(void)
{
	static const char *const routed =
		"0000000000000000021100000000640002000000000000000a010002000000"
		"0000000000000000000a0900050000000000000000000000000000000000"
		"0000000000000000000000000000";
	static const char *const unrouted =
		"0000000000000000021100000000640002000000000000000a010002000000"
		"0000000000000000000a0800010000000000000000000000000000000000"
		"0000000000000000000000000000";
	char cmd[8192], out[8192];
	int rc;

	snprintf(cmd, sizeof(cmd),
		 "%s test %s/xdp_fib.o:xdp_fib --json "
		 "--fib-dev '2 mtu 1500 mac 02:00:00:00:00:02 forwarding' "
		 "--route '10.9.0.0/16 via 10.1.0.1 dev 2' "
		 "--route '10.1.0.0/16 dev 2' "
		 "--neigh '10.1.0.1 lladdr 02:00:00:00:01:01 dev 2' "
		 "--hex %s --hex %s",
		 bin, t_progs_dir(), routed, unrouted);
	rc = t_run_cmd(cmd, out, sizeof(out));
	CHECK(rc == 0, "fib run exits %d", rc);
	/* SUCCESS, mtu_result 1500, next hop 10.1.0.1, smac and dmac. */
	CHECK(strstr(out, "\"data\":\"00000000000000000211000000"
			  "00dc05"),
	      "routed lookup: %s", out);
	CHECK(strstr(out, "0a010001") &&
		      strstr(out, "020000000002020000000101"),
	      "routed lookup next hop and MACs: %s", out);
	/* No route: BPF_FIB_LKUP_RET_NOT_FWDED (4). */
	CHECK(strstr(out, "\"data\":\"04000000"), "unrouted lookup: %s", out);
	expect_exit("test x.o --route '10.9.0.0/99' --hex 00", 2,
		    "a route that does not parse");
	expect_exit("test x.o --neigh '10.1.0.1 lladdr zz dev 2' --hex 00", 2,
		    "a neighbour that does not parse");
}

/* --out writes what was not dropped; a damaged pcap keeps what came
 * before the damage. */
static void test_pcap_io(void)
{
	char cmd[8192], out[65536], tmp[] = "/tmp/hr-cli-XXXXXX";
	const char *dir = t_progs_dir();
	unsigned int lines = 0;
	char *p;
	int rc;

	if (!mkdtemp(tmp)) {
		CHECK(0, "mkdtemp: %s", strerror(errno));
		return;
	}
	/* IPv4 UDP (TX), ARP (PASS), runt (DROP) through the demo. */
	snprintf(cmd, sizeof(cmd),
		 "%s test %s/xdp_demo.o --json --out %s/o.pcap "
		 "--hex 02000000000202000000000108004500001c000040004011000"
		 "00a0000010a00000204d200350008000000000000000000000000 "
		 "--hex ffffffffffff0200000000010806000108000604000102000000"
		 "00010a0000010000000000000a000002 "
		 "--hex 0200000000020200000000010800450000000000",
		 bin, dir, tmp);
	rc = t_run_cmd(cmd, out, sizeof(out));
	CHECK(rc == 0, "demo with --out exits %d", rc);
	for (p = out; (p = strchr(p, '\n')); p++)
		lines++;
	CHECK(lines == 3, "want 3 JSON lines, got %u", lines);
	/* The written file, read back: the TX and PASS packets only. */
	snprintf(cmd, sizeof(cmd),
		 "%s test %s/xdp_demo.o --json --pcap "
		 "%s/o.pcap",
		 bin, dir, tmp);
	rc = t_run_cmd(cmd, out, sizeof(out));
	lines = 0;
	for (p = out; (p = strchr(p, '\n')); p++)
		lines++;
	CHECK(rc == 0 && lines == 2, "--out pcap: exit %d, %u packets", rc,
	      lines);
	/* Cut the file inside its second packet. */
	snprintf(cmd, sizeof(cmd), "truncate -s -10 %s/o.pcap", tmp);
	CHECK(system(cmd) == 0, "truncate");
	snprintf(cmd, sizeof(cmd),
		 "%s test %s/xdp_demo.o --json --pcap "
		 "%s/o.pcap 2>/dev/null",
		 bin, dir, tmp);
	rc = t_run_cmd(cmd, out, sizeof(out));
	lines = 0;
	for (p = out; (p = strchr(p, '\n')); p++)
		lines++;
	CHECK(rc == 2 && lines == 1, "truncated pcap: exit %d, %u packets", rc,
	      lines);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", tmp);
	CHECK(system(cmd) == 0, "cleanup");
}

int main(void)
{
	const char *b = getenv("BUILD");
	char why[256];

	snprintf(bin, sizeof(bin), "%s/bin/headroom", b && *b ? b : "build");
	if (access(bin, X_OK)) {
		CHECK(0, "%s not built", bin);
		return t_done();
	}
	test_exit_codes();
	test_pcap_io();
	test_fib_args();
	if (!t_have_kernel(why, sizeof(why)))
		return t_skip(why);
	libbpf_set_print(capture_print);
	test_all_progs();
	return t_done();
}
