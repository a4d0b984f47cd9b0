// SPDX-License-Identifier: MIT
/*
 * The ELF object loader: programs, sections and types, bpf-to-bpf calls,
 * maps (BTF, legacy, global data), relocated ld_imm64 values, kfuncs, the
 * errors for malformed input, objects for every -mcpu, and a run of each
 * program through hr_prog_test_run.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/libbpf.h>
#include <headroom/headroom.h>
#include <linux/bpf.h>

#include "harness.h"
#include "progs/prog.h"
#include "maps/map.h"

static char err[512];

static int open_obj(const char *name, const char *force, struct hr_object **obj)
{
	HR_OPTS(hr_object_open_opts, opts, .errbuf = err,
		.errbuf_sz = sizeof(err), .force_type = force);
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s", t_progs_dir(), name);
	return hr_object_open(path, &opts, obj);
}

static int open_path(const char *path, struct hr_object **obj)
{
	HR_OPTS(hr_object_open_opts, opts, .errbuf = err,
		.errbuf_sz = sizeof(err));

	return hr_object_open(path, &opts, obj);
}

/* Runs @prog over a 60-byte packet; the verdict, or -1 on error. */
static long run60(struct hr_prog *prog)
{
	uint8_t pkt[60] = { 0 }, out[256];
	HR_OPTS(hr_test_run_opts, o, .data_in = pkt,
		.data_size_in = sizeof(pkt), .data_out = out,
		.data_size_out = sizeof(out), .repeat = 1);
	int ret = hr_prog_test_run(prog, &o);

	if (ret) {
		fprintf(stderr, "test_run %s: %d\n", hr_prog_name(prog), ret);
		return -1;
	}
	if (o.abort)
		fprintf(stderr, "test_run %s: aborted %s at %u\n",
			hr_prog_name(prog), hr_abort_str(o.abort), o.abort_pc);
	return o.retval;
}

static bool is_call(const struct hr_insn *insn, int src)
{
	return insn->code == (HR_JMP | HR_CALL) && insn->src == src;
}

static void test_calls(void)
{
	struct hr_object *obj = NULL;
	struct hr_prog *p;
	uint32_t pc, ncalls = 0, t[3];
	int ret;

	ret = open_obj("loader_calls.o", NULL, &obj);
	CHECK(ret == 0, "open loader_calls.o: %d %s", ret, err);
	if (ret)
		return;
	CHECK_EQ(hr_object_prog_count(obj), 1);
	p = hr_object_find_prog(obj, "calls");
	CHECK(p != NULL, "no program 'calls'");
	if (!p)
		goto out;
	CHECK(strcmp(hr_prog_section(p), "xdp") == 0, "%s", hr_prog_section(p));
	CHECK(strcmp(hr_prog_type_name(p), "xdp") == 0, "%s",
	      hr_prog_type_name(p));
	CHECK(hr_object_find_prog(obj, "xdp") == p, "find by section");
	CHECK(hr_object_find_prog(obj, NULL) == p, "find first");
	CHECK(hr_object_find_prog(obj, "nope") == NULL, "find missing");
	/* calls (14) + twice (9) + add (3): add appended once. */
	CHECK_EQ(hr_prog_insn_count(p), 26);
	for (pc = 0; pc < p->cnt; pc++) {
		if (!is_call(&p->insns[pc], HR_CALL_LOCAL))
			continue;
		if (ncalls < 3)
			t[ncalls] = pc + 1 + p->insns[pc].imm;
		ncalls++;
	}
	CHECK_EQ(ncalls, 3);
	if (ncalls == 3) {
		/* main -> twice right after main; twice -> add twice. */
		CHECK_EQ(t[0], 14);
		CHECK_EQ(t[1], 23);
		CHECK_EQ(t[2], 23);
	}
	CHECK_EQ(p->calls[0], NULL);
	CHECK_EQ(p->expected_attach, HR_ATTACH_XDP);
	CHECK_EQ(run60(p), XDP_TX);
out:
	hr_object_close(obj);
}

