// SPDX-License-Identifier: MIT
/*
 * x86-64 encoding for the JIT (jit_x86.c): bytes, labels and their fixups,
 * short and near jumps, and the instruction forms the emitters use.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "vm/jit_x86.h"

#if defined(__x86_64__)

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

void jx_emit1(struct jit *j, uint8_t v)
{
	emit_bytes(j, &v, 1);
}

void jx_emit4(struct jit *j, uint32_t v)
{
	emit_bytes(j, &v, 4);
}

static void emit8(struct jit *j, uint64_t v)
{
	emit_bytes(j, &v, 8);
}

bool jx_is_imm8(int64_t v)
{
	return v >= -128 && v <= 127;
}

bool jx_is_simm32(int64_t v)
{
	return v >= INT32_MIN && v <= INT32_MAX;
}

/* Labels and their fixups. */

uint32_t jx_new_label(struct jit *j)
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

void jx_bind(struct jit *j, uint32_t l)
{
	if (j->nomem)
		return;
	j->labels[l].sec = (int8_t)j->cur;
	j->labels[l].off = (uint32_t)j->sec[j->cur].len;
}

static void add_fixup(struct jit *j, uint32_t l, int size, int32_t site);

/* A rel32 to @l at the current position (the last 4 bytes emitted). */
static void rel32(struct jit *j, uint32_t l)
{
	add_fixup(j, l, 4, -1);
	jx_emit4(j, 0);
}

static void add_fixup(struct jit *j, uint32_t l, int size, int32_t site)
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
	j->fix[j->nfix].size = (uint8_t)size;
	j->fix[j->nfix].pos = (uint32_t)j->sec[j->cur].len;
	j->fix[j->nfix].label = l;
	j->fix[j->nfix].site = site;
	j->nfix++;
}

/* The next jump site, and whether it may be short. */
static bool next_site(struct jit *j, int32_t *site)
{
	*site = (int32_t)j->nsites++;
	return j->final_pass && j->short_ok && (uint32_t)*site < j->capsites &&
	       j->short_ok[*site];
}

void jx_jmp_to(struct jit *j, uint32_t l)
{
	int32_t site;

	if (next_site(j, &site)) {
		jx_emit1(j, 0xeb);
		add_fixup(j, l, 1, site);
		jx_emit1(j, 0);
		return;
	}
	jx_emit1(j, 0xe9);
	add_fixup(j, l, 4, site);
	jx_emit4(j, 0);
}

void jx_jcc_to(struct jit *j, int cc, uint32_t l)
{
	int32_t site;

	if (next_site(j, &site)) {
		jx_emit1(j, 0x70 | cc);
		add_fixup(j, l, 1, site);
		jx_emit1(j, 0);
		return;
	}
	jx_emit1(j, 0x0f);
	jx_emit1(j, 0x80 | cc);
	add_fixup(j, l, 4, site);
	jx_emit4(j, 0);
}

void jx_call_to(struct jit *j, uint32_t l)
{
	jx_emit1(j, 0xe8);
	rel32(j, l);
}

/* Instruction encoding. */

void jx_rex(struct jit *j, bool w, int reg, int rm, bool force)
{
	uint8_t v = 0x40 | (w ? 8 : 0) | ((reg & 8) ? 4 : 0) |
		    ((rm & 8) ? 1 : 0);

	if (v != 0x40 || force)
		jx_emit1(j, v);
}

static void opcode(struct jit *j, uint32_t opc, int n)
{
	while (n--)
		jx_emit1(j, (uint8_t)(opc >> (8 * n)));
}

/* op reg, rm (register direct). @n opcode bytes. */
void jx_op_rr(struct jit *j, bool w, bool force, uint32_t opc, int n, int reg,
	      int rm)
{
	jx_rex(j, w, reg, rm, force);
	opcode(j, opc, n);
	jx_emit1(j, 0xc0 | ((reg & 7) << 3) | (rm & 7));
}

/* op reg, [base + disp]. */
void jx_op_rm(struct jit *j, bool w, bool force, uint32_t opc, int n, int reg,
	      int base, int32_t disp)
{
	int rm = base & 7, mod;

	jx_rex(j, w, reg, base, force);
	opcode(j, opc, n);
	if (disp == 0 && rm != 5)
		mod = 0;
	else if (jx_is_imm8(disp))
		mod = 1;
	else
		mod = 2;
	jx_emit1(j, (uint8_t)((mod << 6) | ((reg & 7) << 3) | rm));
	if (rm == 4)
		jx_emit1(j, 0x24);
	if (mod == 1)
		jx_emit1(j, (uint8_t)disp);
	else if (mod == 2)
		jx_emit4(j, (uint32_t)disp);
}

void jx_mov_rr(struct jit *j, bool w, int dst, int src)
{
	jx_op_rr(j, w, false, 0x89, 1, src, dst);
}

void jx_mov_ri(struct jit *j, int dst, uint64_t v)
{
	if (v == 0) {
		jx_op_rr(j, false, false, 0x31, 1, dst, dst);
	} else if (v <= UINT32_MAX) {
		jx_rex(j, false, 0, dst, false);
		jx_emit1(j, 0xb8 + (dst & 7));
		jx_emit4(j, (uint32_t)v);
	} else if (jx_is_simm32((int64_t)v)) {
		jx_op_rr(j, true, false, 0xc7, 1, 0, dst);
		jx_emit4(j, (uint32_t)v);
	} else {
		jx_rex(j, true, 0, dst, false);
		jx_emit1(j, 0xb8 + (dst & 7));
		emit8(j, v);
	}
}

/* ALU group 1 (/digit) with an immediate: add 0, or 1, and 4, sub 5,
 * xor 6, cmp 7. */
void jx_alu_ri(struct jit *j, bool w, int digit, int dst, int32_t imm)
{
	if (jx_is_imm8(imm)) {
		jx_op_rr(j, w, false, 0x83, 1, digit, dst);
		jx_emit1(j, (uint8_t)imm);
	} else {
		jx_op_rr(j, w, false, 0x81, 1, digit, dst);
		jx_emit4(j, (uint32_t)imm);
	}
}

void jx_alu_mi(struct jit *j, bool w, int digit, int base, int32_t disp,
	       int32_t imm)
{
	if (jx_is_imm8(imm)) {
		jx_op_rm(j, w, false, 0x83, 1, digit, base, disp);
		jx_emit1(j, (uint8_t)imm);
	} else {
		jx_op_rm(j, w, false, 0x81, 1, digit, base, disp);
		jx_emit4(j, (uint32_t)imm);
	}
}

void jx_push(struct jit *j, int r)
{
	jx_rex(j, false, 0, r, false);
	jx_emit1(j, 0x50 + (r & 7));
}

void jx_pop(struct jit *j, int r)
{
	jx_rex(j, false, 0, r, false);
	jx_emit1(j, 0x58 + (r & 7));
}

void jx_call_abs(struct jit *j, const void *fn)
{
	jx_mov_ri(j, RAX, (uint64_t)(uintptr_t)fn);
	jx_emit1(j, 0xff);
	jx_emit1(j, 0xd0); /* call rax */
}

/* A tail jump to @fn, which takes the code's own arguments. */
void jx_call_abs_jmp(struct jit *j, const void *fn)
{
	jx_mov_ri(j, RAX, (uint64_t)(uintptr_t)fn);
	jx_emit1(j, 0xff);
	jx_emit1(j, 0xe0); /* jmp rax */
}

void jx_lea(struct jit *j, int dst, int base, int32_t disp)
{
	jx_op_rm(j, true, false, 0x8d, 1, dst, base, disp);
}

#endif /* __x86_64__ */
