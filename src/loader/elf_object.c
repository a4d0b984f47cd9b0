// SPDX-License-Identifier: MIT
/*
 * hr_object_open(): reads a clang -target bpf ELF object with libelf and
 * its BTF with libbpf's BTF API, then hands the pieces to object_maps.c (maps)
 * and reloc.c (programs). No bpf() system call is ever made.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/btf.h>
#include <headroom/object.h>

#include "loader/inspect.h"
#include "loader/loader.h"
#include "maps/map.h"

#ifndef EM_BPF
#define EM_BPF 247
#endif

int hr_ld_error(struct hr_loader *ld, int err, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!ld->err || !ld->errsz)
		return err;
	n = snprintf(ld->err, ld->errsz, "%s: ", ld->path);
	if (n < 0 || (size_t)n >= ld->errsz)
		return err;
	va_start(ap, fmt);
	vsnprintf(ld->err + n, ld->errsz - n, fmt, ap);
	va_end(ap);
	return err;
}

/* libbpf names an object after its file's basename, cut at the first dot. */
static void set_objname(struct hr_loader *ld)
{
	const char *base = strrchr(ld->path, '/');
	char *dot;

	base = base ? base + 1 : ld->path;
	snprintf(ld->objname, sizeof(ld->objname), "%s", base);
	dot = strchr(ld->objname, '.');
	if (dot)
		*dot = '\0';
}

static int check_header(struct hr_loader *ld, Elf *elf)
{
	size_t size = 0;
	GElf_Ehdr eh;

	if (elf_kind(elf) != ELF_K_ELF)
		return hr_ld_error(ld, -EINVAL, "not an ELF file");
	if (!gelf_getehdr(elf, &eh))
		return hr_ld_error(ld, -EINVAL, "bad ELF header: %s",
				   elf_errmsg(-1));
	if (eh.e_ident[EI_CLASS] != ELFCLASS64)
		return hr_ld_error(ld, -EINVAL, "not a 64-bit ELF object");
	if (eh.e_machine != EM_BPF)
		return hr_ld_error(ld, -EINVAL,
				   "ELF machine %u is not BPF (%u)",
				   eh.e_machine, EM_BPF);
	/* Instructions are read in host order: x86-64 and arm64 hosts. */
	if (eh.e_ident[EI_DATA] != ELFDATA2LSB)
		return hr_ld_error(ld, -EINVAL,
				   "big-endian BPF objects not supported");
	if (eh.e_type != ET_REL)
		return hr_ld_error(ld, -EINVAL,
				   "not a relocatable object (ELF type %u)",
				   eh.e_type);
	/* libelf quietly sees no sections when their table is cut off. */
	if (!elf_rawfile(elf, &size) || eh.e_shoff > size ||
	    (uint64_t)eh.e_shnum * eh.e_shentsize > size - eh.e_shoff)
		return hr_ld_error(
			ld, -EINVAL,
			"truncated ELF file (%zu bytes, section "
			"table ends at %llu)",
			size,
			(unsigned long long)(eh.e_shoff +
					     (uint64_t)eh.e_shnum *
						     eh.e_shentsize));
	return 0;
}

static bool is_named(const char *s, const char *base)
{
	size_t len = strlen(base);

	return strncmp(s, base, len) == 0 && (s[len] == '\0' || s[len] == '.');
}

