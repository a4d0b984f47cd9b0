// SPDX-License-Identifier: MIT
/*
 * Legacy objects and libbpf's loader conventions: SEC("maps") of 20, 28
 * and 36 bytes and old section names; max_entries 0 sized at load; maps
 * pinned by name shared by two objects; .rodata set before load;
 * map-in-map initial values; an object with a program type headroom does
 * not run. Compared with the kernel (libbpf) where libbpf 1.1 can load
 * the object.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <headroom/headroom.h>
#include <linux/bpf.h>

#include "harness.h"
#include "progs/prog.h"
#include "maps/map.h"

static char err[512];

#define OPEN(name, obj, ...)                                              \
	({                                                                \
		char __p[512];                                            \
		HR_OPTS(hr_object_open_opts, __o, .errbuf = err,          \
			.errbuf_sz = sizeof(err), __VA_ARGS__);           \
		snprintf(__p, sizeof(__p), "%s/%s", t_progs_dir(), name); \
		hr_object_open(__p, &__o, obj);                           \
	})

static uint8_t pkt[64] = { 0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77 };
static uint8_t out[256];

/* One XDP run of @prog (first program when NULL) over pkt; the retval. */
static long run(struct hr_object *obj, const char *prog, uint8_t first)
{
	struct hr_prog *p = hr_object_find_prog(obj, prog);
	HR_OPTS(hr_test_run_opts, o, .data_in = pkt,
		.data_size_in = sizeof(pkt), .data_out = out,
		.data_size_out = sizeof(out));
	int ret;

	pkt[0] = first;
	if (!p)
		return -ENOENT;
	ret = hr_prog_test_run(p, &o);
	return ret ? ret : (long)o.retval;
}

/* Kernel side: @setup adjusts the opened object before load. */
static long krun(const char *name, const char *prog, uint8_t first,
		 void (*setup)(struct bpf_object *, void *), void *arg)
{
	struct bpf_program *p;
	struct bpf_object *k;
	char path[512];
	long ret;
	LIBBPF_OPTS(bpf_test_run_opts, o, .data_in = pkt,
		    .data_size_in = sizeof(pkt), .data_out = out,
		    .data_size_out = sizeof(out), .repeat = 1);

	snprintf(path, sizeof(path), "%s/%s", t_progs_dir(), name);
	k = bpf_object__open_file(path, NULL);
	if (!k)
		return -errno;
	if (setup)
		setup(k, arg);
	ret = bpf_object__load(k);
	p = ret ? NULL : bpf_object__find_program_by_name(k, prog);
	pkt[0] = first;
	if (p)
		ret = bpf_prog_test_run_opts(bpf_program__fd(p), &o);
	if (p && !ret)
		ret = o.retval;
	bpf_object__close(k);
	return ret;
}

static void test_sections(void)
{
	static const struct {
		const char *sec;
		const char *type;
		uint32_t attach;
	} cases[] = {
		{ "xdp", "xdp", HR_ATTACH_XDP },
		{ "xdp/foo", "xdp", HR_ATTACH_XDP },
		{ "xdp_sock", "xdp", HR_ATTACH_XDP },
		{ "xdp_redirect_cpu", "xdp", HR_ATTACH_XDP },
		{ "xdp1", "xdp", HR_ATTACH_XDP },
		{ "xdp_devmap/x", "xdp", HR_ATTACH_XDP_DEVMAP },
		{ "xdp_cpumap/x", "xdp", HR_ATTACH_XDP_CPUMAP },
		{ "classifier", "tc", HR_ATTACH_NONE },
		{ "classifier_ingress", "tc", HR_ATTACH_NONE },
		{ "tc_egress", "tc", HR_ATTACH_NONE },
		{ "kprobe/x", NULL, 0 },
		{ "socket", NULL, 0 },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint32_t attach = 99;
		const struct hr_prog_type *t =
			hr_prog_type_for_section(cases[i].sec, &attach, NULL);

		CHECK((t ? t->name : NULL) == cases[i].type ||
			      (t && cases[i].type &&
			       !strcmp(t->name, cases[i].type)),
		      "section %s: type %s", cases[i].sec, t ? t->name : "-");
		if (t)
			CHECK(attach == cases[i].attach,
			      "section %s: attach %u", cases[i].sec, attach);
	}
}

