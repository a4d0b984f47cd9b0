/* SPDX-License-Identifier: MIT */
/*
 * The interpreter's fast handlers, included inside exec()'s loop: one
 * label per common opcode, each ending with `continue` (next instruction)
 * or a jump. They must mean exactly what the generic switch means.
 */

#define D regs[insn->dst]
#define S regs[insn->src]
#define K ((uint64_t)(int64_t)insn->imm)
#define D32 ((uint32_t)regs[insn->dst])
#define S32 ((uint32_t)regs[insn->src])
#define K32 ((uint32_t)insn->imm)

#define ALU64(name, expr)          \
	a64_##name##_k:            \
	{                          \
		uint64_t src_ = K; \
		D = (expr);        \
		pc++;              \
		continue;          \
	}                          \
	a64_##name##_x:            \
	{                          \
		uint64_t src_ = S; \
		D = (expr);        \
		pc++;              \
		continue;          \
	}
#define ALU32(name, expr)             \
	a32_##name##_k:               \
	{                             \
		uint32_t src_ = K32;  \
		D = (uint32_t)(expr); \
		pc++;                 \
		continue;             \
	}                             \
	a32_##name##_x:               \
	{                             \
		uint32_t src_ = S32;  \
		D = (uint32_t)(expr); \
		pc++;                 \
		continue;             \
	}

ALU64(add, D + src_)
ALU64(sub, D - src_)
ALU64(mul, D *src_)
ALU64(or, D | src_)
ALU64(and, D &src_)
ALU64(xor, D ^ src_)
ALU64(lsh, D << (src_ & 63))
ALU64(rsh, D >> (src_ & 63))
ALU64(arsh, (uint64_t)((int64_t)D >> (src_ & 63)))
ALU32(add, D32 + src_)
ALU32(sub, D32 - src_)
ALU32(mul, D32 *src_)
ALU32(or, D32 | src_)
ALU32(and, D32 &src_)
ALU32(xor, D32 ^ src_)
ALU32(lsh, D32 << (src_ & 31))
ALU32(rsh, D32 >> (src_ & 31))
ALU32(arsh, (uint32_t)((int32_t)D32 >> (src_ & 31)))

a64_mov_k : D = K;
pc++;
continue;
a64_mov_x : if (insn->off) goto generic; /* movsx */
D = S;
pc++;
continue;
a32_mov_k : D = K32;
pc++;
continue;
a32_mov_x : if (insn->off) goto generic;
D = S32;
pc++;
continue;

#define LDX(name, type)                                                     \
	ldx_##name:                                                         \
	{                                                                   \
		type v_;                                                    \
		addr = S + (int64_t)insn->off;                              \
		if (unlikely(!fast_mem(run, addr, sizeof(type)))) {         \
			why = hr_mem_check(run, addr, sizeof(type), false); \
			if (why)                                            \
				ABORT(why, addr);                           \
		}                                                           \
		memcpy(&v_, (void *)addr, sizeof(type));                    \
		D = v_;                                                     \
		pc++;                                                       \
		continue;                                                   \
	}
#define STORE(name, type, val)                                     \
name : {                                                           \
	type v_ = (type)(val);                                     \
	addr = D + (int64_t)insn->off;                             \
	if (unlikely(!fast_mem(run, addr, sizeof(type)))) {        \
		why = hr_mem_check(run, addr, sizeof(type), true); \
		if (why)                                           \
			ABORT(why, addr);                          \
	}                                                          \
	memcpy((void *)addr, &v_, sizeof(type));                   \
	pc++;                                                      \
	continue;                                                  \
}

LDX(b, uint8_t)
LDX(h, uint16_t)
LDX(w, uint32_t)
LDX(dw, uint64_t)
STORE(stx_b, uint8_t, S)
STORE(stx_h, uint16_t, S)
STORE(stx_w, uint32_t, S)
STORE(stx_dw, uint64_t, S)
STORE(st_b, uint8_t, K)
STORE(st_h, uint16_t, K)
STORE(st_w, uint32_t, K)
STORE(st_dw, uint64_t, K)

#define JCOND(name, cond)                \
	name##_k:                        \
	{                                \
		uint64_t a_ = D, b_ = K; \
		if (cond)                \
			goto taken;      \
		pc++;                    \
		continue;                \
	}                                \
	name##_x:                        \
	{                                \
		uint64_t a_ = D, b_ = S; \
		if (cond)                \
			goto taken;      \
		pc++;                    \
		continue;                \
	}

JCOND(jeq, a_ == b_)
JCOND(jne, a_ != b_)
JCOND(jgt, a_ > b_)
JCOND(jge, a_ >= b_)
JCOND(jlt, a_ < b_)
JCOND(jle, a_ <= b_)
JCOND(jset, a_ &b_)
JCOND(jsgt, (int64_t)a_ > (int64_t)b_)
JCOND(jsge, (int64_t)a_ >= (int64_t)b_)
JCOND(jslt, (int64_t)a_ < (int64_t)b_)
JCOND(jsle, (int64_t)a_ <= (int64_t)b_)

ja : taken :
    /* Conditional jumps and ja take insn->off; back-edges cost budget. */
    if (insn->off < 0 && run->budget-- == 0) ABORT(HR_ABORT_BUDGET, pc);
pc = (uint32_t)((int64_t)pc + 1 + insn->off);
continue;

#undef ALU64
#undef ALU32
#undef LDX
#undef STORE
#undef JCOND
#undef D
#undef S
#undef K
#undef D32
#undef S32
#undef K32