/* What a section is to the loader, from its header and name. */
static void classify(struct hr_loader *ld, struct hr_ld_sec *s,
		     const GElf_Shdr *sh)
{
	if (sh->sh_type == SHT_PROGBITS && (sh->sh_flags & SHF_EXECINSTR)) {
		if (strcmp(s->name, ".text") == 0) {
			s->kind = HR_SEC_TEXT;
			return;
		}
		s->type = hr_prog_type_for_section(s->name, &s->attach,
						   &s->frags);
		if (ld->force && s->type != ld->force) {
			s->type = ld->force;
			s->attach = ld->force == &hr_prog_type_xdp ?
					    HR_ATTACH_XDP :
					    HR_ATTACH_NONE;
			s->frags = false;
		}
		s->kind = s->type ? HR_SEC_PROG : HR_SEC_SKIPPED;
		return;
	}
	if (sh->sh_type == SHT_PROGBITS && s->size) {
		if (is_named(s->name, ".data"))
			s->kind = HR_SEC_DATA;
		else if (is_named(s->name, ".rodata"))
			s->kind = HR_SEC_RODATA;
		else if (strcmp(s->name, ".maps") == 0)
			s->kind = HR_SEC_MAPS;
		else if (strcmp(s->name, "maps") == 0)
			s->kind = HR_SEC_LEGACY_MAPS;
		return;
	}
	if (sh->sh_type == SHT_NOBITS && s->size && is_named(s->name, ".bss"))
		s->kind = HR_SEC_BSS;
}

static int read_symtab(struct hr_loader *ld, Elf *elf, Elf_Scn *scn,
		       const GElf_Shdr *sh)
{
	Elf_Data *d = elf_getdata(scn, NULL);
	size_t i, n;

	if (!d || !sh->sh_entsize)
		return hr_ld_error(ld, -EINVAL, "bad symbol table: %s",
				   elf_errmsg(-1));
	n = sh->sh_size / sh->sh_entsize;
	ld->syms = calloc(n ? n : 1, sizeof(*ld->syms));
	if (!ld->syms)
		return hr_ld_error(ld, -ENOMEM, "out of memory");
	for (i = 0; i < n; i++) {
		struct hr_ld_sym *s = &ld->syms[i];
		GElf_Sym sym;

		if (!gelf_getsym(d, (int)i, &sym))
			return hr_ld_error(ld, -EINVAL, "bad symbol %zu", i);
		s->name = elf_strptr(elf, sh->sh_link, sym.st_name);
		if (!s->name)
			s->name = "";
		s->value = sym.st_value;
		s->size = sym.st_size;
		s->shndx = sym.st_shndx;
		s->type = GELF_ST_TYPE(sym.st_info);
		s->bind = GELF_ST_BIND(sym.st_info);
	}
	ld->nsyms = n;
	return 0;
}

static int cmp_rel(const void *a, const void *b)
{
	const struct hr_ld_rel *x = a, *y = b;

	return x->off < y->off ? -1 : x->off > y->off;
}

/* Attaches the entries of relocation section @sh to their target. */
static int read_rels(struct hr_loader *ld, Elf_Scn *scn, const GElf_Shdr *sh)
{
	Elf_Data *d = elf_getdata(scn, NULL);
	struct hr_ld_sec *t;
	size_t i, n;

	if (!sh->sh_info || sh->sh_info >= ld->nsecs)
		return hr_ld_error(ld, -EINVAL,
				   "relocation section for section %u",
				   (unsigned int)sh->sh_info);
	t = &ld->secs[sh->sh_info];
	if (!d || !sh->sh_entsize)
		return hr_ld_error(ld, -EINVAL,
				   "section '%s': bad relocations: %s", t->name,
				   elf_errmsg(-1));
	n = sh->sh_size / sh->sh_entsize;
	/* Relocations patch bytes: a section without any has none. */
	if (n && !t->data)
		return hr_ld_error(ld, -EINVAL,
				   "relocation section for section '%s', "
				   "which has no data",
				   t->name);
	free(t->rels);
	t->rels = calloc(n ? n : 1, sizeof(*t->rels));
	if (!t->rels)
		return hr_ld_error(ld, -ENOMEM, "out of memory");
	for (i = 0; i < n; i++) {
		GElf_Rel rel;

		if (!gelf_getrel(d, (int)i, &rel))
			return hr_ld_error(ld, -EINVAL,
					   "section '%s': bad relocation %zu",
					   t->name, i);
		t->rels[i].off = rel.r_offset;
		t->rels[i].sym = (uint32_t)GELF_R_SYM(rel.r_info);
		t->rels[i].type = (uint32_t)GELF_R_TYPE(rel.r_info);
	}
	t->nrels = n;
	qsort(t->rels, n, sizeof(*t->rels), cmp_rel);
	return 0;
}

