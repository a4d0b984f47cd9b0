// SPDX-License-Identifier: MIT
/*
 * The x86-64 JIT: every instruction the interpreter (interp.c) runs, with
 * the same results, the same memory effects and the same abort reason, pc
 * and address.
 *
 * Registers: r0 rax, r1 rdi, r2 rsi, r3 rdx, r4 rcx, r5 r8 (so r1-r5 are
 * already the C argument registers of a helper call), r6 rbx, r7 r13,
 * r8 r14, r9 r15, r10 rbp. r12 holds the struct hr_run; r11, r10 and r9
 * are scratch (r9 is the helper's sixth argument, the run).
 *
 * The prologue pushes only the callee-saved registers the code uses (rbp
 * when r10 is used or a check needs it, r12 when any code needs the run,
 * rbx/r13-r15 when r6-r9 are named) and zeroes only the registers some
 * path may read before writing (backward liveness; the interpreter starts
 * them at 0). Code that needs the run (it may call out or abort) then
 * pushes a canary (random per program) when the engine invariants are on
 * (hr_engine_invariants() at compile time) or in checked mode, aligns rsp
 * to 16 and saves that rsp in run->jit_sp: the entry frame. The x86 stack holds, below it, one
 * 48-byte record per active bpf-to-bpf call (saved r6-r9, r10 and the
 * return address), so rsp stays 16-byte aligned at every instruction
 * boundary. Aborts and unwinds drop every record by loading rsp from
 * run->jit_sp (and set run->depth to 0): never from run->depth, which
 * callbacks and helpers share and which a callback's abort once left at
 * the wrong value. With the canary, every exit checks rsp == run->jit_sp
 * and the canary: a wrong rsp ends the run with HR_ABORT_INVARIANT after
 * restoring it; a smashed canary (the saved registers and the return
 * address are not to be trusted) stops the process. A program without
 * bpf-to-bpf calls returns inline at each exit. Nothing enters JIT code
 * on a run whose JIT code is active (callbacks run interpreted, tail calls
 * are followed after the code returned), so one saved rsp a run is
 * enough. Jumps are rel8 where a first pass showed they fit (the second
 * pass only shrinks code).
 *
 * Checks, and the only ones left out:
 *
 *  - Every load, store and atomic is checked unless listed below. Inline:
 *    the packet range [pkt_lo, pkt_hi), re-read from the run at every
 *    access because helpers move it; out of line: the current frame's
 *    stack range, then a call into hr_jit_mem_slow(), which is
 *    hr_mem_check() (stack, packet, context field rules, regions, in the
 *    interpreter's order) and aborts with its reason. An access the fast
 *    paths accept is one that hr_mem_check() accepts by its first two
 *    rules, so the answer is the same.
 *
 *  - Elided, stack: a non-atomic access through r10 with a constant
 *    offset in [-512, -size], when no instruction of the program can
 *    write r10 (checked here at compile time, not assumed from the
 *    validator). Then r10 is always stack_hi - 512 * depth, exactly as in
 *    the interpreter (calls subtract 512, exits restore it), and
 *    [r10 - 512, r10) is the current frame, inside
 *    [hr_stack_lo(run, depth), stack_hi), which hr_mem_check() accepts by
 *    its first rule.
 *
 *  - Elided, packet (bounds.c): a non-atomic access whose base
 *    register the load-time analysis proves to be ctx->data + v + k
 *    (k in a constant range, v a variable offset >= 0 or none) on every
 *    path to it, where a dominating unsigned comparison with
 *    ctx->data_end proved data + v + R <= data_end (or data + R), and
 *    0 <= k_lo + off, k_hi + off + size <= R. It holds because: (1) the
 *    code is entered only with r1 == run->ctx != NULL: every entry but
 *    one is an out-of-line test of it (else the interpreter runs this
 *    call), tail calls included; the one, the start of the code, is used
 *    only by hr_jit_run_ctx() (r1 := run->ctx, not NULL) and by
 *    hr_jit_entry()'s callers (bound to pass run->ctx); and only for the XDP and
 *    tc program types, whose contexts hold data / data_end as 32-bit
 *    real addresses that the program type keeps inside [pkt_lo, pkt_hi]
 *    (data_meta <= data <= data_end, hr_xdp_ctx_sync / hr_tc_ctx_sync);
 *    (2) the program can never write those fields (every size and
 *    offset overlapping them is refused by the field rule, checked at
 *    compile time); (3) every call (helper, kfunc, callx, bpf-to-bpf)
 *    forgets all packet pointers and proofs, since a helper may move the
 *    packet, except calls that resolve to a helper or kfunc known (by its
 *    C function) never to move the packet nor to run program code
 *    (bounds.c keeps_packet(): map lookups and updates, clocks,
 *    redirects, the RX hint kfuncs ...); (4) joins keep only what all
 *    paths agree on, and a variable
 *    offset re-created by a later run of its instruction forgets the old
 *    one. So [addr, addr + size) is inside [data, data_end], inside
 *    [pkt_lo, pkt_hi], which hr_mem_check() accepts by its stack or
 *    packet rule: the same answer. An access one byte past what the
 *    comparison covers is not proven and keeps its check.
 *
 *  - Elided, map value (bounds.c): a non-atomic access through a
 *    register proven to hold bpf_map_lookup_elem's result plus a constant
 *    c, after a test that it is not NULL, for a map of the program's own
 *    object of a type whose values lie in the map's regions (array, hash,
 *    LRU hash and their per-CPU forms), with [c + off, + size) inside
 *    value_size, and for a store only when the map is writable by
 *    programs (no BPF_F_RDONLY_PROG). The helper checks the map at run
 *    time and returns NULL or a value of that map, whose value_size bytes
 *    are in a region with the map's flags, so hr_mem_check() accepts the
 *    access by its region rule: the same answer.
 *
 *  - Elided, context: an access at a constant offset and size that the
 *    program type's rule (vm->ctx_access, a function of the program and
 *    the access only) allows, through a register the analysis proves is
 *    the entry r1 (= run->ctx by the entry check). Other sites whose
 *    offset and size make an allowed field first test base == run->ctx
 *    (and ctx != NULL) at run time; then the access is ctx + off, inside
 *    the context and allowed, which hr_mem_check() also accepts. Any
 *    other context access goes to the slow call and its field rule.
 *
 *  - The stack fast path uses lo = r10 - 512 under the same condition
 *    (r10 never written); otherwise stack accesses take the slow call.
 *
 *  - Atomics are always checked, and also check natural alignment
 *    (HR_ABORT_OOB_STORE) after the range check, as the interpreter does.
 *
 *  - Jumps: targets are known at compile time; one outside the program
 *    goes to a stub that aborts with HR_ABORT_JUMP at the target, as the
 *    interpreter's loop-top check does, after the same budget step.
 *    Falling off the end is the same stub at pc = cnt.
 *
 *  - The budget is decremented on every taken jump with a negative delta
 *    and on every local call, aborting when it was 0 (sub; jb), and call
 *    depth is checked before it, in the interpreter's order.
 *
 * Inlined calls (no C call for the helper itself):
 *
 *  - bpf_map_lookup_elem on a BPF_MAP_TYPE_ARRAY whose map is an
 *    ld_imm64 constant of the program's own object (so hr_run_map()
 *    accepts it: every run of a program gets its object's maps) and whose
 *    key pointer is proven this frame's r10 + c with [c, c + 4) in the
 *    frame (so hr_run_mem() accepts it): key < max_entries ? base +
 *    key * slot : NULL, with base and slot asked of the map once.
 *  - bpf_xdp_metadata_rx_hash / _rx_timestamp / _rx_vlan_tag with their
 *    out pointers proven this frame's r10 + c, the slots in the frame
 *    (so hr_run_mem() accepts them, as the kfunc's first step does), r10
 *    never written: the kfunc's steps (kfuncs_xdp.c) in its order, with
 *    the slots as constant offsets from rbp, so no BPF register is read.
 *    Hot, with no call: when run->rx_hints_ok has the hint's bit, the
 *    kfunc, which answers from run->rx_hints first, finds the bit
 *    supported and present there (hr_xdp_ctx_hints() sets both fields
 *    from the same struct hr_rx_hints, which does not change during the
 *    run; hr_run_init() clears both) and answers 0 with the values: so
 *    they are moved straight from rx_hints to the slots (first value,
 *    then second, as one move when both sides are adjacent: the same
 *    bytes) and eax = 0. Cold, the rest of the kfunc: rx_hints not NULL:
 *    -EOPNOTSUPP without the supported bit, -ENODATA without the present
 *    bit, else the values and 0; NULL: -EOPNOTSUPP without priv, buff,
 *    rxq, ops or that op, else the device's op called directly into
 *    scratch and the values copied out only on 0.
 *  - bpf_xdp_adjust_meta (the helper's C is only
 *    hr_xdp_adjust_meta(run->priv's buff, (int)r2) and, on 0,
 *    hr_xdp_ctx_sync()): when run->priv and its buff are set, each step
 *    inline on the same values: data_meta > data (unsigned): -ENOTSUPP;
 *    meta = data_meta + (int)r2 (64-bit signed, r2 an immediate when the
 *    analysis knows it) below data_hard_start + 40 or above data:
 *    -EINVAL; data - meta not a multiple of 4 or above 252: -EACCES;
 *    else xdp->data_meta = meta and what hr_xdp_ctx_sync() stores: the
 *    context's data, data_end and data_meta (32 bits), run->pkt_lo = meta
 *    (supported, as meta <= data) and pkt_hi = data_end; rax = 0. Only
 *    rax and scratch registers change, and the helper never aborts,
 *    unwinds or tail-calls, so the after-call tests have nothing to see;
 *    without priv or buff the C helper is called (r2 set first when it
 *    was known). The bounds analysis forgets packet pointers and proofs
 *    after it, as after any call that may move the packet.
 *  Elsewhere these calls go to the C functions as every other call does.
 *
 * Dead results (live_regs()): in a program without bpf-to-bpf calls, a
 * valid ALU instruction or ld_imm64 whose destination no path reads
 * before writing it is not emitted. They touch no memory and cannot
 * abort; registers are no part of a run's result except r0 at an exit
 * (an exit reads r0, a call that may be bpf_tail_call or a callx every
 * register, a helper call r1..r5, so liveness keeps what those see).
 * Inlined calls read only what their code uses: the hint kfuncs nothing,
 * bpf_xdp_adjust_meta r2 unless it is a known constant. With local calls
 * a callee's r1..r5 reach its caller, so nothing is skipped.
 *
 * Tail calls and callbacks (see jit_can_compile() and jit_follow_tail()):
 * after a call that may be bpf_tail_call (helper 12, callx) the code tests
 * run->tail_call and, when set, stores r0-r10 in run->tail_regs and
 * returns; hr_jit_run() then switches run->vm and enters the target's code
 * when its entry state equals the interpreter's (registers it reads first
 * are 0, r10 is the stack top), else resumes the interpreter with those
 * registers. Only at depth 0: bpf_tail_call in a program with bpf-to-bpf
 * calls is refused. Callbacks run under the interpreter
 * (run->callback = hr_interp_callback, set by the prologue when some
 * call may run one: any but the inlined XDP calls above).
 *
 * Checked mode (HR_ENGINE_JIT_CHECKED, code of its own in vm->jit_chk):
 * the same code with nothing elided. Every access the rules above leave
 * unchecked (proven packet, map value and context accesses, constant
 * frame accesses) gets the full check, whose slow call reports a failure
 * as HR_ABORT_JIT_CHECK (the proof was wrong: a bug report) instead of the
 * access; the stack fast path, which rests on r10 being the frame top, is
 * left out (the C check takes the frame from run->depth); before each
 * helper or kfunc call, what the analysis says of r1..r5 (a map constant,
 * r10 + c, a constant, the context) and r10 = stack_hi - 512 * depth are
 * tested, since inlined calls are built on them; and no dead result is
 * skipped, so the registers hold what those tests read. A wrong proof is
 * then a failing test instead of an escape. hr_jit_test_wrong_proofs()
 * makes checked code take every access as proven, to see the checks work.
 *
 * Baked in at compile time: vm->calls[] (helper and kfunc pointers) and
 * vm->abort_ret; callx goes through vm->helper_by_id at run time. A
 * program whose calls change must be recompiled (hr_jit_free first).
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <unistd.h>

#include "progs/ctx.h"
#include "vm/engine.h"
#include "helpers/helpers.h"
#include "vm/jit.h"
#include "vm/bounds.h"
#include "maps/map.h"
#include "vm/mem.h"
#include "progs/prog.h"

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
	int32_t site; /* jump site (jmp_to / jcc_to), -1 for calls */
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
	 * writing (liveness, live_regs()); NULL: unknown (all). */
	uint16_t *live;
	bool dce; /* no bpf-to-bpf calls: dead ALU results may be skipped */
	/* The plan (plan()): what the program needs from the prologue. */
	bool need_run; /* RUN (r12) holds the run */
	bool need_fp; /* RBP holds r10 */
	bool local_calls; /* some bpf-to-bpf call: exits check the depth */
	bool ctx_guard; /* the entry checks r1 == run->ctx */
	/* run->pkt_dirty is already set on the straight line being
	 * emitted: nothing clears it during a run, so a second mark before
	 * the next jump target would change nothing. */
	bool dirty_marked;
	/* The run is needed only to mark it dirty: nothing can abort or
	 * call, so rsp never leaves the entry frame and run->jit_sp and
	 * run->depth need not be set (plan()). */
	bool need_dirty, light;
	uint32_t nfused; /* fuse() runs, on the last pass */
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

/* Test-only (hr_jit_test_wrong_proofs): checked code compiled while set
 * takes every non-atomic access as proven, and r1 at every helper call
 * as the context. */
static bool wrong_proofs;

/* Run-time entry points the code calls. */

/* The slow check's immediate: pc, then whether the access was proven
 * (checked mode), write and size. */
#define SLOW_PROVEN 32
#define SLOW_WRITE 16
#define SLOW_PC_SHIFT 6

static int hr_jit_mem_slow(struct hr_run *run, uint64_t addr, uint32_t info)
{
	uint32_t len = info & 15, pc = info >> SLOW_PC_SHIFT;
	bool write = info & SLOW_WRITE;
	enum hr_abort why = hr_mem_check(run, (uintptr_t)addr, len, write);

	if (why == HR_ABORT_NONE)
		return 0;
	/* An access the analysis proved safe is not: the proof is wrong,
	 * a bug to report, not the program's fault. */
	if (info & SLOW_PROVEN)
		why = HR_ABORT_JIT_CHECK;
	run->pc = pc;
	hr_run_abort(run, why, addr);
	return 1;
}

static void hr_jit_abort(struct hr_run *run, uint32_t pc, uint32_t reason,
			 uint64_t addr)
{
	run->pc = pc;
	hr_run_abort(run, (enum hr_abort)reason, addr);
}

/*
 * An exit found rsp away from run->jit_sp: the code's own bookkeeping of
 * its call records is wrong (a JIT bug). The frame itself is intact (its
 * canary was checked), so the run ends with this reason and returns.
 */
static void hr_jit_frame_bad(struct hr_run *run)
{
	hr_run_invariant(run, "JIT exit with rsp off its entry frame");
}

/* The canary next to the saved registers is gone: they and the return
 * address cannot be trusted, so there is no safe way back to the caller. */
__attribute__((noreturn)) static void hr_jit_frame_smashed(struct hr_run *run)
{
	hr_run_invariant(run, "JIT host frame canary overwritten");
	abort();
}

