// SPDX-License-Identifier: MIT
/*
 * libFuzzer harness: the ELF object loader (hr_object_open), fed from
 * memory through a memfd.
 *
 * The custom mutator knows the object's structure: it walks the section
 * table of a seed object and sets one field of a symbol, a relocation, a
 * section header, the .BTF header or types, or the .BTF.ext header or
 * records to an interesting value (0, -1, INT_MAX, the section's size give
 * or take a few, values that wrap 32- or 64-bit sums, ...), or, now and
 * then, leaves the bytes to libFuzzer's own mutations. An object that
 * loads has each of its programs run once, under the interpreter, on a
 * small packet with a small budget. A crash, a hang or a sanitizer report
 * is a finding; a load error is the expected outcome of most inputs, and
 * each must carry a message naming the file.
 */
#include <elf.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <headroom/object.h>

#include "progs/ctx.h"
#include "vm/engine.h"
#include "progs/prog.h"
#include "core/pool.h"
#include "lib/fuzz_file.h"

#define HEADROOM 256
#define PKT_LEN 64

size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);

static struct hr_run *run;
static uint8_t *frame; /* below 4 GiB: the contexts' 32-bit fields */

static const uint8_t pkt[PKT_LEN] = { 2,  0, 0,	 0,  0,	   2,	 2,    0,  0, 0,
				      0,  1, 8,	 0,  0x45, 0,	 0,    50, 0, 0,
				      0,  0, 64, 17, 0,	   0,	 10,   0,  0, 1,
				      10, 0, 0,	 2,  0x30, 0x39, 0x00, 53 };

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	frame = mmap(NULL, HR_FRAME_SIZE, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS | MAP_32BIT, -1, 0);
	run = aligned_alloc(64, (sizeof(*run) + 63) & ~(size_t)63);
	if (frame == MAP_FAILED || !run)
		abort();
	return 0;
}

static void run_prog(struct hr_prog *prog)
{
	struct hr_xdp_buff xdp;
	struct hr_xdp_ctx xc;
	struct hr_tc_ctx tcc;
	bool tc = prog->type != &hr_prog_type_xdp;

	memset(frame, 0, HR_FRAME_SIZE);
	memcpy(frame + HEADROOM, pkt, sizeof(pkt));
	if (tc) {
		memset(&tcc, 0, sizeof(tcc));
		tcc.head = frame;
		tcc.data = frame + HEADROOM;
		tcc.data_end = tcc.data + sizeof(pkt);
		tcc.frame_sz = HR_FRAME_SIZE;
		tcc.skb.ifindex = 1;
		tcc.skb.wire_len = sizeof(pkt);
		memcpy(&tcc.skb.protocol, pkt + 12, 2);
		hr_prog_run_init(prog, run, &tcc.skb);
		run->priv = &tcc;
		hr_tc_ctx_sync(&tcc, run);
	} else {
		memset(&xdp, 0, sizeof(xdp));
		memset(&xc, 0, sizeof(xc));
		xdp.data_hard_start = frame;
		xdp.data = frame + HEADROOM;
		xdp.data_meta = xdp.data;
		xdp.data_end = (uint8_t *)xdp.data + sizeof(pkt);
		xdp.frame_sz = HR_FRAME_SIZE;
		xc.xdp = &xdp;
		hr_prog_run_init(prog, run, &xc.md);
		run->priv = &xc;
		hr_xdp_ctx_sync(&xc, run);
	}
	run->budget = 1 << 14;
	hr_engine_run_ctx(HR_ENGINE_INTERP, run);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[64], err[512];
	struct hr_object *obj = NULL;
	HR_OPTS(hr_object_open_opts, o, .errbuf = err,
		.errbuf_sz = sizeof(err));
	unsigned int i;
	int fd, ret;

	fd = fuzz_memfile(data, size, path, sizeof(path));
	if (fd < 0)
		return 0;
	err[0] = '\0';
	ret = hr_object_open(path, &o, &obj);
	close(fd);
	if (ret) {
		/* Every refusal is -errno with a message naming the file. */
		if (ret >= 0 || obj || strncmp(err, path, strlen(path)) != 0) {
			fprintf(stderr, "bad refusal: ret %d, message '%s'\n",
				ret, err);
			abort();
		}
		return 0;
	}
	for (i = 0; i < hr_object_prog_count(obj); i++)
		run_prog(hr_object_prog(obj, i));
	hr_object_close(obj);
	return 0;
}

/* A small xorshift generator seeded by libFuzzer for each mutation. */
static uint64_t rnd_state;

static uint32_t rnd(void)
{
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 7;
	rnd_state ^= rnd_state << 17;
	return (uint32_t)(rnd_state >> 11);
}