static int read_section(struct hr_loader *ld, Elf *elf, size_t shstrndx,
			size_t idx)
{
	struct hr_ld_sec *s = &ld->secs[idx];
	Elf_Scn *scn = elf_getscn(elf, idx);
	Elf_Data *d;
	GElf_Shdr sh;

	if (!scn || !gelf_getshdr(scn, &sh))
		return hr_ld_error(ld, -EINVAL, "bad section header %zu: %s",
				   idx, elf_errmsg(-1));
	s->name = elf_strptr(elf, shstrndx, sh.sh_name);
	if (!s->name)
		return hr_ld_error(ld, -EINVAL, "section %zu has no name", idx);
	s->size = sh.sh_size;
	if (sh.sh_type != SHT_NOBITS && sh.sh_type != SHT_NULL) {
		d = elf_getdata(scn, NULL);
		if (!d || (sh.sh_size && !d->d_buf) || d->d_size != sh.sh_size)
			return hr_ld_error(ld, -EINVAL,
					   "section '%s': cannot read data: %s",
					   s->name, elf_errmsg(-1));
		s->data = d->d_buf;
	}
	classify(ld, s, &sh);
	/* Only .bss may be all size and no bytes (SHT_NOBITS). */
	if (!s->data && s->size &&
	    (s->kind != HR_SEC_OTHER && s->kind != HR_SEC_BSS &&
	     s->kind != HR_SEC_SKIPPED))
		return hr_ld_error(ld, -EINVAL, "section '%s' has no data",
				   s->name);
	if (!s->data && s->size &&
	    (!strcmp(s->name, ".BTF") || !strcmp(s->name, ".BTF.ext")))
		return hr_ld_error(ld, -EINVAL, "section '%s' has no data",
				   s->name);
	if (sh.sh_type == SHT_SYMTAB) {
		if (ld->syms)
			return hr_ld_error(ld, -EINVAL,
					   "more than one symbol table");
		return read_symtab(ld, elf, scn, &sh);
	}
	if (strcmp(s->name, ".BTF") == 0) {
		if (ld->btf)
			return hr_ld_error(ld, -EINVAL,
					   "more than one .BTF section");
		ld->btf = btf__new(s->data, (uint32_t)s->size);
		if (!ld->btf)
			return hr_ld_error(ld, -errno ? -errno : -EINVAL,
					   "invalid .BTF section");
	} else if (strcmp(s->name, ".BTF.ext") == 0) {
		ld->btf_ext = s->data;
		ld->btf_ext_size = s->size;
	}
	return 0;
}

/* A value and a size inside a container of @limit bytes, without the sum
 * ever overflowing. */
static bool fits(uint64_t value, uint64_t size, uint64_t limit)
{
	return value <= limit && size <= limit - value;
}

static bool is_code_kind(enum hr_ld_kind k)
{
	return k == HR_SEC_TEXT || k == HR_SEC_PROG || k == HR_SEC_SKIPPED;
}

/*
 * Every symbol lies inside its section: the value and value + size within
 * the section's size in 64-bit arithmetic, functions on instruction
 * boundaries. Symbols of no section (undefined, absolute, common) carry
 * no offset the loader uses as one; any other index names a section.
 * Everything after this trusts these facts.
 */