static void test_callback(void)
{
	struct hr_object *obj = NULL;
	struct hr_prog *p;
	uint32_t pc;
	int ret, found = 0;

	ret = open_obj("loader_callback.o", NULL, &obj);
	if (ret && strstr(err, "bpf_loop")) {
		printf("note: bpf_loop not available yet, callback load "
		       "skipped: %s\n",
		       err);
		return;
	}
	CHECK(ret == 0, "open loader_callback.o: %d %s", ret, err);
	if (ret)
		return;
	p = hr_object_find_prog(obj, "loops");
	CHECK(p != NULL, "no program 'loops'");
	if (!p)
		goto out;
	for (pc = 0; pc + 1 < p->cnt; pc++) {
		const struct hr_insn *insn = &p->insns[pc];

		if (!hr_insn_is_lddw(insn))
			continue;
		if (insn->src == HR_PSEUDO_FUNC) {
			/* The callback is appended after the main body. */
			found = 1;
			CHECK_EQ(pc + 1 + insn->imm, p->cnt - 5);
			CHECK_EQ(insn[1].imm, 0);
		}
		pc++;
	}
	CHECK(found, "no ld_imm64 of a function");
	CHECK_EQ(run60(p), XDP_PASS);
out:
	hr_object_close(obj);
}

/* A function address outside bpf_loop: the callee is linked in too. */
static void test_funcptr(void)
{
	struct hr_object *obj = NULL;
	struct hr_prog *p;
	int ret;

	ret = open_obj("loader_funcptr.o", NULL, &obj);
	CHECK(ret == 0, "open loader_funcptr.o: %d %s", ret, err);
	if (ret)
		return;
	p = hr_object_find_prog(obj, "fptr");
	CHECK(p != NULL, "no program 'fptr'");
	if (p) {
		/* fptr (8) then cb (3); the kernel's relative encoding. */
		CHECK_EQ(p->cnt, 11);
		CHECK(hr_insn_is_lddw(&p->insns[0]), "lddw");
		CHECK_EQ(p->insns[0].src, HR_PSEUDO_FUNC);
		CHECK_EQ(0 + 1 + p->insns[0].imm, 8);
		CHECK_EQ(p->insns[1].imm, 0);
		CHECK_EQ(run60(p), XDP_PASS);
	}
	hr_object_close(obj);
}

static void check_map(struct hr_object *obj, const char *name, uint32_t type,
		      uint32_t ks, uint32_t vs, uint32_t max, uint32_t flags)
{
	struct hr_map *m = hr_object_find_map(obj, name);

	CHECK(m != NULL, "no map '%s'", name);
	if (!m)
		return;
	CHECK(hr_map_type(m) == type, "%s type %u", name, hr_map_type(m));
	CHECK(hr_map_key_size(m) == ks, "%s key %u", name, hr_map_key_size(m));
	CHECK(hr_map_value_size(m) == vs, "%s value %u", name,
	      hr_map_value_size(m));
	CHECK(hr_map_max_entries(m) == max, "%s max %u", name,
	      hr_map_max_entries(m));
	CHECK(hr_map_flags(m) == flags, "%s flags 0x%x", name, hr_map_flags(m));
}

/* The value of the single-entry global data map @name. */
static uint8_t *data_value(struct hr_object *obj, const char *name)
{
	struct hr_map *m = hr_object_find_map(obj, name);
	uint32_t zero = 0;

	return m ? m->ops->lookup(m, &zero, 0) : NULL;
}

