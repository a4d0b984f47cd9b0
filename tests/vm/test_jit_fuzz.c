// SPDX-License-Identifier: MIT
/*
 * Differential fuzzing of the JIT against the interpreter: random valid
 * programs (every ALU, JMP and JMP32 form, loads and stores on the stack,
 * a context, a packet and two map-like regions, atomics, bpf-to-bpf calls,
 * helper calls and callx, deliberate out-of-bounds accesses, loops that
 * run out of budget, and the shapes clang gives packet parsing, which the
 * interpreter fuses) over random memory, run under the JIT, the
 * interpreter and the interpreter without fused slots or proofs; r0, the
 * abort reason, pc and address and all memory afterwards must agree.
 *
 * HR_FUZZ_CASES=N sets the number of cases (default 100000),
 * HR_FUZZ_SEED=S the seed (default fixed, so failures reproduce).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "vm/disasm.h"
#include "vm/engine.h"
#include "vm/interp.h"
#include "vm/jit.h"
#include "harness.h"
#include "jit_diff.h"
#include "progs/prog.h"
#include <linux/bpf.h>

#define MAX_SLOTS 48
#define MAX_FUNCS 3
#define MAX_INSNS (MAX_FUNCS * (MAX_SLOTS * 6 + 16))

static struct jd_env env;
/* This case runs under the XDP context rule with a struct xdp_md whose
 * data / data_end bound the packet, and has data_end guards. */
static bool xdp_mode;
static uint64_t rng_state;

static uint64_t rnd(void)
{
	uint64_t x = rng_state;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	rng_state = x;
	return x * 0x2545f4914f6cdd1dull;
}

static uint32_t below(uint32_t n)
{
	return (uint32_t)(rnd() % n);
}

static bool chance(uint32_t percent)
{
	return below(100) < percent;
}

/* Helpers the programs call (by id, through calls[] or callx). */

static uint64_t h_mix(uint64_t r1, uint64_t r2, uint64_t r3, uint64_t r4,
		      uint64_t r5, struct hr_run *run)
{
	return (r1 * 31 + r2) ^ (r3 << 3) ^ (r4 >> 2) ^ (r5 * 7) ^ run->depth;
}

static uint64_t h_fill(uint64_t r1, uint64_t r2, uint64_t r3, uint64_t r4,
		       uint64_t r5, struct hr_run *run)
{
	uint8_t *p = hr_run_mem(run, r1, r2 & 31, true);

	if (!p)
		return 0;
	memset(p, (int)r3, r2 & 31);
	return r2 & 31;
}

static uint64_t h_pkt(uint64_t r1, uint64_t r2, uint64_t r3, uint64_t r4,
		      uint64_t r5, struct hr_run *run)
{
	run->pkt_lo = jd_addr(&env, JD_PKT_OFF) + (r1 & 63);
	run->pkt_hi = jd_addr(&env, JD_PKT_OFF + JD_PKT_LEN) - (r2 & 63);
	if (xdp_mode) /* as a real helper keeps ctx->data in step */
		jd_xdp_ctx(&env, (uint8_t *)run->ctx - JD_CTX_OFF,
			   run->pkt_lo + (r3 & 15), run->pkt_hi);
	return run->pkt_lo;
}

static uint64_t h_unwind(uint64_t r1, uint64_t r2, uint64_t r3, uint64_t r4,
			 uint64_t r5, struct hr_run *run)
{
	if ((r1 & 0xff) == 0x5a)
		run->unwind = true;
	return r1 + 1;
}

static hr_helper_fn fuzz_helper(uint64_t id)
{
	switch (id) {
	case 1:
		return h_mix;
	case 2:
		return h_fill;
	case 3:
		return h_pkt;
	case 4:
		return h_unwind;
	}
	return NULL;
}

/* Program generation. */

enum slot_kind { S_PLAIN, S_JUMP, S_CALL };

struct slot {
	enum slot_kind kind;
	struct hr_insn insn[6];
	int n;
	int jat; /* the jump's index in the slot (S_JUMP) */
	int target; /* slot index (jumps) or function (calls) */
};