static hr_helper_fn hr_jit_callx_lookup(struct hr_run *run, uint64_t id)
{
	return run->vm->helper_by_id ? run->vm->helper_by_id(id) : NULL;
}

/* Byte emission. */

static void emit_bytes(struct jit *j, const void *p, size_t n)
{
	struct buf *b = &j->sec[j->cur];
	uint8_t *np;
	size_t cap;

	if (j->nomem)
		return;
	if (b->len + n > b->cap) {
		cap = b->cap ? b->cap * 2 : 4096;
		while (cap < b->len + n)
			cap *= 2;
		np = realloc(b->p, cap);
		if (!np) {
			j->nomem = true;
			return;
		}
		b->p = np;
		b->cap = cap;
	}
	memcpy(b->p + b->len, p, n);
	b->len += n;
}

static void emit1(struct jit *j, uint8_t v)
{
	emit_bytes(j, &v, 1);
}

static void emit4(struct jit *j, uint32_t v)
{
	emit_bytes(j, &v, 4);
}

static void emit8(struct jit *j, uint64_t v)
{
	emit_bytes(j, &v, 8);
}

static bool is_imm8(int64_t v)
{
	return v >= -128 && v <= 127;
}

static bool is_simm32(int64_t v)
{
	return v >= INT32_MIN && v <= INT32_MAX;
}

/* Labels and their fixups. */

static uint32_t new_label(struct jit *j)
{
	struct label *nl;
	uint32_t cap;

	if (j->nlabels == j->caplabels) {
		cap = j->caplabels ? j->caplabels * 2 : 256;
		nl = realloc(j->labels, cap * sizeof(*nl));
		if (!nl) {
			j->nomem = true;
			return 0;
		}
		j->labels = nl;
		j->caplabels = cap;
	}
	j->labels[j->nlabels].sec = -1;
	j->labels[j->nlabels].off = 0;
	return j->nlabels++;
}

static void bind(struct jit *j, uint32_t l)
{
	if (j->nomem)
		return;
	j->labels[l].sec = (int8_t)j->cur;
	j->labels[l].off = (uint32_t)j->sec[j->cur].len;
}

static void add_fixup(struct jit *j, uint32_t l, int size, int32_t site);

/* A rel32 to @l at the current position (the last 4 bytes emitted). */
static void rel32(struct jit *j, uint32_t l)
{
	add_fixup(j, l, 4, -1);
	emit4(j, 0);
}

static void add_fixup(struct jit *j, uint32_t l, int size, int32_t site)
{
	struct fixup *nf;
	uint32_t cap;

	if (j->nfix == j->capfix) {
		cap = j->capfix ? j->capfix * 2 : 256;
		nf = realloc(j->fix, cap * sizeof(*nf));
		if (!nf) {
			j->nomem = true;
			return;
		}
		j->fix = nf;
		j->capfix = cap;
	}
	j->fix[j->nfix].sec = (uint8_t)j->cur;
	j->fix[j->nfix].size = (uint8_t)size;
	j->fix[j->nfix].pos = (uint32_t)j->sec[j->cur].len;
	j->fix[j->nfix].label = l;
	j->fix[j->nfix].site = site;
	j->nfix++;
}

/* The next jump site, and whether it may be short. */
static bool next_site(struct jit *j, int32_t *site)
{
	*site = (int32_t)j->nsites++;
	return j->final_pass && j->short_ok && (uint32_t)*site < j->capsites &&
	       j->short_ok[*site];
}

static void jmp_to(struct jit *j, uint32_t l)
{
	int32_t site;

	if (next_site(j, &site)) {
		emit1(j, 0xeb);
		add_fixup(j, l, 1, site);
		emit1(j, 0);
		return;
	}
	emit1(j, 0xe9);
	add_fixup(j, l, 4, site);
	emit4(j, 0);
}

static void jcc_to(struct jit *j, int cc, uint32_t l)
{
	int32_t site;

	if (next_site(j, &site)) {
		emit1(j, 0x70 | cc);
		add_fixup(j, l, 1, site);
		emit1(j, 0);
		return;
	}
	emit1(j, 0x0f);
	emit1(j, 0x80 | cc);
	add_fixup(j, l, 4, site);
	emit4(j, 0);
}

static void call_to(struct jit *j, uint32_t l)
{
	emit1(j, 0xe8);
	rel32(j, l);
}

/* Instruction encoding. */

static void rex(struct jit *j, bool w, int reg, int rm, bool force)
{
	uint8_t v = 0x40 | (w ? 8 : 0) | ((reg & 8) ? 4 : 0) |
		    ((rm & 8) ? 1 : 0);

	if (v != 0x40 || force)
		emit1(j, v);
}

static void opcode(struct jit *j, uint32_t opc, int n)
{
	while (n--)
		emit1(j, (uint8_t)(opc >> (8 * n)));
}

/* op reg, rm (register direct). @n opcode bytes. */
static void op_rr(struct jit *j, bool w, bool force, uint32_t opc, int n,
		  int reg, int rm)
{
	rex(j, w, reg, rm, force);
	opcode(j, opc, n);
	emit1(j, 0xc0 | ((reg & 7) << 3) | (rm & 7));
}

/* op reg, [base + disp]. */
static void op_rm(struct jit *j, bool w, bool force, uint32_t opc, int n,
		  int reg, int base, int32_t disp)
{
	int rm = base & 7, mod;

	rex(j, w, reg, base, force);
	opcode(j, opc, n);
	if (disp == 0 && rm != 5)
		mod = 0;
	else if (is_imm8(disp))
		mod = 1;
	else
		mod = 2;
	emit1(j, (uint8_t)((mod << 6) | ((reg & 7) << 3) | rm));
	if (rm == 4)
		emit1(j, 0x24);
	if (mod == 1)
		emit1(j, (uint8_t)disp);
	else if (mod == 2)
		emit4(j, (uint32_t)disp);
}

static void mov_rr(struct jit *j, bool w, int dst, int src)
{
	op_rr(j, w, false, 0x89, 1, src, dst);
}

static void mov_ri(struct jit *j, int dst, uint64_t v)
{
	if (v == 0) {
		op_rr(j, false, false, 0x31, 1, dst, dst);
	} else if (v <= UINT32_MAX) {
		rex(j, false, 0, dst, false);
		emit1(j, 0xb8 + (dst & 7));
		emit4(j, (uint32_t)v);
	} else if (is_simm32((int64_t)v)) {
		op_rr(j, true, false, 0xc7, 1, 0, dst);
		emit4(j, (uint32_t)v);
	} else {
		rex(j, true, 0, dst, false);
		emit1(j, 0xb8 + (dst & 7));
		emit8(j, v);
	}
}

/* ALU group 1 (/digit) with an immediate: add 0, or 1, and 4, sub 5,
 * xor 6, cmp 7. */
static void alu_ri(struct jit *j, bool w, int digit, int dst, int32_t imm)
{
	if (is_imm8(imm)) {
		op_rr(j, w, false, 0x83, 1, digit, dst);
		emit1(j, (uint8_t)imm);
	} else {
		op_rr(j, w, false, 0x81, 1, digit, dst);
		emit4(j, (uint32_t)imm);
	}
}

static void alu_mi(struct jit *j, bool w, int digit, int base, int32_t disp,
		   int32_t imm)
{
	if (is_imm8(imm)) {
		op_rm(j, w, false, 0x83, 1, digit, base, disp);
		emit1(j, (uint8_t)imm);
	} else {
		op_rm(j, w, false, 0x81, 1, digit, base, disp);
		emit4(j, (uint32_t)imm);
	}
}

static void push(struct jit *j, int r)
{
	rex(j, false, 0, r, false);
	emit1(j, 0x50 + (r & 7));
}

static void pop(struct jit *j, int r)
{
	rex(j, false, 0, r, false);
	emit1(j, 0x58 + (r & 7));
}

static void call_abs(struct jit *j, const void *fn)
{
	mov_ri(j, RAX, (uint64_t)(uintptr_t)fn);
	emit1(j, 0xff);
	emit1(j, 0xd0); /* call rax */
}

/* A tail jump to @fn, which takes the code's own arguments. */
static void call_abs_jmp(struct jit *j, const void *fn)
{
	mov_ri(j, RAX, (uint64_t)(uintptr_t)fn);
	emit1(j, 0xff);
	emit1(j, 0xe0); /* jmp rax */
}

static void lea(struct jit *j, int dst, int base, int32_t disp)
{
	op_rm(j, true, false, 0x8d, 1, dst, base, disp);
}

/* Whether the access is left unchecked because of what the bounds
 * analysis proved (which rests on r1 == run->ctx at entry). */
static bool by_facts(struct jit *j, uint32_t pc, int breg, int16_t off,
		     int size, bool write)
{
	return jb_access_proven(&j->facts, j->vm, pc, breg, off, size, write);
}

/*
 * Whether the access [breg + off, + size) at @pc needs no run-time check:
 * a constant offset into the current frame through an r10 nothing writes,
 * a packet access a data_end comparison covers, a map value access a NULL
 * test covers, or an allowed field of the context through a register that
 * holds run->ctx (see the top comment).
 */
static bool check_elided(struct jit *j, uint32_t pc, int breg, int16_t off,
			 int size, bool write, bool atomic)
{
	if (j->chk && wrong_proofs)
		return !atomic;
	return !atomic && (jb_frame_access(j->fp_fixed, breg, off, size) ||
			   by_facts(j, pc, breg, off, size, write));
}

/* Out-of-line abort stubs. */

/* A cold stub that aborts with @reason at @pc; the address is @addr, or
 * the ADDR register when @addr_reg. Returns its label. */
static uint32_t abort_stub(struct jit *j, uint32_t pc, enum hr_abort reason,
			   bool addr_reg, uint64_t addr)
{
	int saved = j->cur;
	uint32_t l = new_label(j);

	j->cur = 1;
	bind(j, l);
	if (addr_reg)
		mov_rr(j, true, RCX, ADDR);
	else
		mov_ri(j, RCX, addr);
	mov_rr(j, true, RDI, RUN);
	mov_ri(j, RSI, pc);
	mov_ri(j, RDX, reason);
	call_abs(j, hr_jit_abort);
	jmp_to(j, j->l_abort_exit);
	j->cur = saved;
	return l;
}

/* The label of pc @t, or of a stub aborting with HR_ABORT_JUMP there. */
static uint32_t target_label(struct jit *j, uint32_t t)
{
	if (t < j->vm->cnt)
		return t;
	if (t == j->vm->cnt)
		return j->l_fall_off;
	return abort_stub(j, t, HR_ABORT_JUMP, false, t);
}

/*
 * Checks [base + off, + size) for the instruction at @pc and returns the
 * x86 base register and displacement the access must use.
 */
static void mem_check(struct jit *j, uint32_t pc, int breg, int16_t off,
		      int size, bool write, bool atomic, int *mbase,
		      int32_t *mdisp)
{
	uint32_t ok, stk, slow;
	bool proven = check_elided(j, pc, breg, off, size, write, atomic);

	if (proven && !j->chk) {
		*mbase = bpf2x[breg];
		*mdisp = off;
		return;
	}
	*mbase = ADDR;
	*mdisp = 0;
	lea(j, ADDR, bpf2x[breg], off);
	ok = new_label(j);
	stk = new_label(j);
	slow = new_label(j);
	/* The rule depends on the program and the access only, so it is
	 * asked at compile time: only such sites get the inline context
	 * path, everything else takes the checks below. */
	if (jb_ctx_field_ok(j->vm, off, size, write)) {
		/* base == run->ctx (non-NULL): a field the rule allows. */
		op_rm(j, true, false, 0x8b, 1, TMP, RUN, OFF_CTX);
		uint32_t no_ctx = new_label(j);

		op_rr(j, true, false, 0x85, 1, TMP, TMP);
		jcc_to(j, CC_E, no_ctx);
		op_rr(j, true, false, 0x39, 1, bpf2x[breg], TMP);
		jcc_to(j, CC_E, ok);
		bind(j, no_ctx);
	}
	/* Packet: pkt_lo <= addr <= pkt_hi && pkt_hi - addr >= size. */
	op_rm(j, true, false, 0x3b, 1, ADDR, RUN, OFF_PKT_LO);
	jcc_to(j, CC_B, stk);
	op_rm(j, true, false, 0x8b, 1, TMP, RUN, OFF_PKT_HI);
	op_rr(j, true, false, 0x29, 1, ADDR, TMP); /* sub tmp, addr */
	jcc_to(j, CC_B, stk);
	alu_ri(j, true, 7, TMP, size);
	jcc_to(j, CC_B, stk);
	bind(j, ok);

	j->cur = 1;
	bind(j, stk);
	/* Checked mode does not trust rbp (the stack rule): the C check
	 * takes the frame from run->depth. */
	if (j->fp_fixed && !j->chk) {
		/* Current frame and callers: [r10 - 512, stack_hi). */
		lea(j, TMP, RBP, -HR_STACK_SIZE);
		op_rr(j, true, false, 0x39, 1, TMP, ADDR); /* cmp addr, tmp */
		jcc_to(j, CC_B, slow);
		lea(j, TMP, RUN, OFF_STACK_HI);
		op_rr(j, true, false, 0x29, 1, ADDR, TMP);
		jcc_to(j, CC_B, slow);
		alu_ri(j, true, 7, TMP, size);
		jcc_to(j, CC_AE, ok);
	}
	bind(j, slow);
	mov_ri(j, TMP,
	       (uint64_t)pc << SLOW_PC_SHIFT | (proven ? SLOW_PROVEN : 0) |
		       (write ? SLOW_WRITE : 0) | (uint32_t)size);
	call_to(j, j->l_slow);
	jmp_to(j, ok);
	j->cur = 0;
}

/* ALU. */

static void emit_div(struct jit *j, const struct hr_insn *insn, bool w)
{
	bool is_mod = HR_OP(insn->code) == HR_MOD;
	bool sgn = insn->off == 1;
	int dst = bpf2x[insn->dst];
	uint32_t zero = new_label(j), minus1 = new_label(j),
		 done = new_label(j);

	if (HR_SRC(insn->code) == HR_X)
		mov_rr(j, true, R11, bpf2x[insn->src]);
	else
		mov_ri(j, R11,
		       w ? (uint64_t)(int64_t)insn->imm : (uint32_t)insn->imm);
	op_rr(j, w, false, 0x85, 1, R11, R11); /* test */
	jcc_to(j, CC_E, zero);
	if (sgn) {
		alu_ri(j, w, 7, R11, -1);
		jcc_to(j, CC_E, minus1);
	}
	push(j, RAX);
	push(j, RDX);
	mov_rr(j, w, RAX, dst);
	if (sgn) {
		rex(j, w, 0, 0, false);
		emit1(j, 0x99); /* cdq / cqo */
	} else {
		op_rr(j, false, false, 0x31, 1, RDX, RDX);
	}
	op_rr(j, w, false, 0xf7, 1, sgn ? 7 : 6, R11);
	mov_rr(j, true, R11, is_mod ? RDX : RAX);
	pop(j, RDX);
	pop(j, RAX);
	mov_rr(j, w, dst, R11);
	jmp_to(j, done);

	bind(j, zero);
	if (!is_mod)
		op_rr(j, false, false, 0x31, 1, dst, dst);
	else if (!w)
		mov_rr(j, false, dst, dst);
	jmp_to(j, done);

	bind(j, minus1);
	if (sgn) {
		if (!is_mod)
			op_rr(j, w, false, 0xf7, 1, 3, dst); /* neg */
		else
			op_rr(j, false, false, 0x31, 1, dst, dst);
	}
	bind(j, done);
}

