// SPDX-License-Identifier: MIT
/*
 * CO-RE: programs with preserve_access_index ___flavor structs laid out
 * unlike the kernel's, resolved against the running kernel's BTF, a BTF
 * file and headroom's own BTF, compared with the kernel's libbpf load and
 * test run; a missing field that is never reached loads, one that is
 * reached aborts the run naming the relocation.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <headroom/headroom.h>
#include <linux/bpf.h>

#include "harness.h"
#include "oracle.h"
#include "loader/core_relo.h"

static char err[512];

/* Ethernet + IPv4 (ttl 0x40, UDP, daddr 192.168.0.2) + UDP. */
static const uint8_t pkt4[] = {
	0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02, 0,	0,    0,
	0,    0x01, 0x08, 0x00, 0x45, 0x00, 0x00, 0x2a, 0x00, 0x01,
	0x40, 0x00, 0x40, 0x11, 0xf9, 0x6a, 0xc0, 0xa8, 0x00, 0x01,
	0xc0, 0xa8, 0x00, 0x02, 0x00, 0x35, 0x00, 0x35, 0x00, 0x16,
	0,    0,    0,	  0,	0,    0,    0,	  0,	0,    0,
};

/* What core_fields.bpf.c writes over the first 14 bytes of pkt4. */
static const uint8_t want4[14] = {
	4, 5, 0x11, 0x40, 16, 2, 0, 0x5a, 1, 8, 0, 0, 0x02, 0,
};

static int open_with(const char *name, const char *btf, struct hr_object **o)
{
	char path[512];
	HR_OPTS(hr_object_open_opts, opts, .errbuf = err,
		.errbuf_sz = sizeof(err), .btf_path = btf);

	snprintf(path, sizeof(path), "%s/%s", t_progs_dir(), name);
	return hr_object_open(path, &opts, o);
}

static int run(struct hr_object *obj, const void *pkt, uint32_t len,
	       uint8_t *out, struct hr_test_run_opts *o)
{
	struct hr_prog *p = hr_object_find_prog(obj, NULL);

	memset(o, 0, sizeof(*o));
	o->sz = sizeof(*o);
	o->data_in = pkt;
	o->data_size_in = len;
	o->data_out = out;
	o->data_size_out = 256;
	return p ? hr_prog_test_run(p, o) : -ENOENT;
}

/* The same object and packet give the same bytes on every target. */
static void check_fields(const char *btf, const char *label)
{
	struct hr_test_run_opts o;
	struct hr_object *obj = NULL;
	uint8_t out[256];
	int ret;

	ret = open_with("core_fields.o", btf, &obj);
	CHECK(ret == 0, "%s: open: %d %s", label, ret, err);
	if (ret)
		return;
	ret = run(obj, pkt4, sizeof(pkt4), out, &o);
	CHECK(ret == 0, "%s: run: %d", label, ret);
	CHECK(o.retval == XDP_TX, "%s: retval %u abort %d", label, o.retval,
	      o.abort);
	CHECK(o.data_size_out == sizeof(pkt4), "%s: size %u", label,
	      o.data_size_out);
	CHECK(!memcmp(out, want4, sizeof(want4)),
	      "%s: values %02x %02x %02x %02x %02x %02x %02x %02x", label,
	      out[0], out[1], out[2], out[3], out[4], out[5], out[6], out[7]);
	CHECK(!memcmp(out + 14, pkt4 + 14, sizeof(pkt4) - 14),
	      "%s: headers changed", label);
	hr_object_close(obj);
}

static void test_targets(void)
{
	char path[] = "/tmp/hr-core-btf-XXXXXX";
	struct btf *b = hr_uapi_btf_new();
	const void *raw;
	uint32_t sz;
	FILE *f;
	int fd;

	if (!access("/sys/kernel/btf/vmlinux", R_OK))
		check_fields(NULL, "vmlinux");
	check_fields("builtin", "builtin");
	/* headroom's BTF written to a file: the --btf FILE path. */
	CHECK(b != NULL, "no builtin BTF");
	if (!b)
		return;
	raw = btf__raw_data(b, &sz);
	fd = mkstemp(path);
	f = fd >= 0 ? fdopen(fd, "wb") : NULL;
	CHECK(f && fwrite(raw, 1, sz, f) == sz, "write %s", path);
	if (f)
		fclose(f);
	check_fields(path, "btf file");
	unlink(path);
	btf__free(b);
}