struct func {
	struct slot slots[MAX_SLOTS + 8];
	int nslots;
	uint32_t start; /* first instruction */
	uint32_t *slot_pc; /* per slot */
};

static const uint8_t alu_ops[] = { HR_ADD, HR_SUB, HR_MUL,  HR_DIV, HR_OR,
				   HR_AND, HR_LSH, HR_RSH,  HR_NEG, HR_MOD,
				   HR_XOR, HR_MOV, HR_ARSH, HR_END };
static const uint8_t jmp_ops[] = { HR_JEQ, HR_JGT,  HR_JGE,  HR_JSET,
				   HR_JNE, HR_JSGT, HR_JSGE, HR_JLT,
				   HR_JLE, HR_JSLT, HR_JSLE };
static const int32_t atomic_ops[] = {
	HR_ADD,
	HR_OR,
	HR_AND,
	HR_XOR,
	HR_ADD | HR_FETCH,
	HR_OR | HR_FETCH,
	HR_AND | HR_FETCH,
	HR_XOR | HR_FETCH,
	HR_XCHG,
	HR_CMPXCHG,
};
static const uint8_t sizes[] = { HR_B, HR_H, HR_W, HR_DW };

static int32_t rand_imm(void)
{
	static const int32_t special[] = { 0,	   1,	       -1,	  2,
					   7,	   31,	       32,	  63,
					   64,	   0x7fffffff, INT32_MIN, 0xff,
					   0xffff, -2,	       16 };

	switch (below(4)) {
	case 0:
		return special[below(sizeof(special) / sizeof(special[0]))];
	case 1:
		return (int32_t)below(64);
	case 2:
		return (int32_t)below(256) - 128;
	}
	return (int32_t)rnd();
}

static uint8_t data_reg(void)
{
	return (uint8_t)below(6); /* r0..r5 */
}

static uint8_t any_reg(void)
{
	return (uint8_t)below(10);
}

static void gen_alu(struct hr_insn *i)
{
	bool wide = chance(50);
	uint8_t op = alu_ops[below(sizeof(alu_ops))];

	i->code = (wide ? HR_ALU64 : HR_ALU) | op | (chance(50) ? HR_X : HR_K);
	i->dst = chance(92) ? data_reg() : (uint8_t)(6 + below(4));
	i->src = HR_SRC(i->code) == HR_X ? (uint8_t)below(11) : 0;
	i->imm = HR_SRC(i->code) == HR_K ? rand_imm() : 0;
	i->off = 0;
	if ((op == HR_DIV || op == HR_MOD) && chance(50))
		i->off = 1;
	if (op == HR_MOV && HR_SRC(i->code) == HR_X && chance(30))
		i->off = (int16_t)(8 << below(wide ? 3 : 2));
	if (op == HR_NEG) {
		i->code = (wide ? HR_ALU64 : HR_ALU) | op;
		i->src = 0;
		i->imm = 0;
	}
	if (op == HR_END) {
		i->code = wide ? (HR_ALU64 | HR_END) :
				 (HR_ALU | HR_END | (chance(50) ? HR_X : 0));
		i->src = 0;
		i->imm = 16 << below(3);
	}
	/* Pointer registers move by small steps. */
	if (i->dst >= 6 && !(op == HR_ADD && HR_SRC(i->code) == HR_K)) {
		i->code = HR_ALU64 | HR_ADD | HR_K;
		i->src = 0;
		i->off = 0;
		i->imm = (int32_t)below(17) - 8;
	}
}

