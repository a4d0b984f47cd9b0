/* SPDX-License-Identifier: MIT */
/*
 * The x86-64 JIT's state while it compiles a program and the functions its
 * parts give each other (jit_x86.c and the jit_x86_*.c beside it). Internal
 * to the vm layer.
 */
#ifndef HR_VM_JIT_X86_H
#define HR_VM_JIT_X86_H

#include <stdbool.h>
#include <stdint.h>

#include "vm/engine.h"
#include "vm/jit.h"
#include "vm/bounds.h"
#include "vm/mem.h"

#if defined(__x86_64__)

/* x86 register numbers. */
enum {
	RAX = 0,
	RCX = 1,
	RDX = 2,
	RBX = 3,
	RSP = 4,
	RBP = 5,
	RSI = 6,
	RDI = 7,
	R8 = 8,
	R9 = 9,
	R10 = 10,
	R11 = 11,
	R12 = 12,
	R13 = 13,
	R14 = 14,
	R15 = 15,
};

#define RUN R12
#define ADDR R11 /* effective address of a memory access */
#define TMP R10
#define TMP2 R9

static const uint8_t bpf2x[HR_NREGS] = { RAX, RDI, RSI, RDX, RCX, R8,
					 RBX, R13, R14, R15, RBP };

/* Condition codes (the low nibble of jcc). */
enum {
	CC_B = 0x2,
	CC_AE = 0x3,
	CC_E = 0x4,
	CC_NE = 0x5,
	CC_BE = 0x6,
	CC_A = 0x7,
	CC_L = 0xc,
	CC_GE = 0xd,
	CC_LE = 0xe,
	CC_G = 0xf,
};

#define OFF_PKT_LO ((int32_t)offsetof(struct hr_run, pkt_lo))
#define OFF_PKT_HI ((int32_t)offsetof(struct hr_run, pkt_hi))
#define OFF_BUDGET ((int32_t)offsetof(struct hr_run, budget))
#define OFF_ABORT ((int32_t)offsetof(struct hr_run, abort))
#define OFF_UNWIND ((int32_t)offsetof(struct hr_run, unwind))
#define OFF_DEPTH ((int32_t)offsetof(struct hr_run, depth))
#define OFF_PC ((int32_t)offsetof(struct hr_run, pc))
#define OFF_CTX ((int32_t)offsetof(struct hr_run, ctx))
#define OFF_CPU ((int32_t)offsetof(struct hr_run, cpu))
#define OFF_PRIV ((int32_t)offsetof(struct hr_run, priv))
#define OFF_RX_HINTS ((int32_t)offsetof(struct hr_run, rx_hints))
#define OFF_RX_HINTS_OK ((int32_t)offsetof(struct hr_run, rx_hints_ok))
#define OFF_PKT_DIRTY ((int32_t)offsetof(struct hr_run, pkt_dirty))
#define OFF_TAIL_CALL ((int32_t)offsetof(struct hr_run, tail_call))
#define OFF_TAIL_REGS ((int32_t)offsetof(struct hr_run, tail_regs))
#define OFF_CALLBACK ((int32_t)offsetof(struct hr_run, callback))
#define OFF_JIT_SP ((int32_t)offsetof(struct hr_run, jit_sp))
#define OFF_STACK_HI                                \
	((int32_t)(offsetof(struct hr_run, stack) + \
		   sizeof(((struct hr_run *)0)->stack)))

/* pc, write and size of a slow-path check, packed into one immediate. */
#define MAX_JIT_INSNS (1u << 26)

typedef hr_jit_fn jit_fn;

/* Two sections: hot code in order, cold stubs after it. */
struct buf {
	uint8_t *p;
	size_t len, cap;
};

struct label {
	int8_t sec; /* -1 while unbound */
	uint32_t off;
};

struct fixup {
	uint8_t sec;
	uint8_t size; /* 4: rel32, 1: rel8 */
	uint32_t pos; /* of the rel field */
	uint32_t label;
	int32_t site; /* jump site (jx_jmp_to / jx_jcc_to), -1 for calls */
};

