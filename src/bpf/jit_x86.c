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
 * The x86 stack holds, below the entry frame, one 48-byte record per
 * active bpf-to-bpf call (saved r6-r9, r10 and the return address), so at
 * every instruction boundary rsp = entry rsp - 48 * run->depth and is
 * 16-byte aligned; aborts unwind with that formula.
 *
 * Checks, and the only ones left out:
 *
 *  - Every load, store and atomic is checked. Inline: the packet range
 *    [pkt_lo, pkt_hi), re-read from the run at every access because
 *    helpers move it; out of line: the current frame's stack range, then a
 *    call into hr_jit_mem_slow(), which is hr_mem_check() (stack, packet,
 *    context field rules, regions, in the interpreter's order) and aborts
 *    with its reason. An access the fast paths accept is one that
 *    hr_mem_check() accepts by its first two rules, so the answer is the
 *    same.
 *
 *  - Elided: a non-atomic access through r10 with a constant offset in
 *    [-512, -size], when no instruction of the program can write r10
 *    (checked here at compile time, not assumed from the validator). Then
 *    r10 is always stack_hi - 512 * depth, exactly as in the interpreter
 *    (calls subtract 512, exits restore it), and [r10 - 512, r10) is the
 *    current frame, inside [hr_stack_lo(run, depth), stack_hi), which
 *    hr_mem_check() accepts by its first rule.
 *
 *  - Context: at a site whose constant offset and size make a field the
 *    program type's rule (vm->ctx_access, a function of the program and
 *    the access only) allows, the code first tests base == run->ctx (and
 *    ctx != NULL); then the access is ctx + off, inside the context and
 *    allowed, which hr_mem_check() also accepts (by its stack or packet
 *    rule if those came first, else by the context rule). Any other
 *    context access goes to the slow call and its field rule.
 *
 *  - The stack fast path uses lo = r10 - 512 under the same condition
 *    (r10 never written); otherwise stack accesses take the slow call.
 *
 *  - Atomics also check natural alignment (HR_ABORT_OOB_STORE), after the
 *    range check, as the interpreter does.
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
 * Baked in at compile time: vm->calls[] (helper and kfunc pointers) and
 * vm->abort_ret; callx goes through vm->helper_by_id at run time. A
 * program whose calls change must be recompiled (hr_jit_free first).
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "jit.h"
#include "mem.h"

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
#define OFF_STACK_HI                                \
	((int32_t)(offsetof(struct hr_run, stack) + \
		   sizeof(((struct hr_run *)0)->stack)))

/* Bytes a local call leaves on the x86 stack: 5 saved regs + return. */
#define CALL_RECORD 48

/* pc, write and size of a slow-path check, packed into one immediate. */
#define MAX_JIT_INSNS (1u << 26)

typedef uint64_t (*jit_fn)(uint64_t r1, uint64_t r2, struct hr_run *run);

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
	uint32_t pos; /* of the rel32 field */
	uint32_t label;
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
	uint32_t l_abort_exit, l_epilogue, l_unwind_exit, l_slow, l_slow_fail;
	uint32_t l_fall_off;
};

/* Run-time entry points the code calls. */

static int hr_jit_mem_slow(struct hr_run *run, uint64_t addr, uint32_t info)
{
	uint32_t len = info & 15, pc = info >> 5;
	bool write = info & 16;
	enum hr_abort why = hr_mem_check(run, (uintptr_t)addr, len, write);

	if (why == HR_ABORT_NONE)
		return 0;
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

/* A rel32 to @l at the current position (the last 4 bytes emitted). */
static void rel32(struct jit *j, uint32_t l)
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
	j->fix[j->nfix].pos = (uint32_t)j->sec[j->cur].len;
	j->fix[j->nfix].label = l;
	j->nfix++;
	emit4(j, 0);
}

static void jmp_to(struct jit *j, uint32_t l)
{
	emit1(j, 0xe9);
	rel32(j, l);
}