static int check_syms(struct hr_loader *ld)
{
	size_t i;

	for (i = 1; i < ld->nsyms; i++) {
		const struct hr_ld_sym *s = &ld->syms[i];
		const struct hr_ld_sec *sec;

		if (s->shndx == SHN_UNDEF || s->shndx == SHN_ABS ||
		    s->shndx == SHN_COMMON)
			continue;
		if (s->shndx >= ld->nsecs)
			return hr_ld_error(ld, -EINVAL,
					   "symbol '%s': section index %u out "
					   "of range (%zu sections)",
					   s->name, s->shndx, ld->nsecs);
		sec = &ld->secs[s->shndx];
		if (!fits(s->value, s->size, sec->size))
			return hr_ld_error(
				ld, -EINVAL,
				"section '%s': symbol '%s' value 0x%llx size "
				"%llu outside the section (%zu bytes)",
				sec->name, s->name,
				(unsigned long long)s->value,
				(unsigned long long)s->size, sec->size);
		if (s->type == STT_FUNC && is_code_kind(sec->kind) &&
		    (s->value % HR_INSN_SZ || s->size % HR_INSN_SZ))
			return hr_ld_error(
				ld, -EINVAL,
				"section '%s': function '%s' value 0x%llx size "
				"%llu is not instruction aligned",
				sec->name, s->name,
				(unsigned long long)s->value,
				(unsigned long long)s->size);
	}
	return 0;
}

/* Bytes a relocation of @type writes at its offset. */
static uint64_t rel_width(uint32_t type)
{
	switch (type) {
	case HR_R_BPF_NONE:
		return 0;
	case HR_R_BPF_64_ABS32:
	case HR_R_BPF_64_NODYLD32:
		return 4;
	default:
		return 8;
	}
}

/*
 * Every relocation names a symbol of the table and lies inside its
 * target section; in code it sits on an instruction boundary, where the
 * instruction it patches starts.
 */
static int check_rels(struct hr_loader *ld)
{
	size_t i, r;

	for (i = 1; i < ld->nsecs; i++) {
		const struct hr_ld_sec *s = &ld->secs[i];
		bool code = is_code_kind(s->kind);

		for (r = 0; r < s->nrels; r++) {
			const struct hr_ld_rel *rel = &s->rels[r];
			uint64_t w = code ? HR_INSN_SZ : rel_width(rel->type);

			if (rel->sym >= ld->nsyms)
				return hr_ld_error(
					ld, -EINVAL,
					"section '%s': relocation at offset "
					"0x%llx names symbol %u of %zu",
					s->name, (unsigned long long)rel->off,
					rel->sym, ld->nsyms);
			if (!fits(rel->off, w, s->size))
				return hr_ld_error(
					ld, -EINVAL,
					"section '%s': relocation against "
					"'%s' at offset 0x%llx outside the "
					"section (%zu bytes)",
					s->name, ld->syms[rel->sym].name,
					(unsigned long long)rel->off, s->size);
			if (code && rel->off % HR_INSN_SZ)
				return hr_ld_error(
					ld, -EINVAL,
					"section '%s': relocation against "
					"'%s' at offset 0x%llx is not on an "
					"instruction boundary",
					s->name, ld->syms[rel->sym].name,
					(unsigned long long)rel->off);
			if (code && r && rel->off == s->rels[r - 1].off)
				return hr_ld_error(
					ld, -EINVAL,
					"section '%s': two relocations at "
					"offset 0x%llx",
					s->name, (unsigned long long)rel->off);
		}
	}
	return 0;
}

/*
 * DWARF's relocations, which libbpf never reads (ignore_elf_section) and
 * an older clang writes with instruction types (R_BPF_INSN_DISP32) whose
 * width the debug data does not follow: the kernel loads such objects.
 */
static bool ignored_rels(const char *name)
{
	return !strncmp(name, ".rel.debug_", 11);
}

