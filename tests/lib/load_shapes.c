// SPDX-License-Identifier: MIT
/*
 * Generated programs for the load-time cost tests (load_shapes.h). Every
 * program starts with the same prologue (data, data_end, a 64-byte proof,
 * r6 = packet byte 5) so that the bounds analysis has packet facts to
 * carry through the shape, and returns a sum the generator computes as
 * it emits. Conditional jumps have 16-bit offsets, so the shapes whose
 * jumps span the program repeat in groups that stay within them.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "load_shapes.h"
#include "progs/prog.h"

#define GROUP 8192 /* units a nest or fan-in spans: offsets < 32768 */

struct lb {
	struct hr_insn *p;
	uint32_t n, cap;
	int err;
};

static uint32_t emit(struct lb *b, uint8_t code, int dst, int src, int off,
		     int32_t imm)
{
	if (b->n == b->cap) {
		uint32_t cap = b->cap ? 2 * b->cap : 1024;
		struct hr_insn *p = realloc(b->p, cap * sizeof(*p));

		if (!p) {
			b->err = -ENOMEM;
			return b->n;
		}
		b->p = p;
		b->cap = cap;
	}
	b->p[b->n] = (struct hr_insn){ code, (uint8_t)dst, (uint8_t)src,
				       (int16_t)off, imm };
	return b->n++;
}

#define LDXB(b, d, s, o) emit(b, HR_LDX | HR_MEM | HR_B, d, s, o, 0)
#define LDXW(b, d, s, o) emit(b, HR_LDX | HR_MEM | HR_W, d, s, o, 0)
#define LDXDW(b, d, s, o) emit(b, HR_LDX | HR_MEM | HR_DW, d, s, o, 0)
#define STXDW(b, d, o, s) emit(b, HR_STX | HR_MEM | HR_DW, d, s, o, 0)
#define MOVK(b, d, k) emit(b, HR_ALU64 | HR_MOV | HR_K, d, 0, 0, k)
#define MOVX(b, d, s) emit(b, HR_ALU64 | HR_MOV | HR_X, d, s, 0, 0)
#define ADDK(b, d, k) emit(b, HR_ALU64 | HR_ADD | HR_K, d, 0, 0, k)
#define ADDX(b, d, s) emit(b, HR_ALU64 | HR_ADD | HR_X, d, s, 0, 0)
#define JK(b, op, d, k, o) emit(b, HR_JMP | (op) | HR_K, d, 0, o, k)
#define JX(b, op, d, s, o) emit(b, HR_JMP | (op) | HR_X, d, s, o, 0)
#define JA(b, o) emit(b, HR_JMP | HR_JA, 0, 0, o, 0)
#define GOTOL(b, o) emit(b, HR_JMP32 | HR_JA, 0, 0, 0, o)
#define CALL_LOCAL(b, k) emit(b, HR_JMP | HR_CALL, 0, HR_CALL_LOCAL, 0, k)
#define EXIT(b) emit(b, HR_JMP | HR_EXIT, 0, 0, 0, 0)

static void set_off(struct lb *b, uint32_t at, uint32_t target)
{
	if (!b->err && at < b->n)
		b->p[at].off = (int16_t)((int64_t)target - at - 1);
}

const char *ls_name(enum ls_shape shape)
{
	static const char *const names[LS__MAX] = {
		[LS_STRAIGHT] = "straight", [LS_REVERSE] = "reverse",
		[LS_JOINS] = "joins",	    [LS_FANIN] = "fan-in",
		[LS_NESTED] = "nested-if",  [LS_LOOPNEST] = "nested-loops",
		[LS_LOOPS] = "loops",	    [LS_CALLS] = "calls",
		[LS_STACK] = "stack",
	};

	return shape < LS__MAX ? names[shape] : "?";
}

void ls_packet(uint8_t pkt[LS_PKT_LEN])
{
	int i;

	for (i = 0; i < LS_PKT_LEN; i++)
		pkt[i] = (uint8_t)i;
}

/* r2 = data, r3 = data_end, r0 = 0; 64 bytes proven or return 1;
 * r6 = packet byte 5. */