static void emit_shift(struct jit *j, const struct hr_insn *insn, bool w)
{
	int dst = bpf2x[insn->dst], digit, src, cnt;

	switch (HR_OP(insn->code)) {
	case HR_LSH:
		digit = 4;
		break;
	case HR_RSH:
		digit = 5;
		break;
	default:
		digit = 7;
		break;
	}
	if (HR_SRC(insn->code) == HR_K) {
		cnt = insn->imm & (w ? 63 : 31);
		if (cnt) {
			op_rr(j, w, false, 0xc1, 1, digit, dst);
			emit1(j, (uint8_t)cnt);
		} else if (!w) {
			mov_rr(j, false, dst, dst);
		}
		return;
	}
	src = bpf2x[insn->src];
	if (src == RCX) {
		op_rr(j, w, false, 0xd3, 1, digit, dst);
	} else if (dst == RCX) {
		mov_rr(j, true, R11, RCX);
		mov_rr(j, true, RCX, src);
		op_rr(j, w, false, 0xd3, 1, digit, R11);
		mov_rr(j, true, RCX, R11);
	} else {
		mov_rr(j, true, R11, RCX);
		mov_rr(j, true, RCX, src);
		op_rr(j, w, false, 0xd3, 1, digit, dst);
		mov_rr(j, true, RCX, R11);
	}
	/* A 32-bit shift by a count of 0 must still zero the upper half. */
	if (!w)
		mov_rr(j, false, dst, dst);
}

static uint64_t sext_bits(uint64_t v, int bits)
{
	return (uint64_t)((int64_t)(v << ((64 - bits) & 63)) >>
			  ((64 - bits) & 63));
}

static void emit_mov(struct jit *j, const struct hr_insn *insn, bool w)
{
	int dst = bpf2x[insn->dst], src = bpf2x[insn->src];
	uint64_t v;

	if (HR_SRC(insn->code) == HR_K) {
		v = (uint64_t)(int64_t)insn->imm;
		if (insn->off)
			v = sext_bits(v, insn->off);
		mov_ri(j, dst, w ? v : (uint32_t)v);
		return;
	}
	switch (insn->off) {
	case 0:
		mov_rr(j, w, dst, src);
		return;
	case 8:
		op_rr(j, w, true, 0x0fbe, 2, dst, src);
		return;
	case 16:
		op_rr(j, w, false, 0x0fbf, 2, dst, src);
		return;
	case 32:
		if (w)
			op_rr(j, true, false, 0x63, 1, dst, src);
		else
			mov_rr(j, false, dst, src);
		return;
	}
	/* Not produced by a valid program: mirror the C expression. */
	mov_rr(j, true, dst, src);
	op_rr(j, true, false, 0xc1, 1, 4, dst);
	emit1(j, (uint8_t)((64 - insn->off) & 63));
	op_rr(j, true, false, 0xc1, 1, 7, dst);
	emit1(j, (uint8_t)((64 - insn->off) & 63));
	if (!w)
		mov_rr(j, false, dst, dst);
}

static void emit_end(struct jit *j, const struct hr_insn *insn)
{
	int dst = bpf2x[insn->dst];
	bool swap = HR_CLASS(insn->code) == HR_ALU64 ||
		    HR_SRC(insn->code) == HR_X;

	if (swap) {
		switch (insn->imm) {
		case 16:
			emit1(j, 0x66);
			op_rr(j, false, false, 0xc1, 1, 1, dst); /* ror 8 */
			emit1(j, 8);
			op_rr(j, false, false, 0x0fb7, 2, dst, dst);
			return;
		case 32:
			rex(j, false, 0, dst, false);
			emit1(j, 0x0f);
			emit1(j, 0xc8 + (dst & 7));
			return;
		default:
			rex(j, true, 0, dst, false);
			emit1(j, 0x0f);
			emit1(j, 0xc8 + (dst & 7));
			return;
		}
	}
	switch (insn->imm) {
	case 16:
		op_rr(j, false, false, 0x0fb7, 2, dst, dst);
		return;
	case 32:
		mov_rr(j, false, dst, dst);
		return;
	case 64:
		return;
	}
	/* Not produced by a valid program: v & ((1 << bits) - 1). */
	mov_ri(j, R11, (1ull << (insn->imm & 63)) - 1);
	op_rr(j, true, false, 0x21, 1, R11, dst);
}

static void emit_alu(struct jit *j, uint32_t pc, const struct hr_insn *insn)
{
	bool w = HR_CLASS(insn->code) == HR_ALU64;
	bool x = HR_SRC(insn->code) == HR_X;
	int dst = bpf2x[insn->dst], src = bpf2x[insn->src];
	uint8_t op = HR_OP(insn->code);
	static const struct {
		uint8_t opc, digit;
	} group1[16] = {
		[HR_ADD >> 4] = { 0x01, 0 }, [HR_SUB >> 4] = { 0x29, 5 },
		[HR_OR >> 4] = { 0x09, 1 },  [HR_AND >> 4] = { 0x21, 4 },
		[HR_XOR >> 4] = { 0x31, 6 },
	};

	switch (op) {
	case HR_ADD:
	case HR_SUB:
	case HR_OR:
	case HR_AND:
	case HR_XOR:
		if (x)
			op_rr(j, w, false, group1[op >> 4].opc, 1, src, dst);
		else
			alu_ri(j, w, group1[op >> 4].digit, dst, insn->imm);
		return;
	case HR_MUL:
		if (x) {
			op_rr(j, w, false, 0x0faf, 2, dst, src);
		} else if (is_imm8(insn->imm)) {
			op_rr(j, w, false, 0x6b, 1, dst, dst);
			emit1(j, (uint8_t)insn->imm);
		} else {
			op_rr(j, w, false, 0x69, 1, dst, dst);
			emit4(j, (uint32_t)insn->imm);
		}
		return;
	case HR_DIV:
	case HR_MOD:
		emit_div(j, insn, w);
		return;
	case HR_LSH:
	case HR_RSH:
	case HR_ARSH:
		emit_shift(j, insn, w);
		return;
	case HR_NEG:
		op_rr(j, w, false, 0xf7, 1, 3, dst);
		return;
	case HR_MOV:
		emit_mov(j, insn, w);
		return;
	case HR_END:
		emit_end(j, insn);
		return;
	}
	jmp_to(j, abort_stub(j, pc, HR_ABORT_BAD_INSN, false, pc));
}

/* Loads and stores. */

/* A load from a frozen read-only global (.rodata once loaded, as the
 * verifier's bpf_map_direct_read): its constant, not the memory. */
static bool const_load(struct jit *j, uint32_t pc, const struct hr_insn *insn)
{
	const struct jb_reg *b;
	uint64_t v;

	if (!j->dce || HR_MODE(insn->code) != HR_MEM)
		return false;
	b = jb_reg_at(&j->facts, pc, insn->src);
	if (!b || !jb_const_value(b, insn->off, hr_size_bytes(insn->code), &v))
		return false;
	mov_ri(j, bpf2x[insn->dst], v);
	j->nfused++;
	return true;
}

/* x86 register @dst = the @size bytes at @base + @disp, zero- or (@sx)
 * sign-extended. */
static void emit_load(struct jit *j, int size, bool sx, int dst, int base,
		      int32_t disp)
{
	switch (size) {
	case 1:
		op_rm(j, sx, false, sx ? 0x0fbe : 0x0fb6, 2, dst, base, disp);
		break;
	case 2:
		op_rm(j, sx, false, sx ? 0x0fbf : 0x0fb7, 2, dst, base, disp);
		break;
	case 4:
		if (sx)
			op_rm(j, true, false, 0x63, 1, dst, base, disp);
		else
			op_rm(j, false, false, 0x8b, 1, dst, base, disp);
		break;
	default:
		op_rm(j, true, false, 0x8b, 1, dst, base, disp);
		break;
	}
}

static void emit_ldx(struct jit *j, uint32_t pc, const struct hr_insn *insn)
{
	int size = hr_size_bytes(insn->code), base;
	int32_t disp;

	if (const_load(j, pc, insn))
		return;
	mem_check(j, pc, insn->src, insn->off, size, false, false, &base,
		  &disp);
	emit_load(j, size, HR_MODE(insn->code) == HR_MEMSX, bpf2x[insn->dst],
		  base, disp);
}

static void emit_store(struct jit *j, uint32_t pc, const struct hr_insn *insn)
{
	int size = hr_size_bytes(insn->code), src = bpf2x[insn->src], base;
	int32_t disp;

	mem_check(j, pc, insn->dst, insn->off, size, true, false, &base, &disp);
	if (HR_CLASS(insn->code) == HR_STX) {
		if (size == 2)
			emit1(j, 0x66);
		op_rm(j, size == 8, size == 1, size == 1 ? 0x88 : 0x89, 1, src,
		      base, disp);
		return;
	}
	if (size == 2)
		emit1(j, 0x66);
	op_rm(j, size == 8, false, size == 1 ? 0xc6 : 0xc7, 1, 0, base, disp);
	if (size == 1)
		emit1(j, (uint8_t)insn->imm);
	else if (size == 2) {
		emit1(j, (uint8_t)insn->imm);
		emit1(j, (uint8_t)(insn->imm >> 8));
	} else
		emit4(j, (uint32_t)insn->imm);
}

/* fetch-or / -and / -xor: a cmpxchg loop on [ADDR]. */
static void emit_fetch_loop(struct jit *j, bool w, uint32_t opc, int src)
{
	uint32_t again = new_label(j);
	int operand = src == RAX ? TMP : src;

	mov_rr(j, true, TMP, RAX); /* r0, which cmpxchg uses */
	op_rm(j, w, false, 0x8b, 1, RAX, ADDR, 0);
	bind(j, again);
	mov_rr(j, true, TMP2, RAX);
	op_rr(j, w, false, opc, 1, operand, TMP2);
	emit1(j, 0xf0);
	op_rm(j, w, false, 0x0fb1, 2, TMP2, ADDR, 0);
	jcc_to(j, CC_NE, again);
	mov_rr(j, true, TMP2, RAX); /* old value */
	mov_rr(j, true, RAX, TMP);
	mov_rr(j, w, src, TMP2);
}

static void emit_atomic(struct jit *j, uint32_t pc, const struct hr_insn *insn)
{
	int size = hr_size_bytes(insn->code), src = bpf2x[insn->src], base;
	bool w = HR_SIZE(insn->code) == HR_DW;
	int32_t disp;
	int32_t op = insn->imm;

	mem_check(j, pc, insn->dst, insn->off, size, true, true, &base, &disp);
	if (size > 1) {
		op_rr(j, false, false, 0xf6, 1, 0, ADDR); /* test r11b */
		emit1(j, (uint8_t)(size - 1));
		jcc_to(j, CC_NE,
		       abort_stub(j, pc, HR_ABORT_OOB_STORE, true, 0));
	}
	switch (op) {
	case HR_ADD:
	case HR_OR:
	case HR_AND:
	case HR_XOR:
		emit1(j, 0xf0);
		op_rm(j, w, false,
		      op == HR_ADD ? 0x01 :
		      op == HR_OR  ? 0x09 :
		      op == HR_AND ? 0x21 :
				     0x31,
		      1, src, ADDR, 0);
		return;
	case HR_ADD | HR_FETCH:
		mov_rr(j, true, TMP, src);
		emit1(j, 0xf0);
		op_rm(j, w, false, 0x0fc1, 2, TMP, ADDR, 0);
		mov_rr(j, w, src, TMP);
		return;
	case HR_OR | HR_FETCH:
		emit_fetch_loop(j, w, 0x09, src);
		return;
	case HR_AND | HR_FETCH:
		emit_fetch_loop(j, w, 0x21, src);
		return;
	case HR_XOR | HR_FETCH:
		emit_fetch_loop(j, w, 0x31, src);
		return;
	case HR_XCHG:
		mov_rr(j, true, TMP, src);
		op_rm(j, w, false, 0x87, 1, TMP, ADDR, 0);
		mov_rr(j, w, src, TMP);
		return;
	case HR_CMPXCHG:
		emit1(j, 0xf0);
		op_rm(j, w, false, 0x0fb1, 2, src, ADDR, 0);
		if (!w)
			mov_rr(j, false, RAX, RAX);
		return;
	}
	jmp_to(j, abort_stub(j, pc, HR_ABORT_BAD_INSN, false, pc));
}

static void emit_st(struct jit *j, uint32_t pc, const struct hr_insn *insn)
{
	if (HR_MODE(insn->code) == HR_ATOMIC)
		emit_atomic(j, pc, insn);
	else
		emit_store(j, pc, insn);
}

/* Jumps and calls. */

static void budget_step(struct jit *j, uint32_t pc)
{
	alu_mi(j, true, 5, RUN, OFF_BUDGET, 1); /* sub qword, 1 */
	jcc_to(j, CC_B, abort_stub(j, pc, HR_ABORT_BUDGET, false, pc));
}

/* Returns after a helper: the interpreter's abort and unwind tests. */
static void after_helper(struct jit *j)
{
	alu_mi(j, false, 7, RUN, OFF_ABORT, 0);
	jcc_to(j, CC_NE, j->l_abort_exit);
	op_rm(j, false, false, 0x80, 1, 7, RUN, OFF_UNWIND); /* cmp byte */
	emit1(j, 0);
	jcc_to(j, CC_NE, j->l_unwind_exit);
}

static uint16_t insn_reads(const struct hr_insn *insn);

/* After a call that may be bpf_tail_call: leave for hr_jit_run to follow
 * it when the helper set run->tail_call (abort and unwind tested first, as
 * the interpreter does). */
static void after_tail_call(struct jit *j)
{
	if (!j->tail)
		return;
	alu_mi(j, true, 7, RUN, OFF_TAIL_CALL, 0);
	jcc_to(j, CC_NE, j->l_tail_exit);
}

static void save_args(struct jit *j)
{
	push(j, RDI);
	push(j, RSI);
	push(j, RDX);
	push(j, RCX);
	push(j, R8);
	alu_ri(j, true, 5, RSP, 8);
}

static void restore_args(struct jit *j)
{
	alu_ri(j, true, 0, RSP, 8);
	pop(j, R8);
	pop(j, RCX);
	pop(j, RDX);
	pop(j, RSI);
	pop(j, RDI);
}

static void set_pc(struct jit *j, uint32_t pc)
{
	op_rm(j, false, false, 0xc7, 1, 0, RUN, OFF_PC);
	emit4(j, pc);
}

static void emit_helper(struct jit *j, uint32_t pc, hr_helper_fn fn)
{
	set_pc(j, pc);
	save_args(j);
	mov_rr(j, true, R9, RUN);
	call_abs(j, fn);
	restore_args(j);
	after_helper(j);
	/* The same test as insn_reads(): only helper 12 is bpf_tail_call. */
	if (insn_reads(&j->vm->insns[pc]) == 0x7ff)
		after_tail_call(j);
}

static void emit_callx(struct jit *j, uint32_t pc, const struct hr_insn *insn)
{
	uint32_t fail = new_label(j);
	static const int8_t args[5] = { R8, RCX, RDX, RSI, RDI };
	int i;

	set_pc(j, pc);
	save_args(j);
	mov_rr(j, true, RSI, bpf2x[insn->dst]);
	mov_rr(j, true, RDI, RUN);
	call_abs(j, hr_jit_callx_lookup);
	op_rr(j, true, false, 0x85, 1, RAX, RAX);
	jcc_to(j, CC_E, fail);
	mov_rr(j, true, R11, RAX);
	for (i = 0; i < 5; i++)
		op_rm(j, true, false, 0x8b, 1, args[i], RSP, 8 * (i + 1));
	mov_rr(j, true, R9, RUN);
	op_rr(j, false, false, 0xff, 1, 2, R11); /* call r11 */
	restore_args(j);
	after_helper(j);
	after_tail_call(j);

	j->cur = 1;
	bind(j, fail);
	alu_ri(j, true, 0, RSP, 48);
	jmp_to(j, abort_stub(j, pc, HR_ABORT_UNKNOWN_CALL, false, pc));
	j->cur = 0;
}

