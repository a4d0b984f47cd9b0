// SPDX-License-Identifier: MIT
/*
 * The interpreter: the reference semantics of every instruction.
 *
 * It runs the prepared form of interp.h (one slot an instruction, each
 * naming its handler; direct threading). The generic handler is the whole
 * ISA as a switch on the original instruction; the others are the common
 * forms, fused sequences and unchecked accesses interp_prep.c chose,
 * which must mean exactly what the switch means. Every other load, store
 * and atomic is checked with hr_mem_check() before it touches memory;
 * jumps, calls and the budget are checked as they happen. A fault ends
 * the run with vm->abort_ret and a reason in run->abort.
 */
#include <string.h>

#include "vm/interp.h"
#include "vm/mem.h"

struct frame {
	uint64_t saved[4]; /* r6..r9 */
	uint64_t fp;
	uint32_t ret_pc;
	const struct hr_vm_prog *vm; /* to return into (tail calls) */
	const struct hr_xinsn *xb; /* its prepared code */
};

static inline uint64_t load(uintptr_t addr, int size)
{
	uint8_t b;
	uint16_t h;
	uint32_t w;
	uint64_t d;

	switch (size) {
	case 1:
		memcpy(&b, (void *)addr, 1);
		return b;
	case 2:
		memcpy(&h, (void *)addr, 2);
		return h;
	case 4:
		memcpy(&w, (void *)addr, 4);
		return w;
	default:
		memcpy(&d, (void *)addr, 8);
		return d;
	}
}

static inline void store(uintptr_t addr, int size, uint64_t v)
{
	uint8_t b = (uint8_t)v;
	uint16_t h = (uint16_t)v;
	uint32_t w = (uint32_t)v;

	switch (size) {
	case 1:
		memcpy((void *)addr, &b, 1);
		break;
	case 2:
		memcpy((void *)addr, &h, 2);
		break;
	case 4:
		memcpy((void *)addr, &w, 4);
		break;
	default:
		memcpy((void *)addr, &v, 8);
		break;
	}
}

static inline uint64_t sext(uint64_t v, int bits)
{
	return (uint64_t)((int64_t)(v << (64 - bits)) >> (64 - bits));
}

static uint64_t alu64(uint8_t op, uint64_t dst, uint64_t src, int16_t off,
		      bool *bad)
{
	switch (op) {
	case HR_ADD:
		return dst + src;
	case HR_SUB:
		return dst - src;
	case HR_MUL:
		return dst * src;
	case HR_DIV:
		if (off == 1) {
			if (!src)
				return 0;
			if ((int64_t)src == -1)
				return -dst; /* INT64_MIN / -1 wraps */
			return (uint64_t)((int64_t)dst / (int64_t)src);
		}
		return src ? dst / src : 0;
	case HR_MOD:
		if (off == 1) {
			if (!src)
				return dst;
			if ((int64_t)src == -1)
				return 0;
			return (uint64_t)((int64_t)dst % (int64_t)src);
		}
		return src ? dst % src : dst;
	case HR_OR:
		return dst | src;
	case HR_AND:
		return dst & src;
	case HR_XOR:
		return dst ^ src;
	case HR_LSH:
		return dst << (src & 63);
	case HR_RSH:
		return dst >> (src & 63);
	case HR_ARSH:
		return (uint64_t)((int64_t)dst >> (src & 63));
	case HR_NEG:
		return -dst;
	case HR_MOV:
		if (off)
			return sext(src, off);
		return src;
	}
	*bad = true;
	return 0;
}

