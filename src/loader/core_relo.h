/* SPDX-License-Identifier: MIT */
/*
 * CO-RE: the .BTF.ext relocation records of an object (btf_ext.c) and
 * their resolution against a target BTF (core_relo.c), with libbpf's
 * semantics: candidates by essential name, access strings walked through
 * structs, unions and arrays, unresolvable relocations poisoned.
 */
#ifndef HR_LOADER_CORE_RELO_H
#define HR_LOADER_CORE_RELO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "vm/vm.h"

struct btf;
struct hr_insn;

/* enum bpf_core_relo_kind */
enum hr_core_kind {
	HR_CORE_FIELD_BYTE_OFFSET = 0,
	HR_CORE_FIELD_BYTE_SIZE = 1,
	HR_CORE_FIELD_EXISTS = 2,
	HR_CORE_FIELD_SIGNED = 3,
	HR_CORE_FIELD_LSHIFT_U64 = 4,
	HR_CORE_FIELD_RSHIFT_U64 = 5,
	HR_CORE_TYPE_ID_LOCAL = 6,
	HR_CORE_TYPE_ID_TARGET = 7,
	HR_CORE_TYPE_EXISTS = 8,
	HR_CORE_TYPE_SIZE = 9,
	HR_CORE_ENUMVAL_EXISTS = 10,
	HR_CORE_ENUMVAL_VALUE = 11,
	HR_CORE_TYPE_MATCHES = 12,
	HR_CORE__MAX,
};

/* One struct bpf_core_relo, with its section named. */
struct hr_core_rec {
	const char *sec;
	uint32_t insn; /* instruction index inside @sec */
	uint32_t type_id; /* local BTF root type */
	const char *access; /* "0:1:2" */
	uint32_t kind;
};

/*
 * Reads the core_relo subsection of .BTF.ext (@data, @size) into a new
 * array; names resolve through @btf. 0 (with *n 0 when there is none) or
 * -errno with @why filled.
 */
int hr_btf_ext_core_recs(const uint8_t *data, size_t size,
			 const struct btf *btf, struct hr_core_rec **recs,
			 size_t *n, char *why, size_t whysz);

/* A relocation's outcome, ready to patch an instruction. */
struct hr_core_res {
	uint32_t sec; /* section index */
	uint32_t insn;
	uint32_t kind;
	bool poison; /* unresolvable: the instruction aborts the run */
	bool validate; /* check the instruction holds @orig first */
	bool fail_memsz; /* a load/store size that cannot be adjusted */
	uint64_t orig, val;
	uint32_t orig_sz, new_sz; /* field sizes, for loads and stores */
	char desc[192]; /* "byte_off struct iphdr.ihl (0:0)" */
	int32_t poison_id; /* hr_core_poison_id(), once registered */
	bool applied; /* patched into some program */
};

/* "byte_off", "exists" ...: libbpf's short kind names. */
const char *hr_core_kind_str(uint32_t kind);

/*
 * Resolves @rec of @local against @targ into @res (rec->sec is not
 * looked up: res->sec is left to the caller). 0, or -errno with @why
 * filled for a relocation libbpf would refuse (bad access string,
 * ambiguous candidates).
 */
int hr_core_resolve(const struct btf *local, const struct btf *targ,
		    const struct hr_core_rec *rec, struct hr_core_res *res,
		    char *why, size_t whysz);

/*
 * Patches instruction @insn (two slots for ld_imm64; @room slots are
 * left) with @res. Returns 0, 1 when the instruction must be poisoned
 * instead, or -errno with @why filled.
 */
int hr_core_patch(struct hr_insn *insn, uint32_t room,
		  const struct hr_core_res *res, char *why, size_t whysz);

/*
 * Poisoned instructions become kfunc calls of hr_core_poison_fn with imm
 * hr_core_poison_id(res): reaching one aborts the run with
 * HR_ABORT_CORE_POISON (abort_addr = the id) and prints the relocation
 * once to stderr. hr_core_poison_desc() names it again.
 */
int32_t hr_core_poison_id(const struct hr_core_res *res);
const char *hr_core_poison_desc(uint64_t id);
uint64_t hr_core_poison_fn(uint64_t r1, uint64_t r2, uint64_t r3, uint64_t r4,
			   uint64_t r5, struct hr_run *run);

/*
 * The target BTF for @path (see hr_object_open_opts.btf_path); shared
 * and cached (never free it). NULL with @why filled on failure.
 */
const struct btf *hr_core_target_btf(const char *path, char *why, size_t whysz);

/* headroom's own BTF of the UAPI structs it implements (uapi_btf.c). */
struct btf *hr_uapi_btf_new(void);

#endif /* HR_LOADER_CORE_RELO_H */
