// SPDX-License-Identifier: MIT
/*
 * The loader checks every number an object gives it against its container
 * before use: symbol values and sizes against their section, section
 * indices against the section table, relocation offsets against the
 * section they patch (on instruction boundaries in code; DWARF's, which
 * libbpf ignores, are not read), .maps entries
 * against .maps and every .BTF.ext subsection, count and instruction
 * offset against .BTF.ext and the code it names, all in 64-bit arithmetic
 * that cannot wrap. Each case patches one field of a valid object from
 * progs/ (the 32-bit and 64-bit wraps of the review among them) and wants
 * a clean -EINVAL whose message names the section, symbol and value: no
 * crash, no sanitizer report (CI runs this under ASan/UBSan). Inputs the
 * ELF fuzzer found (fuzz/corpus/elf/crash-*) are opened too.
 */
#include <dirent.h>
#include <elf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <headroom/headroom.h>

#include "harness.h"

struct obj {
	uint8_t *data;
	size_t len;
	const char *name;
};

static int load_blob(const char *path, struct obj *o)
{
	FILE *f = fopen(path, "rb");
	long n;

	if (!f)
		return -errno;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	o->data = malloc(n > 0 ? (size_t)n : 1);
	o->len = o->data && n > 0 ? fread(o->data, 1, (size_t)n, f) : 0;
	fclose(f);
	return o->data && o->len ? 0 : -EIO;
}

static int load_obj(const char *name, struct obj *o)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s", t_progs_dir(), name);
	o->name = name;
	return load_blob(path, o);
}

static Elf64_Shdr *shdrs(const struct obj *o, unsigned int *n)
{
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)o->data;

	*n = eh->e_shnum;
	return (Elf64_Shdr *)(o->data + eh->e_shoff);
}

static const char *sname(const struct obj *o, const Elf64_Shdr *sh)
{
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)o->data;
	unsigned int n;
	const Elf64_Shdr *shs = shdrs(o, &n);

	return (const char *)o->data + shs[eh->e_shstrndx].sh_offset +
	       sh->sh_name;
}

static Elf64_Shdr *find_sec(const struct obj *o, const char *name)
{
	unsigned int n, i;
	Elf64_Shdr *shs = shdrs(o, &n);

	for (i = 0; i < n; i++)
		if (!strcmp(sname(o, &shs[i]), name))
			return &shs[i];
	return NULL;
}

static Elf64_Sym *find_sym(const struct obj *o, const char *name)
{
	unsigned int n, i;
	Elf64_Shdr *shs = shdrs(o, &n);

	for (i = 0; i < n; i++) {
		Elf64_Sym *syms;
		size_t k, cnt;
		const char *str;

		if (shs[i].sh_type != SHT_SYMTAB)
			continue;
		syms = (Elf64_Sym *)(o->data + shs[i].sh_offset);
		cnt = shs[i].sh_size / sizeof(*syms);
		str = (const char *)o->data + shs[shs[i].sh_link].sh_offset;
		for (k = 0; k < cnt; k++)
			if (!strcmp(str + syms[k].st_name, name))
				return &syms[k];
	}
	return NULL;
}

/* The first relocation of section @target (".relxdp" for "xdp"). */
static Elf64_Rel *first_rel(const struct obj *o, const char *target)
{
	unsigned int n, i;
	Elf64_Shdr *shs = shdrs(o, &n);

	for (i = 0; i < n; i++)
		if (shs[i].sh_type == SHT_REL && shs[i].sh_info < n &&
		    !strcmp(sname(o, &shs[shs[i].sh_info]), target) &&
		    shs[i].sh_size)
			return (Elf64_Rel *)(o->data + shs[i].sh_offset);
	return NULL;
}

/* Writes @o (patched) to a file and opens it: wants -EINVAL with a
 * message holding each of @want (NULL-terminated), or with @want NULL
 * that it opens, as libbpf would; runs what opens. */