static uint32_t alu32(uint8_t op, uint32_t dst, uint32_t src, int16_t off,
		      bool *bad)
{
	switch (op) {
	case HR_ADD:
		return dst + src;
	case HR_SUB:
		return dst - src;
	case HR_MUL:
		return dst * src;
	case HR_DIV:
		if (off == 1) {
			if (!src)
				return 0;
			if ((int32_t)src == -1)
				return -dst;
			return (uint32_t)((int32_t)dst / (int32_t)src);
		}
		return src ? dst / src : 0;
	case HR_MOD:
		if (off == 1) {
			if (!src)
				return dst;
			if ((int32_t)src == -1)
				return 0;
			return (uint32_t)((int32_t)dst % (int32_t)src);
		}
		return src ? dst % src : dst;
	case HR_OR:
		return dst | src;
	case HR_AND:
		return dst & src;
	case HR_XOR:
		return dst ^ src;
	case HR_LSH:
		return dst << (src & 31);
	case HR_RSH:
		return dst >> (src & 31);
	case HR_ARSH:
		return (uint32_t)((int32_t)dst >> (src & 31));
	case HR_NEG:
		return -dst;
	case HR_MOV:
		if (off)
			return (uint32_t)sext(src, off);
		return src;
	}
	*bad = true;
	return 0;
}

static uint64_t byteswap(uint64_t v, int32_t bits)
{
	switch (bits) {
	case 16:
		return __builtin_bswap16((uint16_t)v);
	case 32:
		return __builtin_bswap32((uint32_t)v);
	default:
		return __builtin_bswap64(v);
	}
}

static uint64_t truncate_bits(uint64_t v, int32_t bits)
{
	return bits == 64 ? v : v & ((1ull << bits) - 1);
}

/* ALU|END (le/be, to or from that byte order) and ALU64|END (bswap). */
static uint64_t endian(const struct hr_insn *insn, uint64_t v)
{
	bool swap = HR_CLASS(insn->code) == HR_ALU64 ||
		    (HR_SRC(insn->code) == HR_X) ==
			    (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__);

	if (swap)
		return byteswap(v, insn->imm);
	return truncate_bits(v, insn->imm);
}

static uint64_t atomic_op(const struct hr_insn *insn, uintptr_t addr,
			  uint64_t *regs, bool *bad)
{
	bool dw = HR_SIZE(insn->code) == HR_DW;
	uint64_t src = regs[insn->src];
	uint64_t old;

	switch (insn->imm) {
	case HR_ADD:
	case HR_ADD | HR_FETCH:
		old = dw ? __atomic_fetch_add((uint64_t *)addr, src,
					      __ATOMIC_SEQ_CST) :
			   __atomic_fetch_add((uint32_t *)addr, (uint32_t)src,
					      __ATOMIC_SEQ_CST);
		break;
	case HR_OR:
	case HR_OR | HR_FETCH:
		old = dw ? __atomic_fetch_or((uint64_t *)addr, src,
					     __ATOMIC_SEQ_CST) :
			   __atomic_fetch_or((uint32_t *)addr, (uint32_t)src,
					     __ATOMIC_SEQ_CST);
		break;
	case HR_AND:
	case HR_AND | HR_FETCH:
		old = dw ? __atomic_fetch_and((uint64_t *)addr, src,
					      __ATOMIC_SEQ_CST) :
			   __atomic_fetch_and((uint32_t *)addr, (uint32_t)src,
					      __ATOMIC_SEQ_CST);
		break;
	case HR_XOR:
	case HR_XOR | HR_FETCH:
		old = dw ? __atomic_fetch_xor((uint64_t *)addr, src,
					      __ATOMIC_SEQ_CST) :
			   __atomic_fetch_xor((uint32_t *)addr, (uint32_t)src,
					      __ATOMIC_SEQ_CST);
		break;
	case HR_XCHG:
		old = dw ? __atomic_exchange_n((uint64_t *)addr, src,
					       __ATOMIC_SEQ_CST) :
			   __atomic_exchange_n((uint32_t *)addr, (uint32_t)src,
					       __ATOMIC_SEQ_CST);
		break;
	case HR_CMPXCHG:
		if (dw) {
			uint64_t exp = regs[0];

			__atomic_compare_exchange_n((uint64_t *)addr, &exp, src,
						    false, __ATOMIC_SEQ_CST,
						    __ATOMIC_SEQ_CST);
			regs[0] = exp;
		} else {
			uint32_t exp = (uint32_t)regs[0];

			__atomic_compare_exchange_n((uint32_t *)addr, &exp,
						    (uint32_t)src, false,
						    __ATOMIC_SEQ_CST,
						    __ATOMIC_SEQ_CST);
			regs[0] = exp; /* zero-extended, as the kernel */
		}
		return 0;
	default:
		*bad = true;
		return 0;
	}
	if (insn->imm & HR_FETCH)
		regs[insn->src] = dw ? old : (uint32_t)old;
	return 0;
}

