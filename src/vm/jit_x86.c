// SPDX-License-Identifier: MIT
/*
 * The x86-64 JIT: every instruction the interpreter (interp.c) runs, with
 * the same results, the same memory effects and the same abort reason, pc
 * and address. Here: the prologue and exits, the pass over the program,
 * linking and the entry points; the emitters sit beside it, sharing
 * jit_x86.h: jit_x86_emit.c (x86 encoding), _mem.c (memory accesses and
 * their checks), _alu.c, _jmp.c, _call.c (calls, inlined calls, returns)
 * and _plan.c (targets, liveness, the prologue's plan, fusions).
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
 *    they are moved jx_straight from rx_hints to the slots (first value,
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
 * Dead results (jx_live_regs()): in a program without bpf-to-bpf calls, a
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

#include "vm/engine.h"
#include "vm/jit.h"
#include "vm/bounds.h"
#include "vm/mem.h"
#include "vm/jit_x86.h"

#if defined(__x86_64__)
/* Test-only (hr_jit_test_wrong_proofs): checked code compiled while set
 * takes every non-atomic access as proven, and r1 at every helper call
 * as the context. */
bool jx_wrong_proofs;

/* Run-time entry points the code calls. */

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

void hr_jit_abort(struct hr_run *run, uint32_t pc, uint32_t reason,
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

hr_helper_fn hr_jit_callx_lookup(struct hr_run *run, uint64_t id)
{
	return run->vm->helper_by_id ? run->vm->helper_by_id(id) : NULL;
}

/* The interpreter, for an entry whose r1 is not run->ctx when the code
 * relies on it: rdi = r1, rsi = r2, rdx = run. */
static uint64_t hr_jit_other_ctx(uint64_t r1, uint64_t r2, struct hr_run *run)
{
	return hr_interp_run(run, r1, r2);
}

static void emit_prologue(struct jit *j)
{
	unsigned int i;
	uint32_t other = jx_new_label(j);

	if (j->ctx_guard) {
		uint32_t body = jx_new_label(j);

		/* Runs on run->ctx itself enter at the start of the code,
		 * page-aligned (hr_jit_run_ctx); every other entry is this
		 * out-of-line test: r1 == run->ctx != NULL, or the
		 * interpreter runs it. */
		jx_bind(j, body);
		j->cur = 1;
		j->l_checked = jx_new_label(j);
		jx_bind(j, j->l_checked);
		jx_op_rr(j, true, false, 0x85, 1, RDI, RDI);
		jx_jcc_to(j, CC_E, other);
		jx_op_rm(j, true, false, 0x3b, 1, RDI, RDX, OFF_CTX);
		jx_jcc_to(j, CC_NE, other);
		jx_jmp_to(j, body);
		j->cur = 0;
	}
	for (i = 0; i < sizeof(saved_order); i++)
		if (j->saved & (1u << saved_order[i]))
			jx_push(j, saved_order[i]);
	if (j->need_run) {
		/* The canary right below the saved registers, then the
		 * stack pointer every exit must find (and aborts unwind to). */
		if (j->frame_check) {
			jx_mov_ri(j, R11, j->canary);
			jx_push(j, R11);
			if (j->pad > 8)
				jx_alu_ri(j, true, 5, RSP, j->pad - 8);
		} else if (j->pad) {
			jx_alu_ri(j, true, 5, RSP, j->pad);
		}
		jx_mov_rr(j, true, RUN, RDX);
		if (!j->light) {
			jx_op_rm(j, true, false, 0x89, 1, RSP, RUN, OFF_JIT_SP);
			jx_op_rm(j, false, false, 0xc7, 1, 0, RUN, OFF_DEPTH);
			jx_emit4(j, 0);
		}
	}
	if (j->need_fp)
		jx_lea(j, RBP, RDX, OFF_STACK_HI);
	if (j->calls_cb) {
		/* Callbacks (bpf_loop ...) run under the interpreter. */
		jx_mov_ri(j, TMP, (uintptr_t)hr_interp_callback);
		jx_op_rm(j, true, false, 0x89, 1, TMP, RUN, OFF_CALLBACK);
	}
	for (i = 0; i < HR_NREGS; i++)
		if (j->zero & (1u << i))
			jx_op_rr(j, false, false, 0x31, 1, bpf2x[i], bpf2x[i]);

	j->cur = 1;
	jx_bind(j, other);
	jx_call_abs_jmp(j, hr_jit_other_ctx);
	j->cur = 0;
}

static void emit_tail(struct jit *j)
{
	j->cur = 1;
	/* Fell off the end of the program. */
	jx_bind(j, j->l_fall_off);
	jx_jmp_to(j, jx_abort_stub(j, j->vm->cnt, HR_ABORT_JUMP, false,
				   j->vm->cnt));

	/* Drop every call record: back to the stack pointer the prologue
	 * saved (whatever run->depth says; callbacks and helpers share it),
	 * at depth 0, then return abort_ret or r0. */
	jx_bind(j, j->l_abort_exit);
	jx_mov_ri(j, RAX, j->vm->abort_ret);
	jx_bind(j, j->l_unwind_exit);
	if (j->need_run && !j->light) {
		jx_op_rm(j, true, false, 0x8b, 1, RSP, RUN, OFF_JIT_SP);
		jx_op_rm(j, false, false, 0xc7, 1, 0, RUN, OFF_DEPTH);
		jx_emit4(j, 0);
	}
	jx_bind(j, j->l_epilogue);
	jx_emit_frame_check(j);
	jx_bind(j, j->l_popped);
	jx_emit_pop_return(j);

	/* An exit with rsp off its frame: back to the saved one; a run whose
	 * canary is gone there cannot return (hr_jit_frame_smashed). */
	jx_bind(j, j->l_frame_bad);
	if (j->need_run && j->frame_check) {
		uint32_t smashed = jx_new_label(j);

		jx_op_rm(j, true, false, 0x8b, 1, RSP, RUN, OFF_JIT_SP);
		jx_mov_ri(j, R11, j->canary);
		jx_op_rm(j, true, false, 0x39, 1, R11, RSP, j->pad - 8);
		jx_jcc_to(j, CC_NE, smashed);
		jx_mov_rr(j, true, RDI, RUN);
		jx_call_abs(j, hr_jit_frame_bad);
		jx_mov_ri(j, RAX, j->vm->abort_ret);
		jx_jmp_to(j, j->l_popped);
		jx_bind(j, smashed);
		jx_mov_rr(j, true, RDI, RUN);
		jx_call_abs(j, hr_jit_frame_smashed);
		jx_emit1(j, 0x0f); /* ud2: never returns */
		jx_emit1(j, 0x0b);
	}

	/* A tail call to follow: every BPF register is in its host
	 * register here (the call reads them all, see jx_insn_reads()), at
	 * depth 0 with rsp at the entry frame. */
	jx_bind(j, j->l_tail_exit);
	if (j->tail) {
		unsigned int i;

		for (i = 0; i < HR_NREGS; i++)
			jx_op_rm(j, true, false, 0x89, 1, bpf2x[i], RUN,
				 OFF_TAIL_REGS + 8 * (int32_t)i);
		jx_jmp_to(j, j->l_epilogue);
	}

	/* Slow memory check: ADDR = address, TMP = packed pc/write/size;
	 * every BPF register survives; an abort leaves through
	 * l_slow_fail. */
	jx_bind(j, j->l_slow);
	jx_push(j, RAX);
	jx_push(j, RDI);
	jx_push(j, RSI);
	jx_push(j, RDX);
	jx_push(j, RCX);
	jx_push(j, R8);
	jx_push(j, R11);
	jx_mov_rr(j, true, RDI, RUN);
	jx_mov_rr(j, true, RSI, ADDR);
	jx_mov_rr(j, false, RDX, TMP);
	jx_call_abs(j, hr_jit_mem_slow);
	jx_op_rr(j, false, false, 0x85, 1, RAX, RAX);
	jx_pop(j, R11);
	jx_pop(j, R8);
	jx_pop(j, RCX);
	jx_pop(j, RDX);
	jx_pop(j, RSI);
	jx_pop(j, RDI);
	jx_pop(j, RAX);
	jx_jcc_to(j, CC_NE, j->l_slow_fail);
	jx_emit_ret(j);
	jx_bind(j, j->l_slow_fail);
	jx_alu_ri(j, true, 0, RSP, 8);
	jx_jmp_to(j, j->l_abort_exit);
	j->cur = 0;
}

static int emit_program(struct jit *j)
{
	const struct hr_vm_prog *vm = j->vm;
	uint32_t pc, i, n;

	for (i = 0; i < vm->cnt; i++)
		jx_new_label(j); /* label i is pc i */
	j->l_abort_exit = jx_new_label(j);
	j->l_epilogue = jx_new_label(j);
	j->l_unwind_exit = jx_new_label(j);
	j->l_slow = jx_new_label(j);
	j->l_slow_fail = jx_new_label(j);
	j->l_fall_off = jx_new_label(j);
	j->l_tail_exit = jx_new_label(j);
	j->l_frame_bad = jx_new_label(j);
	j->l_popped = jx_new_label(j);
	if (j->nomem)
		return -ENOMEM;
	jx_plan(j);
	emit_prologue(j);
	for (pc = 0; pc < vm->cnt; pc++) {
		const struct hr_insn *in = &vm->insns[pc];

		jx_bind(j, pc);
		if (!pc || j->target[pc])
			j->dirty_marked = false;
		n = jx_fuse(j, pc);
		if (n) {
			j->nfused++;
			while (--n)
				jx_bind(j, ++pc);
			continue;
		}
		/* rX = rY; rX += K as one jx_lea, when nothing jumps between. */
		if (pc + 1 < vm->cnt &&
		    in->code == (HR_ALU64 | HR_MOV | HR_X) && !in->off &&
		    in[1].code == (HR_ALU64 | HR_ADD | HR_K) &&
		    in[1].dst == in->dst && !j->target[pc + 1]) {
			if (!jx_dead_alu(j, pc + 1))
				jx_lea(j, bpf2x[in->dst], bpf2x[in->src],
				       in[1].imm);
			jx_bind(j, ++pc);
			continue;
		}
		if (jx_dead_alu(j, pc))
			continue;
		if (!jx_dead_lddw(j, pc))
			jx_emit_insn(j, pc);
		if (!hr_insn_is_lddw(&vm->insns[pc]) || pc + 1 >= vm->cnt)
			continue;
		/* The second slot runs only when jumped into, as its own
		 * (invalid) instruction. */
		pc++;
		if (!j->target[pc]) {
			jx_bind(j, pc);
			continue;
		}
		jx_jmp_to(j, pc + 1 < vm->cnt ? pc + 1 : j->l_fall_off);
		jx_bind(j, pc);
		jx_emit_insn(j, pc);
	}
	jx_jmp_to(j, j->l_fall_off);
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
	ret = jx_find_targets(&j);
	if (!ret) {
		jb_analyze(vm, j.fp_fixed, &j.facts);
		jx_live_regs(&j);
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
	 * jx_plan, and so these, is the same for all). */
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
	__atomic_store_n(&jx_wrong_proofs, on, __ATOMIC_RELAXED);
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