/* A base register and an offset that are usually in bounds. */
static void mem_target(uint8_t *base, int16_t *off, int size)
{
	bool wild = chance(6);

	switch (below(6)) {
	case 0: /* ctx */
		*base = 6;
		*off = (int16_t)(below(8) * 4);
		if (wild)
			*off = (int16_t)(below(80) - 8);
		return;
	case 1: /* packet */
		*base = 7;
		*off = (int16_t)below(xdp_mode ? 72 : JD_PKT_LEN - 8);
		if (wild)
			*off = (int16_t)(below(JD_PKT_LEN + 80) - 40);
		return;
	case 2: /* rw region, and past it into ro */
		*base = 8;
		*off = (int16_t)below(JD_RW_LEN - 8);
		if (wild)
			*off = (int16_t)(below(JD_RW_LEN + JD_RO_LEN + 40) -
					 20);
		return;
	case 3: /* stack through a copy of r10 */
		*base = 9;
		*off = (int16_t)(below(256) - 256);
		if (wild)
			*off = (int16_t)(below(600) - 520);
		return;
	case 4: /* anything */
		if (chance(30)) {
			*base = data_reg();
			*off = (int16_t)(below(64) - 32);
			return;
		}
		/* fall through */
	default:
		*base = 10;
		*off = (int16_t)(-(int)below(512 / size) * size - size);
		if (wild)
			*off = (int16_t)(below(560) - 530);
		return;
	}
}

static void gen_mem(struct hr_insn *i)
{
	uint8_t sz = sizes[below(4)];
	int size = hr_size_bytes(sz);
	uint8_t base;
	int16_t off;

	mem_target(&base, &off, size);
	switch (below(3)) {
	case 0:
		i->code = HR_LDX | (chance(25) ? HR_MEMSX : HR_MEM) | sz;
		if (HR_MODE(i->code) == HR_MEMSX && sz == HR_DW)
			i->code = HR_LDX | HR_MEM | sz;
		i->dst = data_reg();
		i->src = base;
		i->off = off;
		i->imm = 0;
		return;
	case 1:
		i->code = HR_STX | HR_MEM | sz;
		i->dst = base;
		i->src = (uint8_t)below(11);
		i->off = off;
		i->imm = 0;
		return;
	default:
		i->code = HR_ST | HR_MEM | sz;
		i->dst = base;
		i->src = 0;
		i->off = off;
		i->imm = rand_imm();
		return;
	}
}

static void gen_atomic(struct hr_insn *i)
{
	bool dw = chance(50);
	uint8_t base;
	int16_t off;

	mem_target(&base, &off, dw ? 8 : 4);
	if (!chance(5))
		off &= (int16_t)(dw ? ~7 : ~3);
	if (base == 7 || base == 6)
		base = chance(50) ? 8 : 10;
	if (base == 10 && off > -8)
		off = -8;
	i->code = HR_STX | HR_ATOMIC | (dw ? HR_DW : HR_W);
	i->dst = base;
	i->src = data_reg();
	i->off = off;
	i->imm = atomic_ops[below(sizeof(atomic_ops) / sizeof(atomic_ops[0]))];
}

static struct hr_insn ins(uint8_t code, uint8_t dst, uint8_t src, int16_t off,
			  int32_t imm)
{
	return (struct hr_insn){
		.code = code, .dst = dst, .src = src, .off = off, .imm = imm
	};
}

/*
 * The shapes clang gives packet parsing, which the interpreter fuses into
 * one slot when their loads are proven (interp_prep.c): mostly through
 * r7 = ctx->data at offsets a data_end guard may or may not cover.
 */
