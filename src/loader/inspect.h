/* SPDX-License-Identifier: MIT */
/*
 * What `headroom inspect` shows about an object: every program (also those
 * headroom cannot run, and why), helpers and kfuncs called, globals and
 * CO-RE relocations. Internal: the CLI's view, not a public API.
 */
#ifndef HR_LOADER_INSPECT_H
#define HR_LOADER_INSPECT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct hr_object;
struct hr_object_open_opts;

struct hr_inspect_prog {
	char name[64];
	char sec[96];
	char type[24]; /* "xdp", "tc", or the section's own prefix */
	uint32_t insns;
	bool runnable;
	char why[256]; /* when not runnable */
};

struct hr_inspect_var {
	char sec[32];
	char name[64];
	uint32_t off, size;
};

struct hr_inspect_core {
	char sec[96];
	uint32_t insn;
	char kind[24];
	char desc[192];
	bool resolved; /* false: poisoned */
	uint64_t value;
};

struct hr_inspect {
	struct hr_inspect_prog *progs;
	size_t nprogs;
	struct hr_inspect_var *vars;
	size_t nvars;
	struct hr_inspect_core *core;
	size_t ncore;
	int helpers[256]; /* kernel helper ids called, ascending */
	size_t nhelpers;
	char (*kfuncs)[64];
	size_t nkfuncs;
};

/*
 * hr_object_open() that keeps going past a program it cannot link or
 * finalize and records everything above into a new *@insp (freed with
 * hr_inspect_free(), also on failure).
 */
int hr_object_open_inspect(const char *path,
			   const struct hr_object_open_opts *opts,
			   struct hr_object **obj, struct hr_inspect **insp);
void hr_inspect_free(struct hr_inspect *insp);

#endif /* HR_LOADER_INSPECT_H */