/* Atomics need natural alignment on every host; the kernel's verifier
 * demands it too. */
static bool atomic_aligned(uintptr_t addr, int size)
{
	return !(addr & (uintptr_t)(size - 1));
}

#define unlikely(x) __builtin_expect(!!(x), 0)
#define likely(x) __builtin_expect(!!(x), 1)

/* A fast-path bounds test: [addr, addr + size) inside [lo, hi), without
 * overflow for any addr. */
static inline bool fast_in(uintptr_t addr, uint32_t size, uintptr_t lo,
			   uintptr_t hi)
{
	return addr - lo <= hi - lo && hi - addr >= size;
}

/* Stack of the current frame and its callers, or the packet: the accesses
 * that need no further rule. Everything else takes hr_mem_check(). */
static inline bool fast_mem(const struct hr_run *run, uintptr_t addr,
			    uint32_t size)
{
	/* The packet first: it is what XDP programs touch most. */
	return fast_in(addr, size, run->pkt_lo, run->pkt_hi) ||
	       fast_in(addr, size, hr_stack_lo(run, run->depth),
		       hr_stack_hi(run));
}

/*
 * Prepared code made for one run alone, for programs that do not cache
 * theirs (vm->interp_cache unset: programs built by hand, not loaded):
 * at most the program and the targets of its tail calls.
 */
struct xcodes {
	struct hr_xcode *tmp[HR_MAX_TAIL_CALLS + 2];
	unsigned int n;
};

__attribute__((noinline)) static struct hr_xcode *
xcode_new(const struct hr_vm_prog *vm, struct xcodes *own)
{
	struct hr_xcode *xc, *expect = NULL;

	if (!vm->interp_cache && own->n == HR_MAX_TAIL_CALLS + 2)
		return NULL;
	xc = hr_xcode_build(vm, 0);
	if (!xc)
		return NULL;
	if (!vm->interp_cache) {
		own->tmp[own->n++] = xc;
		return xc;
	}
	/* Several threads may prepare at once: the first one wins. */
	if (!__atomic_compare_exchange_n(&((struct hr_vm_prog *)vm)->xcode,
					 &expect, xc, false, __ATOMIC_ACQ_REL,
					 __ATOMIC_ACQUIRE)) {
		hr_xcode_free(xc);
		xc = expect;
	}
	return xc;
}

static inline struct hr_xcode *xcode_of(const struct hr_vm_prog *vm,
					struct xcodes *own)
{
	struct hr_xcode *xc = __atomic_load_n(&vm->xcode, __ATOMIC_ACQUIRE);

	return likely(xc != NULL) ? xc : xcode_new(vm, own);
}

static const void *const *label_table;

#define PC ((uint32_t)(x - xb))
#define NEXT(n)              \
	do {                 \
		x += (n);    \
		goto * x->h; \
	} while (0)
#define ABORT_AT(reason, at, addr)                   \
	do {                                         \
		run->pc = (at);                      \
		hr_run_abort(run, (reason), (addr)); \
		ret = vm->abort_ret;                 \
		goto out;                            \
	} while (0)
#define ABORT(reason, addr) ABORT_AT(reason, PC, addr)