static void check_lddws(struct hr_object *obj, struct hr_prog *p)
{
	uintptr_t counts = (uintptr_t)hr_object_find_map(obj, "counts");
	uintptr_t flows = (uintptr_t)hr_object_find_map(obj, "flows");
	uintptr_t data = (uintptr_t)data_value(obj, ".data");
	uintptr_t rodata = (uintptr_t)data_value(obj, ".rodata");
	uintptr_t bss = (uintptr_t)data_value(obj, ".bss");
	int nmap = 0, nval = 0, bad = 0;
	uint32_t pc;

	for (pc = 0; pc + 1 < p->cnt; pc++) {
		const struct hr_insn *insn = &p->insns[pc];
		uint64_t v;

		if (!hr_insn_is_lddw(insn))
			continue;
		v = hr_insn_lddw_value(insn);
		if (insn->src == HR_PSEUDO_MAP_FD) {
			bad += v != (nmap ? flows : counts);
			nmap++;
		} else if (insn->src == HR_PSEUDO_MAP_VALUE) {
			bad += v != data && v != rodata && v != bss;
			nval++;
		}
		pc++;
	}
	CHECK_EQ(nmap, 2);
	CHECK_EQ(nval, 3);
	CHECK_EQ(bad, 0);
}

static void check_regions(struct hr_object *obj)
{
	uintptr_t ro = (uintptr_t)data_value(obj, ".rodata");
	uintptr_t rw = (uintptr_t)data_value(obj, ".data");
	unsigned int i, ro_hits = 0, rw_hits = 0;

	for (i = 0; i < obj->nregions; i++) {
		const struct hr_region *r = &obj->regions[i];

		if (ro >= r->start && ro < r->end) {
			ro_hits++;
			CHECK(!(r->flags & HR_REGION_WRITE),
			      ".rodata region writable");
		}
		if (rw >= r->start && rw < r->end) {
			rw_hits++;
			CHECK(r->flags & HR_REGION_WRITE,
			      ".data region not writable");
		}
	}
	CHECK_EQ(ro_hits, 1);
	CHECK_EQ(rw_hits, 1);
}

static void test_maps(void)
{
	struct hr_object *obj = NULL;
	struct hr_prog *p;
	uint8_t *v;
	int ret;

	ret = open_obj("loader_maps.o", NULL, &obj);
	CHECK(ret == 0, "open loader_maps.o: %d %s", ret, err);
	if (ret)
		return;
	CHECK_EQ(hr_object_map_count(obj), 5);
	check_map(obj, "counts", BPF_MAP_TYPE_ARRAY, 4, 8, 4, 0);
	check_map(obj, "flows", BPF_MAP_TYPE_HASH, 12, 4, 128,
		  BPF_F_NO_PREALLOC);
	/* libbpf's names: 8 bytes of the object name, then the section. */
	check_map(obj, "loader_m.data", BPF_MAP_TYPE_ARRAY, 4, 8, 1,
		  BPF_F_MMAPABLE);
	check_map(obj, "loader_m.rodata", BPF_MAP_TYPE_ARRAY, 4, 4, 1,
		  BPF_F_MMAPABLE | BPF_F_RDONLY_PROG);
	check_map(obj, "loader_m.bss", BPF_MAP_TYPE_ARRAY, 4, 4, 1,
		  BPF_F_MMAPABLE);
	CHECK(hr_object_find_map(obj, ".rodata")->rdonly_prog, "rdonly");
	CHECK(!hr_object_find_map(obj, ".data")->rdonly_prog, "data rw");
	v = data_value(obj, ".data");
	CHECK(v && *(uint64_t *)v == 7, "seen initialised");
	v = data_value(obj, ".rodata");
	CHECK(v && *(uint32_t *)v == XDP_PASS, "verdict initialised");
	p = hr_object_find_prog(obj, "maps");
	CHECK(p != NULL, "no program 'maps'");
	if (!p)
		goto out;
	check_lddws(obj, p);
	check_regions(obj);
	CHECK_EQ(run60(p), XDP_PASS);
	v = data_value(obj, ".data");
	CHECK(v && *(uint64_t *)v == 8, "seen incremented by the run");
	v = data_value(obj, ".bss");
	CHECK(v && *(uint32_t *)v == 1, "zeroed incremented by the run");
out:
	hr_object_close(obj);
}