static void gen_idiom(struct slot *s)
{
	static const uint8_t ld[] = { HR_B, HR_H, HR_W };
	struct hr_insn *i = s->insn;
	uint8_t d = data_reg(), t = data_reg();
	int16_t o = (int16_t)below(80);
	int32_t k = chance(50) ? (int32_t)below(4) : rand_imm();

	switch (below(9)) {
	case 0: /* a 16-bit field read bytewise, maybe tested */
		i[0] = ins(HR_LDX | HR_MEM | HR_B, d, 7, (int16_t)(o + 1), 0);
		i[1] = ins(HR_ALU64 | HR_LSH | HR_K, d, 0, 0, 8);
		i[2] = ins(HR_LDX | HR_MEM | HR_B, t, 7, o, 0);
		i[3] = ins(HR_ALU64 | HR_OR | HR_X, d, t, 0, 0);
		s->n = 4;
		if (chance(60)) {
			i[4] = ins(HR_JMP | (chance(50) ? HR_JEQ : HR_JNE), d,
				   0, 0, chance(50) ? 8 : k);
			s->n = 5;
			s->kind = S_JUMP;
			s->jat = 4;
		}
		return;
	case 1: /* load, then test it against a constant */
		i[0] = ins(HR_LDX | HR_MEM | ld[below(3)], d, 7, o, 0);
		i[1] = ins(HR_JMP | (chance(50) ? HR_JEQ : HR_JNE),
			   chance(85) ? d : t, 0, 0, k);
		s->n = 2;
		s->kind = S_JUMP;
		s->jat = 1;
		return;
	case 2: /* load a byte, mask it */
		i[0] = ins(HR_LDX | HR_MEM | HR_B, d, 7, o, 0);
		i[1] = ins(HR_ALU64 | HR_AND | HR_K, chance(85) ? d : t, 0, 0,
			   15);
		s->n = 2;
		return;
	case 3: /* scale and add (ihl * 4) */
		i[0] = ins(HR_ALU64 | HR_LSH | HR_K, t, 0, 0,
			   (int32_t)below(4));
		i[1] = ins(HR_ALU64 | HR_ADD | HR_X, d, chance(85) ? t : d, 0,
			   0);
		s->n = 2;
		return;
	case 4: /* step a copy of the packet pointer, load through it */
		i[0] = ins(HR_ALU64 | HR_MOV | HR_X, d, 7, 0, 0);
		i[1] = ins(HR_ALU64 | HR_ADD | HR_K, d, 0, 0,
			   (int32_t)below(40));
		i[2] = ins(HR_LDX | HR_MEM | ld[below(3)], chance(70) ? d : t,
			   d, (int16_t)below(40), 0);
		if (chance(30)) /* or the add then the load alone */
			i[0] = ins(HR_ALU64 | HR_MOV | HR_K, t, 0, 0, k);
		s->n = 3;
		return;
	case 5: /* a constant, then a test */
		i[0] = ins(HR_ALU64 | HR_MOV | HR_K, d, 0, 0, k);
		if (chance(50))
			i[1] = ins(HR_JMP | HR_JGT | HR_X, d, t, 0, 0);
		else
			i[1] = ins(HR_JMP | (chance(50) ? HR_JEQ : HR_JNE), t,
				   0, 0, k);
		s->n = 2;
		s->kind = S_JUMP;
		s->jat = 1;
		return;
	case 6: /* the default verdict, then data and data_end */
		i[0] = ins(HR_ALU64 | HR_MOV | HR_K, 0, 0, 0, k);
		i[1] = ins(HR_LDX | HR_MEM | HR_W, d, 6, 4, 0);
		i[2] = ins(HR_LDX | HR_MEM | HR_W, t, 6, chance(80) ? 0 : 8, 0);
		s->n = 3;
		return;
	case 7: /* XDP's start: verdict, data_end, data, the first guard */
		i[0] = ins(HR_ALU64 | HR_MOV | HR_K, 0, 0, 0, k);
		i[1] = ins(HR_LDX | HR_MEM | HR_W, t, 6, 4, 0);
		i[2] = ins(HR_LDX | HR_MEM | HR_W, d, 6, 0, 0);
		i[3] = ins(HR_ALU64 | HR_MOV | HR_X, data_reg(),
			   chance(85) ? d : t, 0, 0);
		i[4] = ins(HR_ALU64 | HR_ADD | HR_K, i[3].dst, 0, 0,
			   (int32_t)below(80));
		i[5] = ins(HR_JMP | HR_JGT | HR_X, i[3].dst, chance(85) ? t : d,
			   0, 0);
		s->n = 6;
		s->kind = S_JUMP;
		s->jat = 5;
		return;
	default: /* loads and stores side by side (swap MACs) */
		i[0] = ins(HR_LDX | HR_MEM | ld[below(3)], d, 7, o, 0);
		i[1] = ins(HR_STX | HR_MEM | ld[below(3)], 7, t,
			   (int16_t)below(80), 0);
		if (chance(40)) {
			i[1] = ins(HR_STX | HR_MEM | HR_DW, 10, d,
				   (int16_t)(-8 - 8 * (int)below(8)), 0);
			i[0].src = chance(50) ? 7 : 10;
			if (i[0].src == 10)
				i[0].off = (int16_t)(-8 - 8 * (int)below(8));
		}
		if (chance(30)) {
			struct hr_insn tmp = i[0];

			i[0] = i[1];
			i[1] = tmp;
		}
		s->n = 2;
		return;
	}
}

