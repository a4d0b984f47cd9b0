// SPDX-License-Identifier: MIT
/*
 * headroom-conformance-plugin: the bpf_conformance plugin protocol.
 *
 * bpf_conformance starts the plugin with the test's memory as base16 bytes
 * in the first argument (absent when the test has none) followed by the
 * plugin options, writes the program as base16 bytes to its stdin, and
 * reads r0 in hex from stdout. A non-zero exit means the program failed;
 * its stderr then is the error text compared with the test's `-- error`.
 *
 * --jit runs the program as x86-64 code and nothing else: when the JIT
 * refuses it the plugin says so and exits 2 rather than answering from
 * the interpreter, so a conformance run with --jit tests the JIT.
 * --verbose names on stderr the engine that ran (and the size of the
 * code), which the in-tree test checks.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vm/conformance.h"

#define PROG "headroom-conformance-plugin"

struct bytes {
	uint8_t *buf;
	size_t len, cap;
};

static void usage(FILE *f)
{
	fprintf(f,
		"usage: " PROG " [MEMORY] [--program PROGRAM] [--interpret | "
		"--jit] [--verbose]\n"
		"Runs one eBPF program for bpf_conformance: PROGRAM (or the "
		"first line of\n"
		"stdin) and MEMORY are base16 bytes separated by spaces; r1 "
		"is the memory,\n"
		"r2 its length. Prints r0 in hex and exits 0, or prints the "
		"error to stderr\n"
		"and exits 1 (2: the JIT refused the program).\n"
		"  --interpret  run under the interpreter (the default)\n"
		"  --jit        run under the x86-64 JIT, never interpreted\n"
		"  --verbose    name the engine that ran on stderr\n"
		"  --help       this text\n");
}

static int push(struct bytes *b, uint8_t v)
{
	uint8_t *p;

	if (b->len == b->cap) {
		b->cap = b->cap ? b->cap * 2 : 4096;
		p = realloc(b->buf, b->cap);
		if (!p)
			return -ENOMEM;
		b->buf = p;
	}
	b->buf[b->len++] = v;
	return 0;
}

/* Base16 bytes separated by white space ("b7 00 00 00 ..."). */
static int parse_hex(const char *s, struct bytes *b)
{
	unsigned long v;
	char *end;

	for (;;) {
		while (isspace((unsigned char)*s))
			s++;
		if (!*s)
			return 0;
		if (!isxdigit((unsigned char)*s))
			return -EINVAL;
		v = strtoul(s, &end, 16);
		if (v > 0xff || (*end && !isspace((unsigned char)*end)))
			return -EINVAL;
		if (push(b, (uint8_t)v))
			return -ENOMEM;
		s = end;
	}
}

/* The first line of stdin (the suite sends exactly one). */
static int read_stdin_line(struct bytes *b)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t n = getline(&line, &cap, stdin);
	int err;

	if (n < 0) {
		free(line);
		return -EINVAL;
	}
	err = parse_hex(line, b);
	free(line);
	return err;
}

static int fail(const char *fmt, const char *arg)
{
	fprintf(stderr, PROG ": ");
	fprintf(stderr, fmt, arg);
	fputc('\n', stderr);
	return 1;
}

int main(int argc, char **argv)
{
	struct bytes prog = { 0 }, mem = { 0 };
	const char *prog_hex = NULL, *mem_hex = NULL;
	enum hr_engine engine = HR_ENGINE_INTERP;
	bool verbose = false;
	size_t jit_bytes = 0;
	char err[512];
	uint64_t r0;
	int i, ret;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			usage(stdout);
			return 0;
		} else if (!strcmp(argv[i], "--interpret")) {
			engine = HR_ENGINE_INTERP;
		} else if (!strcmp(argv[i], "--jit")) {
			engine = HR_ENGINE_JIT;
		} else if (!strcmp(argv[i], "--verbose")) {
			verbose = true;
		} else if (!strcmp(argv[i], "--program") && i + 1 < argc) {
			prog_hex = argv[++i];
		} else if (!strncmp(argv[i], "--", 2)) {
			usage(stderr);
			return fail("unknown option '%s'", argv[i]);
		} else if (!mem_hex) {
			mem_hex = argv[i];
		} else {
			return fail("unexpected argument '%s'", argv[i]);
		}
	}
	if (mem_hex && parse_hex(mem_hex, &mem))
		return fail("memory is not base16 bytes: '%s'", mem_hex);
	ret = prog_hex ? parse_hex(prog_hex, &prog) : read_stdin_line(&prog);
	if (ret)
		return fail("%s", "program is not base16 bytes");
	if (!prog.len || prog.len % sizeof(struct hr_insn))
		return fail("%s", "program is not a whole number of "
				  "instructions");
	ret = hr_conformance_run_engine(
		engine, (const struct hr_insn *)prog.buf,
		(uint32_t)(prog.len / sizeof(struct hr_insn)), mem.buf, mem.len,
		&r0, &jit_bytes, err, sizeof(err));
	free(prog.buf);
	free(mem.buf);
	if (ret == -ENOEXEC) {
		fail("--jit: %s", err);
		return 2;
	}
	if (verbose && ret != -EINVAL) {
		if (engine == HR_ENGINE_JIT)
			fprintf(stderr,
				PROG ": engine jit, %zu bytes of code\n",
				jit_bytes);
		else
			fprintf(stderr, PROG ": engine interpreter\n");
	}
	if (ret)
		return fail("%s", err);
	printf("%" PRIx64 "\n", r0);
	return 0;
}
