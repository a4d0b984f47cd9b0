// SPDX-License-Identifier: MIT
/*
 * The JIT's jx_plan of a program before emitting it (jit_x86.c): jump
 * targets, register liveness, what the prologue must set up, and the
 * fusions of instruction pairs nothing else can observe.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "helpers/helpers.h"
#include "vm/jit_x86.h"

#if defined(__x86_64__)

int jx_find_targets(struct jit *j)
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
uint16_t jx_insn_reads(const struct hr_insn *insn)
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
uint16_t jx_call_reads(const struct jit *j, uint32_t pc)
{
	const struct hr_insn *insn = &j->vm->insns[pc];
	uint16_t r = jx_insn_reads(insn);
	struct hint_call h;
	uint64_t v;

	/* Checked mode tests the facts the inlined code uses on the
	 * registers themselves: they must hold their values. */
	if (r != 0x3e || j->chk) /* callx, bpf_tail_call */
		return r;
	if (jx_hint_call(j, pc, &h))
		return 0;
	if (j->vm->calls && j->vm->calls[pc] == hr_helper_xdp_adjust_meta.fn)
		return jx_const_r2(j, pc, &v) ? 0 : 1u << 2;
	return r;
}

/*
 * Backward liveness into j->live: the registers some run may read, from
 * each pc, before writing them. A call to a local function counts as
 * reading every register (its body sees them); a helper writes only r0
 * (both engines keep r1..r5 across it). Leaves j->live NULL without
 * memory (then everything is live).
 */
void jx_live_regs(struct jit *j)
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
			r = jx_insn_reads(insn);
			if ((cls == HR_JMP || cls == HR_JMP32) &&
			    HR_OP(insn->code) == HR_CALL) {
				if (insn->src == HR_CALL_LOCAL) {
					r = 0x7ff;
					local = true;
				} else {
					r = cls == HR_JMP ?
						    jx_call_reads(j, pc) :
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
bool jx_dead_alu(const struct jit *j, uint32_t pc)
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
bool jx_dead_lddw(const struct jit *j, uint32_t pc)
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

/* Checked mode tests a call's context facts (jx_chk_call_facts), which hold
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
void jx_plan(struct jit *j)
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

		rd = jx_insn_reads(insn);
		used |= rd | insn_writes(insn);
		if (!jb_insn_pkt_ro(&j->facts, insn, pc))
			j->need_dirty = true; /* jx_emit_insn marks pkt_dirty */
		switch (cls) {
		case HR_ALU:
		case HR_ALU64:
			if (op > HR_END)
				j->need_run = true;
			continue;
		case HR_LDX:
			el = jx_check_elided(j, pc, insn->src, insn->off,
					     hr_size_bytes(insn->code), false,
					     false);
			if (!el || j->chk)
				j->need_run = j->need_fp = true;
			if (el && jx_by_facts(j, pc, insn->src, insn->off,
					      hr_size_bytes(insn->code), false))
				j->ctx_guard = true;
			continue;
		case HR_ST:
		case HR_STX:
			el = HR_MODE(insn->code) != HR_ATOMIC &&
			     jx_check_elided(j, pc, insn->dst, insn->off,
					     hr_size_bytes(insn->code), true,
					     false);
			if (!el || j->chk)
				j->need_run = j->need_fp = true;
			if (el && jx_by_facts(j, pc, insn->dst, insn->off,
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
			if (jx_insn_reads(insn) == 0x7ff)
				tail_site = true;
			if (j->chk && call_ctx_fact(j, pc))
				j->ctx_guard = true;
			continue;
		}
		if (op == HR_JA)
			delta = cls == HR_JMP ? insn->off : insn->imm;
		else if (jx_jump_cc(op) < 0)
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
bool jx_straight(const struct jit *j, uint32_t pc, uint32_t n)
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

	if (!jx_straight(j, pc, 4))
		return false;
	a = in[0].dst;
	b = in[0].src;
	c = in[2].dst;
	if (!is_ldx(&in[0], 1) || !is_ldx(&in[2], 1) ||
	    !is_alu(&in[1], HR_LSH, HR_K) || in[1].imm != 8 || in[1].dst != a ||
	    !is_alu(&in[3], HR_OR, HR_X) || in[3].dst != a || in[3].src != c ||
	    in[2].src != b || a == b || c == a || a >= 10 || c >= 10 ||
	    in[0].off != in[2].off + 1 || (live_out(j, pc + 3) & (1u << c)) ||
	    !jx_check_elided(j, pc, b, in[0].off, 1, false, false) ||
	    !jx_check_elided(j, pc + 2, b, in[2].off, 1, false, false) ||
	    !jx_check_elided(j, pc, b, in[2].off, 2, false, false))
		return false;
	jx_emit_load(j, 2, false, bpf2x[a], bpf2x[b], in[2].off);
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

	if (!jx_straight(j, pc, 2))
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
	jx_emit_jmp(j, pc + 1, &cmp);
	return true;
}

/* x += K; y = *(x + off) with x dead after (y == x included): the load
 * from x + K + off, the add left out. */
static bool fuse_add_load(struct jit *j, uint32_t pc)
{
	const struct hr_insn *in = &j->vm->insns[pc];
	int x, size, y;
	int64_t disp;

	if (!jx_straight(j, pc, 2))
		return false;
	x = in[0].dst;
	size = hr_size_bytes(in[1].code);
	y = in[1].dst;
	disp = (int64_t)in[0].imm + in[1].off;
	if (in[0].code != (HR_ALU64 | HR_ADD | HR_K) || in[0].off ||
	    !is_ldx(&in[1], size) || in[1].src != x || x >= 10 || y >= 10 ||
	    !jx_is_simm32(disp) ||
	    (y != x && (live_out(j, pc + 1) & (1u << x))) ||
	    !jx_check_elided(j, pc + 1, x, in[1].off, size, false, false))
		return false;
	jx_emit_load(j, size, false, bpf2x[y], bpf2x[x], (int32_t)disp);
	return true;
}

/* One of the fusions above at @pc: the number of instructions it
 * replaced, 0 for none. */
uint32_t jx_fuse(struct jit *j, uint32_t pc)
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

#endif /* __x86_64__ */
