/* SPDX-License-Identifier: MIT */
/*
 * Objects: ELF files from clang -target bpf, with their programs and maps.
 * No kernel is needed to open one.
 */
#ifndef HEADROOM_OBJECT_H
#define HEADROOM_OBJECT_H

#include <stddef.h>
#include <stdint.h>

#include "headroom/opts.h"

#ifdef __cplusplus
extern "C" {
#endif

struct hr_object;
struct hr_prog;
struct hr_map;

struct hr_object_open_opts {
	size_t sz;
	/* Receives a one-line message naming the object, section and
	 * instruction when opening fails. */
	char *errbuf;
	size_t errbuf_sz;
	/* Worker count: number of per-CPU copies in per-CPU maps (default 1). */
	unsigned int ncpus;
	/* "xdp" or "tc": the program type of every program, whatever its
	 * section name says (NULL: from the section). */
	const char *force_type;
	/* Target BTF for CO-RE relocations: a BTF or ELF file, or "builtin"
	 * for headroom's own BTF of the UAPI structs it implements (NULL:
	 * /sys/kernel/btf/vmlinux when present, else builtin). */
	const char *btf_path;
	/* "NAME=N" entries: max_entries of map NAME, for maps declared with
	 * max_entries 0 (as libbpf's bpf_map__set_max_entries()). */
	const char *const *map_sizes;
	size_t map_sizes_cnt;
	/* Maps pinned by name (LIBBPF_PIN_BY_NAME) live in a process-wide
	 * store under this directory's name: objects opened with the same
	 * pin_dir share them (NULL: "/sys/fs/bpf", libbpf's default). */
	const char *pin_dir;
	/* "NAME=VALUE" entries: initial values of .rodata / .data / .bss
	 * variables (decimal or 0x hex), as a skeleton sets them. */
	const char *const *globals;
	size_t globals_cnt;
	/* Function or section name of the one program wanted (as libbpf's
	 * autoload off for the rest): another program that headroom cannot
	 * load (an unknown kfunc, say) is left out with a note instead of
	 * failing the object. NULL: every program must load. */
	const char *only_prog;
};

/* Opens and loads @path; 0 or -errno with opts->errbuf filled. */
int hr_object_open(const char *path, const struct hr_object_open_opts *opts,
		   struct hr_object **obj);
void hr_object_close(struct hr_object *obj);

unsigned int hr_object_prog_count(const struct hr_object *obj);
struct hr_prog *hr_object_prog(const struct hr_object *obj, unsigned int i);
/*
 * The program whose function name or section name is @sel; with @sel NULL
 * the first program. NULL when there is none.
 */
struct hr_prog *hr_object_find_prog(const struct hr_object *obj,
				    const char *sel);

unsigned int hr_object_map_count(const struct hr_object *obj);
struct hr_map *hr_object_map(const struct hr_object *obj, unsigned int i);
struct hr_map *hr_object_find_map(const struct hr_object *obj,
				  const char *name);

const char *hr_prog_name(const struct hr_prog *prog);
const char *hr_prog_section(const struct hr_prog *prog);
/* "xdp", "xdp/devmap", "xdp/cpumap" or "tc". */
const char *hr_prog_type_name(const struct hr_prog *prog);
unsigned int hr_prog_insn_count(const struct hr_prog *prog);
/* Name of return value @ret for this program type ("XDP_PASS",
 * "TC_ACT_OK"), or NULL when the value has no name. */
const char *hr_prog_action_name(const struct hr_prog *prog, uint64_t ret);

/* The program's standard streams, which bpf_stream_vprintk_impl writes
 * (BPF_STDOUT, BPF_STDERR). */
#define HR_STREAM_STDOUT 1
#define HR_STREAM_STDERR 2
/*
 * Takes up to @len bytes of the text stream @stream_id of @prog holds,
 * oldest first, into @buf, as BPF_PROG_STREAM_READ_BY_FD does: the bytes
 * read (0: none), -ENOENT for another stream id.
 */
int hr_prog_stream_read(struct hr_prog *prog, int stream_id, char *buf,
			size_t len);

#ifdef __cplusplus
}
#endif

#endif /* HEADROOM_OBJECT_H */