static int read_elf(struct hr_loader *ld, Elf *elf)
{
	size_t n, shstrndx, i;
	Elf_Scn *scn;
	GElf_Shdr sh;
	int ret;

	ret = check_header(ld, elf);
	if (ret)
		return ret;
	if (elf_getshdrnum(elf, &n) || elf_getshdrstrndx(elf, &shstrndx))
		return hr_ld_error(ld, -EINVAL, "bad section table: %s",
				   elf_errmsg(-1));
	ld->secs = calloc(n ? n : 1, sizeof(*ld->secs));
	if (!ld->secs)
		return hr_ld_error(ld, -ENOMEM, "out of memory");
	ld->nsecs = n;
	for (i = 1; i < n; i++) {
		ret = read_section(ld, elf, shstrndx, i);
		if (ret)
			return ret;
	}
	if (!ld->syms)
		return hr_ld_error(ld, -EINVAL, "no symbol table");
	/* Relocations last: their targets must be known first. */
	for (i = 1; i < n; i++) {
		scn = elf_getscn(elf, i);
		if (!scn || !gelf_getshdr(scn, &sh))
			return hr_ld_error(ld, -EINVAL, "bad section %zu", i);
		if (sh.sh_type == SHT_RELA)
			return hr_ld_error(ld, -EINVAL,
					   "section '%s': RELA relocations "
					   "not supported",
					   ld->secs[i].name);
		if (sh.sh_type != SHT_REL || ignored_rels(ld->secs[i].name))
			continue;
		ret = read_rels(ld, scn, &sh);
		if (ret)
			return ret;
	}
	ret = check_syms(ld);
	return ret ? ret : check_rels(ld);
}

static int add_prog(struct hr_loader *ld, struct hr_prog *prog)
{
	struct hr_object *obj = ld->obj;
	struct hr_prog **grown;

	grown = realloc(obj->progs, (obj->nprogs + 1) * sizeof(*grown));
	if (!grown)
		return -ENOMEM;
	obj->progs = grown;
	obj->progs[obj->nprogs++] = prog;
	return 0;
}

/* The error message without its "PATH: " prefix. */
static const char *err_tail(const struct hr_loader *ld)
{
	size_t n = strlen(ld->path);

	if (!ld->err)
		return "error";
	if (!strncmp(ld->err, ld->path, n) && ld->err[n] == ':')
		return ld->err + n + 2;
	return ld->err;
}

/* The program type a section name suggests, for inspect's listing. */
static void sec_prefix(const char *sec, char *out, size_t sz)
{
	size_t n = strcspn(sec, "/.");

	snprintf(out, sz, "%.*s", (int)n, sec);
}

/* Inspect: every function of a skipped section, listed as not runnable. */
static void note_skipped(struct hr_loader *ld, uint32_t sec)
{
	char type[32];
	size_t i;

	sec_prefix(ld->secs[sec].name, type, sizeof(type));
	for (i = 0; i < ld->nsyms; i++) {
		const struct hr_ld_sym *s = &ld->syms[i];

		if (s->shndx == sec && s->type == STT_FUNC &&
		    s->bind != STB_LOCAL)
			hr_ld_insp_prog(ld, s->name, ld->secs[sec].name, type,
					(uint32_t)(s->size / HR_INSN_SZ),
					"program type not supported");
	}
}

/* One program: function @func of program section @sec. */
static int load_prog(struct hr_loader *ld, uint32_t sec,
		     const struct hr_ld_sym *func)
{
	const struct hr_ld_sec *s = &ld->secs[sec];
	char why[256] = "";
	struct hr_prog *prog;
	int ret;

	prog = calloc(1, sizeof(*prog));
	if (!prog)
		return hr_ld_error(ld, -ENOMEM, "out of memory");
	prog->name = strdup(func->name);
	prog->sec = strdup(s->name);
	prog->type = s->type;
	prog->expected_attach = s->attach;
	prog->frags = s->frags;
	prog->func_info = hr_ld_has_func_info(ld);
	prog->obj = ld->obj;
	if (!prog->name || !prog->sec) {
		hr_prog_free(prog);
		return hr_ld_error(ld, -ENOMEM, "out of memory");
	}
	ret = hr_ld_link_prog(ld, prog, sec, func);
	if (!ret) {
		ret = hr_prog_finalize(prog, why, sizeof(why));
		if (ret)
			hr_ld_error(ld, ret, "%s", why);
	}
	if (!ret)
		ret = hr_ld_check_timer_use(ld, prog);
	if (!ret)
		ret = hr_ld_check_exception_cb(ld, prog);
	if (!ret)
		hr_ld_vmlinux_btf_use(ld, prog);
	if (!ret)
		ret = hr_ld_alloc_types(ld, prog);
	if (!ret) {
		ret = add_prog(ld, prog);
		if (ret)
			hr_ld_error(ld, ret, "out of memory");
	}
	if (ld->insp && ret != -ENOMEM) {
		/* Inspect: note why, and go on with the next program. */
		hr_ld_insp_prog(ld, func->name, s->name, s->type->name,
				(uint32_t)(func->size / HR_INSN_SZ),
				ret ? err_tail(ld) : NULL);
		if (ret)
			hr_prog_free(prog);
		return 0;
	}
	if (ret && ret != -ENOMEM && ld->only_prog &&
	    strcmp(ld->only_prog, func->name) &&
	    strcmp(ld->only_prog, s->name)) {
		/* Not the program asked for: left out, as libbpf leaves out
		 * programs whose autoload is off. */
		fprintf(stderr, "headroom: %s: program '%s' left out: %s\n",
			ld->path, func->name, err_tail(ld));
		if (ld->err && ld->errsz)
			ld->err[0] = '\0';
		hr_prog_free(prog);
		return 0;
	}
	if (ret)
		hr_prog_free(prog);
	return ret;
}