static void expect_open(const struct obj *o, const char *what,
			const char *const *want)
{
	char tmp[] = "/tmp/hr-lbounds-XXXXXX", err[512] = "";
	HR_OPTS(hr_object_open_opts, opts, .errbuf = err,
		.errbuf_sz = sizeof(err));
	struct hr_object *obj = NULL;
	int fd = mkstemp(tmp), ret;

	if (fd < 0 || write(fd, o->data, o->len) != (ssize_t)o->len) {
		CHECK(0, "%s: cannot write %s", what, tmp);
		if (fd >= 0)
			close(fd);
		return;
	}
	close(fd);
	ret = hr_object_open(tmp, &opts, &obj);
	if (!want)
		CHECK(ret == 0 && obj, "%s (%s): ret %d: '%s'", what, o->name,
		      ret, err);
	else
		CHECK(ret == -EINVAL && !obj,
		      "%s (%s): ret %d, want -EINVAL: '%s'", what, o->name, ret,
		      err);
	CHECK(!want || !strncmp(err, tmp, strlen(tmp)),
	      "%s: message '%s' names no file", what, err);
	for (; want && *want; want++)
		CHECK(strstr(err, *want), "%s: message '%s' lacks '%s'", what,
		      err, *want);
	hr_object_close(obj);
	unlink(tmp);
}

#define WANT(...) ((const char *const[]){ __VA_ARGS__, NULL })

/* Each case: a fresh copy of @name, one field changed. */
struct patch_case {
	const char *name;
	struct obj o;
};

static bool fresh(struct patch_case *c, const char *name)
{
	free(c->o.data);
	c->o.data = NULL;
	c->name = name;
	if (load_obj(name, &c->o)) {
		CHECK(0, "cannot read %s/%s", t_progs_dir(), name);
		return false;
	}
	return true;
}