static void emit_local_call(struct jit *j, uint32_t pc,
			    const struct hr_insn *insn)
{
	uint32_t t = pc + 1 + (uint32_t)insn->imm;

	alu_mi(j, false, 7, RUN, OFF_DEPTH, HR_MAX_CALL_FRAMES - 1);
	jcc_to(j, CC_AE, abort_stub(j, pc, HR_ABORT_CALL_DEPTH, false, pc));
	budget_step(j, pc);
	push(j, RBX);
	push(j, R13);
	push(j, R14);
	push(j, R15);
	push(j, RBP);
	alu_ri(j, true, 5, RBP, HR_STACK_SIZE);
	alu_mi(j, false, 0, RUN, OFF_DEPTH, 1);
	call_to(j, target_label(j, t));
	pop(j, RBP);
	pop(j, R15);
	pop(j, R14);
	pop(j, R13);
	pop(j, RBX);
}

/*
 * The map of a bpf_map_lookup_elem at @pc whose r1 the analysis proves is
 * an ld_imm64 constant naming a map of the program's own object (with r10
 * never written, so a key on the stack is at a constant offset), or NULL.
 */
static struct hr_map *own_map_lookup(const struct jit *j, uint32_t pc)
{
	const struct jb_reg *r1 = jb_reg_at(&j->facts, pc, 1);

	if (j->vm->calls[pc] != hr_helper_map_lookup_elem.fn || !r1 ||
	    r1->t != JB_MAP || !j->fp_fixed)
		return NULL;
	return jb_own_map(j->vm, r1->a);
}

/* @reg *= @by (0 < @by <= INT32_MAX): a shift for a power of two. */
static void scale(struct jit *j, int reg, int64_t by)
{
	if (!(by & (by - 1))) {
		op_rr(j, true, false, 0xc1, 1, 4, reg); /* shl reg, n */
		emit1(j, (uint8_t)__builtin_ctzll((uint64_t)by));
		return;
	}
	op_rr(j, true, false, 0x69, 1, reg, reg); /* imul reg, by */
	emit4(j, (uint32_t)by);
}

/*
 * bpf_map_lookup_elem on an ARRAY or PERCPU_ARRAY map named by an ld_imm64
 * constant, with the key on this frame's stack: hr_run_map() accepts the
 * map (it is one of the program's object, which every run of the program
 * is given) and hr_run_mem() the key (the stack rule), so the helper's
 * answer is array.c's: base + cpu * block + key * slot, or NULL when
 * key >= max_entries or (per-CPU) run->cpu >= the map's CPUs. The values
 * do not move (preallocated), so base, slot and block are asked of the
 * map's own lookup once, here, as the kernel's array_map_gen_lookup and
 * percpu_array_map_gen_lookup emit them.
 */
static bool inline_array_lookup(struct jit *j, uint32_t pc)
{
	struct hr_map *map = own_map_lookup(j, pc);
	uint32_t k0 = 0, k1 = 1, null, done, ncpus = 1;
	uint8_t *v0, *v1;
	int64_t slot = 0, block = 0;
	int32_t koff;
	bool percpu;

	if (!map || map->ops != &hr_map_ops_array ||
	    (map->attr.type != HR_MAP_ARRAY &&
	     map->attr.type != HR_MAP_PERCPU_ARRAY) ||
	    map->attr.key_size != 4 || !map->attr.max_entries ||
	    !map->ops->lookup || !jb_fp_arg(&j->facts, pc, 2, 4, &koff))
		return false;
	percpu = map->attr.type == HR_MAP_PERCPU_ARRAY;
	v0 = map->ops->lookup(map, &k0, 0);
	if (!v0)
		return false;
	if (map->attr.max_entries > 1) {
		v1 = map->ops->lookup(map, &k1, 0);
		if (!v1 || v1 <= v0 || v1 - v0 > INT32_MAX)
			return false;
		slot = v1 - v0;
	}
	if (percpu) {
		ncpus = map->attr.ncpus;
		if (!ncpus || ncpus > INT32_MAX)
			return false;
		if (ncpus > 1) {
			v1 = map->ops->lookup(map, &k0, 1);
			if (!v1 || v1 <= v0 || v1 - v0 > INT32_MAX)
				return false;
			block = v1 - v0;
		}
	}
	null = new_label(j);
	done = new_label(j);
	op_rm(j, false, false, 0x8b, 1, RAX, RBP, koff); /* eax = key */
	op_rr(j, false, false, 0x81, 1, 7, RAX); /* cmp eax, max */
	emit4(j, map->attr.max_entries);
	jcc_to(j, CC_AE, null);
	/* One entry: the key is 0 here, and so is its offset. */
	if (slot)
		scale(j, RAX, slot);
	if (percpu) {
		op_rm(j, false, false, 0x8b, 1, R11, RUN, OFF_CPU);
		op_rr(j, false, false, 0x81, 1, 7, R11); /* cmp r11d, ncpus */
		emit4(j, ncpus);
		jcc_to(j, CC_AE, null);
		if (block) { /* one CPU: cpu is 0 here */
			scale(j, R11, block);
			op_rr(j, true, false, 0x01, 1, R11, RAX);
		}
	}
	mov_ri(j, R11, (uint64_t)(uintptr_t)v0);
	op_rr(j, true, false, 0x01, 1, R11, RAX); /* add rax, r11 */
	jmp_to(j, done);
	bind(j, null);
	op_rr(j, false, false, 0x31, 1, RAX, RAX);
	bind(j, done);
	return true;
}

/*
 * bpf_map_lookup_elem on a hash map (HASH, LRU_HASH and their per-CPU
 * forms) named by an ld_imm64 constant, with the key on this frame's
 * stack: a direct call of the map's own lookup, map->ops->lookup(map,
 * key, run->cpu), which is what the helper calls after hr_run_map() has
 * accepted the map (one of the program's object) and hr_run_mem() the key
 * (the stack rule), so the answer is the same. Those lookups read the key
 * bytewise-safe (memcpy), so the helper's copy of an unaligned key is not
 * needed, and they never end the run, so nothing is tested after.
 */
static bool direct_hash_lookup(struct jit *j, uint32_t pc)
{
	struct hr_map *map = own_map_lookup(j, pc);
	uint32_t type;
	int32_t koff;

	if (!map)
		return false;
	type = map->attr.type;
	if ((type != HR_MAP_HASH && type != HR_MAP_PERCPU_HASH &&
	     type != HR_MAP_LRU_HASH && type != HR_MAP_LRU_PERCPU_HASH) ||
	    map->ops != hr_map_ops_for(type) || !map->ops->lookup ||
	    !jb_fp_arg(&j->facts, pc, 2, (int)map->attr.key_size, &koff))
		return false;
	save_args(j);
	mov_ri(j, RDI, (uint64_t)(uintptr_t)map);
	op_rm(j, true, false, 0x8d, 1, RSI, RBP, koff); /* lea rsi, key */
	op_rm(j, false, false, 0x8b, 1, RDX, RUN, OFF_CPU);
	call_abs(j, (const void *)map->ops->lookup);
	restore_args(j);
	return true;
}

/* A cold stub: rax = @v (a helper's negative int as its u64), then back
 * to @done. Returns its label. For hot code (it is emitted where the cold
 * section is now). */
static uint32_t ret_stub(struct jit *j, int32_t v, uint32_t done)
{
	int saved = j->cur;
	uint32_t l = new_label(j);

	j->cur = 1;
	bind(j, l);
	mov_ri(j, RAX, (uint64_t)(int64_t)v);
	jmp_to(j, done);
	j->cur = saved;
	return l;
}

/* @dst = [@base + @off], then to @l when that is NULL. */
static void load_or_null(struct jit *j, int dst, int base, int32_t off,
			 uint32_t l)
{
	op_rm(j, true, false, 0x8b, 1, dst, base, off);
	op_rr(j, true, false, 0x85, 1, dst, dst);
	jcc_to(j, CC_E, l);
}

/* mov [rbp + @dst], @len bytes of [@base + @src] (through TMP). */
static void copy_out(struct jit *j, int base, int32_t src, int32_t dst, int len)
{
	switch (len) {
	case 8:
		op_rm(j, true, false, 0x8b, 1, TMP, base, src);
		op_rm(j, true, false, 0x89, 1, TMP, RBP, dst);
		return;
	case 4:
		op_rm(j, false, false, 0x8b, 1, TMP, base, src);
		op_rm(j, false, false, 0x89, 1, TMP, RBP, dst);
		return;
	default:
		op_rm(j, false, false, 0x0fb7, 2, TMP, base, src); /* movzx */
		emit1(j, 0x66);
		op_rm(j, false, false, 0x89, 1, TMP, RBP, dst);
		return;
	}
}

/* The reverse of copy_out: len bytes of the BPF stack slot r10 + @src to
 * rsp + @dst, through rax (r10 holds the op being called). */
static void copy_in(struct jit *j, int32_t src, int32_t dst, int len)
{
	switch (len) {
	case 8:
		op_rm(j, true, false, 0x8b, 1, RAX, RBP, src);
		op_rm(j, true, false, 0x89, 1, RAX, RSP, dst);
		return;
	case 4:
		op_rm(j, false, false, 0x8b, 1, RAX, RBP, src);
		op_rm(j, false, false, 0x89, 1, RAX, RSP, dst);
		return;
	default:
		op_rm(j, false, false, 0x0fb7, 2, RAX, RBP, src); /* movzx */
		emit1(j, 0x66);
		op_rm(j, false, false, 0x89, 1, RAX, RSP, dst);
		return;
	}
}

/* A hint kfunc's one or two values, first then second as the kfunc
 * writes them; as one move when both sides are adjacent in that order
 * (the same bytes end up in the same places). */
static void copy_vals(struct jit *j, int base, int32_t src2, int32_t o2,
		      int32_t src3, int32_t o3, int len)
{
	if (src3 == src2 + len && o3 == o2 + len && len < 8) {
		copy_out(j, base, src2, o2, 2 * len);
		return;
	}
	copy_out(j, base, src2, o2, len);
	if (src3 >= 0)
		copy_out(j, base, src3, o3, len);
}

/* What a hint kfunc call reads and writes, when it is one. */
struct hint_call {
	int len; /* bytes of each value */
	bool two; /* a second value (r3) */
	int32_t opoff; /* its op in struct hr_xdp_metadata_ops */
	unsigned int bit; /* HR_RX_HINT_* */
	int32_t src2, src3; /* the values in struct hr_rx_hints */
	int32_t o2, o3; /* the out slots: r10 + o */
};

/* Whether the call at @pc is a hint kfunc the JIT inlines: out pointers
 * proven in this frame, through an r10 nothing writes. */
static bool hint_call(const struct jit *j, uint32_t pc, struct hint_call *h)
{
	hr_helper_fn fn = j->vm->calls ? j->vm->calls[pc] : NULL;

	memset(h, 0, sizeof(*h));
	h->src3 = -1;
	if (!fn) {
		return false;
	} else if (fn == hr_kfunc_xdp_metadata_rx_timestamp.fn) {
		h->len = 8;
		h->opoff = offsetof(struct hr_xdp_metadata_ops, rx_timestamp);
		h->bit = HR_RX_HINT_TIMESTAMP;
		h->src2 = offsetof(struct hr_rx_hints, timestamp);
	} else if (fn == hr_kfunc_xdp_metadata_rx_hash.fn) {
		h->len = 4;
		h->opoff = offsetof(struct hr_xdp_metadata_ops, rx_hash);
		h->bit = HR_RX_HINT_HASH;
		h->src2 = offsetof(struct hr_rx_hints, hash);
		h->src3 = offsetof(struct hr_rx_hints, hash_type);
	} else if (fn == hr_kfunc_xdp_metadata_rx_vlan_tag.fn) {
		h->len = 2;
		h->opoff = offsetof(struct hr_xdp_metadata_ops, rx_vlan_tag);
		h->bit = HR_RX_HINT_VLAN;
		h->src2 = offsetof(struct hr_rx_hints, vlan_proto);
		h->src3 = offsetof(struct hr_rx_hints, vlan_tci);
	} else {
		return false;
	}
	h->two = h->src3 >= 0;
	return j->fp_fixed && jb_fp_arg(&j->facts, pc, 2, h->len, &h->o2) &&
	       (!h->two || jb_fp_arg(&j->facts, pc, 3, h->len, &h->o3));
}

/*
 * The RX metadata kfuncs (kfuncs_xdp.c) with their out pointers on this
 * frame's stack, so that hr_run_mem() accepts them; no BPF register is
 * read (the slots are known). Hot path: run->rx_hints_ok has the hint's
 * bit, so run->rx_hints has it present and supported (hr_xdp_ctx_hints
 * sets both from the same hints, which do not change during the run):
 * the kfunc's first branch gives 0 and the values, moved straight to the
 * slots. Cold path, the kfunc's steps in its order: run->rx_hints not
 * NULL: -EOPNOTSUPP without the supported bit, -ENODATA without the
 * present bit, else the values and 0 (hr_rx_hint_get()); NULL: run->priv's
 * xdp_buff, its rxq's meta_ops (-EOPNOTSUPP where one is missing), the
 * device's op called directly into a scratch slot that holds the
 * program's values, all copied back after the call.
 */
static bool inline_hint(struct jit *j, uint32_t pc)
{
	struct hint_call h;
	uint32_t eop, done, cold, ops, nodata;

	if (!hint_call(j, pc, &h))
		return false;
	done = new_label(j);
	cold = new_label(j);
	op_rm(j, false, false, 0xf6, 1, 0, RUN, OFF_RX_HINTS_OK); /* test */
	emit1(j, (uint8_t)h.bit);
	jcc_to(j, CC_E, cold);
	op_rm(j, true, false, 0x8b, 1, ADDR, RUN, OFF_RX_HINTS);
	copy_vals(j, ADDR, h.src2, h.o2, h.src3, h.o3, h.len);
	op_rr(j, false, false, 0x31, 1, RAX, RAX);
	bind(j, done);

	j->cur = 1;
	bind(j, cold);
	ops = new_label(j);
	eop = new_label(j);
	nodata = new_label(j);
	load_or_null(j, ADDR, RUN, OFF_RX_HINTS, ops); /* r11 = rx_hints */
	op_rm(j, false, false, 0xf6, 1, 0, ADDR,
	      offsetof(struct hr_rx_hints, supported)); /* test byte */
	emit1(j, (uint8_t)h.bit);
	jcc_to(j, CC_E, eop);
	op_rm(j, false, false, 0xf6, 1, 0, ADDR,
	      offsetof(struct hr_rx_hints, present));
	emit1(j, (uint8_t)h.bit);
	jcc_to(j, CC_E, nodata);
	copy_vals(j, ADDR, h.src2, h.o2, h.src3, h.o3, h.len);
	op_rr(j, false, false, 0x31, 1, RAX, RAX);
	jmp_to(j, done);
	bind(j, nodata);
	mov_ri(j, RAX, (uint64_t)(int64_t)-ENODATA);
	jmp_to(j, done);

	/* r11 = ((struct hr_xdp_ctx *)run->priv)->xdp, r10 = the op. */
	bind(j, ops);
	load_or_null(j, TMP, RUN, OFF_PRIV, eop);
	load_or_null(j, ADDR, TMP, offsetof(struct hr_xdp_ctx, xdp), eop);
	load_or_null(j, TMP, ADDR, offsetof(struct hr_xdp_buff, rxq), eop);
	load_or_null(j, TMP, TMP, offsetof(struct hr_rxq_info, meta_ops), eop);
	load_or_null(j, TMP, TMP, h.opoff, eop);
	/* op(xdp, rsp + 0, rsp + 4): the slot below the saved args, holding
	 * the program's values first and copied back whatever the op
	 * returns (it writes what the driver writes, on failure too). */
	save_args(j);
	copy_in(j, h.o2, 0, h.len);
	if (h.two)
		copy_in(j, h.o3, 4, h.len);
	mov_rr(j, true, RDI, ADDR);
	lea(j, RSI, RSP, 0);
	lea(j, RDX, RSP, 4);
	op_rr(j, false, false, 0xff, 1, 2, TMP); /* call r10 */
	op_rr(j, true, false, 0x63, 1, RAX, RAX); /* movsxd rax, eax */
	copy_vals(j, RSP, 0, h.o2, h.two ? 4 : -1, h.o3, h.len);
	restore_args(j);
	jmp_to(j, done);
	bind(j, eop);
	mov_ri(j, RAX, (uint64_t)(int64_t)-EOPNOTSUPP);
	jmp_to(j, done);
	j->cur = 0;
	return true;
}

