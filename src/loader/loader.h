/* SPDX-License-Identifier: MIT */
/*
 * The object loader's working state, shared by its parts: ELF reading
 * (elf_object.c), map creation (object_maps.c) and program linking (reloc.c).
 * Nothing here outlives hr_object_open().
 */
#ifndef HR_LOADER_LOADER_H
#define HR_LOADER_LOADER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "progs/prog.h"

struct btf;
struct hr_map;
struct hr_map_attr;
struct hr_core_res;
struct hr_inspect;

/* ELF relocation types of the BPF target (llvm's BPF.def). */
#define HR_R_BPF_NONE 0
#define HR_R_BPF_64_64 1
#define HR_R_BPF_64_ABS64 2
#define HR_R_BPF_64_ABS32 3
#define HR_R_BPF_64_NODYLD32 4
#define HR_R_BPF_64_32 10

#define HR_INSN_SZ 8

enum hr_ld_kind {
	HR_SEC_OTHER = 0,
	HR_SEC_TEXT, /* .text: subprograms */
	HR_SEC_PROG, /* a program section headroom runs */
	HR_SEC_SKIPPED, /* a program section of a type headroom lacks */
	HR_SEC_DATA, /* .data, .data.* */
	HR_SEC_RODATA, /* .rodata, .rodata.* */
	HR_SEC_BSS, /* .bss, .bss.* */
	HR_SEC_MAPS, /* .maps: BTF-defined maps */
	HR_SEC_LEGACY_MAPS, /* maps: struct bpf_map_def / bpf_elf_map */
};

struct hr_ld_rel {
	uint64_t off; /* byte offset inside the target section */
	uint32_t sym;
	uint32_t type;
};

struct hr_ld_sec {
	const char *name;
	enum hr_ld_kind kind;
	const uint8_t *data; /* NULL for NOBITS */
	size_t size;
	struct hr_ld_rel *rels; /* sorted by off */
	size_t nrels;
	/* Program sections: the type the section name (or force) gives. */
	const struct hr_prog_type *type;
	uint32_t attach;
	bool frags;
	/* Global data sections: the array map and its value memory. */
	struct hr_map *map;
	uint8_t *value;
};

struct hr_ld_sym {
	const char *name;
	uint64_t value;
	uint64_t size;
	uint32_t shndx;
	uint8_t type; /* STT_* */
	uint8_t bind; /* STB_* */
};

/* Where a map definition lives, to resolve relocations against it. */
struct hr_ld_maploc {
	uint32_t sec;
	uint64_t off;
	uint64_t size;
	struct hr_map *map;
};

/* A map-in-map's __array(values, ...) initial values, filled in once
 * every map exists. */
struct hr_ld_values {
	uint32_t sec;
	uint64_t off; /* of the values array in @sec */
	struct hr_map *map;
};

struct hr_loader {
	const char *path;
	char *err;
	size_t errsz;
	char objname[64]; /* libbpf's object name: basename up to a dot */
	unsigned int ncpus;
	const struct hr_prog_type *force;
	const char *only_prog; /* opts->only_prog */

	struct hr_ld_sec *secs;
	size_t nsecs;
	struct hr_ld_sym *syms;
	size_t nsyms;
	const uint8_t *btf_ext;
	size_t btf_ext_size;
	struct btf *btf;

	struct hr_ld_maploc *locs;
	size_t nlocs;
	struct hr_ld_values *values;
	size_t nvalues;
	struct hr_object *obj;

	/* CO-RE: the target BTF and every record's outcome, sorted by
	 * (section, instruction). */
	const char *btf_path;
	const struct btf *targ_btf;
	struct hr_core_res *core;
	size_t ncore;
	/* The conntrack table took the target's struct nf_conn layout. */
	bool ct_layout_done;

	/* libbpf conventions (see hr_object_open_opts). */
	const char *const *map_sizes;
	size_t nmap_sizes;
	const char *const *globals;
	size_t nglobals;
	const char *pin_dir;

	/* Set by hr_object_open_inspect(): keep going past per-program
	 * errors and record what inspect shows. */
	struct hr_inspect *insp;
};