static int cmp_func(const void *a, const void *b)
{
	const struct hr_ld_sym *x = *(const struct hr_ld_sym *const *)a;
	const struct hr_ld_sym *y = *(const struct hr_ld_sym *const *)b;

	return x->value < y->value ? -1 : x->value > y->value;
}

/* Every global function of section @sec is a program, in address order. */
static int load_section_progs(struct hr_loader *ld, uint32_t sec)
{
	const struct hr_ld_sym **funcs;
	size_t i, n = 0;
	int ret = 0;

	funcs = calloc(ld->nsyms ? ld->nsyms : 1, sizeof(*funcs));
	if (!funcs)
		return hr_ld_error(ld, -ENOMEM, "out of memory");
	for (i = 0; i < ld->nsyms; i++) {
		const struct hr_ld_sym *s = &ld->syms[i];

		if (s->shndx == sec && s->type == STT_FUNC &&
		    s->bind != STB_LOCAL)
			funcs[n++] = s;
	}
	qsort(funcs, n, sizeof(*funcs), cmp_func);
	for (i = 0; i < n && !ret; i++)
		ret = load_prog(ld, sec, funcs[i]);
	free(funcs);
	return ret;
}

static int load_progs(struct hr_loader *ld)
{
	char skipped[256] = "";
	size_t i, len;
	int ret;

	for (i = 1; i < ld->nsecs; i++) {
		const struct hr_ld_sec *s = &ld->secs[i];

		if (s->kind == HR_SEC_SKIPPED && ld->insp) {
			note_skipped(ld, (uint32_t)i);
			continue;
		}
		if (s->kind == HR_SEC_SKIPPED) {
			fprintf(stderr,
				"headroom: %s: section '%s' skipped: program "
				"type not supported\n",
				ld->path, s->name);
			len = strlen(skipped);
			snprintf(skipped + len, sizeof(skipped) - len, "%s'%s'",
				 len ? ", " : "", s->name);
			continue;
		}
		if (s->kind != HR_SEC_PROG)
			continue;
		ret = load_section_progs(ld, (uint32_t)i);
		if (ret)
			return ret;
	}
	if (ld->obj->nprogs || ld->insp)
		return 0;
	if (skipped[0])
		return hr_ld_error(ld, -ENOENT,
				   "no program headroom can run (skipped %s)",
				   skipped);
	return hr_ld_error(ld, -ENOENT, "no program found");
}

static void loader_release(struct hr_loader *ld)
{
	size_t i;

	for (i = 0; i < ld->nsecs; i++)
		free(ld->secs[i].rels);
	free(ld->secs);
	free(ld->syms);
	free(ld->locs);
	free(ld->values);
	free(ld->core);
	btf__free(ld->btf);
}