static void symbol_cases(void)
{
	struct patch_case c = { 0 };
	Elf64_Sym *s;

	/* The review's 32-bit wrap: (value + size) / 8 in 32 bits. */
	if (fresh(&c, "loader_legacy.o") && (s = find_sym(&c.o, "legacy"))) {
		s->st_value = 0xfffffff8;
		expect_open(&c.o, "function st_value 0xfffffff8",
			    WANT("section 'xdp'", "'legacy'", "0xfffffff8",
				 "outside"));
	}
	if (fresh(&c, "loader_legacy.o") && (s = find_sym(&c.o, "legacy"))) {
		s->st_value = 0xfffffffffffffff8ull;
		expect_open(&c.o, "function st_value 64-bit wrap",
			    WANT("'legacy'", "0xfffffffffffffff8"));
	}
	if (fresh(&c, "loader_legacy.o") && (s = find_sym(&c.o, "legacy"))) {
		s->st_value = 0x800000000ull; /* 32 GiB: a u32 cast drops it */
		expect_open(&c.o, "function st_value 32 GiB",
			    WANT("'legacy'", "0x800000000"));
	}
	if (fresh(&c, "loader_legacy.o") && (s = find_sym(&c.o, "legacy"))) {
		s->st_size = 0xffffffffffffff00ull;
		expect_open(&c.o, "function st_size huge",
			    WANT("'legacy'", "size 18446744073709551360"));
	}
	if (fresh(&c, "loader_legacy.o") && (s = find_sym(&c.o, "legacy"))) {
		s->st_size = 0x98 + 8;
		expect_open(&c.o, "function st_size one insn past",
			    WANT("'legacy'", "size 160", "outside"));
	}
	if (fresh(&c, "loader_legacy.o") && (s = find_sym(&c.o, "legacy"))) {
		s->st_value = 4;
		s->st_size = 0x90;
		expect_open(&c.o, "function st_value misaligned",
			    WANT("'legacy'", "0x4", "aligned"));
	}
	if (fresh(&c, "loader_legacy.o") && (s = find_sym(&c.o, "legacy"))) {
		s->st_shndx = 200;
		expect_open(&c.o, "function st_shndx past the table",
			    WANT("'legacy'", "section index 200"));
	}
	/* The review's legacy maps wrap: value + definition size in 64
	 * bits, then a read before the section into the message. */
	if (fresh(&c, "loader_legacy.o") &&
	    (s = find_sym(&c.o, "legacy_hash"))) {
		s->st_value = 0ull - 16;
		expect_open(&c.o, "legacy map st_value 64-bit wrap",
			    WANT("section 'maps'", "'legacy_hash'",
				 "0xfffffffffffffff0"));
	}
	if (fresh(&c, "loader_legacy.o") &&
	    (s = find_sym(&c.o, "legacy_hash"))) {
		s->st_size = 0ull - 0x14;
		expect_open(&c.o, "legacy map st_size wrap",
			    WANT("'legacy_hash'", "0x14"));
	}
	if (fresh(&c, "loader_legacy.o") &&
	    (s = find_sym(&c.o, "legacy_hash"))) {
		s->st_value = 0x28; /* the section's end, then 20 bytes more */
		expect_open(&c.o, "legacy map past the section",
			    WANT("'legacy_hash'", "0x28"));
	}
	/* A BTF-defined map's symbol. */
	if (fresh(&c, "loader_maps.o") && find_sec(&c.o, ".maps")) {
		Elf64_Shdr *ms = find_sec(&c.o, ".maps");
		unsigned int n, i;
		Elf64_Shdr *shs = shdrs(&c.o, &n);
		Elf64_Sym *syms = NULL;
		size_t k, cnt = 0;

		for (i = 0; i < n; i++)
			if (shs[i].sh_type == SHT_SYMTAB) {
				syms = (Elf64_Sym *)(c.o.data +
						     shs[i].sh_offset);
				cnt = shs[i].sh_size / sizeof(*syms);
			}
		for (k = 0; k < cnt; k++)
			if (syms[k].st_shndx == ms - shs &&
			    ELF64_ST_TYPE(syms[k].st_info) == STT_OBJECT)
				break;
		CHECK(k < cnt, "no .maps symbol in loader_maps.o");
		if (k < cnt) {
			syms[k].st_value = 0xfffffffffffffff8ull;
			expect_open(&c.o, ".maps symbol 64-bit wrap",
				    WANT("section '.maps'",
					 "0xfffffffffffffff8"));
		}
	}
	free(c.o.data);
}

static void reloc_cases(void)
{
	struct patch_case c = { 0 };
	Elf64_Rel *r;

	if (fresh(&c, "loader_legacy.o") && (r = first_rel(&c.o, "xdp"))) {
		r->r_offset = 0x98;
		expect_open(&c.o, "r_offset at the section end",
			    WANT("section 'xdp'", "0x98", "outside"));
	}
	if (fresh(&c, "loader_legacy.o") && (r = first_rel(&c.o, "xdp"))) {
		r->r_offset = 0xfffffffffffffff8ull;
		expect_open(&c.o, "r_offset 64-bit wrap",
			    WANT("section 'xdp'", "0xfffffffffffffff8"));
	}
	if (fresh(&c, "loader_legacy.o") && (r = first_rel(&c.o, "xdp"))) {
		r->r_offset += 4;
		expect_open(&c.o, "r_offset not on an instruction",
			    WANT("section 'xdp'", "instruction boundary"));
	}
	if (fresh(&c, "loader_legacy.o") && (r = first_rel(&c.o, "xdp"))) {
		r->r_info = ELF64_R_INFO(0xfffff, ELF64_R_TYPE(r->r_info));
		expect_open(&c.o, "r_info symbol past the table",
			    WANT("section 'xdp'", "symbol 1048575"));
	}
	/* A relocation of .BTF.ext (4-byte fields) past that section. */
	if (fresh(&c, "loader_legacy.o") && (r = first_rel(&c.o, ".BTF.ext"))) {
		r->r_offset = find_sec(&c.o, ".BTF.ext")->sh_size - 2;
		expect_open(&c.o, ".BTF.ext relocation past the end",
			    WANT("section '.BTF.ext'", "outside"));
	}
	/* DWARF's relocations are libbpf's to ignore, however odd: the
	 * prevail verifier's samples (an older clang) put 8-byte
	 * instruction relocations at the last bytes of .debug_info. */
	if (fresh(&c, "loader_legacy.o") &&
	    (r = first_rel(&c.o, ".debug_info"))) {
		r->r_offset = find_sec(&c.o, ".debug_info")->sh_size - 2;
		expect_open(&c.o, ".debug_info relocation past the end", NULL);
	} else {
		CHECK(0, "loader_legacy.o has no .rel.debug_info");
	}
	free(c.o.data);
}

