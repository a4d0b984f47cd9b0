// SPDX-License-Identifier: MIT
/*
 * The interpreter: the reference semantics of every instruction.
 *
 * Every load, store and atomic is checked with hr_mem_check() before it
 * touches memory; jumps, calls and the budget are checked as they happen.
 * A fault ends the run with vm->abort_ret and a reason in run->abort.
 */
#include <string.h>

#include "vm.h"
#include "mem.h"

struct frame {
	uint64_t saved[4]; /* r6..r9 */
	uint64_t fp;
	uint32_t ret_pc;
	const struct hr_vm_prog *vm; /* to return into (tail calls) */
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

static bool jump_taken(uint8_t op, uint64_t a, uint64_t b, bool wide)
{
	if (!wide) {
		a = (uint32_t)a;
		b = (uint32_t)b;
	}
	switch (op) {
	case HR_JEQ:
		return a == b;
	case HR_JNE:
		return a != b;
	case HR_JGT:
		return a > b;
	case HR_JGE:
		return a >= b;
	case HR_JLT:
		return a < b;
	case HR_JLE:
		return a <= b;
	case HR_JSET:
		return a & b;
	}
	if (wide) {
		switch (op) {
		case HR_JSGT:
			return (int64_t)a > (int64_t)b;
		case HR_JSGE:
			return (int64_t)a >= (int64_t)b;
		case HR_JSLT:
			return (int64_t)a < (int64_t)b;
		case HR_JSLE:
			return (int64_t)a <= (int64_t)b;
		}
	} else {
		switch (op) {
		case HR_JSGT:
			return (int32_t)a > (int32_t)b;
		case HR_JSGE:
			return (int32_t)a >= (int32_t)b;
		case HR_JSLT:
			return (int32_t)a < (int32_t)b;
		case HR_JSLE:
			return (int32_t)a <= (int32_t)b;
		}
	}
	return false;
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

/* Dispatch-table entries for the fast handlers of interp_fast.h. */
#define FAST_ALU_OPS(cls, p)                                   \
	[cls | HR_ADD | HR_K] = &&p##_add_k,                   \
			[cls | HR_ADD | HR_X] = &&p##_add_x,   \
			[cls | HR_SUB | HR_K] = &&p##_sub_k,   \
			[cls | HR_SUB | HR_X] = &&p##_sub_x,   \
			[cls | HR_MUL | HR_K] = &&p##_mul_k,   \
			[cls | HR_MUL | HR_X] = &&p##_mul_x,   \
			[cls | HR_OR | HR_K] = &&p##_or_k,     \
			[cls | HR_OR | HR_X] = &&p##_or_x,     \
			[cls | HR_AND | HR_K] = &&p##_and_k,   \
			[cls | HR_AND | HR_X] = &&p##_and_x,   \
			[cls | HR_XOR | HR_K] = &&p##_xor_k,   \
			[cls | HR_XOR | HR_X] = &&p##_xor_x,   \
			[cls | HR_LSH | HR_K] = &&p##_lsh_k,   \
			[cls | HR_LSH | HR_X] = &&p##_lsh_x,   \
			[cls | HR_RSH | HR_K] = &&p##_rsh_k,   \
			[cls | HR_RSH | HR_X] = &&p##_rsh_x,   \
			[cls | HR_ARSH | HR_K] = &&p##_arsh_k, \
			[cls | HR_ARSH | HR_X] = &&p##_arsh_x, \
			[cls | HR_MOV | HR_K] = &&p##_mov_k,   \
			[cls | HR_MOV | HR_X] = &&p##_mov_x
#define FAST_ALU(cls, p) FAST_ALU_OPS(cls, p)
#define FAST_JMP(name, op) \
	[HR_JMP | (op) | HR_K] = &&name##_k, [HR_JMP | (op) | HR_X] = &&name##_x

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

#define ABORT(reason, addr)                          \
	do {                                         \
		run->pc = pc;                        \
		hr_run_abort(run, (reason), (addr)); \
		return vm->abort_ret;                \
	} while (0)

/*
 * Runs from @pc with @regs until the function entered at depth @base
 * returns. Calls below it use run->depth; frames[] is indexed from @base.
 */
static uint64_t exec(struct hr_run *run, uint32_t pc, uint64_t *regs,
		     unsigned int base)
{
	const struct hr_vm_prog *vm = run->vm;
	const struct hr_insn *insns = vm->insns;
	uint32_t cnt = vm->cnt;
	struct frame frames[HR_MAX_CALL_FRAMES];
	bool bad = false;

	/* The common opcodes have their own handler; the rest go through
	 * the generic switch below, which is the whole ISA. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Woverride-init"
	static const void *const fast[256] = {
		[0 ... 255] = &&generic,
		FAST_ALU(HR_ALU64, a64),
		FAST_ALU(HR_ALU, a32),
		[HR_LDX | HR_MEM | HR_B] = &&ldx_b,
		[HR_LDX | HR_MEM | HR_H] = &&ldx_h,
		[HR_LDX | HR_MEM | HR_W] = &&ldx_w,
		[HR_LDX | HR_MEM | HR_DW] = &&ldx_dw,
		[HR_STX | HR_MEM | HR_B] = &&stx_b,
		[HR_STX | HR_MEM | HR_H] = &&stx_h,
		[HR_STX | HR_MEM | HR_W] = &&stx_w,
		[HR_STX | HR_MEM | HR_DW] = &&stx_dw,
		[HR_ST | HR_MEM | HR_B] = &&st_b,
		[HR_ST | HR_MEM | HR_H] = &&st_h,
		[HR_ST | HR_MEM | HR_W] = &&st_w,
		[HR_ST | HR_MEM | HR_DW] = &&st_dw,
		[HR_JMP | HR_JA] = &&ja,
		FAST_JMP(jeq, HR_JEQ),
		FAST_JMP(jne, HR_JNE),
		FAST_JMP(jgt, HR_JGT),
		FAST_JMP(jge, HR_JGE),
		FAST_JMP(jlt, HR_JLT),
		FAST_JMP(jle, HR_JLE),
		FAST_JMP(jset, HR_JSET),
		FAST_JMP(jsgt, HR_JSGT),
		FAST_JMP(jsge, HR_JSGE),
		FAST_JMP(jslt, HR_JSLT),
		FAST_JMP(jsle, HR_JSLE),
	};
#pragma GCC diagnostic pop

	for (;;) {
		const struct hr_insn *insn;
		uint8_t cls, op;
		uint64_t src;
		uintptr_t addr;
		enum hr_abort why;
		int size;

		if (unlikely(pc >= cnt))
			ABORT(HR_ABORT_JUMP, pc);
		insn = &insns[pc];
		goto *fast[insn->code];

#include "interp_fast.h"

generic:
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
			src = HR_SRC(insn->code) == HR_X ?
				      regs[insn->src] :
				      (uint64_t)(int64_t)insn->imm;
			if (cls == HR_ALU64)
				regs[insn->dst] = alu64(op, regs[insn->dst],
							src, insn->off, &bad);
			else
				regs[insn->dst] =
					alu32(op, (uint32_t)regs[insn->dst],
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
				regs[insn->dst] =
					sext(regs[insn->dst], size * 8);
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
				      cls == HR_STX ?
					      regs[insn->src] :
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

			if (op == HR_EXIT) {
				struct frame *f;

				if (run->depth == base)
					return regs[0];
				f = &frames[--run->depth - base];
				memcpy(&regs[6], f->saved, sizeof(f->saved));
				regs[10] = f->fp;
				pc = f->ret_pc;
				vm = run->vm = f->vm;
				insns = vm->insns;
				cnt = vm->cnt;
				break;
			}
			if (op == HR_CALL) {
				hr_helper_fn fn = NULL;

				if (insn->src == HR_CALL_LOCAL && wide) {
					struct frame *f;

					if (run->depth + 1 >=
					    HR_MAX_CALL_FRAMES)
						ABORT(HR_ABORT_CALL_DEPTH, pc);
					if (run->budget-- == 0)
						ABORT(HR_ABORT_BUDGET, pc);
					f = &frames[run->depth++ - base];
					memcpy(f->saved, &regs[6],
					       sizeof(f->saved));
					f->fp = regs[10];
					f->ret_pc = pc + 1;
					f->vm = vm;
					regs[10] -= HR_STACK_SIZE;
					pc = pc + 1 + insn->imm;
					break;
				}
				if (HR_SRC(insn->code) == HR_X && wide) {
					if (vm->helper_by_id)
						fn = vm->helper_by_id(
							regs[insn->dst]);
				} else if (vm->calls) {
					fn = vm->calls[pc];
				}
				if (!fn || !wide)
					ABORT(HR_ABORT_UNKNOWN_CALL, pc);
				run->pc = pc;
				regs[0] = fn(regs[1], regs[2], regs[3], regs[4],
					     regs[5], run);
				if (run->abort)
					return vm->abort_ret;
				if (run->unwind)
					return regs[0];
				if (run->tail_call) {
					/* The target runs in this frame, on
					 * the same context (r1 is kept). */
					vm = run->vm = run->tail_call;
					run->tail_call = NULL;
					insns = vm->insns;
					cnt = vm->cnt;
					pc = 0;
					break;
				}
				pc++;
				break;
			}
			if (op == HR_JA) {
				delta = wide ? insn->off : insn->imm;
			} else {
				src = HR_SRC(insn->code) == HR_X ?
					      regs[insn->src] :
					      (uint64_t)(int64_t)insn->imm;
				if (!jump_taken(op, regs[insn->dst], src,
						wide)) {
					pc++;
					break;
				}
				delta = insn->off;
			}
			if (delta < 0 && run->budget-- == 0)
				ABORT(HR_ABORT_BUDGET, pc);
			/* Out-of-range targets are caught at the loop top. */
			pc = (uint32_t)((int64_t)pc + 1 + delta);
			break;
		}

		default:
			ABORT(HR_ABORT_BAD_INSN, pc);
		}
	}
}

