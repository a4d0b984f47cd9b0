/* SPDX-License-Identifier: MIT */
/*
 * Loaded programs and objects, and the program-type table (the kernel's
 * bpf_verifier_ops and bpf_func_proto lookup, one entry per type).
 */
#ifndef HR_PROGS_PROG_H
#define HR_PROGS_PROG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "vm/vm.h"

struct hr_object;
struct hr_map;
struct hr_prog_stream;
struct btf;

/* Kernel program type numbers (enum bpf_prog_type). */
#define HR_KPROG_SCHED_CLS 3
#define HR_KPROG_XDP 6

/* Kernel expected_attach_type values used here. */
#define HR_ATTACH_NONE 0
#define HR_ATTACH_XDP_DEVMAP 33 /* BPF_XDP_DEVMAP */
#define HR_ATTACH_XDP_CPUMAP 35 /* BPF_XDP_CPUMAP */
#define HR_ATTACH_XDP 37 /* BPF_XDP */
#define HR_ATTACH_TCX_INGRESS 46 /* BPF_TCX_INGRESS */
#define HR_ATTACH_TCX_EGRESS 47 /* BPF_TCX_EGRESS */

struct hr_helper {
	int id; /* kernel helper ID (enum bpf_func_id) */
	const char *name; /* "bpf_map_lookup_elem" */
	hr_helper_fn fn;
};

struct hr_kfunc {
	const char *name;
	hr_helper_fn fn;
	/* The kernel program type (HR_KPROG_*) whose context the first
	 * argument is, for a kfunc offered to several types that only one
	 * can call: the verifier takes no other type's context there ("R1
	 * must be referenced or trusted"). 0: any. */
	int ctx_type;
};

struct hr_prog_type {
	const char *name; /* "xdp", "tc" */
	int kernel_type;
	size_t ctx_size;
	bool (*ctx_access)(const struct hr_prog *prog, int off, int size,
			   bool write);
	/* The helper @id if this type may call it, else NULL. */
	const struct hr_helper *(*helper)(int id);
	/* Why this type may not call helper @id in headroom (the kernel
	 * lacks it too, or it cannot mean anything here, or it is not
	 * implemented yet); NULL: no reason to give. */
	const char *(*helper_why)(int kernel_type, int id);
	/* The kfunc @name if this type may call it, else NULL. */
	const struct hr_kfunc *(*kfunc)(const char *name);
	const char *(*action_name)(uint64_t ret);
	uint64_t abort_ret;
	/* The byte, half and word loads LD_ABS/LD_IND become (ld_abs.h);
	 * NULL where the kernel's may_access_skb() refuses them. */
	const hr_helper_fn *ld_abs;
};

extern const struct hr_prog_type hr_prog_type_xdp;
extern const struct hr_prog_type hr_prog_type_tc;

/* A function linked into a program: the program's own first, then each
 * subprogram in the order the loader appended it (as libbpf does). */
struct hr_prog_func {
	uint32_t start, cnt; /* instructions of the program */
	char *name; /* its symbol; NULL when it has none */
	char *sec; /* the code section it came from */
	uint32_t sec_insn; /* its first instruction there */
	/* Global linkage (not static): the kernel verifies such a function
	 * on its own, from its BTF signature, not in its caller's walk. */
	bool global;
};