static uint64_t interesting(uint64_t cur, uint64_t limit)
{
	static const uint64_t vals[] = {
		0,
		1,
		8,
		0x7f,
		0xff,
		0x7fff,
		0xffff,
		0x7fffffff,
		0x80000000,
		0xfffffff8,
		0xffffffff,
		0x100000000ull,
		0x7fffffffffffffffull,
		0x8000000000000000ull,
		0xfffffffffffffff8ull,
		0xffffffffffffffffull,
	};
	int64_t k = (int64_t)(rnd() % 33) - 16;

	switch (rnd() % 5) {
	case 0:
	case 1:
		return vals[rnd() % (sizeof(vals) / sizeof(vals[0]))];
	case 2: /* around the container's size */
		return limit + (uint64_t)k;
	case 3: /* around the current value */
		return cur + (uint64_t)k * ((rnd() & 1) ? 8 : 1);
	default: /* what wraps a sum with the current value */
		return (uint64_t)0 - cur + (uint64_t)k;
	}
}

static void put(uint8_t *p, unsigned int width, uint64_t v)
{
	memcpy(p, &v, width); /* little-endian host and object */
}

static uint64_t get(const uint8_t *p, unsigned int width)
{
	uint64_t v = 0;

	memcpy(&v, p, width);
	return v;
}

/* Sets the @width-byte field at @p to something interesting. */
static void poke(uint8_t *p, unsigned int width, uint64_t limit)
{
	put(p, width, interesting(get(p, width), limit));
}

/* The section header table of @data, or NULL if it is not a sane one. */
static Elf64_Shdr *sections(uint8_t *data, size_t size, unsigned int *n)
{
	Elf64_Ehdr *eh = (Elf64_Ehdr *)data;

	if (size < sizeof(*eh) || memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
	    eh->e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh->e_shentsize != sizeof(Elf64_Shdr) || !eh->e_shnum ||
	    eh->e_shoff > size ||
	    (size - eh->e_shoff) / sizeof(Elf64_Shdr) < eh->e_shnum ||
	    eh->e_shoff % 8)
		return NULL;
	*n = eh->e_shnum;
	return (Elf64_Shdr *)(data + eh->e_shoff);
}

static bool sec_in_file(const Elf64_Shdr *sh, size_t size)
{
	return sh->sh_type != SHT_NOBITS && sh->sh_offset <= size &&
	       sh->sh_size <= size - sh->sh_offset;
}

static const char *sec_name(const uint8_t *data, size_t size,
			    const Elf64_Shdr *shs, unsigned int n,
			    const Elf64_Shdr *sh)
{
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)data;
	const Elf64_Shdr *str;

	if (eh->e_shstrndx >= n)
		return "";
	str = &shs[eh->e_shstrndx];
	if (!sec_in_file(str, size) || sh->sh_name >= str->sh_size)
		return "";
	if (!memchr(data + str->sh_offset + sh->sh_name, '\0',
		    str->sh_size - sh->sh_name))
		return "";
	return (const char *)data + str->sh_offset + sh->sh_name;
}

/* A random section of type @type (or any, if 0) whose bytes are in the
 * file, or NULL. */
static Elf64_Shdr *pick_sec(uint8_t *data, size_t size, Elf64_Shdr *shs,
			    unsigned int n, uint32_t type, const char *name)
{
	unsigned int start = rnd() % n, i;

	for (i = 0; i < n; i++) {
		Elf64_Shdr *sh = &shs[(start + i) % n];

		if (type && sh->sh_type != type)
			continue;
		if (name && strcmp(sec_name(data, size, shs, n, sh), name))
			continue;
		/* Tables are read in place: their entries must be aligned. */
		if ((type == SHT_SYMTAB || type == SHT_REL) &&
		    sh->sh_offset % 8)
			continue;
		if (sec_in_file(sh, size) && sh->sh_size)
			return sh;
	}
	return NULL;
}

static bool mutate_symbol(uint8_t *data, size_t size, Elf64_Shdr *shs,
			  unsigned int n)
{
	Elf64_Shdr *st = pick_sec(data, size, shs, n, SHT_SYMTAB, NULL);
	uint64_t limit = 0;
	Elf64_Sym *sym;
	size_t cnt;

	if (!st || st->sh_entsize != sizeof(Elf64_Sym))
		return false;
	cnt = st->sh_size / sizeof(Elf64_Sym);
	if (!cnt)
		return false;
	sym = (Elf64_Sym *)(data + st->sh_offset) + rnd() % cnt;
	if (sym->st_shndx < n)
		limit = shs[sym->st_shndx].sh_size;
	switch (rnd() % 6) {
	case 0:
	case 1:
		poke((uint8_t *)&sym->st_value, 8, limit);
		break;
	case 2:
		poke((uint8_t *)&sym->st_size, 8, limit - sym->st_value);
		break;
	case 3:
		sym->st_shndx =
			(uint16_t)((rnd() & 1) ? rnd() % (n + 2) :
						 interesting(sym->st_shndx, n));
		break;
	case 4:
		sym->st_info = (uint8_t)rnd();
		break;
	default:
		poke((uint8_t *)&sym->st_name, 4, 0);
		break;
	}
	return true;
}