static void gen_slot(struct slot *s, int nfuncs, int self)
{
	struct hr_insn *i = s->insn;
	uint32_t k = below(100);
	uint64_t v;

	memset(s, 0, sizeof(*s));
	s->kind = S_PLAIN;
	s->n = 1;
	if (xdp_mode && chance(15))
		k = 87; /* more data_end guards */
	if (xdp_mode && chance(12)) {
		gen_idiom(s);
		return;
	}
	if (k < 42) {
		gen_alu(i);
	} else if (k < 66) {
		gen_mem(i);
	} else if (k < 71) {
		gen_atomic(i);
	} else if (k < 87) {
		bool wide = chance(50);

		s->kind = S_JUMP;
		i->code = (wide ? HR_JMP : HR_JMP32) |
			  jmp_ops[below(sizeof(jmp_ops))] |
			  (chance(50) ? HR_X : HR_K);
		i->dst = any_reg();
		i->src = HR_SRC(i->code) == HR_X ? (uint8_t)below(11) : 0;
		i->imm = HR_SRC(i->code) == HR_K ? rand_imm() : 0;
	} else if (xdp_mode && k < 89) {
		/* A data_end guard on r7 + n, in any of its forms. */
		static const uint8_t ops[] = { HR_JGT, HR_JGE, HR_JLT, HR_JLE };
		uint8_t e = data_reg(), x = data_reg();

		if (x == e)
			x = (uint8_t)((e + 1) % 6);
		s->kind = S_JUMP;
		s->n = 4;
		s->jat = 3;
		i[0] = (struct hr_insn){ .code = HR_LDX | HR_MEM | HR_W,
					 .dst = e,
					 .src = 6,
					 .off = 4 };
		i[1] = (struct hr_insn){ .code = HR_ALU64 | HR_MOV | HR_X,
					 .dst = x,
					 .src = 7 };
		i[2] = (struct hr_insn){ .code = HR_ALU64 | HR_ADD | HR_K,
					 .dst = x,
					 .imm = (int32_t)below(80) };
		i[3].code = HR_JMP | HR_X | ops[below(4)];
		if (chance(50)) {
			i[3].dst = x;
			i[3].src = e;
		} else {
			i[3].dst = e;
			i[3].src = x;
		}
	} else if (k < 89) {
		s->kind = S_JUMP;
		i->code = chance(70) ? (HR_JMP | HR_JA) : (HR_JMP32 | HR_JA);
	} else if (k < 92) {
		v = chance(50) ? rnd() : jd_addr(&env, below(JD_ARENA_LEN));
		i[0].code = HR_OPC_LDDW;
		i[0].dst = data_reg();
		hr_insn_set_lddw(i, v);
		s->n = 2;
	} else if (k < 97) {
		/* Helper call, by id or through callx. */
		if (chance(25)) {
			i[0].code = HR_ALU64 | HR_MOV | HR_K;
			i[0].dst = (uint8_t)(6 + below(4));
			i[0].imm = (int32_t)below(6);
			i[1].code = HR_JMP | HR_CALL | HR_X;
			i[1].dst = i[0].dst;
			s->n = 2;
		} else {
			i->code = HR_JMP | HR_CALL;
			i->imm = (int32_t)(1 + below(chance(3) ? 8 : 4));
		}
	} else if (nfuncs > 1) {
		s->kind = S_CALL;
		i->code = HR_JMP | HR_CALL;
		i->src = HR_CALL_LOCAL;
		s->target = 1 + (int)below((uint32_t)nfuncs - 1);
		if (s->target == self && !chance(30))
			s->target = 0; /* no call: keep recursion rare */
		if (!s->target) {
			s->kind = S_PLAIN;
			gen_alu(i);
		}
	} else {
		gen_alu(i);
	}
	if (s->kind == S_PLAIN && s->n == 1 &&
	    hr_insn_validate(i, NULL, NULL)) {
		/* Keep the program valid: a plain move instead. */
		memset(i, 0, sizeof(*i));
		i->code = HR_ALU64 | HR_MOV | HR_K;
		i->dst = data_reg();
		i->imm = rand_imm();
	}
}