struct hr_prog {
	char *name; /* function name */
	char *sec; /* section name */
	const struct hr_prog_type *type;
	uint32_t expected_attach; /* HR_ATTACH_* */
	bool frags; /* xdp.frags */
	struct hr_insn *insns; /* relocated: lddw values are final */
	uint32_t cnt;
	/* Per instruction: resolved helper/kfunc, filled by finalize (the
	 * loader sets kfunc entries, finalize the helper ones). */
	hr_helper_fn *calls;
	/* Per instruction: the kfunc a call resolves to, NULL elsewhere
	 * (several kfuncs share one fn; headroom check needs which). */
	const struct hr_kfunc **kfuncs;
	/* The functions linked in; NULL when the program was not linked
	 * from an object (built from instructions). */
	struct hr_prog_func *funcs;
	uint32_t nfuncs;
	/* Per instruction, once LD_ABS/LD_IND were expanded (ld_abs.c): the
	 * object's own index of the instruction it came from, the number
	 * the kernel's log, objdump and line info use; NULL when nothing
	 * was expanded. @orig_cnt: the object's count. */
	uint32_t *orig_pc;
	uint32_t orig_cnt;
	/* The object gives the kernel func_info (BTF with .BTF.ext), which
	 * it needs for callbacks (check_ld_imm). */
	bool func_info;
	struct hr_vm_prog vm;
	struct hr_object *obj;
	/* Its standard streams (stream.c), from the first write on. */
	struct hr_prog_stream *stream;
};

/*
 * A struct of the object's BTF as bpf_obj_new_impl allocates it (its
 * local type id indexes hr_object.local_types): its size, and whether it
 * holds a special field headroom does not model yet in an object (list
 * heads, rbtree roots, kptrs, timers, wqs), which it then refuses, or a struct
 * bpf_refcount.
 */
struct hr_local_type {
	uint32_t size;
	bool alloc; /* a struct: bpf_obj_new may allocate it */
	bool unmodelled;
	bool refcounted; /* it has a struct bpf_refcount */
	/* bpf_percpu_obj_new may allocate it: at most 512 bytes, of
	 * scalars, without special fields (hr_ld_alloc_types says why
	 * not). */
	bool percpu;
};

struct hr_object {
	char *path;
	struct hr_prog **progs;
	unsigned int nprogs;
	struct hr_map **maps;
	unsigned int nmaps;
	/* Value memory of every map, built once all maps exist. */
	struct hr_region *regions;
	unsigned int nregions;
	unsigned int ncpus;
	/* The vmlinux BTF bpf_snprintf_btf shows types of (the loader's
	 * CO-RE target, shared and never freed), or NULL when no program
	 * calls it or none could be read. */
	const struct btf *kernel_btf;
	/* Indexed by BTF type id, built by the loader for an object whose
	 * programs allocate objects (loader/alloc_types.c); else NULL. */
	struct hr_local_type *local_types;
	uint32_t nlocal_types;
};

/* Program type for a section name (libbpf's and iproute2's conventions),
 * with the expected attach type and frags flag; NULL if not runnable. */
const struct hr_prog_type *
hr_prog_type_for_section(const char *sec, uint32_t *attach, bool *frags);
const struct hr_prog_type *hr_prog_type_by_name(const char *name);

/*
 * Makes a relocated program runnable: validates every instruction, resolves
 * helper calls through the program type, checks context accesses it can
 * prove, and fills prog->vm. On failure writes "section 'S' insn N: why"
 * to @err and returns -errno.
 */
int hr_prog_finalize(struct hr_prog *prog, char *err, size_t errsz);

/* Builds obj->regions from its maps; 0 or -ENOMEM. */
int hr_object_build_regions(struct hr_object *obj);

/* Fills @run for @prog: vm, regions and maps of its object. */
void hr_prog_run_init(const struct hr_prog *prog, struct hr_run *run,
		      void *ctx);
/* Points @run at @prog's object: its maps and the regions of their
 * values and of its globals (a run, or a tail call into another object). */
void hr_prog_run_use_object(const struct hr_prog *prog, struct hr_run *run);

void hr_prog_free(struct hr_prog *prog);

/* The object's index of instruction @pc of @prog (see orig_pc); @pc ==
 * prog->cnt gives the object's count. */
static inline uint32_t hr_prog_orig_pc(const struct hr_prog *prog, uint32_t pc)
{
	if (!prog->orig_pc)
		return pc;
	return pc < prog->cnt ? prog->orig_pc[pc] : prog->orig_cnt;
}

/* Kernel name of helper @id ("bpf_map_lookup_elem"), or NULL. */
const char *hr_helper_name(int id);

#endif /* HR_PROGS_PROG_H */