struct jit {
	const struct hr_vm_prog *vm;
	struct buf sec[2];
	int cur;
	struct label *labels;
	uint32_t nlabels, caplabels;
	struct fixup *fix;
	uint32_t nfix, capfix;
	bool nomem;
	bool fp_fixed; /* no instruction writes r10 */
	bool *target; /* per pc: some jump or call lands here */
	/* Short jumps: the first pass emits every jump with rel32 and marks
	 * the sites whose distance fits rel8; the second uses rel8 there.
	 * Code only shrinks between passes, so distances only shrink. */
	uint8_t *short_ok;
	uint32_t nsites, capsites;
	bool final_pass;
	struct jb_facts facts; /* the bounds analysis (bounds.c) */
	/* Per pc, the BPF registers some path from it may read before
	 * writing (liveness, jx_live_regs()); NULL: unknown (all). */
	uint16_t *live;
	bool dce; /* no bpf-to-bpf calls: dead ALU results may be skipped */
	/* The jx_plan (jx_plan()): what the program needs from the prologue. */
	bool need_run; /* RUN (r12) holds the run */
	bool need_fp; /* RBP holds r10 */
	bool local_calls; /* some bpf-to-bpf call: exits check the depth */
	bool ctx_guard; /* the entry checks r1 == run->ctx */
	/* run->pkt_dirty is already set on the jx_straight line being
	 * emitted: nothing clears it during a run, so a second mark before
	 * the next jump target would change nothing. */
	bool dirty_marked;
	/* The run is needed only to mark it dirty: nothing can abort or
	 * call, so rsp never leaves the entry frame and run->jit_sp and
	 * run->depth need not be set (jx_plan()). */
	bool need_dirty, light;
	uint32_t nfused; /* jx_fuse() runs, on the last pass */
	bool calls_out; /* some helper, kfunc or callx call */
	bool calls_cb; /* ... that may run a callback (run->callback) */
	/* Tail calls are followed: no bpf-to-bpf calls (so always depth 0)
	 * and some call that may be bpf_tail_call. */
	bool tail;
	uint16_t saved; /* callee-saved host registers pushed (bit per reg) */
	uint16_t zero; /* BPF registers the prologue zeroes */
	/* Bytes below the pushes: with the run, the canary slot (the
	 * highest) and what aligns rsp to 16; rsp is then run->jit_sp. */
	int pad;
	uint64_t canary; /* the value of the canary slot */
	uint32_t l_abort_exit, l_epilogue, l_unwind_exit, l_slow, l_slow_fail;
	uint32_t l_fall_off, l_tail_exit, l_frame_bad, l_popped;
	uint32_t l_checked; /* the entry that tests r1 == run->ctx */
	/* Checked mode (HR_ENGINE_JIT_CHECKED): nothing is elided; accesses
	 * the proofs or the stack rule would leave unchecked, and the facts
	 * inlined calls use, are checked, failing with HR_ABORT_JIT_CHECK. */
	bool chk;
	/* The canary and the exits' frame check (invariants on, or chk). */
	bool frame_check;
};

/* jit_x86.c */
void hr_jit_abort(struct hr_run *run, uint32_t pc, uint32_t reason,
		  uint64_t addr);
hr_helper_fn hr_jit_callx_lookup(struct hr_run *run, uint64_t id);
/* What a hint kfunc call reads and writes, when it is one. */
struct hint_call {
	int len; /* bytes of each value */
	bool two; /* a second value (r3) */
	int32_t opoff; /* its op in struct hr_xdp_metadata_ops */
	unsigned int bit; /* HR_RX_HINT_* */
	int32_t src2, src3; /* the values in struct hr_rx_hints */
	int32_t o2, o3; /* the out slots: r10 + o */
};

/* The callee-saved registers the prologue may push, in its order. */
static const int8_t saved_order[] = { RBP, RBX, R12, R13, R14, R15 };

/* The slow check's immediate: pc, then whether the access was proven
 * (checked mode), write and size. */
#define SLOW_PROVEN 32
#define SLOW_WRITE 16
#define SLOW_PC_SHIFT 6