/* Writes "PATH: message" to the caller's error buffer; returns @err. */
int hr_ld_error(struct hr_loader *ld, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* timer_use.c: sets @map's timer_off and wq_off from the object's BTF,
 * where map_check_btf lets its type hold a bpf_timer or a bpf_wq. */
void hr_ld_map_timer(struct hr_loader *ld, struct hr_map *map);
/* timer_use.c: 0, or the error when @prog calls a timer helper (a wq
 * kfunc) and no map of the object can hold a bpf_timer (a bpf_wq): the
 * kernel's refusal. */
int hr_ld_check_timer_use(struct hr_loader *ld, const struct hr_prog *prog);
/* exception_cb.c: refuses a program with an exception callback of its
 * own (bpf_throw runs with the default one); 0 or -EOPNOTSUPP. */
int hr_ld_check_exception_cb(struct hr_loader *ld, const struct hr_prog *prog);
/* btf_vmlinux.c: gives @prog's object the vmlinux BTF when @prog calls
 * bpf_snprintf_btf (hr_object.kernel_btf). */
void hr_ld_vmlinux_btf_use(struct hr_loader *ld, const struct hr_prog *prog);
/* alloc_types.c: for a program calling bpf_obj_new_impl or
 * bpf_obj_drop_impl, the object's table of the structs they allocate
 * (hr_object.local_types), and the refusal of an allocation of a struct
 * headroom does not model; 0 or -errno. */
int hr_ld_alloc_types(struct hr_loader *ld, const struct hr_prog *prog);
/* The first struct bpf_list_head or bpf_rb_root of @map's values with
 * its __contains tag, and their bpf_spin_lock (hr_map.list_off ...). */
void hr_ld_map_lists(struct hr_loader *ld, struct hr_map *map);

/* object_maps.c: creates every map of the object (legacy, BTF, global data). */
int hr_ld_create_maps(struct hr_loader *ld);
/* The initial values of program arrays (__array(values, int (void *))),
 * once the programs they name are loaded, as libbpf fills them. */
int hr_ld_fill_prog_arrays(struct hr_loader *ld);

/* The map defined at byte @off of section @sec, or NULL. */
struct hr_map *hr_ld_map_at(const struct hr_loader *ld, uint32_t sec,
			    uint64_t off);

/* btf_ext.c: every .BTF.ext subsection, count and instruction offset
 * lies inside the section and the code it names. 0 or -EINVAL. */
int hr_ld_check_btf_ext(struct hr_loader *ld);
/* Whether libbpf would hand the kernel func_info for the object's
 * programs (BTF, and a .BTF.ext with func_info records). */
bool hr_ld_has_func_info(const struct hr_loader *ld);

/* reloc.c: resolves every CO-RE record of the object's code sections. */
int hr_ld_core_prepare(struct hr_loader *ld);

/* conventions.c: --set NAME=VALUE into global data, after the maps exist. */
int hr_ld_set_globals(struct hr_loader *ld);
/* conventions.c: .rodata maps frozen, after hr_ld_set_globals. */
void hr_ld_freeze_rodata(struct hr_loader *ld);
/* conventions.c: max_entries for map @name from opts, or @def. 0 or -errno. */
int hr_ld_map_size(struct hr_loader *ld, const char *name, uint32_t *size);
/* conventions.c: every map_sizes entry names a map of the object. */
int hr_ld_check_map_sizes(struct hr_loader *ld);

/*
 * reloc.c: builds @prog's instructions from function @func of section
 * @sec, appending the subprograms it calls, and applies relocations.
 */
int hr_ld_link_prog(struct hr_loader *ld, struct hr_prog *prog, uint32_t sec,
		    const struct hr_ld_sym *func);

/* inspect.c: records a program for inspect (@why NULL: runnable). */
int hr_ld_insp_prog(struct hr_loader *ld, const char *name, const char *sec,
		    const char *type, uint32_t insns, const char *why);
/* inspect.c: helpers, kfuncs, globals and CO-RE of the whole object. */
void hr_ld_insp_object(struct hr_loader *ld);

/* struct nf_conn's layout in @btf (ct_layout.c): 0, -ENOENT when the
 * BTF has none, -EINVAL when a field the table needs is missing. */
struct hr_ct_layout;
int hr_ld_ct_layout(const struct btf *btf, struct hr_ct_layout *l);
/* Once per load, for a program calling a conntrack kfunc: the table's
 * images take the target BTF's layout, so CO-RE reads land on them. */
void hr_ld_ct_setup(struct hr_loader *ld);

#endif /* HR_LOADER_LOADER_H */
