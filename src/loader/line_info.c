// SPDX-License-Identifier: MIT
/*
 * .BTF.ext line info for one function, as libbpf hands it to the kernel
 * (bpf_prog_load's line_info) and the verifier prints it (verbose_linfo):
 * the line_info subsection is a record size, then per code section
 * { section name offset, record count, records } with records of
 * { insn byte offset in the section, file name offset, line text offset,
 * line << 10 | column }. The function's place in its section comes from
 * the ELF symbol table, so records count from its first instruction.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/btf.h>

#include "loader/line_info.h"
#include "progs/prog.h"

#define EXT_MAGIC 0xeB9F
#define LINE_REC_MIN 16

static uint32_t rd32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

struct func_place {
	char sec[128];
	uint64_t off, size; /* bytes in the section */
	uint32_t at; /* its first instruction, in the program */
	const uint8_t *ext;
	size_t ext_size;
};

/* Finds @func's section and offset, and the .BTF.ext bytes. */
static int find_func(Elf *elf, const char *func, struct func_place *fp)
{
	size_t shstrndx;
	Elf_Scn *scn = NULL;
	int found = 0;

	if (elf_getshdrstrndx(elf, &shstrndx))
		return -EINVAL;
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		const char *name;
		Elf_Data *d;

		if (!gelf_getshdr(scn, &sh))
			return -EINVAL;
		name = elf_strptr(elf, shstrndx, sh.sh_name);
		if (!name)
			continue;
		if (!strcmp(name, ".BTF.ext")) {
			d = elf_getdata(scn, NULL);
			if (d) {
				fp->ext = d->d_buf;
				fp->ext_size = d->d_size;
			}
		}
		if (sh.sh_type != SHT_SYMTAB || found)
			continue;
		d = elf_getdata(scn, NULL);
		for (size_t i = 0;
		     d && sh.sh_entsize && i < sh.sh_size / sh.sh_entsize;
		     i++) {
			GElf_Sym sym;
			const char *sn;
			Elf_Scn *fs;
			GElf_Shdr fsh;

			if (!gelf_getsym(d, (int)i, &sym) ||
			    GELF_ST_TYPE(sym.st_info) != STT_FUNC)
				continue;
			sn = elf_strptr(elf, sh.sh_link, sym.st_name);
			if (!sn || strcmp(sn, func))
				continue;
			fs = elf_getscn(elf, sym.st_shndx);
			if (!fs || !gelf_getshdr(fs, &fsh))
				return -EINVAL;
			sn = elf_strptr(elf, shstrndx, fsh.sh_name);
			if (!sn || strlen(sn) >= sizeof(fp->sec))
				return -EINVAL;
			strcpy(fp->sec, sn);
			fp->off = sym.st_value;
			fp->size = sym.st_size;
			found = 1;
			break;
		}
	}
	return found ? 0 : -ENOENT;
}

static int collect(const struct func_place *fp, struct hr_line_table *t)
{
	const uint8_t *p = fp->ext, *end;
	uint32_t hdr_len, off, len, rec;

	if (!p || fp->ext_size < 24 || (rd32(p) & 0xffff) != EXT_MAGIC)
		return 0;
	hdr_len = rd32(p + 4);
	off = rd32(p + 16);
	len = rd32(p + 20);
	if (hdr_len > fp->ext_size || off > fp->ext_size - hdr_len ||
	    len > fp->ext_size - hdr_len - off || len < 4)
		return len ? -EINVAL : 0;
	p += hdr_len + off;
	end = p + len;
	rec = rd32(p);
	p += 4;
	if (rec < LINE_REC_MIN)
		return -EINVAL;
	while (end - p >= 8) {
		const char *sec = btf__name_by_offset(t->btf, rd32(p));
		uint32_t cnt = rd32(p + 4);

		p += 8;
		if (cnt > (size_t)(end - p) / rec)
			return -EINVAL;
		for (uint32_t i = 0; i < cnt; i++, p += rec) {
			uint32_t ioff = rd32(p);
			struct hr_line *l, *nv;

			if (!sec || strcmp(sec, fp->sec) || ioff < fp->off ||
			    ioff - fp->off >= fp->size)
				continue;
			nv = realloc(t->v, (t->n + 1) * sizeof(*nv));
			if (!nv)
				return -ENOMEM;
			t->v = nv;
			l = &t->v[t->n++];
			l->insn = fp->at + (uint32_t)((ioff - fp->off) / 8);
			l->file = btf__name_by_offset(t->btf, rd32(p + 4));
			l->src = btf__name_by_offset(t->btf, rd32(p + 8));
			l->line = rd32(p + 12) >> 10;
			l->col = rd32(p + 12) & 0x3ff;
		}
	}
	return 0;
}

/* The lines of each function linked into @prog, at its place there. */
static int collect_funcs(const struct hr_prog *prog, struct func_place *fp,
			 struct hr_line_table *t)
{
	uint32_t i, start, end;
	int err = 0;

	for (i = 0; !err && i < prog->nfuncs; i++) {
		const struct hr_prog_func *f = &prog->funcs[i];

		if (!f->sec || strlen(f->sec) >= sizeof(fp->sec))
			return -EINVAL;
		strcpy(fp->sec, f->sec);
		/* In the object's numbering, as the records are: the
		 * program's own once LD_ABS is expanded differs. */
		start = hr_prog_orig_pc(prog, f->start);
		end = hr_prog_orig_pc(prog, f->start + f->cnt);
		fp->off = (uint64_t)f->sec_insn * 8;
		fp->size = end > start ? (uint64_t)(end - start) * 8 : 0;
		fp->at = start;
		err = collect(fp, t);
	}
	return err;
}

static int load(const char *path, const char *func, const struct hr_prog *prog,
		struct hr_line_table *t)
{
	struct func_place fp = { 0 };
	Elf *elf;
	int fd, err;

	memset(t, 0, sizeof(*t));
	if (elf_version(EV_CURRENT) == EV_NONE)
		return -EINVAL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	elf = elf_begin(fd, ELF_C_READ, NULL);
	if (!elf) {
		close(fd);
		return -EINVAL;
	}
	err = find_func(elf, func, &fp);
	if (!err && fp.ext) {
		t->btf = btf__parse_elf(path, NULL);
		if (!t->btf)
			err = -errno ? -errno : -EINVAL;
		else if (prog && prog->funcs && prog->nfuncs)
			err = collect_funcs(prog, &fp, t);
		else
			err = collect(&fp, t);
	}
	elf_end(elf);
	close(fd);
	if (err)
		hr_line_table_free(t);
	return err;
}

int hr_line_table_load(const char *path, const char *func,
		       struct hr_line_table *t)
{
	return load(path, func, NULL, t);
}

int hr_line_table_load_prog(const char *path, const struct hr_prog *prog,
			    struct hr_line_table *t)
{
	return load(path, prog->name, prog, t);
}

const struct hr_line *hr_line_find(const struct hr_line_table *t, uint32_t insn)
{
	const struct hr_line *best = NULL;

	/* Records are in address order, as clang writes them. */
	for (size_t i = 0; i < t->n && t->v[i].insn <= insn; i++)
		best = &t->v[i];
	return best;
}

void hr_line_table_free(struct hr_line_table *t)
{
	free(t->v);
	btf__free(t->btf);
	memset(t, 0, sizeof(*t));
}

const char *hr_line_base(const char *file)
{
	const char *s;

	if (!file)
		return "";
	s = strrchr(file, '/');
	return s ? s + 1 : file;
}
