/* SPDX-License-Identifier: MIT */
/*
 * The load-time bounds analysis (bounds.c) that both engines ask which
 * run-time checks they may leave out: the JIT (jit_x86.c) and the
 * interpreter's preparation (interp_prep.c).
 */
#ifndef HR_VM_BOUNDS_H
#define HR_VM_BOUNDS_H

#include <stdbool.h>
#include <stdint.h>

#include "vm/vm.h"

/* What a register is known to hold at an instruction boundary. */
enum jb_type {
	JB_SCALAR, /* a number in [a, b] (unsigned); [0, ~0] is "unknown" */
	JB_CTX, /* run->ctx (the r1 the main program was entered with) */
	JB_PKT, /* ctx->data + v + k, k in [(int64_t)a, (int64_t)b], v the
		 * variable part named by id (0: none, v = 0) */
	JB_PKT_END, /* ctx->data_end */
	JB_META, /* ctx->data_meta + k, k in [(int64_t)a, (int64_t)b] */
	JB_FP, /* this frame's r10 + (int64_t)a */
	JB_MAP, /* the map pointer a, from an ld_imm64 of a map */
	/* A map value from bpf_map_lookup_elem at pc b - 1, + (int64_t)a:
	 * id is the value size, with JB_VALUE_RW set when programs may
	 * write it. */
	JB_VALUE_OR_NULL, /* before its NULL test */
	JB_VALUE, /* after it: not NULL */
};

#define JB_VALUE_RW (1u << 31)
/* A JB_VALUE of a frozen read-only global (.rodata after load): b is its
 * value's address, and the bytes there never change. */
#define JB_VALUE_CONST (1u << 30)
#define JB_VALUE_SIZE(id) ((id) & ~(JB_VALUE_RW | JB_VALUE_CONST))

struct jb_reg {
	uint8_t t;
	uint32_t id;
	uint64_t a, b;
};

struct jb_store;

struct jb_facts {
	/* What the analysis found (bounds.c); NULL: nothing, so nothing is
	 * proven. Queries replay from it and are not thread-safe on one
	 * jb_facts. */
	struct jb_store *store;
	uint32_t cnt;
	/* Some fact rests on r1 == run->ctx at entry: the code checks it. */
	bool ctx_used;
};

/*
 * Runs the analysis over @vm. @fp_fixed: no instruction writes r10.
 * Never fails in a way that matters: without memory, for a program over
 * the kernel's 1M instructions, or past its step cap, f->store stays NULL
 * and nothing is elided. Time and memory close to linear in @vm->cnt
 * (the bound is at the top of bounds.c).
 */
void jb_analyze(const struct hr_vm_prog *vm, bool fp_fixed, struct jb_facts *f);
void jb_free(struct jb_facts *f);

/* Whether no instruction of @vm can write r10. */
bool jb_fp_fixed(const struct hr_vm_prog *vm);

/* The state of @reg entering @pc, or NULL when nothing is known; valid
 * until the next query on @f. */
const struct jb_reg *jb_reg_at(const struct jb_facts *f, uint32_t pc, int reg);

/* The value a load of @size bytes at @b + @off gives when @b points into
 * a frozen read-only global: true with *@v. */
bool jb_const_value(const struct jb_reg *b, int off, int size, uint64_t *v);

/* Whether [breg + off, + size) at @pc is inside [data, data_end). */
bool jb_pkt_safe(const struct jb_facts *f, uint32_t pc, int breg, int off,
		 int size);

/*
 * Whether instruction @insn at @pc cannot change a packet byte: a store
 * proven to land in its frame's stack or a writable map value, a call
 * of a helper that writes no memory it is handed and moves no packet
 * bound, a local call (its body is other instructions), or no store or
 * call at all. With no facts, every store and call may write.
 */
bool jb_insn_pkt_ro(const struct jb_facts *f, const struct hr_insn *insn,
		    uint32_t pc);

/* Whether [breg + off, + size) at @pc is inside a map value (and the
 * program may write it, with @write). */
bool jb_value_safe(const struct jb_facts *f, uint32_t pc, int breg, int off,
		   int size, bool write);

/* The map of @vm's own object at address @ptr (an ld_imm64 of a map
 * that every run of the program is given, so helpers accept it), or
 * NULL. */
struct hr_map *jb_own_map(const struct hr_vm_prog *vm, uint64_t ptr);

/* Whether the program type's rule allows [off, off + size) of the
 * context (a function of the program and the access only). */
bool jb_ctx_field_ok(const struct hr_vm_prog *vm, int off, int size,
		     bool write);

/* Whether [r10 + off, + size) is inside the current frame, for an r10 no
 * instruction writes (@fp_fixed): constant stack accesses need no proof. */
static inline bool jb_frame_access(bool fp_fixed, int breg, int off, int size)
{
	return fp_fixed && breg == 10 && off >= -HR_STACK_SIZE &&
	       off + size <= 0;
}

/*
 * Whether the analysis proves [breg + off, + size) at @pc allowed: inside
 * the packet, inside a map value (writable, with @write), or an allowed
 * context field through the entry r1. Rests on r1 == run->ctx at entry.
 */
bool jb_access_proven(const struct jb_facts *f, const struct hr_vm_prog *vm,
		      uint32_t pc, int breg, int off, int size, bool write);

/* Whether @breg at @pc is run->ctx. */
bool jb_is_ctx(const struct jb_facts *f, uint32_t pc, int breg);

/* Whether @reg at @pc is this frame's r10 + off with [off, off + len)
 * inside the frame; *off receives it. */
bool jb_fp_arg(const struct jb_facts *f, uint32_t pc, int reg, int len,
	       int32_t *off);

#endif /* HR_VM_BOUNDS_H */