/* The value r2 holds at @pc when the analysis knows it is a constant. */
static bool const_r2(const struct jit *j, uint32_t pc, uint64_t *v)
{
	const struct jb_reg *r = jb_reg_at(&j->facts, pc, 2);

	if (!r || r->t != JB_SCALAR || r->a != r->b)
		return false;
	*v = r->a;
	return true;
}

/*
 * bpf_xdp_adjust_meta (helpers_xdp.c, hr_xdp_adjust_meta() in
 * core/xdp.c), its every step inline when run->priv and its xdp_buff are
 * set (else the C call): data_meta > data (no metadata support):
 * -ENOTSUPP; meta = data_meta + (int)r2 below data_hard_start + 40 or
 * above data (signed 64-bit, as the C): -EINVAL; data - meta not a
 * multiple of 4 or above 252: -EACCES; else xdp->data_meta = meta and
 * what hr_xdp_ctx_sync() then sets: the context's data, data_end and
 * data_meta, run->pkt_lo = meta (now <= data) and pkt_hi = data_end; 0.
 * Only rax and the scratch registers change; the helper never aborts or
 * unwinds, so the after-call tests have nothing to see.
 */
static bool inline_adjust_meta(struct jit *j, uint32_t pc)
{
	uint32_t call, done;
	int32_t md = (int32_t)offsetof(struct hr_xdp_ctx, md);
	uint64_t r2 = 0;
	bool k;

	if (j->vm->calls[pc] != hr_helper_xdp_adjust_meta.fn)
		return false;
	k = const_r2(j, pc, &r2);
	call = new_label(j);
	done = new_label(j);
	/* r9 = the context (run->priv), r11 = its xdp_buff. */
	load_or_null(j, TMP2, RUN, OFF_PRIV, call);
	load_or_null(j, ADDR, TMP2, offsetof(struct hr_xdp_ctx, xdp), call);
	/* data_meta > data: unsupported. */
	op_rm(j, true, false, 0x8b, 1, RAX, ADDR,
	      offsetof(struct hr_xdp_buff, data_meta));
	op_rm(j, true, false, 0x8b, 1, TMP, ADDR,
	      offsetof(struct hr_xdp_buff, data));
	op_rr(j, true, false, 0x39, 1, TMP, RAX); /* cmp rax, r10 */
	jcc_to(j, CC_A, ret_stub(j, -HR_ENOTSUPP, done));
	/* rax = meta; meta < data_hard_start + 40 or > data: -EINVAL. A
	 * known offset <= 0 cannot fail the second: data_meta <= data was
	 * just tested. */
	if (k) {
		alu_ri(j, true, 0, RAX, (int32_t)(uint32_t)r2);
	} else {
		op_rr(j, true, false, 0x63, 1, TMP, bpf2x[2]); /* movsxd */
		op_rr(j, true, false, 0x01, 1, TMP, RAX);
	}
	op_rm(j, true, false, 0x8b, 1, TMP, ADDR,
	      offsetof(struct hr_xdp_buff, data_hard_start));
	alu_ri(j, true, 0, TMP, (int32_t)sizeof(struct hr_xdp_frame));
	op_rr(j, true, false, 0x39, 1, TMP, RAX);
	jcc_to(j, CC_L, ret_stub(j, -EINVAL, done));
	op_rm(j, true, false, 0x8b, 1, TMP, ADDR,
	      offsetof(struct hr_xdp_buff, data));
	if (!k || (int32_t)(uint32_t)r2 > 0) {
		op_rr(j, true, false, 0x39, 1, TMP, RAX);
		jcc_to(j, CC_G, ret_stub(j, -EINVAL, done));
	}
	/* r10 = data - meta >= 0: & 3 or > 252: -EACCES. */
	op_rr(j, true, false, 0x29, 1, RAX, TMP);
	op_rr(j, false, true, 0xf6, 1, 0, TMP); /* test r10b, 3 */
	emit1(j, 3);
	jcc_to(j, CC_NE, ret_stub(j, -EACCES, done));
	alu_ri(j, true, 7, TMP, HR_XDP_META_MAX);
	jcc_to(j, CC_A, ret_stub(j, -EACCES, done));
	/* The new data_meta, and what hr_xdp_ctx_sync() would change of
	 * the context and the packet window: data and data_end stay. */
	op_rm(j, true, false, 0x89, 1, RAX, ADDR,
	      offsetof(struct hr_xdp_buff, data_meta));
	op_rm(j, false, false, 0x89, 1, RAX, TMP2,
	      md + (int32_t)offsetof(struct xdp_md, data_meta));
	op_rm(j, true, false, 0x89, 1, RAX, RUN, OFF_PKT_LO);
	op_rr(j, false, false, 0x31, 1, RAX, RAX);
	bind(j, done);

	j->cur = 1;
	bind(j, call);
	/* r2 may not have been computed (call_reads): it is the constant. */
	if (k)
		mov_ri(j, bpf2x[2], r2);
	emit_helper(j, pc, j->vm->calls[pc]);
	jmp_to(j, done);
	j->cur = 0;
	return true;
}

/*
 * Checked mode, before a helper or kfunc call: what the analysis says of
 * r1..r5 here (a map constant, this frame's r10 + c, a constant, the
 * context), the facts the inlined calls are built on, tested on the
 * registers, and r10 tested to be the current frame's top (the stack
 * rule); any that fails is HR_ABORT_JIT_CHECK.
 */
static void chk_call_facts(struct jit *j, uint32_t pc)
{
	uint32_t bad = 0;
	int reg;

	if (!j->chk)
		return;
	bad = abort_stub(j, pc, HR_ABORT_JIT_CHECK, false, pc);
	if (j->need_fp && j->fp_fixed) {
		/* r11 = stack_hi - 512 * depth */
		op_rm(j, false, false, 0x8b, 1, TMP, RUN, OFF_DEPTH);
		op_rr(j, true, false, 0xc1, 1, 4, TMP); /* shl r10, 9 */
		emit1(j, 9);
		lea(j, R11, RUN, OFF_STACK_HI);
		op_rr(j, true, false, 0x29, 1, TMP, R11); /* sub r11, r10 */
		op_rr(j, true, false, 0x39, 1, R11, RBP); /* cmp rbp, r11 */
		jcc_to(j, CC_NE, bad);
	}
	for (reg = 1; reg <= 5; reg++) {
		const struct jb_reg *r = jb_reg_at(&j->facts, pc, reg);
		/* The test hook's wrong fact: r1 is the context. */
		static const struct jb_reg wrong_ctx = { .t = JB_CTX };

		if (reg == 1 && wrong_proofs)
			r = &wrong_ctx;
		if (!r)
			continue;
		switch (r->t) {
		case JB_MAP:
			mov_ri(j, R11, r->a);
			break;
		case JB_SCALAR:
			if (r->a != r->b)
				continue;
			mov_ri(j, R11, r->a);
			break;
		case JB_FP:
			if (!j->fp_fixed || !j->need_fp ||
			    !is_simm32((int64_t)r->a))
				continue;
			lea(j, R11, RBP, (int32_t)(int64_t)r->a);
			break;
		case JB_CTX:
			op_rm(j, true, false, 0x8b, 1, R11, RUN, OFF_CTX);
			break;
		default:
			continue;
		}
		op_rr(j, true, false, 0x39, 1, R11, bpf2x[reg]);
		jcc_to(j, CC_NE, bad);
	}
}

static void emit_call(struct jit *j, uint32_t pc, const struct hr_insn *insn)
{
	bool wide = HR_CLASS(insn->code) == HR_JMP;
	const struct hr_vm_prog *vm = j->vm;
	hr_helper_fn fn = NULL;

	if (wide && insn->src == HR_CALL_LOCAL) {
		emit_local_call(j, pc, insn);
		return;
	}
	if (wide && HR_SRC(insn->code) == HR_X) {
		emit_callx(j, pc, insn);
		return;
	}
	if (vm->calls)
		fn = vm->calls[pc];
	if (!fn || !wide) {
		jmp_to(j, abort_stub(j, pc, HR_ABORT_UNKNOWN_CALL, false, pc));
		return;
	}
	chk_call_facts(j, pc);
	if (inline_array_lookup(j, pc) || direct_hash_lookup(j, pc) ||
	    inline_hint(j, pc) || inline_adjust_meta(j, pc))
		return;
	emit_helper(j, pc, fn);
}

/* ret, then int3: no straight-line speculation past it (AMD runs the
 * bytes after a ret speculatively; the cold stubs follow). */
static void emit_ret(struct jit *j)
{
	emit1(j, 0xc3);
	emit1(j, 0xcc);
}

/* Pops what the prologue pushed and returns (r0 is in rax). */
static const int8_t saved_order[] = { RBP, RBX, R12, R13, R14, R15 };

static void emit_pop_return(struct jit *j)
{
	int i;

	if (j->pad)
		alu_ri(j, true, 0, RSP, j->pad);
	for (i = (int)sizeof(saved_order) - 1; i >= 0; i--)
		if (j->saved & (1u << saved_order[i]))
			pop(j, saved_order[i]);
	emit_ret(j);
}

/* The frame check, then the return: rsp is where the prologue left it
 * and the canary above it is intact (l_frame_bad tells which broke). */
static void emit_frame_check(struct jit *j)
{
	if (!j->need_run || !j->frame_check)
		return;
	op_rm(j, true, false, 0x3b, 1, RSP, RUN, OFF_JIT_SP);
	jcc_to(j, CC_NE, j->l_frame_bad);
	mov_ri(j, R11, j->canary);
	op_rm(j, true, false, 0x39, 1, R11, RSP, j->pad - 8);
	jcc_to(j, CC_NE, j->l_frame_bad);
}

static void emit_return(struct jit *j)
{
	emit_frame_check(j);
	emit_pop_return(j);
}

static void emit_exit(struct jit *j)
{
	if (!j->local_calls) {
		/* Always the main program's exit. */
		emit_return(j);
		return;
	}
	alu_mi(j, false, 7, RUN, OFF_DEPTH, 0);
	jcc_to(j, CC_E, j->l_epilogue);
	alu_mi(j, false, 5, RUN, OFF_DEPTH, 1);
	emit_ret(j);
}

static int jump_cc(uint8_t op)
{
	switch (op) {
	case HR_JEQ:
		return CC_E;
	case HR_JNE:
	case HR_JSET:
		return CC_NE;
	case HR_JGT:
		return CC_A;
	case HR_JGE:
		return CC_AE;
	case HR_JLT:
		return CC_B;
	case HR_JLE:
		return CC_BE;
	case HR_JSGT:
		return CC_G;
	case HR_JSGE:
		return CC_GE;
	case HR_JSLT:
		return CC_L;
	case HR_JSLE:
		return CC_LE;
	}
	return -1;
}

static void emit_jmp(struct jit *j, uint32_t pc, const struct hr_insn *insn);

/* A known constant in BPF register @reg entering @pc. */
static bool const_reg(struct jit *j, uint32_t pc, int reg, uint64_t *v)
{
	const struct jb_reg *r = jb_reg_at(&j->facts, pc, reg);

	if (!r || r->t != JB_SCALAR || r->a != r->b)
		return false;
	*v = r->a;
	return true;
}

/*
 * A conditional jump on registers the analysis knows to be constants
 * (a .rodata setting, most often): left out when never taken, a plain
 * jump when always. True when done so.
 */
static bool const_jmp(struct jit *j, uint32_t pc, const struct hr_insn *insn)
{
	bool wide = HR_CLASS(insn->code) == HR_JMP;
	struct hr_insn ja = { .code = HR_JMP | HR_JA, .off = insn->off };
	uint64_t d, s;

	if (!j->dce || jump_cc(HR_OP(insn->code)) < 0 ||
	    !const_reg(j, pc, insn->dst, &d))
		return false;
	if (HR_SRC(insn->code) == HR_K)
		s = (uint64_t)(int64_t)insn->imm;
	else if (!const_reg(j, pc, insn->src, &s))
		return false;
	j->nfused++;
	if (hr_jump_taken(HR_OP(insn->code), d, s, wide))
		emit_jmp(j, pc, &ja);
	return true;
}

static void emit_jmp(struct jit *j, uint32_t pc, const struct hr_insn *insn)
{
	bool wide = HR_CLASS(insn->code) == HR_JMP;
	uint8_t op = HR_OP(insn->code);
	int dst = bpf2x[insn->dst], cc;
	int64_t delta;
	uint32_t t, skip;

	if (op == HR_EXIT) {
		emit_exit(j);
		return;
	}
	if (op == HR_CALL) {
		emit_call(j, pc, insn);
		return;
	}
	if (op == HR_JA) {
		delta = wide ? insn->off : insn->imm;
		t = (uint32_t)((int64_t)pc + 1 + delta);
		if (delta < 0)
			budget_step(j, pc);
		jmp_to(j, target_label(j, t));
		return;
	}
	cc = jump_cc(op);
	if (cc < 0)
		return; /* never taken in the interpreter */
	if (const_jmp(j, pc, insn))
		return;
	if (HR_SRC(insn->code) == HR_X)
		op_rr(j, wide, false, op == HR_JSET ? 0x85 : 0x39, 1,
		      bpf2x[insn->src], dst);
	else if (op == HR_JSET) {
		op_rr(j, wide, false, 0xf7, 1, 0, dst);
		emit4(j, (uint32_t)insn->imm);
	} else
		alu_ri(j, wide, 7, dst, insn->imm);
	delta = insn->off;
	t = (uint32_t)((int64_t)pc + 1 + delta);
	if (delta >= 0) {
		jcc_to(j, cc, target_label(j, t));
		return;
	}
	skip = new_label(j);
	jcc_to(j, cc ^ 1, skip);
	budget_step(j, pc);
	jmp_to(j, target_label(j, t));
	bind(j, skip);
}