static void test_legacy(void)
{
	struct hr_object *obj = NULL;
	struct hr_prog *p;
	uint32_t pc;
	int ret, n = 0;

	ret = open_obj("loader_legacy.o", NULL, &obj);
	CHECK(ret == 0, "open loader_legacy.o: %d %s", ret, err);
	if (ret)
		return;
	CHECK_EQ(hr_object_map_count(obj), 2);
	check_map(obj, "legacy_arr", BPF_MAP_TYPE_ARRAY, 4, 8, 16, 0);
	check_map(obj, "legacy_hash", BPF_MAP_TYPE_HASH, 8, 4, 32, 0);
	p = hr_object_find_prog(obj, "legacy");
	CHECK(p != NULL, "no program 'legacy'");
	if (!p)
		goto out;
	for (pc = 0; pc + 1 < p->cnt; pc++) {
		if (!hr_insn_is_lddw(&p->insns[pc]))
			continue;
		CHECK_EQ(p->insns[pc].src, HR_PSEUDO_MAP_FD);
		CHECK(hr_insn_lddw_value(&p->insns[pc]) ==
			      (uintptr_t)hr_object_map(obj, n),
		      "lddw %d names map %d", n, n);
		n++;
		pc++;
	}
	CHECK_EQ(n, 2);
	CHECK_EQ(run60(p), XDP_PASS);
out:
	hr_object_close(obj);
}

static void check_prog(struct hr_object *obj, const char *name, const char *sec,
		       const char *type)
{
	struct hr_prog *p = hr_object_find_prog(obj, name);

	CHECK(p != NULL, "no program '%s'", name);
	if (!p)
		return;
	CHECK(strcmp(hr_prog_section(p), sec) == 0, "%s: section %s", name,
	      hr_prog_section(p));
	CHECK(strcmp(hr_prog_type_name(p), type) == 0, "%s: type %s", name,
	      hr_prog_type_name(p));
}

static void test_multi(void)
{
	struct hr_object *obj = NULL;
	struct hr_prog *p;
	unsigned int i;
	int ret;

	ret = open_obj("loader_multi.o", NULL, &obj);
	CHECK(ret == 0, "open loader_multi.o: %d %s", ret, err);
	if (ret)
		return;
	/* The kprobe section is skipped with a note. */
	CHECK_EQ(hr_object_prog_count(obj), 3);
	check_prog(obj, "xdp_pass", "xdp", "xdp");
	check_prog(obj, "tc_ok", "tc", "tc");
	check_prog(obj, "xdp_egress", "xdp/devmap", "xdp/devmap");
	CHECK(hr_object_find_prog(obj, "probe") == NULL, "kprobe loaded");
	p = hr_object_find_prog(obj, "xdp_pass");
	if (p) {
		CHECK_EQ(hr_prog_insn_count(p), 2);
		CHECK(hr_prog_action_name(p, XDP_PASS) &&
			      strcmp(hr_prog_action_name(p, XDP_PASS),
				     "XDP_PASS") == 0,
		      "action name");
		CHECK_EQ(run60(p), XDP_PASS);
	}
	p = hr_object_find_prog(obj, "tc_ok");
	if (p)
		CHECK_EQ(run60(p), 0 /* TC_ACT_OK */);
	hr_object_close(obj);

	/* Forced, every program section is tc, the kprobe one included. */
	ret = open_obj("loader_multi.o", "tc", &obj);
	CHECK(ret == 0, "open loader_multi.o as tc: %d %s", ret, err);
	if (!ret) {
		CHECK_EQ(hr_object_prog_count(obj), 4);
		for (i = 0; i < hr_object_prog_count(obj); i++)
			CHECK(strcmp(hr_prog_type_name(hr_object_prog(obj, i)),
				     "tc") == 0,
			      "forced type");
		hr_object_close(obj);
	}
	ret = open_obj("loader_multi.o", "kprobe", &obj);
	CHECK(ret == -EINVAL && strstr(err, "unknown program type 'kprobe'"),
	      "%d %s", ret, err);
	CHECK(obj == NULL, "object on failure");
}