/* A target whose iphdr has daddr at 12 and saddr at 16 moves the reads. */
static void test_moved_field(void)
{
	char path[] = "/tmp/hr-core-btf2-XXXXXX";
	struct hr_object *obj = NULL;
	struct hr_test_run_opts o;
	struct btf *b = hr_uapi_btf_new();
	int u8, u16, u32, fd, ret;
	uint8_t out[256];
	const void *raw;
	uint32_t sz;
	FILE *f;

	/* A second flavor-less iphdr would be ambiguous: use a fresh BTF. */
	btf__free(b);
	b = btf__new_empty();
	u8 = btf__add_int(b, "unsigned char", 1, 0);
	u16 = btf__add_int(b, "unsigned short", 2, 0);
	u32 = btf__add_int(b, "unsigned int", 4, 0);
	btf__add_struct(b, "ethhdr", 14);
	btf__add_field(b, "h_proto", u16, 96, 0);
	btf__add_struct(b, "iphdr", 20);
	btf__add_field(b, "ihl", u8, 0, 4);
	btf__add_field(b, "version", u8, 4, 4);
	btf__add_field(b, "tot_len", u16, 16, 0);
	btf__add_field(b, "ttl", u8, 64, 0);
	btf__add_field(b, "protocol", u8, 72, 0);
	btf__add_field(b, "daddr", u32, 96, 0);
	btf__add_field(b, "saddr", u32, 128, 0);
	btf__add_struct(b, "udphdr", 8);
	btf__add_field(b, "source", u16, 0, 0);
	btf__add_field(b, "dest", u16, 16, 0);
	btf__add_enum(b, "xdp_action", 4);
	btf__add_enum_value(b, "XDP_TX", 3);
	raw = btf__raw_data(b, &sz);
	fd = mkstemp(path);
	f = fd >= 0 ? fdopen(fd, "wb") : NULL;
	CHECK(f && fwrite(raw, 1, sz, f) == sz, "write %s", path);
	if (f)
		fclose(f);
	ret = open_with("core_fields.o", path, &obj);
	CHECK(ret == 0, "moved: open: %d %s", ret, err);
	if (!ret) {
		ret = run(obj, pkt4, sizeof(pkt4), out, &o);
		CHECK(ret == 0 && o.retval == XDP_TX, "moved: %d %u", ret,
		      o.retval);
		CHECK_EQ(out[4], 12); /* offsetof daddr in this target */
		CHECK_EQ(out[12], 0x01); /* reads what is at 12: saddr */
		hr_object_close(obj);
	}
	unlink(path);
	btf__free(b);
}

static void test_poison(void)
{
	static const uint8_t calm[20] = { 0 };
	struct hr_object *obj = NULL;
	struct hr_test_run_opts o;
	struct bpf_object *k;
	uint8_t out[256];
	char path[512];
	int ret;

	ret = open_with("core_poison.o", NULL, &obj);
	CHECK(ret == 0, "poison: a relocation never reached loads: %d %s", ret,
	      err);
	if (ret)
		return;
	ret = run(obj, calm, sizeof(calm), out, &o);
	CHECK(ret == 0 && o.retval == XDP_PASS && !o.abort,
	      "poison: not reached: %d %u %d", ret, o.retval, o.abort);
	ret = run(obj, pkt4, sizeof(pkt4), out, &o);
	CHECK(ret == 0 && o.retval == XDP_ABORTED, "poison: reached: %u",
	      o.retval);
	CHECK(o.abort == HR_ABORT_CORE_POISON, "poison: abort %d (%s)", o.abort,
	      hr_abort_str(o.abort));
	CHECK(!strcmp(hr_abort_str(HR_ABORT_CORE_POISON),
		      "unresolved CO-RE relocation"),
	      "abort string");
	hr_object_close(obj);
	/* libbpf poisons too: the kernel's verifier refuses the program. */
	if (!t_have_kernel(NULL, 0))
		return;
	snprintf(path, sizeof(path), "%s/core_poison.o", t_progs_dir());
	libbpf_set_print(NULL);
	k = bpf_object__open_file(path, NULL);
	CHECK(k != NULL, "kernel open");
	if (k) {
		CHECK(bpf_object__load(k) != 0, "kernel loaded a poisoned "
						"reachable instruction");
		bpf_object__close(k);
	}
}

static void test_kernel(void)
{
	struct oracle_case c = { .obj = "core_fields.o",
				 .data = pkt4,
				 .size = sizeof(pkt4) };
	uint8_t arp[60] = { [12] = 0x08, [13] = 0x06 };
	struct oracle *o;
	char why[128];

	if (!t_have_kernel(why, sizeof(why))) {
		t_skip(why);
		return;
	}
	CHECK(oracle_new(&o) == 0, "oracle");
	CHECK(oracle_check(o, &c, "core_fields ipv4") == 1, "kernel differs");
	c.data = arp;
	c.size = sizeof(arp);
	CHECK(oracle_check(o, &c, "core_fields arp") == 1, "kernel differs");
	oracle_summary(o);
	oracle_free(o);
}

int main(void)
{
	test_targets();
	test_moved_field();
	test_poison();
	test_kernel();
	return t_done();
}