uint64_t hr_interp_callback(struct hr_run *run, uint32_t pc,
			    const uint64_t args[5])
{
	const struct hr_vm_prog *vm = run->vm;
	uint64_t regs[HR_NREGS] = { 0 }, r0;

	if (run->depth + 1 >= HR_MAX_CALL_FRAMES) {
		hr_run_abort(run, HR_ABORT_CALL_DEPTH, pc);
		return vm->abort_ret;
	}
	memcpy(&regs[1], args, 5 * sizeof(args[0]));
	run->depth++;
	regs[10] = hr_stack_hi(run) - (uint64_t)run->depth * HR_STACK_SIZE;
	r0 = exec(run, pc, regs, run->depth);
	run->depth--;
	run->vm = vm;
	return r0;
}

uint64_t hr_interp_run(struct hr_run *run, uint64_t r1, uint64_t r2)
{
	uint64_t regs[HR_NREGS] = { 0 };

	regs[1] = r1;
	regs[2] = r2;
	regs[10] = hr_stack_hi(run);
	run->depth = 0;
	run->callback = hr_interp_callback;
	return exec(run, 0, regs, 0);
}

uint64_t hr_interp_resume(struct hr_run *run, const uint64_t regs_in[HR_NREGS])
{
	uint64_t regs[HR_NREGS];

	memcpy(regs, regs_in, sizeof(regs));
	run->depth = 0;
	run->callback = hr_interp_callback;
	return exec(run, 0, regs, 0);
}