static void test_kfunc(void)
{
	const struct hr_kfunc *k =
		hr_prog_type_xdp.kfunc("bpf_xdp_metadata_rx_hash");
	struct hr_object *obj = NULL;
	struct hr_prog *p;
	uint32_t pc;
	int ret, n = 0;

	ret = open_obj("loader_kfunc.o", NULL, &obj);
	CHECK(ret == 0, "open loader_kfunc.o: %d %s", ret, err);
	if (ret)
		return;
	p = hr_object_find_prog(obj, "rx_hash");
	CHECK(p != NULL, "no program 'rx_hash'");
	for (pc = 0; p && pc < p->cnt; pc++) {
		if (!is_call(&p->insns[pc], HR_CALL_KFUNC))
			continue;
		n++;
		CHECK_EQ(p->insns[pc].imm, 0);
		CHECK(k && p->calls[pc] == k->fn, "kfunc not resolved");
	}
	CHECK_EQ(n, 1);
	hr_object_close(obj);

	/* tc programs have no RX metadata kfuncs: refused as the verifier
	 * refuses a kfunc another program type has (-EACCES). */
	ret = open_obj("loader_kfunc.o", "tc", &obj);
	CHECK(ret == -EACCES &&
		      strstr(err, "section 'xdp' insn 4: kfunc "
				  "bpf_xdp_metadata_rx_hash is not allowed in "
				  "tc programs"),
	      "%d %s", ret, err);
}

/* Writes @len bytes of @buf to @path. */
static int write_file(const char *path, const void *buf, size_t len)
{
	FILE *f = fopen(path, "wb");
	size_t n;

	if (!f)
		return -errno;
	n = fwrite(buf, 1, len, f);
	fclose(f);
	return n == len ? 0 : -EIO;
}

static long read_file(const char *path, uint8_t *buf, size_t max)
{
	FILE *f = fopen(path, "rb");
	size_t n;

	if (!f)
		return -errno;
	n = fread(buf, 1, max, f);
	fclose(f);
	return (long)n;
}

/* Opening @path must fail with @want and an error naming it and @msg. */
static void expect_error(const char *path, int want, const char *msg)
{
	struct hr_object *obj = (void *)1;
	int ret = open_path(path, &obj);

	CHECK(ret == want, "%s: %d, want %d (%s)", path, ret, want, err);
	CHECK(strncmp(err, path, strlen(path)) == 0 && strstr(err, msg),
	      "%s: message '%s' lacks '%s'", path, err, msg);
	CHECK(strchr(err, '\n') == NULL, "multi-line message");
	CHECK(obj == NULL, "object left on failure");
	if (ret == 0)
		hr_object_close(obj);
}