static void check_map(struct hr_object *obj, const char *name, uint32_t type,
		      uint32_t key, uint32_t value, uint32_t max)
{
	struct hr_map *m = hr_object_find_map(obj, name);

	CHECK(m != NULL, "no map %s", name);
	if (!m)
		return;
	CHECK(m->attr.type == type && m->attr.key_size == key &&
		      m->attr.value_size == value && m->attr.max_entries == max,
	      "map %s: %u %u %u %u", name, m->attr.type, m->attr.key_size,
	      m->attr.value_size, m->attr.max_entries);
}

static void test_legacy(void)
{
	struct hr_object *obj = NULL;
	struct hr_prog *cls;
	int ret = OPEN("legacy_maps.o", &obj, .ncpus = 2);

	CHECK(ret == 0, "legacy_maps: %d %s", ret, err);
	if (ret)
		return;
	check_map(obj, "def20", BPF_MAP_TYPE_ARRAY, 4, 8, 4);
	check_map(obj, "def28", BPF_MAP_TYPE_HASH, 4, 8, 8);
	check_map(obj, "elf36", BPF_MAP_TYPE_PERCPU_ARRAY, 4, 8, 2);
	CHECK_EQ(run(obj, "legacy_count", 0), XDP_PASS);
	CHECK_EQ(run(obj, "legacy_count", 0), XDP_PASS);
	cls = hr_object_find_prog(obj, "legacy_cls");
	CHECK(cls && !strcmp(hr_prog_type_name(cls), "tc"),
	      "classifier_legacy is not tc");
	CHECK(!strcmp(hr_prog_type_name(
			      hr_object_find_prog(obj, "legacy_count")),
		      "xdp"),
	      "xdp_legacy_count is not xdp");
	hr_object_close(obj);
}

/* Offset of @var in DATASEC @sec of @k's BTF (libbpf fixed it up). */
static int var_off(struct bpf_object *k, const char *sec, const char *var)
{
	const struct btf *btf = bpf_object__btf(k);
	const struct btf_var_secinfo *vsi;
	const struct btf_type *ds;
	int id, i;

	id = btf ? btf__find_by_name_kind(btf, sec, BTF_KIND_DATASEC) : -1;
	if (id < 0)
		return -1;
	ds = btf__type_by_id(btf, id);
	vsi = btf_var_secinfos(ds);
	for (i = 0; i < btf_vlen(ds); i++, vsi++) {
		const struct btf_type *v = btf__type_by_id(btf, vsi->type);

		if (!strcmp(btf__name_by_offset(btf, v->name_off), var))
			return (int)vsi->offset;
	}
	return -1;
}

static void set_rodata(struct bpf_object *k, void *arg)
{
	uint64_t stamp = 0x1122334455667788ull;
	uint32_t verdict = XDP_TX;
	int voff = var_off(k, ".rodata", "verdict");
	int soff = var_off(k, ".rodata", "stamp");
	struct bpf_map *m;
	size_t sz;
	uint8_t *v;

	(void)arg;
	bpf_object__for_each_map(m, k)
	{
		if (!strstr(bpf_map__name(m), ".rodata"))
			continue;
		v = (uint8_t *)bpf_map__initial_value(m, &sz);
		if (v && voff >= 0 && soff >= 0) {
			memcpy(v + voff, &verdict, 4);
			memcpy(v + soff, &stamp, 8);
		}
	}
}