static void emit_insn(struct jit *j, uint32_t pc)
{
	const struct hr_vm_prog *vm = j->vm;
	const struct hr_insn *insn = &vm->insns[pc];

	/* run->pkt_dirty = 1 before anything that may write the packet
	 * (plan() made the run's register hold the run for it). */
	if (!jb_insn_pkt_ro(&j->facts, insn, pc) && !j->dirty_marked) {
		op_rm(j, false, false, 0xc6, 1, 0, RUN, OFF_PKT_DIRTY);
		emit1(j, 1);
		j->dirty_marked = true;
	}
	switch (HR_CLASS(insn->code)) {
	case HR_ALU:
	case HR_ALU64:
		emit_alu(j, pc, insn);
		break;
	case HR_LDX:
		emit_ldx(j, pc, insn);
		break;
	case HR_ST:
	case HR_STX:
		emit_st(j, pc, insn);
		break;
	case HR_LD:
		if (insn->code != HR_OPC_LDDW || pc + 1 >= vm->cnt) {
			jmp_to(j,
			       abort_stub(j, pc, HR_ABORT_BAD_INSN, false, pc));
			break;
		}
		/* A function address is its instruction index. */
		if (insn->src == HR_PSEUDO_FUNC)
			mov_ri(j, bpf2x[insn->dst],
			       (uint64_t)(pc + 1 + (int64_t)insn->imm));
		else
			mov_ri(j, bpf2x[insn->dst], hr_insn_lddw_value(insn));
		break;
	default:
		emit_jmp(j, pc, insn);
		break;
	}
}

static bool dead_alu(const struct jit *j, uint32_t pc);
static bool dead_lddw(const struct jit *j, uint32_t pc);

/* Prologue, epilogue and the shared out-of-line routines. */

/* The interpreter, for an entry whose r1 is not run->ctx when the code
 * relies on it: rdi = r1, rsi = r2, rdx = run. */
static uint64_t hr_jit_other_ctx(uint64_t r1, uint64_t r2, struct hr_run *run)
{
	return hr_interp_run(run, r1, r2);
}

static void emit_prologue(struct jit *j)
{
	unsigned int i;
	uint32_t other = new_label(j);

	if (j->ctx_guard) {
		uint32_t body = new_label(j);

		/* Runs on run->ctx itself enter at the start of the code,
		 * page-aligned (hr_jit_run_ctx); every other entry is this
		 * out-of-line test: r1 == run->ctx != NULL, or the
		 * interpreter runs it. */
		bind(j, body);
		j->cur = 1;
		j->l_checked = new_label(j);
		bind(j, j->l_checked);
		op_rr(j, true, false, 0x85, 1, RDI, RDI);
		jcc_to(j, CC_E, other);
		op_rm(j, true, false, 0x3b, 1, RDI, RDX, OFF_CTX);
		jcc_to(j, CC_NE, other);
		jmp_to(j, body);
		j->cur = 0;
	}
	for (i = 0; i < sizeof(saved_order); i++)
		if (j->saved & (1u << saved_order[i]))
			push(j, saved_order[i]);
	if (j->need_run) {
		/* The canary right below the saved registers, then the
		 * stack pointer every exit must find (and aborts unwind to). */
		if (j->frame_check) {
			mov_ri(j, R11, j->canary);
			push(j, R11);
			if (j->pad > 8)
				alu_ri(j, true, 5, RSP, j->pad - 8);
		} else if (j->pad) {
			alu_ri(j, true, 5, RSP, j->pad);
		}
		mov_rr(j, true, RUN, RDX);
		if (!j->light) {
			op_rm(j, true, false, 0x89, 1, RSP, RUN, OFF_JIT_SP);
			op_rm(j, false, false, 0xc7, 1, 0, RUN, OFF_DEPTH);
			emit4(j, 0);
		}
	}
	if (j->need_fp)
		lea(j, RBP, RDX, OFF_STACK_HI);
	if (j->calls_cb) {
		/* Callbacks (bpf_loop ...) run under the interpreter. */
		mov_ri(j, TMP, (uintptr_t)hr_interp_callback);
		op_rm(j, true, false, 0x89, 1, TMP, RUN, OFF_CALLBACK);
	}
	for (i = 0; i < HR_NREGS; i++)
		if (j->zero & (1u << i))
			op_rr(j, false, false, 0x31, 1, bpf2x[i], bpf2x[i]);

	j->cur = 1;
	bind(j, other);
	call_abs_jmp(j, hr_jit_other_ctx);
	j->cur = 0;
}

static void emit_tail(struct jit *j)
{
	j->cur = 1;
	/* Fell off the end of the program. */
	bind(j, j->l_fall_off);
	jmp_to(j, abort_stub(j, j->vm->cnt, HR_ABORT_JUMP, false, j->vm->cnt));

	/* Drop every call record: back to the stack pointer the prologue
	 * saved (whatever run->depth says; callbacks and helpers share it),
	 * at depth 0, then return abort_ret or r0. */
	bind(j, j->l_abort_exit);
	mov_ri(j, RAX, j->vm->abort_ret);
	bind(j, j->l_unwind_exit);
	if (j->need_run && !j->light) {
		op_rm(j, true, false, 0x8b, 1, RSP, RUN, OFF_JIT_SP);
		op_rm(j, false, false, 0xc7, 1, 0, RUN, OFF_DEPTH);
		emit4(j, 0);
	}
	bind(j, j->l_epilogue);
	emit_frame_check(j);
	bind(j, j->l_popped);
	emit_pop_return(j);

	/* An exit with rsp off its frame: back to the saved one; a run whose
	 * canary is gone there cannot return (hr_jit_frame_smashed). */
	bind(j, j->l_frame_bad);
	if (j->need_run && j->frame_check) {
		uint32_t smashed = new_label(j);

		op_rm(j, true, false, 0x8b, 1, RSP, RUN, OFF_JIT_SP);
		mov_ri(j, R11, j->canary);
		op_rm(j, true, false, 0x39, 1, R11, RSP, j->pad - 8);
		jcc_to(j, CC_NE, smashed);
		mov_rr(j, true, RDI, RUN);
		call_abs(j, hr_jit_frame_bad);
		mov_ri(j, RAX, j->vm->abort_ret);
		jmp_to(j, j->l_popped);
		bind(j, smashed);
		mov_rr(j, true, RDI, RUN);
		call_abs(j, hr_jit_frame_smashed);
		emit1(j, 0x0f); /* ud2: never returns */
		emit1(j, 0x0b);
	}

	/* A tail call to follow: every BPF register is in its host
	 * register here (the call reads them all, see insn_reads()), at
	 * depth 0 with rsp at the entry frame. */
	bind(j, j->l_tail_exit);
	if (j->tail) {
		unsigned int i;

		for (i = 0; i < HR_NREGS; i++)
			op_rm(j, true, false, 0x89, 1, bpf2x[i], RUN,
			      OFF_TAIL_REGS + 8 * (int32_t)i);
		jmp_to(j, j->l_epilogue);
	}

	/* Slow memory check: ADDR = address, TMP = packed pc/write/size;
	 * every BPF register survives; an abort leaves through
	 * l_slow_fail. */
	bind(j, j->l_slow);
	push(j, RAX);
	push(j, RDI);
	push(j, RSI);
	push(j, RDX);
	push(j, RCX);
	push(j, R8);
	push(j, R11);
	mov_rr(j, true, RDI, RUN);
	mov_rr(j, true, RSI, ADDR);
	mov_rr(j, false, RDX, TMP);
	call_abs(j, hr_jit_mem_slow);
	op_rr(j, false, false, 0x85, 1, RAX, RAX);
	pop(j, R11);
	pop(j, R8);
	pop(j, RCX);
	pop(j, RDX);
	pop(j, RSI);
	pop(j, RDI);
	pop(j, RAX);
	jcc_to(j, CC_NE, j->l_slow_fail);
	emit_ret(j);
	bind(j, j->l_slow_fail);
	alu_ri(j, true, 0, RSP, 8);
	jmp_to(j, j->l_abort_exit);
	j->cur = 0;
}

static int find_targets(struct jit *j)
{
	const struct hr_vm_prog *vm = j->vm;
	uint32_t pc, t;
	int64_t delta;

	j->target = calloc(vm->cnt + 1, sizeof(bool));
	if (!j->target)
		return -ENOMEM;
	j->fp_fixed = jb_fp_fixed(vm);
	for (pc = 0; pc < vm->cnt; pc++) {
		const struct hr_insn *insn = &vm->insns[pc];
		uint8_t cls = HR_CLASS(insn->code), op = HR_OP(insn->code);

		if (cls != HR_JMP && cls != HR_JMP32)
			continue;
		if (op == HR_EXIT)
			continue;
		if (op == HR_CALL) {
			if (cls != HR_JMP || insn->src != HR_CALL_LOCAL)
				continue;
			delta = insn->imm;
		} else if (op == HR_JA && cls == HR_JMP32) {
			delta = insn->imm;
		} else {
			delta = insn->off;
		}
		t = (uint32_t)((int64_t)pc + 1 + delta);
		if (op == HR_CALL)
			t = pc + 1 + (uint32_t)insn->imm;
		if (t < vm->cnt)
			j->target[t] = true;
	}
	return 0;
}

/* BPF registers @insn reads (bit per register). */
static uint16_t insn_reads(const struct hr_insn *insn)
{
	uint8_t cls = HR_CLASS(insn->code), op = HR_OP(insn->code);
	bool x = HR_SRC(insn->code) == HR_X;
	uint16_t m = 0;

	switch (cls) {
	case HR_ALU:
	case HR_ALU64:
		if (op != HR_MOV)
			m |= 1u << insn->dst;
		if (x && op != HR_END)
			m |= 1u << insn->src;
		return m;
	case HR_LDX:
		return 1u << insn->src;
	case HR_ST:
		return 1u << insn->dst;
	case HR_STX:
		m = 1u << insn->dst | 1u << insn->src;
		if (HR_MODE(insn->code) == HR_ATOMIC)
			m |= 1u; /* cmpxchg */
		return m;
	case HR_LD:
		return 0;
	}
	if (op == HR_EXIT)
		return 1u;
	/* A call that may be bpf_tail_call hands every register to the
	 * target (hr_jit_run checks them): it reads all of them. */
	if (op == HR_CALL &&
	    (x || (insn->src == HR_CALL_HELPER && insn->imm == 12)))
		return 0x7ff;
	if (op == HR_CALL) /* r1..r5; a local callee's reads are its own */
		return 0x3e;
	if (op == HR_JA)
		return 0;
	return 1u << insn->dst | (x ? 1u << insn->src : 0);
}

/* BPF registers @insn may write. */
static uint16_t insn_writes(const struct hr_insn *insn)
{
	uint8_t cls = HR_CLASS(insn->code), op = HR_OP(insn->code);

	switch (cls) {
	case HR_ALU:
	case HR_ALU64:
	case HR_LDX:
	case HR_LD:
		return 1u << insn->dst;
	case HR_ST:
	case HR_STX:
		if (HR_MODE(insn->code) != HR_ATOMIC)
			return 0;
		return insn->imm == HR_CMPXCHG ? 1u :
		       insn->imm & HR_FETCH    ? 1u << insn->src :
						 0;
	}
	if (op == HR_CALL)
		return 0x3f;
	return 0;
}

/* Up to two instructions that may run after @pc; returns how many. */
static int successors(const struct hr_vm_prog *vm, uint32_t pc, uint32_t *s)
{
	const struct hr_insn *insn = &vm->insns[pc];
	uint8_t cls = HR_CLASS(insn->code), op = HR_OP(insn->code);
	int n = 0;

	switch (cls) {
	case HR_LD:
		if (insn->code == HR_OPC_LDDW && pc + 1 < vm->cnt)
			s[n++] = pc + 2;
		return n;
	case HR_JMP:
	case HR_JMP32:
		break;
	default:
		s[n++] = pc + 1;
		return n;
	}
	if (op == HR_EXIT)
		return 0;
	if (op == HR_CALL) {
		s[n++] = pc + 1;
		return n;
	}
	if (op == HR_JA) {
		s[n++] = (uint32_t)((int64_t)pc + 1 +
				    (cls == HR_JMP ? insn->off : insn->imm));
		return n;
	}
	s[n++] = (uint32_t)((int64_t)pc + 1 + insn->off);
	s[n++] = pc + 1;
	return n;
}

/*
 * The BPF registers the call at @pc reads: r1..r5 for a C call, but
 * nothing for an inlined hint kfunc (its slots are known at compile time
 * and its cold path passes no BPF register) and only r2 for
 * bpf_xdp_adjust_meta (inline, or its C helper, which reads only r2),
 * nothing when r2 is a known constant (the code then uses the value).
 */
static uint16_t call_reads(const struct jit *j, uint32_t pc)
{
	const struct hr_insn *insn = &j->vm->insns[pc];
	uint16_t r = insn_reads(insn);
	struct hint_call h;
	uint64_t v;

	/* Checked mode tests the facts the inlined code uses on the
	 * registers themselves: they must hold their values. */
	if (r != 0x3e || j->chk) /* callx, bpf_tail_call */
		return r;
	if (hint_call(j, pc, &h))
		return 0;
	if (j->vm->calls && j->vm->calls[pc] == hr_helper_xdp_adjust_meta.fn)
		return const_r2(j, pc, &v) ? 0 : 1u << 2;
	return r;
}

/*
 * Backward liveness into j->live: the registers some run may read, from
 * each pc, before writing them. A call to a local function counts as
 * reading every register (its body sees them); a helper writes only r0
 * (both engines keep r1..r5 across it). Leaves j->live NULL without
 * memory (then everything is live).
 */
static void live_regs(struct jit *j)
{
	const struct hr_vm_prog *vm = j->vm;
	uint16_t *live = calloc(vm->cnt + 1, sizeof(*live)), in, out, r;
	uint32_t pc, s[2];
	bool changed = true, local = false;
	int i, n;

	j->live = live;
	if (!live)
		return;
	while (changed) {
		changed = false;
		for (pc = vm->cnt; pc-- > 0;) {
			const struct hr_insn *insn = &vm->insns[pc];
			uint8_t cls = HR_CLASS(insn->code);
			uint16_t kill = 0;

			out = 0;
			n = successors(vm, pc, s);
			for (i = 0; i < n; i++)
				if (s[i] < vm->cnt)
					out |= live[s[i]];
			r = insn_reads(insn);
			if ((cls == HR_JMP || cls == HR_JMP32) &&
			    HR_OP(insn->code) == HR_CALL) {
				if (insn->src == HR_CALL_LOCAL) {
					r = 0x7ff;
					local = true;
				} else {
					r = cls == HR_JMP ? call_reads(j, pc) :
							    r;
					kill = 1u;
				}
			} else if (cls == HR_ALU || cls == HR_ALU64 ||
				   cls == HR_LDX || cls == HR_LD) {
				kill = insn_writes(insn);
			}
			in = r | (out & ~kill);
			if (in != live[pc]) {
				live[pc] = in;
				changed = true;
			}
		}
	}
	/* A function's exit hands r1..r5 back to its caller, which may
	 * read them: with local calls, keep every result. */
	j->dce = !local && !j->chk;
}

/* The registers some run may read after @pc (before writing them). */
static uint16_t live_out(const struct jit *j, uint32_t pc)
{
	uint32_t s[2];
	uint16_t out = 0;
	int i, n;

	if (!j->live)
		return 0x7ff;
	n = successors(j->vm, pc, s);
	for (i = 0; i < n; i++)
		if (s[i] < j->vm->cnt)
			out |= j->live[s[i]];
	return out;
}

/*
 * Whether the instruction at @pc only computes a register no run reads
 * afterwards: a valid ALU operation (none aborts, none touches memory)
 * whose destination is dead. Skipping it changes nothing any run can
 * see: registers are not part of a run's result, only r0 at the exit,
 * which liveness counts.
 */