static void test_malformed(void)
{
	static uint8_t buf[1 << 16];
	char path[4096];
	long n;

	write_file("/tmp/hr-loader-notelf.o", "hello, world\n", 13);
	expect_error("/tmp/hr-loader-notelf.o", -EINVAL, "not an ELF file");
	expect_error("/tmp/hr-loader-missing.o", -ENOENT, "No such file");

	snprintf(path, sizeof(path), "%s/loader_multi.o", t_progs_dir());
	n = read_file(path, buf, sizeof(buf));
	CHECK(n > 512, "read %s: %ld", path, n);
	if (n <= 512)
		return;
	/* Section headers live at the end: a cut file has none. */
	write_file("/tmp/hr-loader-trunc.o", buf, (size_t)n / 2);
	expect_error("/tmp/hr-loader-trunc.o", -EINVAL, "truncated ELF file");
	/* Cut inside the section data, the table intact but out of reach. */
	write_file("/tmp/hr-loader-trunc2.o", buf, 64);
	expect_error("/tmp/hr-loader-trunc2.o", -EINVAL, "truncated ELF file");
	write_file("/tmp/hr-loader-trunc3.o", buf, 20);
	expect_error("/tmp/hr-loader-trunc3.o", -EINVAL, "");
	/* e_machine (offset 18) as x86-64. */
	buf[18] = 62;
	buf[19] = 0;
	write_file("/tmp/hr-loader-machine.o", buf, (size_t)n);
	expect_error("/tmp/hr-loader-machine.o", -EINVAL,
		     "ELF machine 62 is not BPF");

	snprintf(path, sizeof(path), "%s/loader_badhelper.o", t_progs_dir());
	expect_error(path, -EINVAL, "section 'xdp' insn ");
	CHECK(strstr(err, "unknown helper id 9999"), "%s", err);
	snprintf(path, sizeof(path), "%s/loader_badkfunc.o", t_progs_dir());
	expect_error(path, -EOPNOTSUPP,
		     "section 'xdp' insn 0: unknown kfunc bpf_no_such_kfunc");
	snprintf(path, sizeof(path), "%s/loader_badmap.o", t_progs_dir());
	expect_error(path, -EOPNOTSUPP,
		     "map 'socks': map type BPF_MAP_TYPE_SOCKMAP not "
		     "supported");
	/* bpf_throw runs with the default exception callback only. */
	snprintf(path, sizeof(path), "%s/loader_exception_cb.o", t_progs_dir());
	expect_error(path, -EOPNOTSUPP,
		     "program 'xdp_own_cb': exception callback 'handler'");
}

/* The same source for each -mcpu clang 14 knows loads and runs alike. */
static void test_mcpu(void)
{
	static const char *const cpus[] = { "v1", "v2", "v3" };
	char cmd[8192], out[256];
	struct hr_object *obj;
	unsigned int i;
	int ret;

	if (system("clang --version >/dev/null 2>&1") != 0 ||
	    access("progs/loader/loader_maps.bpf.c", R_OK) != 0) {
		printf("note: clang or progs/ missing (run from the source "
		       "tree), -mcpu objects not tested\n");
		return;
	}
	for (i = 0; i < 3; i++) {
		snprintf(out, sizeof(out), "/tmp/hr-loader-maps-%s.o", cpus[i]);
		snprintf(cmd, sizeof(cmd),
			 "clang -O2 -g -target bpf -mcpu=%s "
			 "-I/usr/include/x86_64-linux-gnu -c "
			 "progs/loader/loader_maps.bpf.c -o %s 2>&1",
			 cpus[i], out);
		ret = system(cmd);
		CHECK(ret == 0, "%s", cmd);
		if (ret)
			continue;
		obj = NULL;
		ret = open_path(out, &obj);
		CHECK(ret == 0, "-mcpu=%s: %d %s", cpus[i], ret, err);
		if (ret)
			continue;
		CHECK_EQ(hr_object_map_count(obj), 5);
		CHECK_EQ(run60(hr_object_find_prog(obj, "maps")), XDP_PASS);
		hr_object_close(obj);
	}
}

/*
 * clang 14 cannot emit -mcpu=v4, so make a v4 object by hand: `r1 = r6`
 * in loader_calls.o becomes the v4 sign-extending `r1 = (s8)r6`, which
 * keeps the result for the small values the program sees.
 */
static void test_v4(void)
{
	static const uint8_t mov[8] = { 0xbf, 0x61 };
	static uint8_t buf[1 << 16];
	struct hr_object *obj = NULL;
	char path[4096];
	long n, i;
	int ret;

	snprintf(path, sizeof(path), "%s/loader_calls.o", t_progs_dir());
	n = read_file(path, buf, sizeof(buf));
	CHECK(n > 0, "read %s", path);
	for (i = 0; i + 8 <= n; i += 8)
		if (memcmp(buf + i, mov, 8) == 0)
			break;
	CHECK(i + 8 <= n, "no 'r1 = r6' in %s", path);
	if (i + 8 > n)
		return;
	buf[i + 2] = 8; /* off 8: movsx from 8 bits */
	write_file("/tmp/hr-loader-v4.o", buf, (size_t)n);
	ret = open_path("/tmp/hr-loader-v4.o", &obj);
	CHECK(ret == 0, "v4 object: %d %s", ret, err);
	if (ret)
		return;
	CHECK_EQ(run60(hr_object_find_prog(obj, "calls")), XDP_TX);
	hr_object_close(obj);
}