static void gen_func(struct func *f, int idx, int nfuncs)
{
	int n = 1 + (int)below(MAX_SLOTS), s, i = 0;
	struct slot *sl;

	f->nslots = 0;
	if (idx == 0) {
		/* r6 ctx, r7 packet, r8 rw region, r9 a stack pointer. */
		sl = &f->slots[f->nslots++];
		memset(sl, 0, sizeof(*sl));
		sl->n = 1;
		sl->insn[0] = (struct hr_insn){
			.code = HR_ALU64 | HR_MOV | HR_X, .dst = 6, .src = 1
		};
		sl = &f->slots[f->nslots++];
		memset(sl, 0, sizeof(*sl));
		sl->n = 1;
		sl->insn[0] = (struct hr_insn){
			.code = HR_ALU64 | HR_MOV | HR_X, .dst = 7, .src = 2
		};
		if (xdp_mode) /* r7 = ctx->data */
			sl->insn[0] = (struct hr_insn){ .code = HR_LDX |
								HR_MEM | HR_W,
							.dst = 7,
							.src = 1 };
		sl = &f->slots[f->nslots++];
		memset(sl, 0, sizeof(*sl));
		sl->n = 2;
		sl->insn[0] = (struct hr_insn){ .code = HR_OPC_LDDW, .dst = 8 };
		hr_insn_set_lddw(sl->insn, jd_addr(&env, JD_RW_OFF));
		sl = &f->slots[f->nslots++];
		memset(sl, 0, sizeof(*sl));
		sl->n = 1;
		sl->insn[0] = (struct hr_insn){
			.code = HR_ALU64 | HR_MOV | HR_X, .dst = 9, .src = 10
		};
	}
	for (s = 0; s < n; s++)
		gen_slot(&f->slots[f->nslots++], nfuncs, idx);
	sl = &f->slots[f->nslots++];
	memset(sl, 0, sizeof(*sl));
	sl->n = 1;
	sl->insn[0].code = HR_JMP | HR_EXIT;
	/* Jump targets: mostly forward, some back (loops end by budget). */
	for (s = 0; s < f->nslots; s++) {
		sl = &f->slots[s];
		if (sl->kind != S_JUMP)
			continue;
		if (chance(15))
			sl->target = (int)below((uint32_t)s + 1);
		else
			sl->target = s + 1 +
				     (int)below((uint32_t)(f->nslots - s - 1));
		i++;
	}
}

static uint32_t layout(struct func *funcs, int nfuncs, struct hr_insn *out)
{
	static uint32_t slot_pc[MAX_FUNCS][MAX_SLOTS + 8];
	uint32_t pc = 0;
	int f, s;

	for (f = 0; f < nfuncs; f++) {
		funcs[f].start = pc;
		funcs[f].slot_pc = slot_pc[f];
		for (s = 0; s < funcs[f].nslots; s++) {
			slot_pc[f][s] = pc;
			pc += (uint32_t)funcs[f].slots[s].n;
		}
	}
	for (f = 0; f < nfuncs; f++) {
		for (s = 0; s < funcs[f].nslots; s++) {
			struct slot *sl = &funcs[f].slots[s];
			uint32_t at = slot_pc[f][s];

			memcpy(&out[at], sl->insn, sl->n * sizeof(*out));
			if (sl->kind == S_JUMP) {
				int32_t d;

				at += (uint32_t)sl->jat;
				d = (int32_t)slot_pc[f][sl->target] -
				    (int32_t)at - 1;

				if (out[at].code == (HR_JMP32 | HR_JA))
					out[at].imm = d;
				else
					out[at].off = (int16_t)d;
			} else if (sl->kind == S_CALL) {
				out[at].imm = (int32_t)funcs[sl->target].start -
					      (int32_t)at - 1;
			}
		}
	}
	return pc;
}

