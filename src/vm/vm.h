/* SPDX-License-Identifier: MIT */
/*
 * The state of one program run, shared by the engines and the helpers.
 *
 * A run may touch: its stack (512 bytes a frame, frames at or above the
 * current one), its context (through the program type's field rules), the
 * packet [pkt_lo, pkt_hi) and the object-wide regions (map values, global
 * data). Everything else ends the run with a counted abort reason.
 */
#ifndef HR_VM_VM_H
#define HR_VM_VM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "vm/isa.h"

struct hr_run;
struct hr_prog;
struct hr_map;
struct hr_rx_hints;
struct hr_xcode;

/* Why a run ended early. Keep hr_abort_str() in step. */
enum hr_abort {
	HR_ABORT_NONE = 0,
	HR_ABORT_OOB_LOAD, /* load outside every region */
	HR_ABORT_OOB_STORE, /* store outside every writable region */
	HR_ABORT_CTX_ACCESS, /* context field the program type forbids */
	HR_ABORT_RDONLY, /* store or atomic on read-only memory */
	HR_ABORT_JUMP, /* jump or fall-through out of the program */
	HR_ABORT_CALL_DEPTH, /* more than HR_MAX_CALL_FRAMES frames */
	HR_ABORT_BUDGET, /* instruction budget exhausted */
	HR_ABORT_BAD_INSN, /* invalid instruction reached */
	HR_ABORT_HELPER_ARG, /* helper given a bad pointer or map */
	HR_ABORT_UNKNOWN_CALL, /* call to an unresolved helper or kfunc */
	HR_ABORT_TAIL_CALL, /* reserved for tail-call faults */
	HR_ABORT_CORE_POISON, /* reached an unresolved CO-RE relocation */
	HR_ABORT_NOMEM, /* the engine could not get memory to run */
	HR_ABORT_LOCK_RECURSION, /* bpf_spin_lock on a lock this run holds */
	HR_ABORT_LOCK_HELD, /* the run ended holding a bpf_spin_lock */
	HR_ABORT_LOCK_CONTENDED, /* bpf_spin_lock not taken within its bound */
	HR_ABORT_MAP_WALK, /* a callback walk kept finding new elements */
	HR_ABORT_JIT_CHECK, /* checked JIT: an access the proof elided failed */
	HR_ABORT_INVARIANT, /* engine state wrong after the run: a bug */
	HR_ABORT_OBJ_LEAK, /* the run ended holding an allocated object */
	HR_ABORT__MAX,
};

const char *hr_abort_str(int reason);

/* The kind of memory access an abort stopped (run->abort_op): what the
 * instruction at abort_pc was, or a helper's access to memory it was
 * passed (hr_run_mem). Keep in step with the public enum hr_access_kind. */
enum hr_mem_op {
	HR_MEM_OP_NONE = 0,
	HR_MEM_OP_LOAD,
	HR_MEM_OP_STORE,
	HR_MEM_OP_ATOMIC,
	HR_MEM_OP_HELPER_READ,
	HR_MEM_OP_HELPER_WRITE,
};

/*
 * Helpers and kfuncs share one calling convention: five BPF argument
 * registers and the run, so that the interpreter and the JIT call the same
 * C function (the JIT passes the run as the sixth argument).
 */
typedef uint64_t (*hr_helper_fn)(uint64_t r1, uint64_t r2, uint64_t r3,
				 uint64_t r4, uint64_t r5, struct hr_run *run);

#define HR_REGION_READ 0x1
#define HR_REGION_WRITE 0x2

/*
 * A block of memory a program may touch. With @stride 0 the whole
 * [start, end) is accessible; otherwise it is an array of elements of
 * @stride bytes of which only [off, off + len) of each may be touched
 * (hash map values inside their elements, say).
 */
struct hr_region {
	uintptr_t start;
	uintptr_t end;
	uint32_t stride;
	uint32_t off;
	uint32_t len;
	uint32_t flags;
	/* The map whose values these are (NULL if none), for messages. */
	const struct hr_map *map;
};