#define ALU_LABELS(P, p)                                          \
	[P##_ADD_K] = &&p##_add_k, [P##_ADD_X] = &&p##_add_x,     \
	[P##_SUB_K] = &&p##_sub_k, [P##_SUB_X] = &&p##_sub_x,     \
	[P##_MUL_K] = &&p##_mul_k, [P##_MUL_X] = &&p##_mul_x,     \
	[P##_OR_K] = &&p##_or_k, [P##_OR_X] = &&p##_or_x,         \
	[P##_AND_K] = &&p##_and_k, [P##_AND_X] = &&p##_and_x,     \
	[P##_XOR_K] = &&p##_xor_k, [P##_XOR_X] = &&p##_xor_x,     \
	[P##_LSH_K] = &&p##_lsh_k, [P##_LSH_X] = &&p##_lsh_x,     \
	[P##_RSH_K] = &&p##_rsh_k, [P##_RSH_X] = &&p##_rsh_x,     \
	[P##_ARSH_K] = &&p##_arsh_k, [P##_ARSH_X] = &&p##_arsh_x, \
	[P##_MOV_K] = &&p##_mov_k, [P##_MOV_X] = &&p##_mov_x
#define JMP_LABELS(N, n) [XOP_##N##_K] = &&n##_k, [XOP_##N##_X] = &&n##_x

/*
 * Runs from @pc until the function entered at depth @base returns, with
 * registers @init, or (init NULL: the program's own entry, where the
 * "fast" code may run) zero but r1, r2 and r10. Calls below it use
 * run->depth; frames[] is indexed from @base. Called with run == NULL it
 * only publishes its label table.
 */
static uint64_t exec(struct hr_run *run, uint32_t pc, const uint64_t *init,
		     uint64_t r1, uint64_t r2, unsigned int base)
{
	static const void *const labels[XOP__MAX] = {
		[XOP_GENERIC] = &&generic,
		[XOP_FALL_OFF] = &&fall_off,
		ALU_LABELS(XOP_A64, a64),
		ALU_LABELS(XOP_A32, a32),
		[XOP_LDX_B] = &&ldx_b,
		[XOP_LDX_H] = &&ldx_h,
		[XOP_LDX_W] = &&ldx_w,
		[XOP_LDX_DW] = &&ldx_dw,
		[XOP_STX_B] = &&stx_b,
		[XOP_STX_H] = &&stx_h,
		[XOP_STX_W] = &&stx_w,
		[XOP_STX_DW] = &&stx_dw,
		[XOP_ST_B] = &&st_b,
		[XOP_ST_H] = &&st_h,
		[XOP_ST_W] = &&st_w,
		[XOP_ST_DW] = &&st_dw,
		[XOP_LDXU_B] = &&ldxu_b,
		[XOP_LDXU_H] = &&ldxu_h,
		[XOP_LDXU_W] = &&ldxu_w,
		[XOP_LDXU_DW] = &&ldxu_dw,
		[XOP_STXU_B] = &&stxu_b,
		[XOP_STXU_H] = &&stxu_h,
		[XOP_STXU_W] = &&stxu_w,
		[XOP_STXU_DW] = &&stxu_dw,
		[XOP_STU_B] = &&stu_b,
		[XOP_STU_H] = &&stu_h,
		[XOP_STU_W] = &&stu_w,
		[XOP_STU_DW] = &&stu_dw,
		[XOP_JA] = &&ja,
		JMP_LABELS(JEQ, jeq),
		JMP_LABELS(JNE, jne),
		JMP_LABELS(JGT, jgt),
		JMP_LABELS(JGE, jge),
		JMP_LABELS(JLT, jlt),
		JMP_LABELS(JLE, jle),
		JMP_LABELS(JSET, jset),
		JMP_LABELS(JSGT, jsgt),
		JMP_LABELS(JSGE, jsge),
		JMP_LABELS(JSLT, jslt),
		JMP_LABELS(JSLE, jsle),
		JMP_LABELS(J32EQ, j32eq),
		JMP_LABELS(J32NE, j32ne),
		JMP_LABELS(J32GT, j32gt),
		JMP_LABELS(J32GE, j32ge),
		JMP_LABELS(J32LT, j32lt),
		JMP_LABELS(J32LE, j32le),
		JMP_LABELS(J32SET, j32set),
		JMP_LABELS(J32SGT, j32sgt),
		JMP_LABELS(J32SGE, j32sge),
		JMP_LABELS(J32SLT, j32slt),
		JMP_LABELS(J32SLE, j32sle),
		[XOP_AADD_W] = &&aadd_w,
		[XOP_AADD_DW] = &&aadd_dw,
		[XOP_AFADD_W] = &&afadd_w,
		[XOP_AFADD_DW] = &&afadd_dw,
		[XOP_LDDW] = &&lddw,
		[XOP_CALL] = &&call,
		[XOP_EXIT] = &&exit_,
		[XOP_MOV_ADD] = &&mov_add,
		[XOP_MOV_ADD_JGT] = &&mov_add_jgt,
		[XOP_BYTES16] = &&bytes16,
		[XOP_LDXU_B_AND] = &&ldxu_b_and,
		[XOP_LDXU_B_JEQ] = &&ldxu_b_jeq,
		[XOP_LDXU_B_JNE] = &&ldxu_b_jne,
		[XOP_LDXU_H_JEQ] = &&ldxu_h_jeq,
		[XOP_LDXU_H_JNE] = &&ldxu_h_jne,
		[XOP_LDXU_W_JEQ] = &&ldxu_w_jeq,
		[XOP_LDXU_W_JNE] = &&ldxu_w_jne,
		[XOP_LSH_ADD] = &&lsh_add,
		[XOP_MOV_JGT] = &&mov_jgt,
		[XOP_MOV_EXIT] = &&mov_exit,
		[XOP_BYTES16_JEQ] = &&bytes16_jeq,
		[XOP_BYTES16_JNE] = &&bytes16_jne,
		[XOP_ADD_LDXU_B] = &&add_ldxu_b,
		[XOP_ADD_LDXU_H] = &&add_ldxu_h,
		[XOP_ADD_LDXU_W] = &&add_ldxu_w,
		[XOP_MOV_LDXU_W2] = &&mov_ldxu_w2,
		[XOP_PROLOGUE] = &&prologue,
		[XOP_MOV_JEQ] = &&mov_jeq,
		[XOP_MOV_JNE] = &&mov_jne,
#define PAIR_LABEL(a, b) [XOP_PAIR_##a##_##b] = &&pair_##a##_##b,
		HR_XMEM_PAIRS(PAIR_LABEL)
#undef PAIR_LABEL
	};
	const struct hr_vm_prog *vm;
	const struct hr_insn *insns;
	const struct hr_xinsn *xb, *x;
	struct hr_xcode *xc;
	struct frame frames[HR_MAX_CALL_FRAMES];
	struct frame *f;
	struct xcodes own;
	uint64_t regs[HR_NREGS];
	uint64_t ret, src;
	uintptr_t addr;
	enum hr_abort why;
	bool bad = false;
	int size;

	if (!run) {
		__atomic_store_n(&label_table, labels, __ATOMIC_RELEASE);
		return 0;
	}
	own.n = 0;
	vm = run->vm;
	insns = vm->insns;
	xb = x = NULL;
	if (init) {
		memcpy(regs, init, sizeof(regs));
	} else {
		memset(regs, 0, sizeof(regs));
		regs[1] = r1;
		regs[2] = r2;
		regs[10] = hr_stack_hi(run);
	}
	xc = xcode_of(vm, &own);
	if (unlikely(!xc))
		ABORT_AT(HR_ABORT_NOMEM, pc, 0);
	xb = !init && run->ctx && r1 == (uintptr_t)run->ctx ? xc->fast :
							      xc->safe;
	goto dispatch;

#include "vm/interp_fast.h"

fall_off:
	ABORT(HR_ABORT_JUMP, PC);

call:
	/* A helper or kfunc that prepare found resolved. */
	run->pc = PC;
	regs[0] =
		vm->calls[PC](regs[1], regs[2], regs[3], regs[4], regs[5], run);
after_call:
	/* x is the call's slot, here and from the generic handler. */
	if (unlikely(run->abort)) {
		ret = vm->abort_ret;
		goto out;
	}
	if (unlikely(run->unwind)) {
		ret = regs[0];
		goto out;
	}
	if (unlikely(run->tail_call != NULL))
		goto tail_call;
	NEXT(1);

exit_:
	if (run->depth == base) {
		ret = regs[0];
		goto out;
	}
	f = &frames[--run->depth - base];
	memcpy(&regs[6], f->saved, sizeof(f->saved));
	regs[10] = f->fp;
	vm = run->vm = f->vm;
	insns = vm->insns;
	xb = f->xb;
	x = xb + f->ret_pc;
	goto * x->h;

tail_call:
	/* The target runs in this frame, on the same context (r1 is kept),
	 * from its "safe" code: its entry facts need not hold here. */
	vm = run->vm = run->tail_call;
	run->tail_call = NULL;
	insns = vm->insns;
	xc = xcode_of(vm, &own);
	if (unlikely(!xc))
		ABORT_AT(HR_ABORT_NOMEM, 0, 0);
	xb = xc->safe;
	pc = 0;
	goto dispatch;

generic : {
	const struct hr_insn *insn;
	uint8_t cls, op;

	pc = PC;
	insn = &insns[pc];
	cls = HR_CLASS(insn->code);
	op = HR_OP(insn->code);

	switch (cls) {
	case HR_ALU64:
	case HR_ALU:
		if (op == HR_END) {
			regs[insn->dst] = endian(insn, regs[insn->dst]);
			pc++;
			break;
		}
		src = HR_SRC(insn->code) == HR_X ? regs[insn->src] :
						   (uint64_t)(int64_t)insn->imm;
		if (cls == HR_ALU64)
			regs[insn->dst] = alu64(op, regs[insn->dst], src,
						insn->off, &bad);
		else
			regs[insn->dst] = alu32(op, (uint32_t)regs[insn->dst],
						(uint32_t)src, insn->off, &bad);
		if (bad)
			ABORT(HR_ABORT_BAD_INSN, pc);
		pc++;
		break;

	case HR_LDX:
		size = hr_size_bytes(insn->code);
		addr = regs[insn->src] + (int64_t)insn->off;
		why = hr_mem_check(run, addr, size, false);
		if (why)
			ABORT(why, addr);
		regs[insn->dst] = load(addr, size);
		if (HR_MODE(insn->code) == HR_MEMSX)
			regs[insn->dst] = sext(regs[insn->dst], size * 8);
		pc++;
		break;

	case HR_ST:
	case HR_STX:
		size = hr_size_bytes(insn->code);
		addr = regs[insn->dst] + (int64_t)insn->off;
		why = hr_mem_check(run, addr, size, true);
		if (why)
			ABORT(why, addr);
		if (HR_MODE(insn->code) == HR_ATOMIC) {
			if (!atomic_aligned(addr, size))
				ABORT(HR_ABORT_OOB_STORE, addr);
			atomic_op(insn, addr, regs, &bad);
			if (bad)
				ABORT(HR_ABORT_BAD_INSN, pc);
		} else {
			store(addr, size,
			      cls == HR_STX ? regs[insn->src] :
					      (uint64_t)(int64_t)insn->imm);
		}
		pc++;
		break;

	case HR_LD:
		if (insn->code != HR_OPC_LDDW || pc + 1 >= vm->cnt)
			ABORT(HR_ABORT_BAD_INSN, pc);
		regs[insn->dst] = hr_insn_lddw_value(insn);
		/* A function address is its instruction index. */
		if (insn->src == HR_PSEUDO_FUNC)
			regs[insn->dst] = pc + 1 + (int64_t)insn->imm;
		pc += 2;
		break;

	case HR_JMP:
	case HR_JMP32: {
		bool wide = cls == HR_JMP;
		int64_t delta;

		if (op == HR_EXIT)
			goto exit_;
		if (op == HR_CALL) {
			hr_helper_fn fn = NULL;

			if (insn->src == HR_CALL_LOCAL && wide) {
				if (run->depth + 1 >= HR_MAX_CALL_FRAMES)
					ABORT(HR_ABORT_CALL_DEPTH, pc);
				if (run->budget-- == 0)
					ABORT(HR_ABORT_BUDGET, pc);
				f = &frames[run->depth++ - base];
				memcpy(f->saved, &regs[6], sizeof(f->saved));
				f->fp = regs[10];
				f->ret_pc = pc + 1;
				f->vm = vm;
				f->xb = xb;
				regs[10] -= HR_STACK_SIZE;
				pc = pc + 1 + insn->imm;
				break;
			}
			if (HR_SRC(insn->code) == HR_X && wide) {
				if (vm->helper_by_id)
					fn = vm->helper_by_id(regs[insn->dst]);
			} else if (vm->calls) {
				fn = vm->calls[pc];
			}
			if (!fn || !wide)
				ABORT(HR_ABORT_UNKNOWN_CALL, pc);
			run->pc = pc;
			regs[0] = fn(regs[1], regs[2], regs[3], regs[4],
				     regs[5], run);
			goto after_call;
		}
		if (op == HR_JA) {
			delta = wide ? insn->off : insn->imm;
		} else {
			src = HR_SRC(insn->code) == HR_X ?
				      regs[insn->src] :
				      (uint64_t)(int64_t)insn->imm;
			if (!hr_jump_taken(op, regs[insn->dst], src, wide)) {
				pc++;
				break;
			}
			delta = insn->off;
		}
		if (delta < 0 && run->budget-- == 0)
			ABORT(HR_ABORT_BUDGET, pc);
		pc = (uint32_t)((int64_t)pc + 1 + delta);
		break;
	}

	default:
		ABORT(HR_ABORT_BAD_INSN, pc);
	}
}
dispatch:
	/* Out-of-range targets end the run here, naming the target. */
	if (unlikely(pc >= vm->cnt))
		ABORT_AT(HR_ABORT_JUMP, pc, pc);
	x = xb + pc;
	goto * x->h;

out:
	/* Every way out, an abort deep in a call included, leaves the depth
	 * this function was entered at: frames below it are gone. */
	run->depth = base;
	while (own.n)
		hr_xcode_free(own.tmp[--own.n]);
	return ret;
}

#undef PC
#undef NEXT
#undef ABORT
#undef ABORT_AT

/* Workers that first prepare a program at once may both fill the table:
 * with the same constant, but atomically so that it is no data race. */
const void *const *hr_interp_labels(void)
{
	const void *const *t = __atomic_load_n(&label_table, __ATOMIC_ACQUIRE);

	if (!t) {
		exec(NULL, 0, NULL, 0, 0, 0);
		t = __atomic_load_n(&label_table, __ATOMIC_ACQUIRE);
	}
	return t;
}

/*
 * The caller (a helper called from either engine's code) goes on with the
 * state it had, however the callback ended: an abort three frames down
 * included. The JIT's code reads depth, pc, vm, regions and tail_call
 * from the run after the helper returns, so each is put back here.
 */
uint64_t hr_interp_callback(struct hr_run *run, uint32_t pc,
			    const uint64_t args[5])
{
	const struct hr_vm_prog *vm = run->vm;
	const struct hr_vm_prog *tail = run->tail_call;
	const struct hr_region *regions = run->regions;
	unsigned int nregions = run->nregions, depth = run->depth;
	uint32_t at = run->pc;
	uint64_t regs[HR_NREGS] = { 0 }, r0;

	if (depth + 1 >= HR_MAX_CALL_FRAMES) {
		hr_run_abort(run, HR_ABORT_CALL_DEPTH, pc);
		return vm->abort_ret;
	}
	memcpy(&regs[1], args, 5 * sizeof(args[0]));
	run->depth = depth + 1;
	regs[10] = hr_stack_hi(run) - (uint64_t)run->depth * HR_STACK_SIZE;
	run->in_callback++;
	r0 = exec(run, pc, regs, 0, 0, depth + 1);
	run->in_callback--;
	run->depth = depth;
	run->vm = vm;
	run->pc = at;
	run->regions = regions;
	run->nregions = nregions;
	run->tail_call = tail;
	return r0;
}

uint64_t hr_interp_run(struct hr_run *run, uint64_t r1, uint64_t r2)
{
	run->pkt_dirty = 1; /* not tracked here */
	run->depth = 0;
	run->callback = hr_interp_callback;
	return exec(run, 0, NULL, r1, r2, 0);
}

uint64_t hr_interp_resume(struct hr_run *run, const uint64_t regs[HR_NREGS])
{
	run->pkt_dirty = 1;
	run->depth = 0;
	run->callback = hr_interp_callback;
	return exec(run, 0, regs, 0, 0, 0);
}

void hr_interp_free(struct hr_vm_prog *vm)
{
	if (!vm)
		return;
	hr_xcode_free(vm->xcode);
	vm->xcode = NULL;
}