static int load(struct hr_loader *ld, Elf *elf)
{
	int ret;

	ret = read_elf(ld, elf);
	if (!ret)
		ret = hr_ld_core_prepare(ld);
	if (!ret)
		ret = hr_ld_check_map_sizes(ld);
	if (!ret)
		ret = hr_ld_create_maps(ld);
	if (!ret)
		ret = hr_ld_set_globals(ld);
	if (!ret)
		hr_ld_freeze_rodata(ld);
	if (!ret && hr_object_build_regions(ld->obj))
		ret = hr_ld_error(ld, -ENOMEM, "out of memory");
	if (!ret)
		ret = load_progs(ld);
	if (!ret)
		ret = hr_ld_fill_prog_arrays(ld);
	if (!ret && ld->insp)
		hr_ld_insp_object(ld);
	return ret;
}

static int open_opts(struct hr_loader *ld,
		     const struct hr_object_open_opts *opts)
{
	const char *force = HR_OPTS_GET(opts, force_type, NULL);

	ld->err = HR_OPTS_GET(opts, errbuf, NULL);
	ld->errsz = HR_OPTS_GET(opts, errbuf_sz, 0);
	if (ld->err && ld->errsz)
		ld->err[0] = '\0';
	ld->btf_path = HR_OPTS_GET(opts, btf_path, NULL);
	ld->map_sizes = HR_OPTS_GET(opts, map_sizes, NULL);
	ld->nmap_sizes = ld->map_sizes ? HR_OPTS_GET(opts, map_sizes_cnt, 0) :
					 0;
	ld->pin_dir = HR_OPTS_GET(opts, pin_dir, NULL);
	ld->globals = HR_OPTS_GET(opts, globals, NULL);
	ld->nglobals = ld->globals ? HR_OPTS_GET(opts, globals_cnt, 0) : 0;
	ld->only_prog = HR_OPTS_GET(opts, only_prog, NULL);
	ld->ncpus = HR_OPTS_GET(opts, ncpus, 0);
	if (!ld->ncpus)
		ld->ncpus = 1;
	if (force) {
		ld->force = hr_prog_type_by_name(force);
		if (!ld->force)
			return hr_ld_error(ld, -EINVAL,
					   "unknown program type '%s'", force);
	}
	return 0;
}

static int object_open(const char *path, const struct hr_object_open_opts *opts,
		       struct hr_object **objp, struct hr_inspect *insp)
{
	struct hr_loader ld = { .path = path ? path : "(null)", .insp = insp };
	Elf *elf = NULL;
	int fd = -1, ret;

	if (objp)
		*objp = NULL;
	ret = open_opts(&ld, opts);
	if (ret)
		return ret;
	if (!path || !objp)
		return hr_ld_error(&ld, -EINVAL, "no path or object pointer");
	set_objname(&ld);
	ld.obj = calloc(1, sizeof(*ld.obj));
	if (!ld.obj || !(ld.obj->path = strdup(path))) {
		ret = hr_ld_error(&ld, -ENOMEM, "out of memory");
		goto out;
	}
	ld.obj->ncpus = ld.ncpus;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		hr_ld_error(&ld, ret, "%s", strerror(-ret));
		goto out;
	}
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ, NULL);
	if (!elf) {
		ret = hr_ld_error(&ld, -EINVAL, "not an ELF file");
		goto out;
	}
	ret = load(&ld, elf);
out:
	if (elf)
		elf_end(elf);
	if (fd >= 0)
		close(fd);
	loader_release(&ld);
	if (ret) {
		hr_object_close(ld.obj);
		return ret;
	}
	*objp = ld.obj;
	return 0;
}

int hr_object_open(const char *path, const struct hr_object_open_opts *opts,
		   struct hr_object **objp)
{
	return object_open(path, opts, objp, NULL);
}

int hr_object_open_inspect(const char *path,
			   const struct hr_object_open_opts *opts,
			   struct hr_object **objp, struct hr_inspect **insp)
{
	int ret;

	*insp = calloc(1, sizeof(**insp));
	if (!*insp)
		return -ENOMEM;
	ret = object_open(path, opts, objp, *insp);
	return ret;
}