static void shdr_cases(void)
{
	struct patch_case c = { 0 };
	unsigned int n, i;
	Elf64_Shdr *shs;

	/* A relocation section naming section 0, past the table, or one
	 * without bytes (.bss-like) as its target. */
	static const uint32_t infos[] = { 0, 200, 0xffffffff };

	for (i = 0; i < sizeof(infos) / sizeof(infos[0]); i++) {
		unsigned int k;

		if (!fresh(&c, "loader_legacy.o"))
			break;
		shs = shdrs(&c.o, &n);
		for (k = 0; k < n && shs[k].sh_type != SHT_REL; k++)
			;
		if (k == n)
			break;
		shs[k].sh_info = infos[i];
		expect_open(&c.o, "relocation sh_info out of range",
			    WANT("relocation section for section"));
	}
	if (fresh(&c, "loader_legacy.o")) {
		Elf64_Shdr *x = find_sec(&c.o, "xdp");

		shs = shdrs(&c.o, &n);
		x->sh_type = SHT_NOBITS;
		expect_open(&c.o, "relocations for a section without data",
			    WANT("'xdp'"));
	}
	if (fresh(&c, "loader_legacy.o")) {
		Elf64_Ehdr *eh = (Elf64_Ehdr *)c.o.data;

		/* e_shoff + e_shnum * e_shentsize wrapping 64 bits. */
		eh->e_shoff = 0ull - 0x100;
		expect_open(&c.o, "section table offset wrap",
			    WANT("truncated ELF file"));
	}
	free(c.o.data);
}

/* The .BTF.ext header of @o and the start of subsection @field_off's
 * data (func_info at 8, line_info at 16, core_relo at 24). */
static uint8_t *ext_sub(const struct obj *o, unsigned int field_off)
{
	Elf64_Shdr *sh = find_sec(o, ".BTF.ext");
	uint8_t *ext;
	uint32_t hdr_len, off;

	if (!sh)
		return NULL;
	ext = o->data + sh->sh_offset;
	memcpy(&hdr_len, ext + 4, 4);
	memcpy(&off, ext + field_off, 4);
	return ext + hdr_len + off;
}

static void put32(uint8_t *p, uint32_t v)
{
	memcpy(p, &v, 4);
}