/* Test-only: hr_jit_test_wrong_proofs() (jit_x86.c). */
extern bool jx_wrong_proofs;

/* jit_x86_alu.c */
void jx_emit_alu(struct jit *j, uint32_t pc, const struct hr_insn *insn);
/* jit_x86_call.c */
void jx_budget_step(struct jit *j, uint32_t pc);
void jx_chk_call_facts(struct jit *j, uint32_t pc);
bool jx_const_r2(const struct jit *j, uint32_t pc, uint64_t *v);
void jx_emit_call(struct jit *j, uint32_t pc, const struct hr_insn *insn);
void jx_emit_exit(struct jit *j);
void jx_emit_frame_check(struct jit *j);
void jx_emit_pop_return(struct jit *j);
void jx_emit_ret(struct jit *j);
bool jx_hint_call(const struct jit *j, uint32_t pc, struct hint_call *h);
/* jit_x86_emit.c */
void jx_alu_mi(struct jit *j, bool w, int digit, int base, int32_t disp,
	       int32_t imm);
void jx_alu_ri(struct jit *j, bool w, int digit, int dst, int32_t imm);
void jx_bind(struct jit *j, uint32_t l);
void jx_call_abs(struct jit *j, const void *fn);
void jx_call_abs_jmp(struct jit *j, const void *fn);
void jx_call_to(struct jit *j, uint32_t l);
void jx_emit1(struct jit *j, uint8_t v);
void jx_emit4(struct jit *j, uint32_t v);
bool jx_is_imm8(int64_t v);
bool jx_is_simm32(int64_t v);
void jx_jcc_to(struct jit *j, int cc, uint32_t l);
void jx_jmp_to(struct jit *j, uint32_t l);
void jx_lea(struct jit *j, int dst, int base, int32_t disp);
void jx_mov_ri(struct jit *j, int dst, uint64_t v);
void jx_mov_rr(struct jit *j, bool w, int dst, int src);
uint32_t jx_new_label(struct jit *j);
void jx_op_rm(struct jit *j, bool w, bool force, uint32_t opc, int n, int reg,
	      int base, int32_t disp);
void jx_op_rr(struct jit *j, bool w, bool force, uint32_t opc, int n, int reg,
	      int rm);
void jx_pop(struct jit *j, int r);
void jx_push(struct jit *j, int r);
void jx_rex(struct jit *j, bool w, int reg, int rm, bool force);
/* jit_x86_jmp.c */
void jx_emit_insn(struct jit *j, uint32_t pc);
void jx_emit_jmp(struct jit *j, uint32_t pc, const struct hr_insn *insn);
int jx_jump_cc(uint8_t op);
/* jit_x86_mem.c */
uint32_t jx_abort_stub(struct jit *j, uint32_t pc, enum hr_abort reason,
		       bool addr_reg, uint64_t addr);
bool jx_by_facts(struct jit *j, uint32_t pc, int breg, int16_t off, int size,
		 bool write);
bool jx_check_elided(struct jit *j, uint32_t pc, int breg, int16_t off,
		     int size, bool write, bool atomic);
void jx_emit_ldx(struct jit *j, uint32_t pc, const struct hr_insn *insn);
void jx_emit_load(struct jit *j, int size, bool sx, int dst, int base,
		  int32_t disp);
void jx_emit_st(struct jit *j, uint32_t pc, const struct hr_insn *insn);
uint32_t jx_target_label(struct jit *j, uint32_t t);
/* jit_x86_plan.c */
uint16_t jx_call_reads(const struct jit *j, uint32_t pc);
bool jx_dead_alu(const struct jit *j, uint32_t pc);
bool jx_dead_lddw(const struct jit *j, uint32_t pc);
int jx_find_targets(struct jit *j);
uint32_t jx_fuse(struct jit *j, uint32_t pc);
uint16_t jx_insn_reads(const struct hr_insn *insn);
void jx_live_regs(struct jit *j);
void jx_plan(struct jit *j);
bool jx_straight(const struct jit *j, uint32_t pc, uint32_t n);

#endif /* __x86_64__ */
#endif /* HR_VM_JIT_X86_H */