/* Whether libbpf's and our immediates may differ: map fds, kfunc IDs. */
static bool imm_differs_ok(const struct hr_insn *h)
{
	if (hr_insn_is_lddw(h))
		return h->src == HR_PSEUDO_MAP_FD ||
		       h->src == HR_PSEUDO_MAP_VALUE;
	return h->code == (HR_JMP | HR_CALL) && h->src == HR_CALL_KFUNC;
}

/* Instructions that differ from libbpf's relocated ones. */
static int insn_diffs(const struct hr_prog *p, const struct bpf_insn *k,
		      size_t n)
{
	int diffs = 0;
	size_t i;

	for (i = 0; i < n && i < p->cnt; i++) {
		const struct hr_insn *h = &p->insns[i];
		bool any_imm = imm_differs_ok(h);

		if (h->code != k[i].code || h->src != k[i].src_reg ||
		    h->dst != k[i].dst_reg || h->off != k[i].off ||
		    (!any_imm && h->imm != k[i].imm))
			diffs++;
		/* The second half of a map ld_imm64 holds address bits. */
		if (hr_insn_is_lddw(h) && any_imm)
			i++;
	}
	return diffs;
}

/* libbpf's own loader, into the live kernel, is the oracle for layout. */
static void oracle_one(const char *name)
{
	char path[4096];
	struct bpf_object *kobj;
	struct hr_object *obj = NULL;
	struct bpf_program *kp;
	struct bpf_map *km;
	unsigned int i;
	int ret;

	snprintf(path, sizeof(path), "%s/%s", t_progs_dir(), name);
	kobj = bpf_object__open_file(path, NULL);
	CHECK(kobj != NULL, "libbpf open %s", path);
	if (!kobj)
		return;
	ret = bpf_object__load(kobj);
	CHECK(ret == 0, "libbpf load %s: %d", path, ret);
	if (ret) {
		bpf_object__close(kobj);
		return;
	}
	ret = open_path(path, &obj);
	CHECK(ret == 0, "open %s: %s", path, err);
	for (i = 0; !ret && i < hr_object_prog_count(obj); i++) {
		struct hr_prog *p = hr_object_prog(obj, i);

		kp = bpf_object__find_program_by_name(kobj, hr_prog_name(p));
		CHECK(kp != NULL, "libbpf lacks program %s", hr_prog_name(p));
		if (!kp)
			continue;
		CHECK(bpf_program__insn_cnt(kp) == p->cnt, "%s: %zu != %u",
		      hr_prog_name(p), bpf_program__insn_cnt(kp), p->cnt);
		CHECK(bpf_program__insns(kp) != NULL, "no libbpf insns");
		if (bpf_program__insns(kp))
			CHECK_EQ(insn_diffs(p, bpf_program__insns(kp),
					    bpf_program__insn_cnt(kp)),
				 0);
	}
	bpf_object__for_each_map(km, kobj)
	{
		struct hr_map *m;

		if (ret)
			break;
		m = hr_object_find_map(obj, bpf_map__name(km));
		CHECK(m != NULL, "no map '%s'", bpf_map__name(km));
		if (!m)
			continue;
		CHECK_EQ(hr_map_type(m), bpf_map__type(km));
		CHECK_EQ(hr_map_key_size(m), bpf_map__key_size(km));
		CHECK_EQ(hr_map_value_size(m), bpf_map__value_size(km));
		CHECK_EQ(hr_map_max_entries(m), bpf_map__max_entries(km));
		CHECK_EQ(hr_map_flags(m), bpf_map__map_flags(km));
	}
	hr_object_close(obj);
	bpf_object__close(kobj);
}