static void jcc_to(struct jit *j, int cc, uint32_t l)
{
	emit1(j, 0x0f);
	emit1(j, 0x80 | cc);
	rel32(j, l);
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

static void lea(struct jit *j, int dst, int base, int32_t disp)
{
	op_rm(j, true, false, 0x8d, 1, dst, base, disp);
}

/*
 * Whether an access at ctx + @off is a field the program type allows. The
 * rule (vm->ctx_access) depends on the program and the access only, so it
 * can be asked at compile time; only such sites get the inline context
 * path, everything else takes the checks below.
 */
static bool ctx_field_ok(struct jit *j, int16_t off, int size, bool write)
{
	const struct hr_vm_prog *vm = j->vm;

	if (off < 0 || (size_t)off + (size_t)size > vm->ctx_size)
		return false;
	return !vm->ctx_access || vm->ctx_access(vm->prog, off, size, write);
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

	if (!atomic && j->fp_fixed && breg == 10 && off >= -HR_STACK_SIZE &&
	    off + size <= 0) {
		*mbase = RBP;
		*mdisp = off;
		return;
	}
	*mbase = ADDR;
	*mdisp = 0;
	lea(j, ADDR, bpf2x[breg], off);
	ok = new_label(j);
	stk = new_label(j);
	slow = new_label(j);
	if (ctx_field_ok(j, off, size, write)) {
		/* base == run->ctx (non-NULL): a field the rule allows. */
		op_rm(j, true, false, 0x8b, 1, TMP, RUN, OFF_CTX);
		op_rr(j, true, false, 0x85, 1, TMP, TMP);
		emit1(j, 0x74); /* jz over the cmp/je (3 + 6 bytes) */
		emit1(j, 9);
		op_rr(j, true, false, 0x39, 1, bpf2x[breg], TMP);
		jcc_to(j, CC_E, ok);
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
	if (j->fp_fixed) {
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
	mov_ri(j, TMP, (uint64_t)pc << 5 | (write ? 16 : 0) | (uint32_t)size);
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

static void emit_ldx(struct jit *j, uint32_t pc, const struct hr_insn *insn)
{
	int size = hr_size_bytes(insn->code), dst = bpf2x[insn->dst], base;
	bool sx = HR_MODE(insn->code) == HR_MEMSX;
	int32_t disp;

	mem_check(j, pc, insn->src, insn->off, size, false, false, &base,
		  &disp);
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
	emit_helper(j, pc, fn);
}

static void emit_exit(struct jit *j)
{
	alu_mi(j, false, 7, RUN, OFF_DEPTH, 0);
	jcc_to(j, CC_E, j->l_epilogue);
	alu_mi(j, false, 5, RUN, OFF_DEPTH, 1);
	emit1(j, 0xc3);
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
		mov_ri(j, bpf2x[insn->dst], hr_insn_lddw_value(insn));
		break;
	default:
		emit_jmp(j, pc, insn);
		break;
	}
}

/* Prologue, epilogue and the shared out-of-line routines. */

static void emit_prologue(struct jit *j)
{
	static const int8_t zero[] = { RAX, RDX, RCX, R8, RBX, R13, R14, R15 };
	unsigned int i;

	push(j, RBP);
	push(j, RBX);
	push(j, R12);
	push(j, R13);
	push(j, R14);
	push(j, R15);
	alu_ri(j, true, 5, RSP, 8);
	mov_rr(j, true, RUN, RDX);
	lea(j, RBP, RUN, OFF_STACK_HI);
	op_rm(j, false, false, 0xc7, 1, 0, RUN, OFF_DEPTH);
	emit4(j, 0);
	for (i = 0; i < sizeof(zero); i++)
		op_rr(j, false, false, 0x31, 1, zero[i], zero[i]);
}

static void emit_tail(struct jit *j)
{
	j->cur = 1;
	/* Fell off the end of the program. */
	bind(j, j->l_fall_off);
	jmp_to(j, abort_stub(j, j->vm->cnt, HR_ABORT_JUMP, false, j->vm->cnt));

	/* Unwind the call records, then return abort_ret or r0. */
	bind(j, j->l_abort_exit);
	mov_ri(j, RAX, j->vm->abort_ret);
	bind(j, j->l_unwind_exit);
	op_rm(j, false, false, 0x8b, 1, TMP, RUN, OFF_DEPTH);
	op_rr(j, true, false, 0x6b, 1, TMP, TMP); /* imul tmp, tmp, 48 */
	emit1(j, CALL_RECORD);
	op_rr(j, true, false, 0x01, 1, TMP, RSP);
	bind(j, j->l_epilogue);
	alu_ri(j, true, 0, RSP, 8);
	pop(j, R15);
	pop(j, R14);
	pop(j, R13);
	pop(j, R12);
	pop(j, RBX);
	pop(j, RBP);
	emit1(j, 0xc3);

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
	emit1(j, 0xc3);
	bind(j, j->l_slow_fail);
	alu_ri(j, true, 0, RSP, 8);
	jmp_to(j, j->l_abort_exit);
	j->cur = 0;
}

/* Whether any instruction may write r10 (then nothing about it is
 * assumed). */
static bool writes_fp(const struct hr_insn *insn)
{
	uint8_t cls = HR_CLASS(insn->code);

	switch (cls) {
	case HR_ALU:
	case HR_ALU64:
	case HR_LDX:
	case HR_LD:
		return insn->dst == 10;
	case HR_ST:
	case HR_STX:
		return HR_MODE(insn->code) == HR_ATOMIC && insn->src == 10 &&
		       (insn->imm & HR_FETCH);
	}
	return false;
}

static int find_targets(struct jit *j)
{
	const struct hr_vm_prog *vm = j->vm;
	uint32_t pc, t;
	int64_t delta;

	j->target = calloc(vm->cnt + 1, sizeof(bool));
	if (!j->target)
		return -ENOMEM;
	j->fp_fixed = true;
	for (pc = 0; pc < vm->cnt; pc++) {
		const struct hr_insn *insn = &vm->insns[pc];
		uint8_t cls = HR_CLASS(insn->code), op = HR_OP(insn->code);

		if (writes_fp(insn))
			j->fp_fixed = false;
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

static int emit_program(struct jit *j)
{
	const struct hr_vm_prog *vm = j->vm;
	uint32_t pc, i;

	for (i = 0; i < vm->cnt; i++)
		new_label(j); /* label i is pc i */
	j->l_abort_exit = new_label(j);
	j->l_epilogue = new_label(j);
	j->l_unwind_exit = new_label(j);
	j->l_slow = new_label(j);
	j->l_slow_fail = new_label(j);
	j->l_fall_off = new_label(j);
	if (j->nomem)
		return -ENOMEM;
	emit_prologue(j);
	for (pc = 0; pc < vm->cnt; pc++) {
		bind(j, pc);
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

/* Lays out both sections in fresh memory and resolves every rel32. */
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
		int32_t rel = (int32_t)(to - (at + 4));

		if (l->sec < 0) {
			munmap(mem, map_len);
			return -EFAULT; /* unbound label: a JIT bug */
		}
		memcpy(mem + at, &rel, 4);
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
}

bool hr_jit_supported(void)
{
	return true;
}

/*
 * What the JIT does not compile yet, so the interpreter runs it: tail calls
 * (the helper leaves run->tail_call for the engine to follow) and
 * callbacks (function addresses for bpf_loop and friends).
 */
static bool jit_can_compile(const struct hr_vm_prog *vm)
{
	uint32_t pc;

	for (pc = 0; pc < vm->cnt; pc++) {
		const struct hr_insn *insn = &vm->insns[pc];

		if (insn->code == HR_OPC_LDDW && insn->src == HR_PSEUDO_FUNC)
			return false;
		if (insn->code == (HR_JMP | HR_CALL) &&
		    insn->src == HR_CALL_HELPER && insn->imm == 12)
			return false; /* bpf_tail_call */
	}
	return true;
}

int hr_jit_compile(struct hr_vm_prog *vm)
{
	struct jit j = { .vm = vm };
	void *code = NULL, *expect = NULL;
	size_t size = 0;
	int ret;

	if (__atomic_load_n(&vm->jit, __ATOMIC_ACQUIRE))
		return 0;
	if (__atomic_load_n(&vm->jit_refused, __ATOMIC_RELAXED))
		return -EOPNOTSUPP;
	if (vm->cnt >= MAX_JIT_INSNS || !jit_can_compile(vm)) {
		__atomic_store_n(&vm->jit_refused, true, __ATOMIC_RELAXED);
		return -EOPNOTSUPP;
	}
	ret = find_targets(&j);
	if (!ret)
		ret = emit_program(&j);
	if (!ret)
		ret = link_code(&j, &code, &size);
	jit_release(&j);
	if (ret)
		return ret;
	/* Several threads may compile at once: the first one wins. */
	__atomic_store_n(&vm->jit_size, size, __ATOMIC_RELAXED);
	if (!__atomic_compare_exchange_n(&vm->jit, &expect, code, false,
					 __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
		munmap(code, size);
	return 0;
}

uint64_t hr_jit_run(struct hr_run *run, uint64_t r1, uint64_t r2)
{
	struct hr_vm_prog *vm = (struct hr_vm_prog *)run->vm;
	void *code = __atomic_load_n(&vm->jit, __ATOMIC_ACQUIRE);

	if (!code) {
		if (hr_jit_compile(vm))
			return hr_interp_run(run, r1, r2);
		code = __atomic_load_n(&vm->jit, __ATOMIC_ACQUIRE);
	}
	return ((jit_fn)code)(r1, r2, run);
}

void hr_jit_free(struct hr_vm_prog *vm)
{
	if (!vm || !vm->jit)
		return;
	munmap(vm->jit, vm->jit_size);
	vm->jit = NULL;
	vm->jit_size = 0;
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

void hr_jit_free(struct hr_vm_prog *vm)
{
}

#endif