static void test_rodata(void)
{
	const char *sets[] = { "verdict=3", "stamp=0x1122334455667788" };
	const char *bad1[] = { "nope=1" };
	const char *bad2[] = { "drop_first_byte=300" };
	const char *drop[] = { "drop_first_byte=0x42" };
	static const uint8_t stamp[8] = { 0x88, 0x77, 0x66, 0x55,
					  0x44, 0x33, 0x22, 0x11 };
	struct hr_object *obj = NULL;
	uint8_t hout[sizeof(pkt)];
	long h, k;
	int ret;

	ret = OPEN("conv_rodata.o", &obj);
	CHECK(ret == 0, "rodata: %d %s", ret, err);
	if (!ret)
		CHECK_EQ(run(obj, NULL, 0), XDP_PASS);
	hr_object_close(obj);
	ret = OPEN("conv_rodata.o", &obj, .globals = sets, .globals_cnt = 2);
	CHECK(ret == 0, "rodata set: %d %s", ret, err);
	h = ret ? -1 : run(obj, NULL, 0);
	memcpy(hout, out, sizeof(hout));
	CHECK_EQ(h, XDP_TX);
	CHECK(!memcmp(hout, stamp, 8), "stamp not written");
	hr_object_close(obj);
	ret = OPEN("conv_rodata.o", &obj, .globals = drop, .globals_cnt = 1);
	CHECK(ret == 0 && run(obj, NULL, 0x42) == XDP_DROP &&
		      run(obj, NULL, 0x41) == XDP_PASS,
	      "drop_first_byte: %d %s", ret, err);
	hr_object_close(obj);
	ret = OPEN("conv_rodata.o", &obj, .globals = bad1, .globals_cnt = 1);
	CHECK(ret == -ENOENT && strstr(err, "no variable 'nope'"),
	      "unknown name: %d %s", ret, err);
	ret = OPEN("conv_rodata.o", &obj, .globals = bad2, .globals_cnt = 1);
	CHECK(ret == -ERANGE && strstr(err, "drop_first_byte"),
	      "out of range: %d %s", ret, err);
	if (!t_have_kernel(NULL, 0))
		return;
	k = krun("conv_rodata.o", "conv_rodata", 0, set_rodata, NULL);
	CHECK(k == h, "kernel retval %ld, headroom %ld", k, h);
	CHECK(!memcmp(out, hout, sizeof(hout)), "kernel output differs");
}

static void size_kernel(struct bpf_object *k, void *arg)
{
	bpf_map__set_max_entries(bpf_object__find_map_by_name(k, "sized"),
				 *(uint32_t *)arg);
	/* libbpf leaves a CPUMAP's 0 to the kernel, which refuses it. */
	bpf_map__set_max_entries(bpf_object__find_map_by_name(k, "cpus"), 2);
}

static void test_size0(void)
{
	const char *s16[] = { "sized=16" }, *s8[] = { "sized=8" };

	const char *bad[] = { "nosuch=4" };
	struct hr_object *obj = NULL;
	uint32_t n;
	int ret;

	ret = OPEN("conv_size0.o", &obj);
	CHECK(ret == -EINVAL && strstr(err, "map 'sized': max_entries is 0"),
	      "unsized: %d %s", ret, err);
	ret = OPEN("conv_size0.o", &obj, .map_sizes = bad, .map_sizes_cnt = 1,
		   .ncpus = 3);
	CHECK(ret != 0 && strstr(err, "nosuch"), "unknown map: %d %s", ret,
	      err);
	ret = OPEN("conv_size0.o", &obj, .map_sizes = s16, .map_sizes_cnt = 1,
		   .ncpus = 3);
	CHECK(ret == 0, "sized: %d %s", ret, err);
	if (ret)
		return;
	/* The kprobe program is skipped, the XDP one loaded. */
	CHECK_EQ(hr_object_prog_count(obj), 1);
	check_map(obj, "sized", BPF_MAP_TYPE_ARRAY, 4, 8, 16);
	check_map(obj, "cpus", BPF_MAP_TYPE_CPUMAP, 4, 8, 3);
	CHECK_EQ(run(obj, NULL, 0), XDP_PASS);
	hr_object_close(obj);
	ret = OPEN("conv_size0.o", &obj, .map_sizes = s8, .map_sizes_cnt = 1);
	CHECK(ret == 0 && run(obj, NULL, 0) == XDP_DROP, "sized 8: %d %s", ret,
	      err);
	hr_object_close(obj);
	if (!t_have_kernel(NULL, 0))
		return;
	n = 16;
	CHECK_EQ(krun("conv_size0.o", "conv_size0", 0, size_kernel, &n),
		 XDP_PASS);
	n = 8;
	CHECK_EQ(krun("conv_size0.o", "conv_size0", 0, size_kernel, &n),
		 XDP_DROP);
}