static void prologue(struct lb *b)
{
	LDXW(b, 2, 1, 0);
	LDXW(b, 3, 1, 4);
	MOVK(b, 0, 0);
	MOVX(b, 4, 2);
	ADDK(b, 4, LS_PKT_LEN);
	JX(b, HR_JLE, 4, 3, 2);
	MOVK(b, 0, 1);
	EXIT(b);
	LDXB(b, 6, 2, 5);
}

#define PROLOGUE_LEN 9

static uint32_t straight(struct lb *b, uint32_t n)
{
	uint32_t exp = 0, j;

	for (j = 0; b->n + 4 <= n; j++) {
		LDXB(b, 5, 2, j % 64);
		ADDX(b, 0, 5);
		ADDK(b, 0, 1);
		exp += j % 64 + 1;
	}
	EXIT(b);
	return exp;
}

/* ja to the last block; block i adds byte i and jumps to block i - 1;
 * block 0 exits. */
static uint32_t reverse(struct lb *b, uint32_t n)
{
	uint32_t k = (n - b->n - 2) / 3, first, i, exp = 0, ja;

	ja = GOTOL(b, 0);
	first = EXIT(b); /* block 0 */
	for (i = 1; i < k; i++) {
		uint32_t prev = i == 1 ? first : b->n - 3;

		LDXB(b, 5, 2, i % 64);
		ADDX(b, 0, 5);
		set_off(b, JA(b, 0), prev);
		exp += i % 64;
	}
	if (!b->err)
		b->p[ja].imm = (int32_t)(b->n - 3 - ja - 1);
	if (k < 2 && !b->err)
		b->p[ja].imm = 0;
	return exp;
}

static uint32_t joins(struct lb *b, uint32_t n)
{
	uint32_t exp = 0, j;

	for (j = 0; b->n + 4 <= n; j++) {
		LDXB(b, 5, 2, j % 64);
		JK(b, HR_JGT, 5, 31, 1);
		ADDK(b, 0, 1);
		exp += j % 64 <= 31;
	}
	EXIT(b);
	return exp;
}

/* Groups of GROUP tests of r6 == 200 (never) jumping to the group's
 * common block, which the last test falls into. */
static uint32_t fanin(struct lb *b, uint32_t n)
{
	uint32_t exp = 0, g, j, first;

	for (g = 0; b->n + 5 <= n; g++) {
		first = b->n;
		for (j = 0; j < GROUP && b->n + 5 <= n; j++) {
			JK(b, HR_JEQ, 6, 200, 0);
			ADDK(b, 0, 1);
			exp++;
		}
		for (j = first; j < b->n; j += 2)
			set_off(b, j, b->n);
		LDXB(b, 5, 2, g % 64);
		ADDX(b, 0, 5);
		exp += g % 64;
	}
	EXIT(b);
	return exp;
}

/* Nests of depth d: "if r6 == i goto L_i" for i = 0..d-1, then L_d-1 ..
 * L_0, each adding packet byte i: r6 is 5, so L_5 .. L_0 run. */
static uint32_t nested(struct lb *b, uint32_t n)
{
	uint32_t exp = 0, d, i, open;

	while (b->n + 4 <= n) {
		d = (n - b->n - 1) / 3;
		d = d > GROUP ? GROUP : d;
		if (!d)
			break;
		open = b->n;
		for (i = 0; i < d; i++)
			JK(b, HR_JEQ, 6, (int32_t)i, 0);
		for (i = d; i-- > 0;) {
			set_off(b, open + i, b->n);
			LDXB(b, 5, 2, i % 64);
			ADDX(b, 0, 5);
			if (i <= 5 || d <= 5)
				exp += i % 64;
		}
	}
	EXIT(b);
	return exp;
}

/* Nests of d loops: L_i adds packet byte i, then the loops close from
 * the innermost, each "if r6 == 200 goto L_i" (never taken). */
static uint32_t loopnest(struct lb *b, uint32_t n)
{
	uint32_t exp = 0, d, i, open;

	while (b->n + 4 <= n) {
		d = (n - b->n - 1) / 3;
		d = d > GROUP ? GROUP : d;
		if (!d)
			break;
		open = b->n;
		for (i = 0; i < d; i++) {
			LDXB(b, 5, 2, i % 64);
			ADDX(b, 0, 5);
			exp += i % 64;
		}
		for (i = d; i-- > 0;)
			set_off(b, JK(b, HR_JEQ, 6, 200, 0), open + 2 * i);
	}
	EXIT(b);
	return exp;
}