static void btf_ext_cases(void)
{
	static const struct {
		const char *obj;
		const char *what;
		unsigned int field; /* header offset of the subsection */
	} subs[] = {
		{ "loader_calls.o", "func_info", 8 },
		{ "loader_calls.o", "line_info", 16 },
		{ "loader_core.o", "core_relo", 24 },
	};
	struct patch_case c = { 0 };
	char what[96];
	uint8_t *p;
	size_t i;

	for (i = 0; i < sizeof(subs) / sizeof(subs[0]); i++) {
		/* p: rec_size, then sec_name_off, num_info, records. */
		if (fresh(&c, subs[i].obj) &&
		    (p = ext_sub(&c.o, subs[i].field))) {
			put32(p + 12, 0xfffffff8);
			snprintf(what, sizeof(what), "%s insn_off 0xfffffff8",
				 subs[i].what);
			expect_open(&c.o, what,
				    WANT(subs[i].what, "0xfffffff8",
					 "record 0"));
		}
		if (fresh(&c, subs[i].obj) &&
		    (p = ext_sub(&c.o, subs[i].field))) {
			put32(p + 12, 4);
			snprintf(what, sizeof(what), "%s insn_off 4",
				 subs[i].what);
			expect_open(&c.o, what,
				    WANT(subs[i].what, "insn_off 0x4"));
		}
		if (fresh(&c, subs[i].obj) &&
		    (p = ext_sub(&c.o, subs[i].field))) {
			put32(p + 8, 0x7fffffff);
			snprintf(what, sizeof(what), "%s num_info huge",
				 subs[i].what);
			expect_open(&c.o, what,
				    WANT(subs[i].what, "2147483647 records"));
		}
		if (fresh(&c, subs[i].obj) &&
		    (p = ext_sub(&c.o, subs[i].field))) {
			put32(p + 8, 0);
			snprintf(what, sizeof(what), "%s num_info 0",
				 subs[i].what);
			expect_open(&c.o, what,
				    WANT(subs[i].what, "0 records"));
		}
		if (fresh(&c, subs[i].obj) &&
		    (p = ext_sub(&c.o, subs[i].field))) {
			put32(p, 0);
			snprintf(what, sizeof(what), "%s rec_size 0",
				 subs[i].what);
			expect_open(&c.o, what,
				    WANT(subs[i].what, "record size 0"));
		}
		if (fresh(&c, subs[i].obj) && find_sec(&c.o, ".BTF.ext")) {
			uint8_t *ext = c.o.data +
				       find_sec(&c.o, ".BTF.ext")->sh_offset;

			/* Offset + length wrapping 32 bits. */
			put32(ext + subs[i].field, 0xfffffff0);
			snprintf(what, sizeof(what), "%s offset wrap",
				 subs[i].what);
			expect_open(&c.o, what,
				    WANT(subs[i].what, "offset 4294967280"));
		}
	}
	free(c.o.data);
}

/* Crash inputs the fuzzer found, kept in fuzz/corpus/elf/: each is now
 * refused cleanly (or loads and runs). */
static void found_inputs(void)
{
	const char *dir = getenv("HR_FUZZ_ELF_DIR");
	char path[4096], err[512];
	unsigned int n = 0;
	struct dirent *e;
	DIR *d;

	if (!dir)
		dir = "fuzz/corpus/elf";
	d = opendir(dir);
	if (!d) {
		printf("no %s: found inputs not replayed\n", dir);
		return;
	}
	while ((e = readdir(d))) {
		HR_OPTS(hr_object_open_opts, o, .errbuf = err,
			.errbuf_sz = sizeof(err));
		struct hr_object *obj = NULL;
		int ret;

		if (strncmp(e->d_name, "crash-", 6))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		err[0] = '\0';
		ret = hr_object_open(path, &o, &obj);
		CHECK(ret || obj, "%s: ret %d", e->d_name, ret);
		CHECK(!ret || !strncmp(err, path, strlen(path)),
		      "%s: message '%s'", e->d_name, err);
		if (!ret) {
			unsigned int i;

			for (i = 0; i < hr_object_prog_count(obj); i++) {
				static const uint8_t pkt[64] = { 2 };
				HR_OPTS(hr_test_run_opts, r, .data_in = pkt,
					.data_size_in = sizeof(pkt));

				hr_prog_test_run(hr_object_prog(obj, i), &r);
			}
		}
		hr_object_close(obj);
		n++;
	}
	closedir(d);
	printf("replayed %u fuzzer-found inputs from %s\n", n, dir);
}

int main(void)
{
	struct obj o;

	/* The unpatched objects load: the checks refuse no valid object. */
	if (!load_obj("loader_legacy.o", &o)) {
		struct hr_object *obj = NULL;
		char path[4096];

		snprintf(path, sizeof(path), "%s/loader_legacy.o",
			 t_progs_dir());
		CHECK(hr_object_open(path, NULL, &obj) == 0, "%s loads", path);
		hr_object_close(obj);
		free(o.data);
	}
	symbol_cases();
	reloc_cases();
	shdr_cases();
	btf_ext_cases();
	found_inputs();
	return t_done();
}