static void test_pin(void)
{
	const char *s2[] = { "hr_shared_cnt=2" };
	struct hr_object *a = NULL, *b = NULL, *c = NULL;
	char dir[64], other[72];
	int ret, i;

	snprintf(dir, sizeof(dir), "/hr-test-pins-%d", (int)getpid());
	snprintf(other, sizeof(other), "%s-other", dir);
	ret = OPEN("conv_pin_a.o", &a, .pin_dir = dir);
	CHECK(ret == 0, "pin a: %d %s", ret, err);
	ret = OPEN("conv_pin_b.o", &b, .pin_dir = dir);
	CHECK(ret == 0, "pin b: %d %s", ret, err);
	if (!a || !b)
		goto out;
	CHECK(hr_object_find_map(a, "hr_shared_cnt") ==
		      hr_object_find_map(b, "hr_shared_cnt"),
	      "the two objects have different maps");
	CHECK_EQ(run(b, NULL, 0), XDP_DROP);
	for (i = 0; i < 3; i++)
		CHECK_EQ(run(a, NULL, 0), XDP_PASS);
	CHECK_EQ(run(b, NULL, 0), XDP_TX);
	/* Another pin dir: another map. */
	ret = OPEN("conv_pin_b.o", &c, .pin_dir = other);
	CHECK(ret == 0 && run(c, NULL, 0) == XDP_DROP, "other dir: %d %s", ret,
	      err);
	hr_object_close(c);
	c = NULL;
	/* The pin outlives its users, as on bpffs. */
	hr_object_close(a);
	a = NULL;
	ret = OPEN("conv_pin_b.o", &c, .pin_dir = dir);
	CHECK(ret == 0 && run(c, NULL, 0) == XDP_TX, "reopen: %d %s", ret, err);
	hr_object_close(c);
	c = NULL;
	ret = OPEN("conv_pin_b.o", &c, .pin_dir = dir, .map_sizes = s2,
		   .map_sizes_cnt = 1);
	CHECK(ret == -EINVAL && strstr(err, "parameters mismatch"),
	      "mismatch: %d %s", ret, err);
out:
	hr_object_close(a);
	hr_object_close(b);
	hr_object_close(c);
}

/* The kernel answers as headroom did (@h) for each first packet byte of
 * @slots, running program @prog of build/progs/@obj. */
static void kernel_slots(const char *obj, const char *prog,
			 const uint8_t *slots, const long *h, size_t n)
{
	struct bpf_program *p;
	struct bpf_object *k;
	char path[512];
	size_t i;
	int ret;

	if (!t_have_kernel(NULL, 0))
		return;
	snprintf(path, sizeof(path), "%s/%s", t_progs_dir(), obj);
	k = bpf_object__open_file(path, NULL);
	CHECK(k && !bpf_object__load(k), "kernel load %s", obj);
	p = k ? bpf_object__find_program_by_name(k, prog) : NULL;
	for (i = 0; p && i < n; i++) {
		LIBBPF_OPTS(bpf_test_run_opts, o, .data_in = pkt,
			    .data_size_in = sizeof(pkt), .repeat = 1);

		pkt[0] = slots[i];
		ret = bpf_prog_test_run_opts(bpf_program__fd(p), &o);
		CHECK(!ret && (long)o.retval == h[i],
		      "%s slot %u: kernel %u headroom %ld", obj, slots[i],
		      o.retval, h[i]);
	}
	bpf_object__close(k);
}

static void test_mim(void)
{
	static const uint8_t slots[] = { 0, 1, 2, 3, 9, 0, 2 };
	struct hr_object *obj = NULL;
	long h[sizeof(slots)];
	size_t i;
	int ret;

	if (!hr_map_ops_for(HR_MAP_ARRAY_OF_MAPS)) {
		t_skip("no ARRAY_OF_MAPS yet");
		return;
	}
	ret = OPEN("conv_mim.o", &obj);
	CHECK(ret == 0, "mim: %d %s", ret, err);
	if (ret)
		return;
	CHECK(hr_object_find_map(obj, "by_struct"),
	      "mim: the unfilled hash of maps keyed by a struct");
	for (i = 0; i < sizeof(slots); i++)
		h[i] = run(obj, NULL, slots[i]);
	CHECK(h[0] == XDP_PASS && h[1] == XDP_DROP && h[2] == XDP_TX &&
		      h[4] == XDP_DROP,
	      "mim verdicts %ld %ld %ld %ld", h[0], h[1], h[2], h[4]);
	hr_object_close(obj);
	kernel_slots("conv_mim.o", "conv_mim", slots, h, sizeof(slots));
}

