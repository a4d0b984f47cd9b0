/* SPDX-License-Identifier: MIT */
/*
 * The interpreter's handlers for prepared slots (interp.h), included
 * inside exec(): one label per enum hr_xop, each ending by dispatching the
 * next slot. They must mean exactly what the generic switch means.
 */

#define D regs[x->dst]
#define S regs[x->src]
#define K ((uint64_t)(int64_t)x->imm)
#define D32 ((uint32_t)regs[x->dst])
#define S32 ((uint32_t)regs[x->src])
#define K32 ((uint32_t)x->imm)

#define ALU64(name, expr)          \
	a64_##name##_k:            \
	{                          \
		uint64_t src_ = K; \
		D = (expr);        \
		NEXT(1);           \
	}                          \
	a64_##name##_x:            \
	{                          \
		uint64_t src_ = S; \
		D = (expr);        \
		NEXT(1);           \
	}
#define ALU32(name, expr)             \
	a32_##name##_k:               \
	{                             \
		uint32_t src_ = K32;  \
		D = (uint32_t)(expr); \
		NEXT(1);              \
	}                             \
	a32_##name##_x:               \
	{                             \
		uint32_t src_ = S32;  \
		D = (uint32_t)(expr); \
		NEXT(1);              \
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
ALU64(mov, src_)
ALU32(add, D32 + src_)
ALU32(sub, D32 - src_)
ALU32(mul, D32 *src_)
ALU32(or, D32 | src_)
ALU32(and, D32 &src_)
ALU32(xor, D32 ^ src_)
ALU32(lsh, D32 << (src_ & 31))
ALU32(rsh, D32 >> (src_ & 31))
ALU32(arsh, (uint32_t)((int32_t)D32 >> (src_ & 31)))
ALU32(mov, src_)

/* rD = rS + imm, and the bounds test that often follows it. */
mov_add : D = S + K;
NEXT(2);
mov_add_jgt:
{
	uint64_t v_ = S + K;

	D = v_;
	if (v_ > regs[x[2].src]) {
		x += 3 + x[2].off;
		goto * x->h;
	}
	NEXT(3);
}

/*
 * More fused slots: each does its instructions' work in their order, so
 * a register two of them name gets what the sequence gives it. Loads here
 * are unchecked ones (prepare fuses only those).
 */
#define LOADU(type, xi)                                        \
	({                                                     \
		type v_;                                       \
		memcpy(&v_,                                    \
		       (void *)(uintptr_t)(regs[(xi).src] +    \
					   (int64_t)(xi).off), \
		       sizeof(type));                          \
		(uint64_t) v_;                                 \
	})
#define JUMP_AT(xi, i)                   \
	do {                             \
		x += (i) + 1 + (xi).off; \
		goto * x->h;             \
	} while (0)

#define BYTES16()                                      \
	do {                                           \
		regs[x[0].dst] = LOADU(uint8_t, x[0]); \
		regs[x[1].dst] <<= 8;                  \
		regs[x[2].dst] = LOADU(uint8_t, x[2]); \
		regs[x[3].dst] |= regs[x[3].src];      \
	} while (0)
bytes16 : BYTES16();
NEXT(4);
bytes16_jeq : BYTES16();
if (regs[x[4].dst] == (uint64_t)(int64_t)x[4].imm)
	JUMP_AT(x[4], 4);
NEXT(5);
bytes16_jne : BYTES16();
if (regs[x[4].dst] != (uint64_t)(int64_t)x[4].imm)
	JUMP_AT(x[4], 4);
NEXT(5);
/* r0 = verdict; data_end, data; p = data + k; if p > data_end. */
prologue:
{
	uint64_t v_;

	D = K;
	regs[x[1].dst] = LOADU(uint32_t, x[1]);
	regs[x[2].dst] = LOADU(uint32_t, x[2]);
	v_ = regs[x[3].src] + (uint64_t)(int64_t)x[4].imm;
	regs[x[3].dst] = v_;
	if (v_ > regs[x[5].src])
		JUMP_AT(x[5], 5);
	NEXT(6);
}
mov_ldxu_w2 : D = K;
regs[x[1].dst] = LOADU(uint32_t, x[1]);
regs[x[2].dst] = LOADU(uint32_t, x[2]);
NEXT(3);

#define ADD_LOAD(name, type)                \
name:                                       \
	D += K;                             \
	regs[x[1].dst] = LOADU(type, x[1]); \
	NEXT(2);
ADD_LOAD(add_ldxu_b, uint8_t)
ADD_LOAD(add_ldxu_h, uint16_t)
ADD_LOAD(add_ldxu_w, uint32_t)
ldxu_b_and : D = LOADU(uint8_t, x[0]);
regs[x[1].dst] &= (uint64_t)(int64_t)x[1].imm;
NEXT(2);

#define LOAD_JCC(name, type, op)                           \
name:                                                      \
	D = LOADU(type, x[0]);                             \
	if (regs[x[1].dst] op(uint64_t)(int64_t) x[1].imm) \
		JUMP_AT(x[1], 1);                          \
	NEXT(2);
LOAD_JCC(ldxu_b_jeq, uint8_t, ==)
LOAD_JCC(ldxu_b_jne, uint8_t, !=)
LOAD_JCC(ldxu_h_jeq, uint16_t, ==)
LOAD_JCC(ldxu_h_jne, uint16_t, !=)
LOAD_JCC(ldxu_w_jeq, uint32_t, ==)
LOAD_JCC(ldxu_w_jne, uint32_t, !=)

lsh_add : D <<= x->imm & 63;
regs[x[1].dst] += regs[x[1].src];
NEXT(2);
mov_jgt : D = K;
if (regs[x[1].dst] > regs[x[1].src])
	JUMP_AT(x[1], 1);
NEXT(2);
mov_exit : D = K;
goto exit_;
mov_jeq : D = K;
if (regs[x[1].dst] == (uint64_t)(int64_t)x[1].imm)
	JUMP_AT(x[1], 1);
NEXT(2);
mov_jne : D = K;
if (regs[x[1].dst] != (uint64_t)(int64_t)x[1].imm)
	JUMP_AT(x[1], 1);
NEXT(2);

/* One unchecked memory slot of a pair, by kind (HR_XMEM_ROW). */
#define XMEM_L(type, xi) (regs[(xi).dst] = LOADU(type, xi))
#define XMEM_S(type, xi)                                       \
	({                                                     \
		type v_ = (type)regs[(xi).src];                \
		memcpy((void *)(uintptr_t)(regs[(xi).dst] +    \
					   (int64_t)(xi).off), \
		       &v_, sizeof(type));                     \
	})
#define XMEM_LB(xi) XMEM_L(uint8_t, xi)
#define XMEM_LH(xi) XMEM_L(uint16_t, xi)
#define XMEM_LW(xi) XMEM_L(uint32_t, xi)
#define XMEM_LD(xi) XMEM_L(uint64_t, xi)
#define XMEM_SB(xi) XMEM_S(uint8_t, xi)
#define XMEM_SH(xi) XMEM_S(uint16_t, xi)
#define XMEM_SW(xi) XMEM_S(uint32_t, xi)
#define XMEM_SD(xi) XMEM_S(uint64_t, xi)
#define PAIR(a, b)                       \
	pair_##a##_##b : XMEM_##a(x[0]); \
	XMEM_##b(x[1]);                  \
	NEXT(2);
HR_XMEM_PAIRS(PAIR)
#undef PAIR

/* As the generic atomic: the range (proven here), then alignment. */
#define AADD(name, type, fetch)                                             \
name : {                                                                    \
	type old_;                                                          \
	addr = D + (int64_t)x->off;                                         \
	if (unlikely(addr & (sizeof(type) - 1)))                            \
		ABORT(HR_ABORT_OOB_STORE, addr);                            \
	old_ = __atomic_fetch_add((type *)addr, (type)S, __ATOMIC_SEQ_CST); \
	if (fetch)                                                          \
		S = old_;                                                   \
	NEXT(1);                                                            \
}
AADD(aadd_w, uint32_t, false)
AADD(aadd_dw, uint64_t, false)
AADD(afadd_w, uint32_t, true)
AADD(afadd_dw, uint64_t, true)

lddw : D = (uint32_t)x->imm | (uint64_t)(uint32_t)x[1].imm << 32;
NEXT(2);

#define LDX(name, type)                                                     \
	ldx_##name:                                                         \
	{                                                                   \
		type v_;                                                    \
		addr = S + (int64_t)x->off;                                 \
		if (unlikely(!fast_mem(run, addr, sizeof(type)))) {         \
			why = hr_mem_check(run, addr, sizeof(type), false); \
			if (why)                                            \
				ABORT(why, addr);                           \
		}                                                           \
		memcpy(&v_, (void *)addr, sizeof(type));                    \
		D = v_;                                                     \
		NEXT(1);                                                    \
	}                                                                   \
	ldxu_##name:                                                        \
	{                                                                   \
		type v_;                                                    \
		memcpy(&v_, (void *)(uintptr_t)(S + (int64_t)x->off),       \
		       sizeof(type));                                       \
		D = v_;                                                     \
		NEXT(1);                                                    \
	}
#define STORE(name, type, val)                                     \
name : {                                                           \
	type v_ = (type)(val);                                     \
	addr = D + (int64_t)x->off;                                \
	if (unlikely(!fast_mem(run, addr, sizeof(type)))) {        \
		why = hr_mem_check(run, addr, sizeof(type), true); \
		if (why)                                           \
			ABORT(why, addr);                          \
	}                                                          \
	memcpy((void *)addr, &v_, sizeof(type));                   \
	NEXT(1);                                                   \
}
#define STOREU(name, type, val)                                              \
name : {                                                                     \
	type v_ = (type)(val);                                               \
	memcpy((void *)(uintptr_t)(D + (int64_t)x->off), &v_, sizeof(type)); \
	NEXT(1);                                                             \
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
STOREU(stxu_b, uint8_t, S)
STOREU(stxu_h, uint16_t, S)
STOREU(stxu_w, uint32_t, S)
STOREU(stxu_dw, uint64_t, S)
STOREU(stu_b, uint8_t, K)
STOREU(stu_h, uint16_t, K)
STOREU(stu_w, uint32_t, K)
STOREU(stu_dw, uint64_t, K)

/* Targets are inside the program (prepare checked); back-edges cost
 * budget. Each handler jumps on by itself: one shared indirect jump
 * would be predicted far worse. */
#define TAKEN()                                       \
	do {                                          \
		if (x->off < 0 && run->budget-- == 0) \
			ABORT(HR_ABORT_BUDGET, PC);   \
		x += 1 + x->off;                      \
		goto * x->h;                          \
	} while (0)
#define JCOND_T(name, type, cond)    \
	name##_k:                    \
	{                            \
		type a_ = D, b_ = K; \
		if (cond)            \
			TAKEN();     \
		NEXT(1);             \
	}                            \
	name##_x:                    \
	{                            \
		type a_ = D, b_ = S; \
		if (cond)            \
			TAKEN();     \
		NEXT(1);             \
	}
#define JCOND(name, cond) JCOND_T(name, uint64_t, cond)
#define JCOND32(name, cond) JCOND_T(name, uint32_t, cond)

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
JCOND32(j32eq, a_ == b_)
JCOND32(j32ne, a_ != b_)
JCOND32(j32gt, a_ > b_)
JCOND32(j32ge, a_ >= b_)
JCOND32(j32lt, a_ < b_)
JCOND32(j32le, a_ <= b_)
JCOND32(j32set, a_ &b_)
JCOND32(j32sgt, (int32_t)a_ > (int32_t)b_)
JCOND32(j32sge, (int32_t)a_ >= (int32_t)b_)
JCOND32(j32slt, (int32_t)a_ < (int32_t)b_)
JCOND32(j32sle, (int32_t)a_ <= (int32_t)b_)

ja : TAKEN();

#undef ALU64
#undef ALU32
#undef LDX
#undef STORE
#undef STOREU
#undef JCOND
#undef JCOND32
#undef JCOND_T
#undef TAKEN
#undef LOADU
#undef JUMP_AT
#undef LOAD_JCC
#undef AADD
#undef XMEM_L
#undef XMEM_S
#undef XMEM_LB
#undef XMEM_LH
#undef XMEM_LW
#undef XMEM_LD
#undef XMEM_SB
#undef XMEM_SH
#undef XMEM_SW
#undef XMEM_SD
#undef BYTES16
#undef ADD_LOAD
#undef D
#undef S
#undef K
#undef D32
#undef S32
#undef K32