static bool dead_alu(const struct jit *j, uint32_t pc)
{
	const struct hr_insn *insn = &j->vm->insns[pc];
	uint8_t cls = HR_CLASS(insn->code);

	if (!j->dce || !j->live || (cls != HR_ALU && cls != HR_ALU64) ||
	    HR_OP(insn->code) > HR_END || insn->dst >= 10)
		return false;
	return !(live_out(j, pc) & (1u << insn->dst));
}

/* The same for an ld_imm64 (a constant, a map or a function address)
 * whose second slot follows it. */
static bool dead_lddw(const struct jit *j, uint32_t pc)
{
	const struct hr_insn *insn = &j->vm->insns[pc];

	if (!j->dce || !j->live || insn->code != HR_OPC_LDDW ||
	    pc + 1 >= j->vm->cnt || insn->dst >= 10)
		return false;
	return !(live_out(j, pc) & (1u << insn->dst));
}

/* Whether the call at @pc never runs a callback: the hint kfuncs and
 * bpf_xdp_adjust_meta (inline, or their C functions, which do not). */
static bool no_callback(const struct jit *j, uint32_t pc)
{
	hr_helper_fn fn = j->vm->calls ? j->vm->calls[pc] : NULL;

	return HR_SRC(j->vm->insns[pc].code) == HR_K && fn &&
	       (fn == hr_kfunc_xdp_metadata_rx_timestamp.fn ||
		fn == hr_kfunc_xdp_metadata_rx_hash.fn ||
		fn == hr_kfunc_xdp_metadata_rx_vlan_tag.fn ||
		fn == hr_helper_xdp_adjust_meta.fn);
}

/* Checked mode tests a call's context facts (chk_call_facts), which hold
 * only on runs that entered with r1 == run->ctx: other runs need the
 * guarded entry, as for an access elided by facts. */
static bool call_ctx_fact(struct jit *j, uint32_t pc)
{
	int reg;

	for (reg = 1; reg <= 5; reg++) {
		const struct jb_reg *r = jb_reg_at(&j->facts, pc, reg);

		if (r && r->t == JB_CTX)
			return true;
	}
	return false;
}

/*
 * Decides, before any code, what the prologue must set up: the run
 * pointer only when some code uses it (a check, a call, the budget, an
 * abort), r10 only when used, the callee-saved registers the code
 * touches, and zeroes only the registers that may be read before they
 * are written (the interpreter starts them at 0).
 */
static void plan(struct jit *j)
{
	const struct hr_vm_prog *vm = j->vm;
	uint16_t used = 0, rd;
	uint32_t pc, t, n = 0;
	unsigned int i;
	bool tail_site = false, el;

	for (pc = 0; pc < vm->cnt; pc++) {
		const struct hr_insn *insn = &vm->insns[pc];
		uint8_t cls = HR_CLASS(insn->code), op = HR_OP(insn->code);
		int64_t delta;

		rd = insn_reads(insn);
		used |= rd | insn_writes(insn);
		if (!jb_insn_pkt_ro(&j->facts, insn, pc))
			j->need_dirty = true; /* emit_insn marks pkt_dirty */
		switch (cls) {
		case HR_ALU:
		case HR_ALU64:
			if (op > HR_END)
				j->need_run = true;
			continue;
		case HR_LDX:
			el = check_elided(j, pc, insn->src, insn->off,
					  hr_size_bytes(insn->code), false,
					  false);
			if (!el || j->chk)
				j->need_run = j->need_fp = true;
			if (el && by_facts(j, pc, insn->src, insn->off,
					   hr_size_bytes(insn->code), false))
				j->ctx_guard = true;
			continue;
		case HR_ST:
		case HR_STX:
			el = HR_MODE(insn->code) != HR_ATOMIC &&
			     check_elided(j, pc, insn->dst, insn->off,
					  hr_size_bytes(insn->code), true,
					  false);
			if (!el || j->chk)
				j->need_run = j->need_fp = true;
			if (el && by_facts(j, pc, insn->dst, insn->off,
					   hr_size_bytes(insn->code), true))
				j->ctx_guard = true;
			continue;
		case HR_LD:
			if (insn->code != HR_OPC_LDDW || pc + 1 >= vm->cnt)
				j->need_run = true;
			else if (!j->target[pc + 1])
				pc++;
			else
				j->need_run = true;
			continue;
		}
		if (op == HR_EXIT)
			continue;
		if (op == HR_CALL) {
			j->need_run = true;
			if (cls == HR_JMP && insn->src == HR_CALL_LOCAL)
				j->local_calls = j->need_fp = true;
			else
				j->calls_out = true;
			if (cls != HR_JMP || insn->src != HR_CALL_LOCAL)
				j->calls_cb |= !no_callback(j, pc);
			if (insn_reads(insn) == 0x7ff)
				tail_site = true;
			if (j->chk && call_ctx_fact(j, pc))
				j->ctx_guard = true;
			continue;
		}
		if (op == HR_JA)
			delta = cls == HR_JMP ? insn->off : insn->imm;
		else if (jump_cc(op) < 0)
			continue;
		else
			delta = insn->off;
		t = (uint32_t)((int64_t)pc + 1 + delta);
		if (delta < 0 || t >= vm->cnt)
			j->need_run = true;
	}
	if (vm->cnt) {
		const struct hr_insn *last = &vm->insns[vm->cnt - 1];

		if (!(last->code == (HR_JMP | HR_EXIT) ||
		      last->code == (HR_JMP | HR_JA) ||
		      last->code == (HR_JMP32 | HR_JA)) ||
		    (vm->cnt >= 2 && hr_insn_is_lddw(&vm->insns[vm->cnt - 2])))
			j->need_run = true;
	} else {
		j->need_run = true;
	}
	j->tail = tail_site && !j->local_calls;
	/* Every abort, call and budget check set need_run above. */
	j->light = j->need_dirty && !j->need_run && !j->frame_check;
	j->need_run |= j->need_dirty;
	if (used & (1u << 10))
		j->need_fp = true;
	/* r0, r3..r9 that some instruction names and may read first. */
	j->zero = (j->live ? j->live[0] : 0x7ff) & used & 0x3f9;
	if (used & (1u << 6))
		j->saved |= 1u << RBX;
	if (used & (1u << 7))
		j->saved |= 1u << R13;
	if (used & (1u << 8))
		j->saved |= 1u << R14;
	if (used & (1u << 9))
		j->saved |= 1u << R15;
	if (j->need_fp)
		j->saved |= 1u << RBP;
	if (j->need_run)
		j->saved |= 1u << RUN;
	for (i = 0; i < 16; i++)
		n += (j->saved >> i) & 1;
	/* Code that may call out or abort has the canary slot below the
	 * pushes and keeps rsp 16-aligned at every boundary. */
	if (j->frame_check)
		j->pad = j->need_run ? (n & 1 ? 16 : 8) : 0;
	else
		j->pad = j->need_run && !(n & 1) ? 8 : 0;
}

/*
 * Fusions of the shapes clang emits, each only where the instructions it
 * replaces leave nothing another instruction could see: no jump lands
 * inside the run, the registers it no longer writes are dead after it
 * (live_out), and every access it merges was proven (so none can abort,
 * at whichever pc). Off in checked mode (j->dce), which compiles each
 * instruction as it is.
 */

/* @insn is a BPF_LDX of @size bytes, plain (not sign-extending). */
static bool is_ldx(const struct hr_insn *insn, int size)
{
	return HR_CLASS(insn->code) == HR_LDX &&
	       HR_MODE(insn->code) == HR_MEM &&
	       hr_size_bytes(insn->code) == size;
}

/* @insn is dst OP= imm (@op) or dst OP= src, 32- or 64-bit. */
static bool is_alu(const struct hr_insn *insn, uint8_t op, uint8_t src)
{
	uint8_t cls = HR_CLASS(insn->code);

	return (cls == HR_ALU || cls == HR_ALU64) && HR_OP(insn->code) == op &&
	       HR_SRC(insn->code) == src && !insn->off;
}

/* No jump lands on pc + 1 .. pc + n - 1. */
static bool straight(const struct jit *j, uint32_t pc, uint32_t n)
{
	uint32_t i;

	if (pc + n > j->vm->cnt)
		return false;
	for (i = 1; i < n; i++)
		if (j->target[pc + i])
			return false;
	return true;
}

/* a = *(u8 *)(b + k + 1); a <<= 8; c = *(u8 *)(b + k); a |= c: the
 * little-endian u16 at b + k, one movzwl (c dead after). */
static bool fuse_u16_load(struct jit *j, uint32_t pc)
{
	const struct hr_insn *in = &j->vm->insns[pc];
	int a, b, c;

	if (!straight(j, pc, 4))
		return false;
	a = in[0].dst;
	b = in[0].src;
	c = in[2].dst;
	if (!is_ldx(&in[0], 1) || !is_ldx(&in[2], 1) ||
	    !is_alu(&in[1], HR_LSH, HR_K) || in[1].imm != 8 || in[1].dst != a ||
	    !is_alu(&in[3], HR_OR, HR_X) || in[3].dst != a || in[3].src != c ||
	    in[2].src != b || a == b || c == a || a >= 10 || c >= 10 ||
	    in[0].off != in[2].off + 1 || (live_out(j, pc + 3) & (1u << c)) ||
	    !check_elided(j, pc, b, in[0].off, 1, false, false) ||
	    !check_elided(j, pc + 2, b, in[2].off, 1, false, false) ||
	    !check_elided(j, pc, b, in[2].off, 2, false, false))
		return false;
	emit_load(j, 2, false, bpf2x[a], bpf2x[b], in[2].off);
	return true;
}

/* x = K; if K OP y goto T: compare y with K, x dead after. */
static bool fuse_const_cmp(struct jit *j, uint32_t pc)
{
	static const uint8_t swapped[16] = {
		[HR_JEQ >> 4] = HR_JEQ,	  [HR_JNE >> 4] = HR_JNE,
		[HR_JSET >> 4] = HR_JSET, [HR_JGT >> 4] = HR_JLT,
		[HR_JLT >> 4] = HR_JGT,	  [HR_JGE >> 4] = HR_JLE,
		[HR_JLE >> 4] = HR_JGE,	  [HR_JSGT >> 4] = HR_JSLT,
		[HR_JSLT >> 4] = HR_JSGT, [HR_JSGE >> 4] = HR_JSLE,
		[HR_JSLE >> 4] = HR_JSGE,
	};
	const struct hr_insn *in = &j->vm->insns[pc];
	struct hr_insn cmp;
	uint8_t cls, op;

	if (!straight(j, pc, 2))
		return false;
	cmp = in[1];
	cls = HR_CLASS(in[1].code);
	op = HR_OP(in[1].code);
	if (in[0].code != (HR_ALU64 | HR_MOV | HR_K) || in[0].off ||
	    (cls != HR_JMP && cls != HR_JMP32) || HR_SRC(in[1].code) != HR_X ||
	    in[1].dst != in[0].dst || in[1].src == in[0].dst ||
	    in[1].src >= 10 || in[0].dst >= 10 || !swapped[op >> 4] ||
	    (live_out(j, pc + 1) & (1u << in[0].dst)))
		return false;
	cmp.code = (uint8_t)(cls | swapped[op >> 4] | HR_K);
	cmp.dst = in[1].src;
	cmp.src = 0;
	cmp.imm = in[0].imm;
	emit_jmp(j, pc + 1, &cmp);
	return true;
}

/* x += K; y = *(x + off) with x dead after (y == x included): the load
 * from x + K + off, the add left out. */
static bool fuse_add_load(struct jit *j, uint32_t pc)
{
	const struct hr_insn *in = &j->vm->insns[pc];
	int x, size, y;
	int64_t disp;

	if (!straight(j, pc, 2))
		return false;
	x = in[0].dst;
	size = hr_size_bytes(in[1].code);
	y = in[1].dst;
	disp = (int64_t)in[0].imm + in[1].off;
	if (in[0].code != (HR_ALU64 | HR_ADD | HR_K) || in[0].off ||
	    !is_ldx(&in[1], size) || in[1].src != x || x >= 10 || y >= 10 ||
	    !is_simm32(disp) || (y != x && (live_out(j, pc + 1) & (1u << x))) ||
	    !check_elided(j, pc + 1, x, in[1].off, size, false, false))
		return false;
	emit_load(j, size, false, bpf2x[y], bpf2x[x], (int32_t)disp);
	return true;
}

/* One of the fusions above at @pc: the number of instructions it
 * replaced, 0 for none. */
static uint32_t fuse(struct jit *j, uint32_t pc)
{
	if (!j->dce || !j->live)
		return 0;
	if (fuse_u16_load(j, pc))
		return 4;
	if (fuse_const_cmp(j, pc))
		return 2;
	if (fuse_add_load(j, pc))
		return 2;
	return 0;
}

static int emit_program(struct jit *j)
{
	const struct hr_vm_prog *vm = j->vm;
	uint32_t pc, i, n;

	for (i = 0; i < vm->cnt; i++)
		new_label(j); /* label i is pc i */
	j->l_abort_exit = new_label(j);
	j->l_epilogue = new_label(j);
	j->l_unwind_exit = new_label(j);
	j->l_slow = new_label(j);
	j->l_slow_fail = new_label(j);
	j->l_fall_off = new_label(j);
	j->l_tail_exit = new_label(j);
	j->l_frame_bad = new_label(j);
	j->l_popped = new_label(j);
	if (j->nomem)
		return -ENOMEM;
	plan(j);
	emit_prologue(j);
	for (pc = 0; pc < vm->cnt; pc++) {
		const struct hr_insn *in = &vm->insns[pc];

		bind(j, pc);
		if (!pc || j->target[pc])
			j->dirty_marked = false;
		n = fuse(j, pc);
		if (n) {
			j->nfused++;
			while (--n)
				bind(j, ++pc);
			continue;
		}
		/* rX = rY; rX += K as one lea, when nothing jumps between. */
		if (pc + 1 < vm->cnt &&
		    in->code == (HR_ALU64 | HR_MOV | HR_X) && !in->off &&
		    in[1].code == (HR_ALU64 | HR_ADD | HR_K) &&
		    in[1].dst == in->dst && !j->target[pc + 1]) {
			if (!dead_alu(j, pc + 1))
				lea(j, bpf2x[in->dst], bpf2x[in->src],
				    in[1].imm);
			bind(j, ++pc);
			continue;
		}
		if (dead_alu(j, pc))
			continue;
		if (!dead_lddw(j, pc))
			emit_insn(j, pc);
		if (!hr_insn_is_lddw(&vm->insns[pc]) || pc + 1 >= vm->cnt)
			continue;
		/* The second slot runs only when jumped into, as its own
		 * (invalid) instruction. */
		pc++;
		if (!j->target[pc]) {
			bind(j, pc);
			continue;
		}
		jmp_to(j, pc + 1 < vm->cnt ? pc + 1 : j->l_fall_off);
		bind(j, pc);
		emit_insn(j, pc);
	}
	jmp_to(j, j->l_fall_off);
	emit_tail(j);
	return j->nomem ? -ENOMEM : 0;
}

/* After the first pass: which jump sites fit rel8; then resets the code
 * for the second pass. */