/* A program array's initial values are programs, filled once loaded. */
static void test_progarray(void)
{
	static const uint8_t slots[] = { 0, 1, 2, 3, 9 };
	struct hr_object *obj = NULL;
	long h[sizeof(slots)];
	size_t i;
	int ret;

	ret = OPEN("conv_progarray.o", &obj);
	CHECK(ret == 0, "progarray: %d %s", ret, err);
	if (ret)
		return;
	for (i = 0; i < sizeof(slots); i++)
		h[i] = run(obj, "conv_progarray", slots[i]);
	CHECK(h[0] == XDP_PASS && h[1] == XDP_DROP && h[2] == XDP_TX &&
		      h[3] == XDP_DROP && h[4] == XDP_DROP,
	      "progarray verdicts %ld %ld %ld %ld %ld", h[0], h[1], h[2], h[3],
	      h[4]);
	hr_object_close(obj);
	kernel_slots("conv_progarray.o", "conv_progarray", slots, h,
		     sizeof(slots));
}

/* Runs @cmd through the shell; its stdout into @buf. */
static int capture(const char *cmd, char *buf, size_t sz)
{
	FILE *f = popen(cmd, "r");
	size_t n;

	if (!f)
		return -errno;
	n = fread(buf, 1, sz - 1, f);
	buf[n] = '\0';
	return pclose(f);
}

static void test_inspect_json(void)
{
	const char *b = getenv("BUILD");
	static char out[16384];
	char cmd[1024];
	int rc;

	snprintf(cmd, sizeof(cmd),
		 "%s/bin/headroom inspect %s/conv_size0.o --map-size sized=4 "
		 "--json 2>/dev/null",
		 b && *b ? b : "build", t_progs_dir());
	rc = capture(cmd, out, sizeof(out));
	CHECK(rc == 0, "inspect exit %d", rc);
	CHECK(strstr(out, "{\"name\":\"conv_size0\",\"section\":\"xdp\","
			  "\"type\":\"xdp\",\"insns\":12,\"runnable\":true,"
			  "\"why\":null}"),
	      "xdp program: %s", out);
	CHECK(strstr(out, "\"name\":\"not_xdp\",\"section\":"
			  "\"kprobe/do_nothing\",\"type\":\"kprobe\","
			  "\"insns\":2,\"runnable\":false,\"why\":"
			  "\"program type not supported\""),
	      "kprobe program: %s", out);
	CHECK(strstr(out, "{\"name\":\"sized\",\"type\":\"ARRAY\","
			  "\"key_size\":4,\"value_size\":8,"
			  "\"max_entries\":4,\"flags\":0,\"pinned\":null}"),
	      "sized map: %s", out);
	CHECK(strstr(out, "\"helpers\":[{\"id\":1,\"name\":"
			  "\"bpf_map_lookup_elem\"}]"),
	      "helpers: %s", out);
	snprintf(cmd, sizeof(cmd),
		 "%s/bin/headroom inspect %s/core_fields.o --json 2>/dev/null",
		 b && *b ? b : "build", t_progs_dir());
	rc = capture(cmd, out, sizeof(out));
	CHECK(rc == 0, "inspect exit %d", rc);
	/* libbpf's words for a relocation, as the kernel's log shows them. */
	CHECK(strstr(out, "\"kind\":\"byte_off\",\"access\":\"<byte_off> "
			  "[13] struct iphdr___hr.not_in_kernel (0:11 @ "
			  "offset 20)\",\"resolved\":false"),
	      "poisoned relocation: %s", out);
	CHECK(strstr(out, "\"access\":\"<enumval_value> [16] enum "
			  "xdp_action___hr::XDP_TX___hr = 9\",\"resolved\":"
			  "true,\"value\":3}"),
	      "enum value relocation: %s", out);
}

int main(void)
{
	libbpf_set_print(NULL);
	test_sections();
	test_legacy();
	test_rodata();
	test_size0();
	test_pin();
	test_mim();
	test_progarray();
	test_inspect_json();
	return t_done();
}
