/* SPDX-License-Identifier: MIT */
/*
 * Source lines of a program's instructions, from the object's .BTF.ext
 * line info (struct bpf_line_info), as the kernel's verifier log prints
 * them ("; code @ file:line").
 */
#ifndef HR_LOADER_LINE_INFO_H
#define HR_LOADER_LINE_INFO_H

#include <stddef.h>
#include <stdint.h>

struct btf;
struct hr_prog;

struct hr_line {
	uint32_t insn; /* instruction index from the program's start */
	uint32_t line;
	uint32_t col;
	const char *file; /* into the table's BTF strings */
	const char *src; /* the source line's text */
};

struct hr_line_table {
	struct hr_line *v; /* by insn, ascending */
	size_t n;
	struct btf *btf;
};

/* The lines of function @func in the ELF object at @path; 0 (an empty
 * table when the object has no line info), or -errno. */
int hr_line_table_load(const char *path, const char *func,
		       struct hr_line_table *t);
/* The lines of @prog as linked: its function's, then each subprogram's
 * at the place the loader put it (libbpf's layout, so the kernel's
 * instruction numbers); 0 or -errno. */
int hr_line_table_load_prog(const char *path, const struct hr_prog *prog,
			    struct hr_line_table *t);

/* The line covering instruction @insn (the last record at or before it),
 * or NULL. */
const struct hr_line *hr_line_find(const struct hr_line_table *t,
				   uint32_t insn);

void hr_line_table_free(struct hr_line_table *t);

/* The file name without its directories. */
const char *hr_line_base(const char *file);

#endif /* HR_LOADER_LINE_INFO_H */