static int mark_short(struct jit *j)
{
	uint32_t i;

	if (!j->short_ok) {
		j->capsites = j->nsites;
		j->short_ok = calloc(j->nsites ? j->nsites : 1, 1);
		if (!j->short_ok)
			return -ENOMEM;
	}
	if (j->nsites != j->capsites)
		return -EFAULT; /* passes differ: a JIT bug */
	for (i = 0; i < j->nfix; i++) {
		const struct fixup *f = &j->fix[i];
		const struct label *l = &j->labels[f->label];
		int64_t rel;

		if (f->site < 0 || l->sec != (int8_t)f->sec)
			continue;
		rel = (int64_t)l->off - ((int64_t)f->pos + f->size);
		if (rel >= -128 && rel <= 127)
			j->short_ok[f->site] = 1;
	}
	j->sec[0].len = j->sec[1].len = 0;
	j->cur = 0;
	j->nlabels = j->nfix = j->nsites = 0;
	j->need_run = j->need_fp = j->local_calls = j->ctx_guard = false;
	j->need_dirty = j->light = false;
	j->nfused = 0;
	j->calls_out = j->calls_cb = j->tail = false;
	j->saved = j->zero = 0;
	j->pad = 0;
	j->final_pass = true;
	return 0;
}

/* Lays out both sections in fresh memory and resolves every rel. */
static int link_code(struct jit *j, void **code, size_t *size)
{
	size_t hot = j->sec[0].len, total = hot + j->sec[1].len;
	long page = sysconf(_SC_PAGESIZE);
	size_t map_len = (total + (size_t)page - 1) & ~((size_t)page - 1);
	uint8_t *mem;
	uint32_t i;

	mem = mmap(NULL, map_len, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED)
		return -ENOMEM;
	memcpy(mem, j->sec[0].p, hot);
	memcpy(mem + hot, j->sec[1].p, j->sec[1].len);
	for (i = 0; i < j->nfix; i++) {
		const struct fixup *f = &j->fix[i];
		const struct label *l = &j->labels[f->label];
		int64_t at = (int64_t)f->pos + (f->sec ? (int64_t)hot : 0);
		int64_t to = (int64_t)l->off + (l->sec ? (int64_t)hot : 0);
		int64_t rel = to - (at + f->size);
		int32_t rel32v = (int32_t)rel;
		int8_t rel8 = (int8_t)rel;

		if (l->sec < 0 || (f->size == 1 && (rel < -128 || rel > 127))) {
			munmap(mem, map_len);
			return -EFAULT; /* a JIT bug */
		}
		if (f->size == 1)
			memcpy(mem + at, &rel8, 1);
		else
			memcpy(mem + at, &rel32v, 4);
	}
	/* Never writable and executable at once. */
	if (mprotect(mem, map_len, PROT_READ | PROT_EXEC)) {
		munmap(mem, map_len);
		return -errno;
	}
	*code = mem;
	*size = map_len;
	return 0;
}

static void jit_release(struct jit *j)
{
	free(j->sec[0].p);
	free(j->sec[1].p);
	free(j->labels);
	free(j->fix);
	free(j->target);
	free(j->short_ok);
	free(j->live);
	jb_free(&j->facts);
}

bool hr_jit_supported(void)
{
	return true;
}

/*
 * What the JIT does not compile, so the interpreter runs it: bpf_tail_call
 * (helper 12) in a program with bpf-to-bpf calls. The code follows tail calls only at depth 0 (it leaves, and
 * hr_jit_run() enters the target); one made inside a subprogram would
 * have to return to that subprogram's caller, which it does not do.
 * Callbacks (bpf_loop and friends) are compiled: the lddw of a function
 * address loads its instruction index and run->callback is the
 * interpreter's, which runs the callback one frame deeper on the same run
 * (budget, depth, stack, abort), so the results are the interpreter's.
 */
static bool jit_can_compile(const struct hr_vm_prog *vm)
{
	bool local = false, tail = false;
	uint32_t pc;

	for (pc = 0; pc < vm->cnt; pc++) {
		const struct hr_insn *insn = &vm->insns[pc];

		if (insn->code == (HR_JMP | HR_CALL) &&
		    insn->src == HR_CALL_LOCAL)
			local = true;
		if (insn->code == (HR_JMP | HR_CALL) &&
		    insn->src == HR_CALL_HELPER && insn->imm == 12)
			tail = true;
	}
	return !(local && tail);
}

/* A canary value for one program's code: random once a process, mixed
 * with the program's address, so no two programs share one. */
static uint64_t jit_canary(const struct hr_vm_prog *vm)
{
	static uint64_t seed;
	uint64_t s = __atomic_load_n(&seed, __ATOMIC_RELAXED), v;

	if (!s) {
		if (getrandom(&s, sizeof(s), GRND_NONBLOCK) != sizeof(s))
			s = (uint64_t)(uintptr_t)&seed ^ 0x9e3779b97f4a7c15ull;
		s |= 1ull << 63; /* never 0, and never a 32-bit immediate */
		__atomic_store_n(&seed, s, __ATOMIC_RELAXED);
	}
	v = (s ^ (uint64_t)(uintptr_t)vm) * 0xff51afd7ed558ccdull;
	return v | 1ull << 63;
}

/* One compiled program: what hr_jit_compile() keeps on the hr_vm_prog's
 * jit fields, and the checked code's own copy (vm->jit_chk). */
struct jit_code {
	void *code;
	size_t size;
	bool tail;
	uint16_t zero;
	uint32_t checked; /* offset of the r1 == run->ctx entry */
	uint32_t fused;
};

static int jit_build(struct hr_vm_prog *vm, bool chk, struct jit_code *out)
{
	struct jit j = { .vm = vm,
			 .canary = jit_canary(vm),
			 .chk = chk,
			 .frame_check = chk || hr_engine_invariants() };
	int ret;

	if (__atomic_load_n(&vm->jit_refused, __ATOMIC_RELAXED))
		return -EOPNOTSUPP;
	if (vm->cnt >= MAX_JIT_INSNS || !jit_can_compile(vm)) {
		__atomic_store_n(&vm->jit_refused, true, __ATOMIC_RELAXED);
		return -EOPNOTSUPP;
	}
	ret = find_targets(&j);
	if (!ret) {
		jb_analyze(vm, j.fp_fixed, &j.facts);
		live_regs(&j);
		ret = emit_program(&j);
	}
	/* Three passes: each may shorten more jumps than the last. */
	if (!ret)
		ret = mark_short(&j);
	if (!ret)
		ret = emit_program(&j);
	if (!ret)
		ret = mark_short(&j);
	if (!ret)
		ret = emit_program(&j);
	if (!ret)
		ret = link_code(&j, &out->code, &out->size);
	out->tail = j.tail;
	out->zero = j.zero;
	out->fused = j.nfused;
	out->checked = j.ctx_guard ? (uint32_t)j.sec[0].len +
					     j.labels[j.l_checked].off :
				     0;
	jit_release(&j);
	return ret;
}

int hr_jit_compile(struct hr_vm_prog *vm)
{
	struct jit_code c = { 0 };
	void *expect = NULL;
	int ret;

	if (__atomic_load_n(&vm->jit, __ATOMIC_ACQUIRE))
		return 0;
	ret = jit_build(vm, false, &c);
	if (ret)
		return ret;
	/* Several threads may compile at once: the first one wins (the
	 * plan, and so these, is the same for all). */
	__atomic_store_n(&vm->jit_size, c.size, __ATOMIC_RELAXED);
	__atomic_store_n(&vm->jit_tail, c.tail, __ATOMIC_RELAXED);
	__atomic_store_n(&vm->jit_zero, c.zero, __ATOMIC_RELAXED);
	__atomic_store_n(&vm->jit_checked, c.checked, __ATOMIC_RELAXED);
	__atomic_store_n(&vm->jit_fused, c.fused, __ATOMIC_RELAXED);
	if (!__atomic_compare_exchange_n(&vm->jit, &expect, c.code, false,
					 __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
		munmap(c.code, c.size);
	return 0;
}

/* The checked code of @vm, compiled on first use; NULL when the JIT
 * refuses the program or is out of memory (the interpreter runs it). */
static const struct jit_code *jit_chk_code(struct hr_vm_prog *vm)
{
	struct jit_code *c = __atomic_load_n((struct jit_code **)&vm->jit_chk,
					     __ATOMIC_ACQUIRE),
			*expect = NULL;

	if (c)
		return c;
	c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	if (jit_build(vm, true, c)) {
		free(c);
		return NULL;
	}
	if (!__atomic_compare_exchange_n((struct jit_code **)&vm->jit_chk,
					 &expect, c, false, __ATOMIC_ACQ_REL,
					 __ATOMIC_ACQUIRE)) {
		munmap(c->code, c->size);
		free(c);
		c = expect;
	}
	return c;
}

void hr_jit_test_wrong_proofs(bool on)
{
	__atomic_store_n(&wrong_proofs, on, __ATOMIC_RELAXED);
}

/* The entry that first tests r1 == run->ctx (jit_checked was stored
 * before jit was published). */
static void *checked_entry(const struct hr_vm_prog *vm, void *code)
{
	return (uint8_t *)code +
	       __atomic_load_n(&vm->jit_checked, __ATOMIC_RELAXED);
}

/*
 * The code left for a tail call: run->tail_call is the target and
 * run->tail_regs the registers at the call (depth 0). The interpreter
 * would go on at the target's pc 0 with those registers and the same
 * frame; the target's code starts from r1, r2, r10 = stack top and zeroes
 * the registers it may read first, so it runs when those are 0 in
 * tail_regs (r0 is: the helper returned 0) and r10 is the stack top.
 * Otherwise, or when the target is not compiled, the interpreter goes on.
 */
__attribute__((noinline)) static uint64_t jit_follow_tail(struct hr_run *run,
							  uint64_t r0)
{
	/* A callx that reached bpf_tail_call (only through a custom
	 * helper_by_id; loaded programs have none) in code that does not
	 * follow tail calls (it has bpf-to-bpf calls): left as it was. */
	while (run->tail_call && !run->abort && !run->unwind &&
	       __atomic_load_n(&run->vm->jit_tail, __ATOMIC_RELAXED)) {
		struct hr_vm_prog *vm = (struct hr_vm_prog *)run->tail_call;
		const uint64_t *regs = run->tail_regs;
		uint16_t zero;
		void *code;
		unsigned int i;

		run->tail_call = NULL;
		run->vm = vm;
		if (hr_jit_compile(vm) || regs[10] != hr_stack_hi(run))
			return hr_interp_resume(run, regs);
		zero = __atomic_load_n(&vm->jit_zero, __ATOMIC_RELAXED);
		for (i = 0; i < HR_NREGS; i++)
			if ((zero >> i & 1) && regs[i])
				return hr_interp_resume(run, regs);
		code = __atomic_load_n(&vm->jit, __ATOMIC_ACQUIRE);
		r0 = ((jit_fn)checked_entry(vm, code))(regs[1], regs[2], run);
	}
	return r0;
}

/* First run of a program: compile it, or run it interpreted. */
__attribute__((noinline, cold)) static uint64_t
jit_first_run(struct hr_run *run, uint64_t r1, uint64_t r2)
{
	struct hr_vm_prog *vm = (struct hr_vm_prog *)run->vm;
	void *code;
	uint64_t r0;

	if (hr_jit_compile(vm))
		return hr_interp_run(run, r1, r2);
	code = __atomic_load_n(&vm->jit, __ATOMIC_ACQUIRE);
	r0 = ((jit_fn)checked_entry(vm, code))(r1, r2, run);
	if (run->tail_call)
		r0 = jit_follow_tail(run, r0);
	return r0;
}

uint64_t hr_jit_run(struct hr_run *run, uint64_t r1, uint64_t r2)
{
	void *code = __atomic_load_n(&run->vm->jit, __ATOMIC_ACQUIRE);
	uint64_t r0;

	if (__builtin_expect(!code, 0))
		return jit_first_run(run, r1, r2);
	r0 = ((jit_fn)checked_entry(run->vm, code))(r1, r2, run);
	if (__builtin_expect(run->tail_call != NULL, 0))
		r0 = jit_follow_tail(run, r0);
	return r0;
}

uint64_t hr_jit_run_ctx(struct hr_run *run)
{
	const struct hr_vm_prog *vm = run->vm;
	uint8_t *code = __atomic_load_n(&vm->jit, __ATOMIC_ACQUIRE);
	uint64_t r1 = (uintptr_t)run->ctx, r0;

	if (__builtin_expect(!code || !r1, 0))
		return hr_jit_run(run, r1, 0);
	r0 = ((jit_fn)code)(r1, 0, run);
	if (__builtin_expect(run->tail_call != NULL, 0))
		r0 = jit_follow_tail(run, r0);
	return r0;
}

/*
 * jit_follow_tail() for checked code: each target runs its checked code
 * under the same conditions (registers it reads first 0, r10 the stack
 * top), else the interpreter goes on.
 */
__attribute__((noinline)) static uint64_t
chk_follow_tail(struct hr_run *run, const struct jit_code *c, uint64_t r0)
{
	while (run->tail_call && !run->abort && !run->unwind && c->tail) {
		struct hr_vm_prog *vm = (struct hr_vm_prog *)run->tail_call;
		const uint64_t *regs = run->tail_regs;
		unsigned int i;

		run->tail_call = NULL;
		run->vm = vm;
		c = jit_chk_code(vm);
		if (!c || regs[10] != hr_stack_hi(run))
			return hr_interp_resume(run, regs);
		for (i = 0; i < HR_NREGS; i++)
			if ((c->zero >> i & 1) && regs[i])
				return hr_interp_resume(run, regs);
		r0 = ((jit_fn)((uint8_t *)c->code + c->checked))(regs[1],
								 regs[2], run);
	}
	return r0;
}

uint64_t hr_jit_run_checked(struct hr_run *run, uint64_t r1, uint64_t r2)
{
	const struct jit_code *c = jit_chk_code((struct hr_vm_prog *)run->vm);
	uint64_t r0;

	if (!c)
		return hr_interp_run(run, r1, r2);
	r0 = ((jit_fn)((uint8_t *)c->code + c->checked))(r1, r2, run);
	if (run->tail_call)
		r0 = chk_follow_tail(run, c, r0);
	return r0;
}

/* Programs that may tail-call need hr_jit_run_ctx() to follow the calls. */
hr_jit_fn hr_jit_entry(struct hr_vm_prog *vm)
{
	uint8_t *code;

	if (hr_jit_compile(vm) ||
	    __atomic_load_n(&vm->jit_tail, __ATOMIC_RELAXED))
		return NULL;
	code = __atomic_load_n(&vm->jit, __ATOMIC_ACQUIRE);
	return (hr_jit_fn)code;
}

void hr_jit_free(struct hr_vm_prog *vm)
{
	struct jit_code *c;

	if (!vm)
		return;
	c = vm->jit_chk;
	if (c) {
		munmap(c->code, c->size);
		free(c);
		vm->jit_chk = NULL;
	}
	if (!vm->jit)
		return;
	munmap(vm->jit, vm->jit_size);
	vm->jit = NULL;
	vm->jit_size = 0;
	vm->jit_checked = 0;
}

#else /* !__x86_64__ */

bool hr_jit_supported(void)
{
	return false;
}

int hr_jit_compile(struct hr_vm_prog *vm)
{
	return -ENOTSUP;
}

uint64_t hr_jit_run(struct hr_run *run, uint64_t r1, uint64_t r2)
{
	return hr_interp_run(run, r1, r2);
}

uint64_t hr_jit_run_ctx(struct hr_run *run)
{
	return hr_interp_run(run, (uintptr_t)run->ctx, 0);
}

hr_jit_fn hr_jit_entry(struct hr_vm_prog *vm)
{
	return NULL;
}

void hr_jit_free(struct hr_vm_prog *vm)
{
}

uint64_t hr_jit_run_checked(struct hr_run *run, uint64_t r1, uint64_t r2)
{
	return hr_interp_run(run, r1, r2);
}

void hr_jit_test_wrong_proofs(bool on)
{
}

#endif