/* r7 = 3; do { r0 += byte j } while (--r7). */
static uint32_t loops(struct lb *b, uint32_t n)
{
	uint32_t exp = 0, j, top;

	for (j = 0; b->n + 6 <= n; j++) {
		MOVK(b, 7, 3);
		top = LDXB(b, 5, 2, j % 64);
		ADDX(b, 0, 5);
		ADDK(b, 7, -1);
		set_off(b, JK(b, HR_JNE, 7, 0, 0), top);
		exp += 3 * (j % 64);
	}
	EXIT(b);
	return exp;
}

/* r7 += f_j() for each j; f_j returns j % 64 + 1. */
static uint32_t calls(struct lb *b, uint32_t n)
{
	uint32_t k = (n - b->n - 3) / 5, j, first, exp = 0;

	first = b->n;
	MOVK(b, 7, 0);
	for (j = 0; j < k; j++) {
		CALL_LOCAL(b, 0);
		ADDX(b, 7, 0);
	}
	MOVX(b, 0, 7);
	EXIT(b);
	for (j = 0; j < k; j++) {
		if (!b->err)
			b->p[first + 1 + 2 * j].imm =
				(int32_t)(b->n - (first + 1 + 2 * j) - 1);
		MOVK(b, 0, (int32_t)(j % 64));
		ADDK(b, 0, 1);
		EXIT(b);
		exp += j % 64 + 1;
	}
	return exp;
}

/* The context spilled to a slot and filled back between joins, a field
 * read through each fill. */
static uint32_t stack(struct lb *b, uint32_t n)
{
	uint32_t exp = 0, j;

	for (j = 0; b->n + 7 <= n; j++) {
		int o = -8 * (int)(j % 64 + 1);

		STXDW(b, 10, o, 1);
		LDXB(b, 5, 2, j % 64);
		JK(b, HR_JGT, 5, 31, 1);
		ADDK(b, 0, 1);
		LDXDW(b, 1, 10, o);
		LDXW(b, 9, 1, 12); /* ingress_ifindex */
		exp += j % 64 <= 31;
	}
	EXIT(b);
	return exp;
}

int ls_build(enum ls_shape shape, uint32_t n, struct hr_insn **insns,
	     uint32_t *cnt, uint32_t *expect)
{
	struct lb b = { 0 };
	uint32_t exp = 0;

	*insns = NULL;
	*cnt = 0;
	if (n < PROLOGUE_LEN + 8)
		n = PROLOGUE_LEN + 8;
	prologue(&b);
	switch (shape) {
	case LS_STRAIGHT:
		exp = straight(&b, n);
		break;
	case LS_REVERSE:
		exp = reverse(&b, n);
		break;
	case LS_JOINS:
		exp = joins(&b, n);
		break;
	case LS_FANIN:
		exp = fanin(&b, n);
		break;
	case LS_NESTED:
		exp = nested(&b, n);
		break;
	case LS_LOOPNEST:
		exp = loopnest(&b, n);
		break;
	case LS_LOOPS:
		exp = loops(&b, n);
		break;
	case LS_CALLS:
		exp = calls(&b, n);
		break;
	case LS_STACK:
		exp = stack(&b, n);
		break;
	default:
		EXIT(&b);
		break;
	}
	if (b.err) {
		free(b.p);
		return b.err;
	}
	*insns = b.p;
	*cnt = b.n;
	*expect = exp;
	return 0;
}

struct hr_prog *ls_prog(struct hr_insn *insns, uint32_t cnt, int *ret,
			char *err, size_t errsz)
{
	struct hr_prog *p = calloc(1, sizeof(*p));

	if (!p) {
		free(insns);
		*ret = -ENOMEM;
		snprintf(err, errsz, "out of memory");
		return NULL;
	}
	p->name = strdup("shape");
	p->sec = strdup("xdp");
	p->type = &hr_prog_type_xdp;
	p->insns = insns;
	p->cnt = cnt;
	*ret = hr_prog_finalize(p, err, errsz);
	if (*ret) {
		hr_prog_free(p);
		return NULL;
	}
	return p;
}