static bool mutate_rel(uint8_t *data, size_t size, Elf64_Shdr *shs,
		       unsigned int n)
{
	Elf64_Shdr *rs = pick_sec(data, size, shs, n, SHT_REL, NULL);
	uint64_t limit = 0, sym, type;
	Elf64_Rel *rel;
	size_t cnt;

	if (!rs || rs->sh_entsize != sizeof(Elf64_Rel))
		return false;
	cnt = rs->sh_size / sizeof(Elf64_Rel);
	if (!cnt)
		return false;
	rel = (Elf64_Rel *)(data + rs->sh_offset) + rnd() % cnt;
	if (rs->sh_info < n)
		limit = shs[rs->sh_info].sh_size;
	sym = ELF64_R_SYM(rel->r_info);
	type = ELF64_R_TYPE(rel->r_info);
	switch (rnd() % 4) {
	case 0:
	case 1:
		poke((uint8_t *)&rel->r_offset, 8, limit);
		break;
	case 2:
		sym = interesting(sym, rs->sh_link < n ?
					       shs[rs->sh_link].sh_size /
						       sizeof(Elf64_Sym) :
					       0) &
		      0xffffffff;
		break;
	default:
		type = (rnd() & 1) ? rnd() % 12 : interesting(type, 0);
		break;
	}
	rel->r_info = ELF64_R_INFO(sym, type & 0xffffffff);
	return true;
}

static bool mutate_shdr(uint8_t *data, size_t size, Elf64_Shdr *shs,
			unsigned int n)
{
	Elf64_Shdr *sh = &shs[rnd() % n];

	(void)data;
	switch (rnd() % 8) {
	case 0:
		poke((uint8_t *)&sh->sh_offset, 8, size);
		break;
	case 1:
	case 2:
		poke((uint8_t *)&sh->sh_size, 8, size - sh->sh_offset);
		break;
	case 3:
		poke((uint8_t *)&sh->sh_link, 4, n);
		break;
	case 4:
		poke((uint8_t *)&sh->sh_info, 4, n);
		break;
	case 5:
		poke((uint8_t *)&sh->sh_entsize, 8, 0);
		break;
	case 6:
		sh->sh_type = (rnd() & 1) ? rnd() % 20 : (uint32_t)rnd();
		break;
	default:
		sh->sh_flags ^= 1ull << (rnd() % 8);
		break;
	}
	return true;
}

/* A 4-byte field of section @name: its header (the first @hdr bytes)
 * more often than its body. */
static bool mutate_words(uint8_t *data, size_t size, Elf64_Shdr *shs,
			 unsigned int n, const char *name, size_t hdr)
{
	Elf64_Shdr *sh = pick_sec(data, size, shs, n, 0, name);
	size_t words, w;

	if (!sh || sh->sh_size < 4)
		return false;
	words = sh->sh_size / 4;
	if ((rnd() & 1) && hdr / 4 < words)
		w = rnd() % (hdr / 4);
	else
		w = rnd() % words;
	/* Offsets and counts in these sections are 32-bit. */
	poke(data + sh->sh_offset + w * 4, (rnd() % 4) ? 4 : 2,
	     sh->sh_size - w * 4);
	return true;
}

/* An instruction of a code section: its opcode, registers, offset or
 * immediate. */
static bool mutate_insn(uint8_t *data, size_t size, Elf64_Shdr *shs,
			unsigned int n)
{
	Elf64_Shdr *sh = pick_sec(data, size, shs, n, SHT_PROGBITS, NULL);
	uint8_t *insn;

	if (!sh || !(sh->sh_flags & SHF_EXECINSTR) || sh->sh_size < 8)
		return false;
	insn = data + sh->sh_offset + (rnd() % (sh->sh_size / 8)) * 8;
	switch (rnd() % 4) {
	case 0:
		insn[0] = (uint8_t)rnd();
		break;
	case 1:
		insn[1] = (uint8_t)rnd();
		break;
	case 2:
		poke(insn + 2, 2, sh->sh_size / 8);
		break;
	default:
		poke(insn + 4, 4, sh->sh_size / 8);
		break;
	}
	return true;
}

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size,
			       unsigned int seed)
{
	unsigned int n, tries;
	Elf64_Shdr *shs;
	bool done = false;

	rnd_state = seed * 0x9e3779b97f4a7c15ull + 1;
	shs = sections(data, size, &n);
	if (!shs || rnd() % 8 == 0)
		return LLVMFuzzerMutate(data, size, max_size);
	for (tries = 0; !done && tries < 8; tries++) {
		switch (rnd() % 7) {
		case 0:
			done = mutate_symbol(data, size, shs, n);
			break;
		case 1:
			done = mutate_rel(data, size, shs, n);
			break;
		case 2:
			done = mutate_shdr(data, size, shs, n);
			break;
		case 3:
			/* struct btf_header: 24 bytes. */
			done = mutate_words(data, size, shs, n, ".BTF", 24);
			break;
		case 4:
		case 5:
			/* struct btf_ext_header with core_relo: 32 bytes. */
			done = mutate_words(data, size, shs, n, ".BTF.ext", 32);
			break;
		default:
			done = mutate_insn(data, size, shs, n);
			break;
		}
	}
	return done ? size : LLVMFuzzerMutate(data, size, max_size);
}