static void randomize_input(void)
{
	size_t i;

	for (i = 0; i < JD_ARENA_LEN; i += 8) {
		uint64_t v = rnd();

		memcpy(env.init + i, &v, 8);
	}
	for (i = 0; i < sizeof(env.stack_init); i += 8) {
		uint64_t v = chance(50) ? 0 : rnd();

		memcpy(env.stack_init + i, &v, 8);
	}
	env.pkt_lo = jd_addr(&env, JD_PKT_OFF + (chance(70) ? 0 : below(32)));
	env.pkt_hi = jd_addr(&env, JD_PKT_OFF + JD_PKT_LEN -
					   (chance(70) ? 0 : below(32)));
	env.budget = chance(10) ? below(4) : 50 + below(2000);
	env.r1 = jd_addr(&env, JD_CTX_OFF);
	env.r2 = env.pkt_lo;
	if (xdp_mode) {
		uintptr_t data = env.pkt_lo + below(16);
		uintptr_t end = env.pkt_hi - below(16);

		/* Often a short packet whose end is the window's end, so
		 * that data_end guards decide and one byte past a proven
		 * range leaves the packet. */
		if (chance(50)) {
			end = data + below(90);
			if (chance(60))
				env.pkt_hi = end;
		}
		jd_xdp_ctx(&env, env.init, data, end);
	}
}

static void dump(const struct hr_insn *insns, uint32_t cnt)
{
	char line[128];
	uint32_t pc = 0;

	while (pc < cnt) {
		int n = hr_disasm_insn2(&insns[pc],
					pc + 1 < cnt ? &insns[pc + 1] : NULL,
					line, sizeof(line));

		fprintf(stderr, "  %4u: %s\n", pc, line);
		pc += n > 0 ? (uint32_t)n : 1;
	}
}

/* Reports a difference of @b from the interpreter's @a; true when there
 * have been enough to stop. */
static bool differ(const struct jd_result *a, const struct jd_result *b,
		   const char *what, uint64_t n, uint64_t state,
		   const struct hr_insn *insns, uint32_t cnt, uint64_t *bad)
{
	char why[256];

	if (jd_same(a, b, why, sizeof(why)))
		return false;
	++*bad;
	CHECK(0, "case %llu (rng %#llx): %s: %s", (unsigned long long)n,
	      (unsigned long long)state, what, why);
	if (*bad <= 3)
		dump(insns, cnt);
	return *bad >= 10;
}

/* Counts, by kind, the fused slots the interpreter's fast code has. */
static void count_fused(const struct hr_vm_prog *vm, uint64_t *fused)
{
	const void *const *labels = hr_interp_labels();
	struct hr_xcode *xc = hr_xcode_build(vm, 0);
	uint32_t pc;
	int op;

	if (!xc)
		return;
	for (pc = 0; pc < xc->cnt; pc++)
		for (op = XOP_MOV_ADD; op < XOP__MAX; op++)
			if (xc->fast[pc].h == labels[op])
				fused[op]++;
	hr_xcode_free(xc);
}

static uint64_t env_u64(const char *name, uint64_t def)
{
	const char *v = getenv(name);

	return v && *v ? strtoull(v, NULL, 0) : def;
}