static void test_libbpf_oracle(void)
{
	char why[256];

	if (!t_have_kernel(why, sizeof(why))) {
		printf("note: libbpf oracle skipped: %s\n", why);
		return;
	}
	libbpf_set_print(NULL);
	oracle_one("loader_calls.o");
	oracle_one("loader_maps.o");
	oracle_one("loader_multi.o");
}

static void test_sections(void)
{
	static const struct {
		const char *sec;
		const struct hr_prog_type *type;
		uint32_t attach;
		bool frags;
	} cases[] = {
		{ "xdp", &hr_prog_type_xdp, HR_ATTACH_XDP, false },
		{ "xdp/foo", &hr_prog_type_xdp, HR_ATTACH_XDP, false },
		{ "xdp.frags", &hr_prog_type_xdp, HR_ATTACH_XDP, true },
		{ "xdp/devmap", &hr_prog_type_xdp, HR_ATTACH_XDP_DEVMAP,
		  false },
		{ "xdp.frags/devmap", &hr_prog_type_xdp, HR_ATTACH_XDP_DEVMAP,
		  true },
		{ "xdp/cpumap", &hr_prog_type_xdp, HR_ATTACH_XDP_CPUMAP,
		  false },
		{ "xdp.frags/cpumap", &hr_prog_type_xdp, HR_ATTACH_XDP_CPUMAP,
		  true },
		{ "tc", &hr_prog_type_tc, HR_ATTACH_NONE, false },
		{ "tc/foo", &hr_prog_type_tc, HR_ATTACH_NONE, false },
		{ "classifier", &hr_prog_type_tc, HR_ATTACH_NONE, false },
		{ "classifier/foo", &hr_prog_type_tc, HR_ATTACH_NONE, false },
		{ "tc/ingress", &hr_prog_type_tc, HR_ATTACH_TCX_INGRESS,
		  false },
		{ "tc/egress", &hr_prog_type_tc, HR_ATTACH_TCX_EGRESS, false },
		{ "tcx/ingress", &hr_prog_type_tc, HR_ATTACH_TCX_INGRESS,
		  false },
		{ "tcx/egress", &hr_prog_type_tc, HR_ATTACH_TCX_EGRESS, false },
		/* Plain prefixes, as libbpf before 1.0 matched them. */
		{ "xdpfoo", &hr_prog_type_xdp, HR_ATTACH_XDP, false },
		{ "tcx", &hr_prog_type_tc, HR_ATTACH_NONE, false },
		{ "kprobe/x", NULL, 0, false },
		{ "socket", NULL, 0, false },
	};
	unsigned int i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint32_t attach = 1234;
		bool frags = false;
		const struct hr_prog_type *t =
			hr_prog_type_for_section(cases[i].sec, &attach, &frags);

		CHECK(t == cases[i].type, "%s: type", cases[i].sec);
		if (t && t == cases[i].type) {
			CHECK(attach == cases[i].attach, "%s: attach %u",
			      cases[i].sec, attach);
			CHECK(frags == cases[i].frags, "%s: frags",
			      cases[i].sec);
		}
	}
	/* The kernel's attach type numbers (enum bpf_attach_type). */
	CHECK_EQ(HR_ATTACH_XDP_DEVMAP, BPF_XDP_DEVMAP);
	CHECK_EQ(HR_ATTACH_XDP_CPUMAP, BPF_XDP_CPUMAP);
	CHECK_EQ(HR_ATTACH_XDP, BPF_XDP);
	CHECK(hr_prog_type_by_name("xdp") == &hr_prog_type_xdp, "by name");
	CHECK(hr_prog_type_by_name("tc") == &hr_prog_type_tc, "by name");
	CHECK(hr_prog_type_by_name("kprobe") == NULL, "by name");
}

int main(void)
{
	test_sections();
	test_calls();
	test_callback();
	test_funcptr();
	test_maps();
	test_legacy();
	test_multi();
	test_kfunc();
	test_malformed();
	test_mcpu();
	test_v4();
	test_libbpf_oracle();
	return t_done();
}