/* A program ready to run: instructions plus their resolved calls. */
struct hr_vm_prog {
	const struct hr_insn *insns;
	uint32_t cnt;
	/* Per instruction: the helper or kfunc a call resolves to, or NULL. */
	hr_helper_fn *calls;
	/* Context rules (the program type's is_valid_access). */
	size_t ctx_size;
	bool (*ctx_access)(const struct hr_prog *prog, int off, int size,
			   bool write);
	const struct hr_prog *prog; /* for ctx_access; may be NULL */
	/* For callx (JMP|CALL|X): the helper a register value names. */
	hr_helper_fn (*helper_by_id)(uint64_t id);
	/* Value r0 takes when a run aborts (XDP_ABORTED, TC_ACT_SHOT ...). */
	uint64_t abort_ret;
	/* The JIT's code for this program, compiled on first use (jit.h);
	 * released with hr_jit_free(). */
	void *jit;
	size_t jit_size;
	/* The JIT refused this program (set once): it runs interpreted. */
	bool jit_refused;
	/* Set with jit: the code may leave for a tail call (hr_jit_run
	 * follows it), and the BPF registers its entry zeroes (bit per
	 * register: those it may read before writing). */
	bool jit_tail;
	uint16_t jit_zero;
	/* Instruction runs the JIT compiled fused (jit_x86.c's fuse()):
	 * for tests, which check the fused code against the interpreter. */
	uint32_t jit_fused;
	/* Offset in jit of the entry that first tests r1 == run->ctx (0
	 * when the code needs no such test); runs on run->ctx itself enter
	 * at jit. */
	uint32_t jit_checked;
	/* The interpreter's prepared code (interp.h), made on first run
	 * and kept here when interp_cache is set (for programs whose
	 * instructions and calls no longer change; released with
	 * hr_interp_free()); otherwise made for each run. */
	struct hr_xcode *xcode;
	bool interp_cache;
	/* The checked JIT's code (HR_ENGINE_JIT_CHECKED: every access the
	 * proofs elide is checked anyway), compiled on first use apart from
	 * jit; released with hr_jit_free(). */
	void *jit_chk;
};

/*
 * The budget counts back-edges (taken jumps to an earlier or the same
 * instruction) and local calls: a run without them ends within cnt
 * instructions, so this bounds every run, and both engines can count it
 * at the same points.
 */
#define HR_DEFAULT_BUDGET (1ull << 24)

/* Ring buffer records one run may hold reserved at once. */
#define HR_MAX_HELD_RECORDS 16

struct hr_run {
	const struct hr_vm_prog *vm;
	void *ctx;
	/* The packet the program may read and write, updated by helpers. */
	uintptr_t pkt_lo;
	uintptr_t pkt_hi;
	/* Object-wide regions: map values, global data. */
	const struct hr_region *regions;
	unsigned int nregions;
	/* Maps the program may pass to helpers (pointer identity check). */
	struct hr_map *const *maps;
	unsigned int nmaps;
	/* Instructions left before the run aborts with HR_ABORT_BUDGET. */
	uint64_t budget;
	/* Worker (CPU) index: selects per-CPU map values. */
	unsigned int cpu;
	/* Filled when a run aborts. */
	enum hr_abort abort;
	uint32_t abort_pc;
	uint64_t abort_addr;
	/* Set with abort only (so the runs that end normally pay nothing):
	 * the access that aborted (enum hr_mem_op, NONE when the abort was
	 * no memory access), its size in bytes and the call depth it ran
	 * at, whose frame is the stack it could reach. */
	uint8_t abort_op;
	uint8_t abort_depth;
	uint32_t abort_size;
	/* Set by a helper that ends the run normally with r0 = its result
	 * (the conformance suite's "unwind" helper). */
	bool unwind;
	/* Callbacks (hr_interp_callback) running now, nested: what the
	 * verifier refuses inside one (bpf_throw) ends the run there. */
	uint8_t in_callback;
	/* A bpf_rbtree_add's less() running now: the verifier refuses the
	 * graph kfuncs and bpf_spin_unlock inside it, which end the run. */
	uint8_t in_rb_less;
	/* The program type's state (xdp_buff, skb ...), for helpers. */
	void *priv;
	/* XDP: the packet's RX hints when its device gives them in the
	 * standard layout (hr_xdp_std_hints), else NULL; the hint kfuncs
	 * answer from it first (set per packet by hr_xdp_ctx_hints). */
	const struct hr_rx_hints *rx_hints;
	/* The HR_RX_HINT_* that *rx_hints has present and supported (0
	 * without it), set with it: the JIT's one test for a 0 answer. */
	uint8_t rx_hints_ok;
	/*
	 * Set (to 1) when the run may have changed its packet's bytes: by
	 * the JIT's code before each instruction that may write them
	 * (jb_insn_pkt_ro), by the interpreter when it starts, as it does
	 * not tell. A caller that cleared it and finds it clear after the
	 * run knows the packet is as it gave it (rx.c). hr_run_init sets it.
	 */
	uint8_t pkt_dirty;
	/* Engine position: current call depth (0 = main) and instruction,
	 * kept up to date at calls so aborts name the instruction. */
	unsigned int depth;
	uint32_t pc;
	/* Set by bpf_tail_call: the engine continues in this program, in
	 * the current frame, when the helper returns. */
	const struct hr_vm_prog *tail_call;
	uint32_t tail_call_cnt;
	/* The bpf_spin_lock this run holds, or NULL (the verifier allows
	 * one at a time): released when the run ends. */
	uint32_t *lock;
	/* Ring buffer records this run reserved and has not submitted or
	 * discarded: the only ring bytes it may touch (the headers and
	 * other records never); discarded when the run ends. Kernel
	 * objects a kfunc handed out with a reference (a conntrack entry)
	 * are held here too, with @drop letting go of @obj at the end and
	 * @kind its owner's word for what the object is; when @wr_hi is
	 * set, only [wr_lo, wr_hi) of it may be written (the fields the
	 * kernel's verifier lets a program write). With @leak the verifier
	 * refuses a program that can end holding it (an object of
	 * bpf_obj_new): a run that does ends with HR_ABORT_OBJ_LEAK. */
	unsigned int nheld;
	struct hr_held_rec {
		uintptr_t start, end;
		struct hr_map *map;
		void (*drop)(void *obj);
		void *obj;
		unsigned int kind;
		uintptr_t wr_lo, wr_hi;
		bool leak;
	} held[HR_MAX_HELD_RECORDS];
	/* The JIT's r0..r10 when its code leaves for a tail call. */
	uint64_t tail_regs[HR_NREGS];
	/* The JIT's host stack pointer just below its entry frame, saved by
	 * the prologue: aborts unwind to it (never recomputed from depth). */
	uintptr_t jit_sp;
	/* The running engine's way to call a BPF function of this program
	 * (bpf_loop and other callbacks): instruction index @pc, args in
	 * r1..r5, one frame deeper. Returns r0; check run->abort after.
	 * However it ends (an abort frames below included) depth, vm, pc,
	 * regions and tail_call are as they were at the call. */
	uint64_t (*callback)(struct hr_run *run, uint32_t pc,
			     const uint64_t args[5]);
	/* Stack of HR_MAX_CALL_FRAMES * HR_STACK_SIZE bytes, 16-aligned. */
	uint8_t stack[HR_MAX_CALL_FRAMES * HR_STACK_SIZE]
		__attribute__((aligned(16)));
};