int main(void)
{
	static struct func funcs[MAX_FUNCS];
	static struct hr_insn insns[MAX_INSNS];
	static hr_helper_fn calls[MAX_INSNS];
	static struct jd_result a, b, c;
	uint64_t cases = env_u64("HR_FUZZ_CASES", 100000);
	uint64_t seed = env_u64("HR_FUZZ_SEED", 0x5eed1234abcdull);
	uint64_t n, aborts[HR_ABORT__MAX] = { 0 }, invalid = 0, bad = 0;
	static uint64_t fused[XOP__MAX];
	clock_t t0 = clock();
	uint32_t cnt, pc;
	int nfuncs, f;

	if (jd_env_init(&env)) {
		CHECK(0, "out of memory");
		return t_done();
	}
	env.vm.helper_by_id = fuzz_helper;
	env.vm.calls = calls;
	env.vm.insns = insns;
	rng_state = seed | 1;
	for (n = 0; n < cases; n++) {
		uint64_t case_state = rng_state;

		xdp_mode = chance(40);
		env.vm.ctx_access = xdp_mode ? hr_prog_type_xdp.ctx_access :
					       jd_ctx_access;
		env.vm.ctx_size = xdp_mode ? sizeof(struct xdp_md) : JD_CTX_LEN;
		nfuncs = 1 + (int)below(MAX_FUNCS);
		for (f = 0; f < nfuncs; f++)
			gen_func(&funcs[f], f, nfuncs);
		cnt = layout(funcs, nfuncs, insns);
		if (hr_prog_validate(insns, cnt, &pc, NULL)) {
			invalid++;
			n--;
			if (invalid > cases * 4) {
				CHECK(0, "generator makes invalid programs");
				break;
			}
			continue;
		}
		for (pc = 0; pc < cnt; pc++)
			calls[pc] =
				insns[pc].code == (HR_JMP | HR_CALL) &&
						insns[pc].src ==
							HR_CALL_HELPER ?
					fuzz_helper((uint32_t)insns[pc].imm) :
					NULL;
		env.vm.cnt = cnt;
		randomize_input();
		count_fused(&env.vm, fused);
		jd_run(&env, HR_ENGINE_INTERP, &a);
		/* The interpreter without fused slots or proofs: every
		 * access checked, one slot an instruction. */
		env.vm.xcode = hr_xcode_build(
			&env.vm, HR_XCODE_NO_FUSE | HR_XCODE_NO_FACTS);
		jd_run(&env, HR_ENGINE_INTERP, &c);
		hr_interp_free(&env.vm);
		if (differ(&a, &c, "plain interpreter", n, case_state, insns,
			   cnt, &bad))
			break;
		jd_run(&env, HR_ENGINE_JIT, &b);
		if (!env.vm.jit) {
			CHECK(0, "case %llu: not compiled",
			      (unsigned long long)n);
			break;
		}
		/* The checked JIT: the same, with every proof tested. */
		jd_run(&env, HR_ENGINE_JIT_CHECKED, &c);
		if (!env.vm.jit_chk) {
			CHECK(0, "case %llu: no checked code",
			      (unsigned long long)n);
			break;
		}
		hr_jit_free(&env.vm);
		aborts[a.abort]++;
		if (differ(&a, &b, "JIT", n, case_state, insns, cnt, &bad) ||
		    differ(&a, &c, "checked JIT", n, case_state, insns, cnt,
			   &bad))
			break;
	}
	CHECK(bad == 0, "%llu of %llu cases differ", (unsigned long long)bad,
	      (unsigned long long)n);
	/* Every fused form met the comparison (else it tests nothing). */
	for (f = XOP_MOV_ADD; f < XOP__MAX && n == cases && cases >= 100000;
	     f++)
		CHECK(fused[f] > 0, "fused slot %d never prepared", f);
	printf("%llu cases in %.1f s (%llu invalid programs regenerated)\n",
	       (unsigned long long)n, (double)(clock() - t0) / CLOCKS_PER_SEC,
	       (unsigned long long)invalid);
	for (f = 0; f < HR_ABORT__MAX; f++)
		if (aborts[f])
			printf("  %-30s %llu\n", hr_abort_str(f),
			       (unsigned long long)aborts[f]);
	env.vm.calls = NULL;
	jd_env_free(&env);
	return t_done();
}
