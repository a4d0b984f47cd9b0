/* SPDX-License-Identifier: MIT */
/*
 * The interpreter's handlers for prepared slots (interp.h), included
 * inside exec(): one label per enum hr_xop, each ending by dispatching the
 * next slot. They must mean exactly what the generic switch means.
 */

/* A handler's operands come from one load of its slot (w_, hr_xops()). */
#define D regs[XO_DST(w_)]
#define S regs[XO_SRC(w_)]
#define K ((uint64_t)XO_IMM(w_))
#define D32 ((uint32_t)regs[XO_DST(w_)])
#define S32 ((uint32_t)regs[XO_SRC(w_)])
#define K32 ((uint32_t)XO_IMM(w_))
#define OFF XO_OFF(w_)
#define W0 uint64_t w_ = hr_xops(x)

#define ALU64(name, expr)          \
	a64_##name##_k:            \
	{                          \
		W0;                \
		uint64_t src_ = K; \
		D = (expr);        \
		NEXT(1);           \
	}                          \
	a64_##name##_x:            \
	{                          \
		W0;                \
		uint64_t src_ = S; \
		D = (expr);        \
		NEXT(1);           \
	}
#define ALU32(name, expr)             \
	a32_##name##_k:               \
	{                             \
		W0;                   \
		uint32_t src_ = K32;  \
		D = (uint32_t)(expr); \
		NEXT(1);              \
	}                             \
	a32_##name##_x:               \
	{                             \
		W0;                   \
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

/*
 * Fused slots: each does its instructions' work in their order, so a
 * register two of them name gets what the sequence gives it. Where
 * interp_prep.c requires the registers of clang's shape (fused_op(): a
 * value feeds the next instruction, the others are distinct), the value
 * is carried in a local rather than stored and loaded back. Loads here
 * are unchecked ones (prepare fuses only those).
 */
#define LOADU(type, w)                                                        \
	({                                                                    \
		type v_;                                                      \
		memcpy(&v_, (void *)(uintptr_t)(regs[XO_SRC(w)] + XO_OFF(w)), \
		       sizeof(type));                                         \
		(uint64_t) v_;                                                \
	})
#define JUMP_AT(w, i)                     \
	do {                              \
		x += (i) + 1 + XO_OFF(w); \
		goto * x->h;              \
	} while (0)
#define WI(i) hr_xops(&x[i])

/* rD = rS + imm, and the bounds test that often follows it. */
mov_add:
{
	W0;

	D = S + K;
	NEXT(2);
}
mov_add_jgt:
{
	W0;
	uint64_t w2_ = WI(2), v_ = S + K;

	D = v_;
	if (v_ > regs[XO_SRC(w2_)])
		JUMP_AT(w2_, 2);
	NEXT(3);
}

/* A 16-bit field read bytewise: rA = b1; rA <<= 8; rC = b0; rA |= rC. */
#define BYTES16()                                        \
	uint64_t w0_ = hr_xops(x), w2_ = WI(2), lo_, v_; \
                                                         \
	v_ = LOADU(uint8_t, w0_) << 8;                   \
	lo_ = LOADU(uint8_t, w2_);                       \
	v_ |= lo_;                                       \
	regs[XO_DST(w2_)] = lo_;                         \
	regs[XO_DST(w0_)] = v_
bytes16:
{
	BYTES16();
	NEXT(4);
}
bytes16_jeq:
{
	BYTES16();
	if (v_ == (uint64_t)XO_IMM(WI(4)))
		JUMP_AT(WI(4), 4);
	NEXT(5);
}
bytes16_jne:
{
	BYTES16();
	if (v_ != (uint64_t)XO_IMM(WI(4)))
		JUMP_AT(WI(4), 4);
	NEXT(5);
}
/* r0 = verdict; rE = data_end; rD = data; rP = rD + k; if rP > rE. */
prologue:
{
	uint64_t w0_ = hr_xops(x), w1_ = WI(1), w2_ = WI(2), w3_ = WI(3);
	uint64_t end_, p_;

	end_ = LOADU(uint32_t, w1_);
	p_ = LOADU(uint32_t, w2_);
	regs[XO_DST(w0_)] = (uint64_t)XO_IMM(w0_);
	regs[XO_DST(w1_)] = end_;
	regs[XO_DST(w2_)] = p_;
	p_ += (uint64_t)XO_IMM(WI(4));
	regs[XO_DST(w3_)] = p_;
	if (p_ > end_)
		JUMP_AT(WI(5), 5);
	NEXT(6);
}
mov_ldxu_w2:
{
	uint64_t w0_ = hr_xops(x), w1_ = WI(1), w2_ = WI(2);

	regs[XO_DST(w0_)] = (uint64_t)XO_IMM(w0_);
	regs[XO_DST(w1_)] = LOADU(uint32_t, w1_);
	regs[XO_DST(w2_)] = LOADU(uint32_t, w2_);
	NEXT(3);
}

/* rD += K, then a load through rD. */
#define ADD_LOAD(name, type)                                              \
name : {                                                                  \
	W0;                                                               \
	uint64_t w1_ = WI(1), v_ = D + K;                                 \
	type l_;                                                          \
                                                                          \
	D = v_;                                                           \
	memcpy(&l_, (void *)(uintptr_t)(v_ + XO_OFF(w1_)), sizeof(type)); \
	regs[XO_DST(w1_)] = l_;                                           \
	NEXT(2);                                                          \
}
ADD_LOAD(add_ldxu_b, uint8_t)
ADD_LOAD(add_ldxu_h, uint16_t)
ADD_LOAD(add_ldxu_w, uint32_t)
ldxu_b_and:
{
	W0;

	D = LOADU(uint8_t, w_) & (uint64_t)XO_IMM(WI(1));
	NEXT(2);
}

/* A load, then a forward test of what it loaded. */
#define LOAD_JCC(name, type, op)                    \
name : {                                            \
	W0;                                         \
	uint64_t w1_ = WI(1), v_ = LOADU(type, w_); \
                                                    \
	D = v_;                                     \
	if (v_ op(uint64_t) XO_IMM(w1_))            \
		JUMP_AT(w1_, 1);                    \
	NEXT(2);                                    \
}
LOAD_JCC(ldxu_b_jeq, uint8_t, ==)
LOAD_JCC(ldxu_b_jne, uint8_t, !=)
LOAD_JCC(ldxu_h_jeq, uint16_t, ==)
LOAD_JCC(ldxu_h_jne, uint16_t, !=)
LOAD_JCC(ldxu_w_jeq, uint32_t, ==)
LOAD_JCC(ldxu_w_jne, uint32_t, !=)

/* rS <<= K; rD += rS. */
lsh_add:
{
	W0;
	uint64_t w1_ = WI(1), v_ = D << (XO_IMM(w_) & 63);

	D = v_;
	regs[XO_DST(w1_)] += v_;
	NEXT(2);
}
/* rD = K; if rD > rZ (rZ another register). */
mov_jgt:
{
	W0;
	uint64_t w1_ = WI(1);

	D = K;
	if (K > regs[XO_SRC(w1_)])
		JUMP_AT(w1_, 1);
	NEXT(2);
}
mov_exit:
{
	W0;

	D = K;
	goto exit_;
}
mov_jeq:
{
	W0;
	uint64_t w1_ = WI(1);

	D = K;
	if (regs[XO_DST(w1_)] == (uint64_t)XO_IMM(w1_))
		JUMP_AT(w1_, 1);
	NEXT(2);
}
mov_jne:
{
	W0;
	uint64_t w1_ = WI(1);

	D = K;
	if (regs[XO_DST(w1_)] != (uint64_t)XO_IMM(w1_))
		JUMP_AT(w1_, 1);
	NEXT(2);
}

/* One unchecked memory slot of a pair, by kind (HR_XMEM_ROW). */
#define XMEM_L(type, i)                               \
	({                                            \
		uint64_t wm_ = WI(i);                 \
		regs[XO_DST(wm_)] = LOADU(type, wm_); \
	})
#define XMEM_S(type, i)                                                      \
	({                                                                   \
		uint64_t wm_ = WI(i);                                        \
		type v_ = (type)regs[XO_SRC(wm_)];                           \
		memcpy((void *)(uintptr_t)(regs[XO_DST(wm_)] + XO_OFF(wm_)), \
		       &v_, sizeof(type));                                   \
	})
#define XMEM_LB(i) XMEM_L(uint8_t, i)
#define XMEM_LH(i) XMEM_L(uint16_t, i)
#define XMEM_LW(i) XMEM_L(uint32_t, i)
#define XMEM_LD(i) XMEM_L(uint64_t, i)
#define XMEM_SB(i) XMEM_S(uint8_t, i)
#define XMEM_SH(i) XMEM_S(uint16_t, i)
#define XMEM_SW(i) XMEM_S(uint32_t, i)
#define XMEM_SD(i) XMEM_S(uint64_t, i)
#define PAIR(a, b)                    \
	pair_##a##_##b : XMEM_##a(0); \
	XMEM_##b(1);                  \
	NEXT(2);
HR_XMEM_PAIRS(PAIR)
#undef PAIR

/* As the generic atomic: the range (proven here), then alignment. */
#define AADD(name, type, fetch)                                             \
name : {                                                                    \
	W0;                                                                 \
	type old_;                                                          \
	addr = D + OFF;                                                     \
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

lddw:
{
	W0;

	D = (uint32_t)K | (uint64_t)(uint32_t)x[1].imm << 32;
	NEXT(2);
}

#define LDX(name, type)                                                     \
	ldx_##name:                                                         \
	{                                                                   \
		W0;                                                         \
		type v_;                                                    \
		addr = S + OFF;                                             \
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
		W0;                                                         \
		D = LOADU(type, w_);                                        \
		NEXT(1);                                                    \
	}
#define STORE(name, type, val)                                     \
name : {                                                           \
	W0;                                                        \
	type v_ = (type)(val);                                     \
	addr = D + OFF;                                            \
	if (unlikely(!fast_mem(run, addr, sizeof(type)))) {        \
		why = hr_mem_check(run, addr, sizeof(type), true); \
		if (why)                                           \
			ABORT(why, addr);                          \
	}                                                          \
	memcpy((void *)addr, &v_, sizeof(type));                   \
	NEXT(1);                                                   \
}
#define STOREU(name, type, val)                                  \
name : {                                                         \
	W0;                                                      \
	type v_ = (type)(val);                                   \
	memcpy((void *)(uintptr_t)(D + OFF), &v_, sizeof(type)); \
	NEXT(1);                                                 \
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
#define TAKEN()                                     \
	do {                                        \
		if (OFF < 0 && run->budget-- == 0)  \
			ABORT(HR_ABORT_BUDGET, PC); \
		x += 1 + OFF;                       \
		goto * x->h;                        \
	} while (0)
#define JCOND_T(name, type, cond)    \
	name##_k:                    \
	{                            \
		W0;                  \
		type a_ = D, b_ = K; \
		if (cond)            \
			TAKEN();     \
		NEXT(1);             \
	}                            \
	name##_x:                    \
	{                            \
		W0;                  \
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

ja:
{
	W0;

	TAKEN();
}

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
#undef WI
#undef W0
#undef OFF
#undef D
#undef S
#undef K
#undef D32
#undef S32
#undef K32