/* Prepares @run for @vm with @ctx; everything else zero / defaults. */
void hr_run_init(struct hr_run *run, const struct hr_vm_prog *vm, void *ctx);

/*
 * Runs @vm under the interpreter with r1 = @r1, r2 = @r2. Returns r0, or
 * vm->abort_ret with run->abort set when the run is stopped.
 */
uint64_t hr_interp_run(struct hr_run *run, uint64_t r1, uint64_t r2);

/*
 * Continues a run at depth 0 under the interpreter at pc 0 of run->vm with
 * registers @regs (r0..r10): the rest of a tail call the JIT began.
 */
uint64_t hr_interp_resume(struct hr_run *run, const uint64_t regs[HR_NREGS]);

/* Releases the interpreter's prepared code kept on @vm (vm->xcode). */
void hr_interp_free(struct hr_vm_prog *vm);

/* The interpreter's run->callback: runs the function at @pc of run->vm one
 * frame deeper (the JIT uses it too, so callbacks run interpreted). */
uint64_t hr_interp_callback(struct hr_run *run, uint32_t pc,
			    const uint64_t args[5]);

/*
 * For helpers: checks that [addr, addr + len) lies inside one region this
 * run may read (or write, with @write). Returns the pointer, or NULL after
 * recording HR_ABORT_HELPER_ARG; the helper then returns at once.
 */
void *hr_run_mem(struct hr_run *run, uint64_t addr, uint64_t len, bool write);

/* For helpers: the map @ptr names, or NULL after HR_ABORT_HELPER_ARG. */
struct hr_map *hr_run_map(struct hr_run *run, uint64_t ptr);

/* MAX_TAIL_CALL_CNT: the 34th tail call of a run falls through. */
#define HR_MAX_TAIL_CALLS 33

/* Records an abort (first reason wins). */
void hr_run_abort(struct hr_run *run, enum hr_abort reason, uint64_t addr);

/* The run's own regions, while a helper lends it more (below). */
struct hr_run_regions {
	const struct hr_region *regions;
	unsigned int nregions;
	struct hr_region *copy;
};

/*
 * For helpers whose callbacks reach memory of the helper's own (a map
 * walk's key, a drained sample): the run's regions become a copy of them
 * with @n more after, zeroed, which the helper fills and may change
 * between calls; returns those @n, or NULL when out of memory.
 * hr_run_regions_pop() puts the run's own back.
 */
struct hr_region *hr_run_regions_push(struct hr_run *run, unsigned int n,
				      struct hr_run_regions *save);
void hr_run_regions_pop(struct hr_run *run, struct hr_run_regions *save);

/*
 * For helpers that call back into the program (bpf_loop,
 * bpf_for_each_map_elem ...): each call costs one unit of budget, as a
 * local call does, so nested loops end. False after recording the abort.
 */
static inline bool hr_run_charge_callback(struct hr_run *run, uint32_t pc)
{
	if (run->budget == 0) {
		hr_run_abort(run, HR_ABORT_BUDGET, pc);
		return false;
	}
	run->budget--;
	return true;
}

/* Called as every run ends while it holds a bpf_spin_lock or ring buffer
 * records: releases the lock and discards the records, so neither the
 * lock nor the ring is blocked for later runs. A run holding the lock
 * that was not already stopped ends with HR_ABORT_LOCK_HELD (the
 * verifier refuses it: "bpf_spin_unlock is missing"); one holding an
 * allocated object, freed here, with HR_ABORT_OBJ_LEAK ("Unreleased
 * reference"). */
uint64_t hr_run_release_locks(struct hr_run *run, uint64_t r0);

#endif /* HR_VM_VM_H */
