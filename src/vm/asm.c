// SPDX-License-Identifier: MIT
/*
 * The eBPF text assembler (syntax in asm.h).
 *
 * One pass encodes each line and records jumps to labels; a second pass
 * patches them once every label is known. Offsets count instruction slots,
 * so an lddw advances the program counter by two.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vm/asm.h"

#define ASM_LINE_MAX 512
#define ASM_NAME_MAX 64
#define ASM_MAX_OPS 4

enum asm_kind {
	ASM_ALU, /* op dst, src|imm */
	ASM_NEG, /* neg dst */
	ASM_MOVSX, /* movsxNM dst, src */
	ASM_END, /* be16 dst */
	ASM_LDX, /* ldxw dst, [src+off] */
	ASM_ST, /* stw [dst+off], imm */
	ASM_STX, /* stxw [dst+off], src */
	ASM_LDDW, /* lddw dst, imm64 */
	ASM_JA, /* ja target */
	ASM_JCOND, /* jeq dst, src|imm, target */
	ASM_CALL,
	ASM_EXIT,
	ASM_LOCK,
};

struct asm_mnem {
	const char *name;
	enum asm_kind kind;
	uint8_t code;
	int16_t off;
	int32_t imm;
	int nops;
};

/* Operations whose names take an optional "32" or "64" width suffix. */
static const struct asm_mnem alu_ops[] = {
	{ "add", ASM_ALU, HR_ADD, 0, 0, 2 },
	{ "sub", ASM_ALU, HR_SUB, 0, 0, 2 },
	{ "mul", ASM_ALU, HR_MUL, 0, 0, 2 },
	{ "div", ASM_ALU, HR_DIV, 0, 0, 2 },
	{ "sdiv", ASM_ALU, HR_DIV, 1, 0, 2 },
	{ "or", ASM_ALU, HR_OR, 0, 0, 2 },
	{ "and", ASM_ALU, HR_AND, 0, 0, 2 },
	{ "lsh", ASM_ALU, HR_LSH, 0, 0, 2 },
	{ "rsh", ASM_ALU, HR_RSH, 0, 0, 2 },
	{ "neg", ASM_NEG, HR_NEG, 0, 0, 1 },
	{ "mod", ASM_ALU, HR_MOD, 0, 0, 2 },
	{ "smod", ASM_ALU, HR_MOD, 1, 0, 2 },
	{ "xor", ASM_ALU, HR_XOR, 0, 0, 2 },
	{ "mov", ASM_ALU, HR_MOV, 0, 0, 2 },
	{ "arsh", ASM_ALU, HR_ARSH, 0, 0, 2 },
};

static const struct asm_mnem jmp_ops[] = {
	{ "jeq", ASM_JCOND, HR_JEQ, 0, 0, 3 },
	{ "jgt", ASM_JCOND, HR_JGT, 0, 0, 3 },
	{ "jge", ASM_JCOND, HR_JGE, 0, 0, 3 },
	{ "jset", ASM_JCOND, HR_JSET, 0, 0, 3 },
	{ "jne", ASM_JCOND, HR_JNE, 0, 0, 3 },
	{ "jsgt", ASM_JCOND, HR_JSGT, 0, 0, 3 },
	{ "jsge", ASM_JCOND, HR_JSGE, 0, 0, 3 },
	{ "jlt", ASM_JCOND, HR_JLT, 0, 0, 3 },
	{ "jle", ASM_JCOND, HR_JLE, 0, 0, 3 },
	{ "jslt", ASM_JCOND, HR_JSLT, 0, 0, 3 },
	{ "jsle", ASM_JCOND, HR_JSLE, 0, 0, 3 },
};

/* Everything else, with the full opcode. */
static const struct asm_mnem fixed_ops[] = {
	{ "movsx832", ASM_MOVSX, HR_ALU | HR_MOV | HR_X, 8, 0, 2 },
	{ "movsx1632", ASM_MOVSX, HR_ALU | HR_MOV | HR_X, 16, 0, 2 },
	{ "movsx864", ASM_MOVSX, HR_ALU64 | HR_MOV | HR_X, 8, 0, 2 },
	{ "movsx1664", ASM_MOVSX, HR_ALU64 | HR_MOV | HR_X, 16, 0, 2 },
	{ "movsx3264", ASM_MOVSX, HR_ALU64 | HR_MOV | HR_X, 32, 0, 2 },
	{ "be16", ASM_END, HR_ALU | HR_END | HR_X, 0, 16, 1 },
	{ "be32", ASM_END, HR_ALU | HR_END | HR_X, 0, 32, 1 },
	{ "be64", ASM_END, HR_ALU | HR_END | HR_X, 0, 64, 1 },
	{ "le16", ASM_END, HR_ALU | HR_END | HR_K, 0, 16, 1 },
	{ "le32", ASM_END, HR_ALU | HR_END | HR_K, 0, 32, 1 },
	{ "le64", ASM_END, HR_ALU | HR_END | HR_K, 0, 64, 1 },
	{ "bswap16", ASM_END, HR_ALU64 | HR_END | HR_K, 0, 16, 1 },
	{ "bswap32", ASM_END, HR_ALU64 | HR_END | HR_K, 0, 32, 1 },
	{ "bswap64", ASM_END, HR_ALU64 | HR_END | HR_K, 0, 64, 1 },
	{ "swap16", ASM_END, HR_ALU64 | HR_END | HR_K, 0, 16, 1 },
	{ "swap32", ASM_END, HR_ALU64 | HR_END | HR_K, 0, 32, 1 },
	{ "swap64", ASM_END, HR_ALU64 | HR_END | HR_K, 0, 64, 1 },
	{ "ldxb", ASM_LDX, HR_LDX | HR_MEM | HR_B, 0, 0, 2 },
	{ "ldxh", ASM_LDX, HR_LDX | HR_MEM | HR_H, 0, 0, 2 },
	{ "ldxw", ASM_LDX, HR_LDX | HR_MEM | HR_W, 0, 0, 2 },
	{ "ldxdw", ASM_LDX, HR_LDX | HR_MEM | HR_DW, 0, 0, 2 },
	{ "ldxsb", ASM_LDX, HR_LDX | HR_MEMSX | HR_B, 0, 0, 2 },
	{ "ldxsh", ASM_LDX, HR_LDX | HR_MEMSX | HR_H, 0, 0, 2 },
	{ "ldxsw", ASM_LDX, HR_LDX | HR_MEMSX | HR_W, 0, 0, 2 },
	{ "stb", ASM_ST, HR_ST | HR_MEM | HR_B, 0, 0, 2 },
	{ "sth", ASM_ST, HR_ST | HR_MEM | HR_H, 0, 0, 2 },
	{ "stw", ASM_ST, HR_ST | HR_MEM | HR_W, 0, 0, 2 },
	{ "stdw", ASM_ST, HR_ST | HR_MEM | HR_DW, 0, 0, 2 },
	{ "stxb", ASM_STX, HR_STX | HR_MEM | HR_B, 0, 0, 2 },
	{ "stxh", ASM_STX, HR_STX | HR_MEM | HR_H, 0, 0, 2 },
	{ "stxw", ASM_STX, HR_STX | HR_MEM | HR_W, 0, 0, 2 },
	{ "stxdw", ASM_STX, HR_STX | HR_MEM | HR_DW, 0, 0, 2 },
	{ "lddw", ASM_LDDW, HR_OPC_LDDW, 0, 0, 2 },
	{ "ja", ASM_JA, HR_JMP | HR_JA, 0, 0, 1 },
	{ "ja32", ASM_JA, HR_JMP32 | HR_JA, 0, 0, 1 },
	{ "call", ASM_CALL, HR_JMP | HR_CALL, 0, 0, 0 },
	{ "exit", ASM_EXIT, HR_JMP | HR_EXIT, 0, 0, 0 },
	{ "lock", ASM_LOCK, HR_STX | HR_ATOMIC, 0, 0, 0 },
};

static const struct {
	const char *name;
	int32_t imm;
} atomic_ops[] = {
	{ "add", HR_ADD }, { "or", HR_OR },	{ "and", HR_AND },
	{ "xor", HR_XOR }, { "xchg", HR_XCHG }, { "cmpxchg", HR_CMPXCHG },
};

/* Names of the ld_imm64 pseudo sources, by src value (asm.h, disasm.c). */
static const char *const pseudo_names[] = {
	NULL,	"map_fd",  "map_value",	    "btf_id",
	"func", "map_idx", "map_idx_value",
};

struct asm_label {
	char name[ASM_NAME_MAX];
	uint32_t pc;
};

/* A jump or local call whose target is a label, patched at the end. */
struct asm_fixup {
	char label[ASM_NAME_MAX];
	uint32_t pc;
	unsigned int line;
	bool in_imm; /* ja32 and call keep the offset in imm */
};

struct asm_state {
	struct hr_insn *insns;
	uint32_t cnt, cap;
	struct asm_label *labels;
	uint32_t nlabels, caplabels;
	struct asm_fixup *fixups;
	uint32_t nfixups, capfixups;
	int64_t first_exit;
	unsigned int line;
	char *err;
	size_t errsz;
};

static int asm_err(struct asm_state *st, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int asm_err(struct asm_state *st, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!st->err || !st->errsz)
		return -EINVAL;
	n = snprintf(st->err, st->errsz, "line %u: ", st->line);
	if (n >= 0 && (size_t)n < st->errsz) {
		va_start(ap, fmt);
		vsnprintf(st->err + n, st->errsz - n, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

/* Makes room for one more element in a growable array. */
static int grow(void **arr, uint32_t *cap, uint32_t used, size_t elem)
{
	uint32_t ncap;
	void *p;

	if (used < *cap)
		return 0;
	ncap = *cap ? *cap * 2 : 64;
	p = realloc(*arr, (size_t)ncap * elem);
	if (!p)
		return -ENOMEM;
	*arr = p;
	*cap = ncap;
	return 0;
}

static int emit(struct asm_state *st, const struct hr_insn *insn)
{
	int err = grow((void **)&st->insns, &st->cap, st->cnt,
		       sizeof(*st->insns));

	if (err)
		return asm_err(st, "out of memory"), err;
	st->insns[st->cnt++] = *insn;
	return 0;
}

static char *trim(char *s)
{
	char *end;

	while (isspace((unsigned char)*s))
		s++;
	end = s + strlen(s);
	while (end > s && isspace((unsigned char)end[-1]))
		*--end = '\0';
	return s;
}

static bool is_ident(const char *s)
{
	if (!isalpha((unsigned char)*s) && *s != '_' && *s != '.')
		return false;
	for (s++; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '_' && *s != '.')
			return false;
	return true;
}

/*
 * Parses [+-](0x<hex>|<decimal>) into a sign and magnitude. Returns false
 * for anything else, with *@range set when only the size was wrong.
 */
static bool parse_num(const char *s, uint64_t *mag, bool *neg, bool *hex,
		      bool *range)
{
	const char *p = s;
	char *end;

	*neg = false;
	*range = false;
	if (*p == '+' || *p == '-')
		*neg = *p++ == '-';
	*hex = p[0] == '0' && (p[1] == 'x' || p[1] == 'X');
	if (*hex)
		p += 2;
	if (!(*hex ? isxdigit((unsigned char)*p) : isdigit((unsigned char)*p)))
		return false;
	errno = 0;
	*mag = strtoull(p, &end, *hex ? 16 : 10);
	if (*end)
		return false;
	if (errno == ERANGE) {
		*range = true;
		return false;
	}
	return true;
}

/*
 * A signed number of @bits bits: decimal within the signed range, hex up
 * to the unsigned maximum (0xffffffff is -1 as an imm32), as clang's
 * assembler takes them.
 */
static int parse_sized(struct asm_state *st, const char *s, int bits,
		       const char *what, int64_t *v)
{
	uint64_t mag, smax = (1ull << (bits - 1)) - 1, umax;
	bool neg, hex, range;

	umax = bits == 64 ? ~0ull : (1ull << bits) - 1;
	if (!parse_num(s, &mag, &neg, &hex, &range)) {
		if (range)
			return asm_err(st, "%s '%s' out of %d-bit range", what,
				       s, bits);
		return asm_err(st, "invalid %s '%s'", what, s);
	}
	if ((neg && mag > smax + 1) ||
	    (!neg && mag > (hex || bits == 64 ? umax : smax)))
		return asm_err(st, "%s '%s' out of %d-bit range", what, s,
			       bits);
	if (neg && mag)
		*v = -(int64_t)(mag - 1) - 1;
	else
		*v = (int64_t)mag; /* above smax wraps, as gcc and clang do */
	return 0;
}

static int parse_imm32(struct asm_state *st, const char *s, int32_t *imm)
{
	int64_t v;
	int err = parse_sized(st, s, 32, "immediate", &v);

	if (!err)
		*imm = (int32_t)(uint32_t)(uint64_t)v;
	return err;
}

static int parse_off16(struct asm_state *st, const char *s, int16_t *off)
{
	int64_t v;
	int err = parse_sized(st, s, 16, "offset", &v);

	if (!err)
		*off = (int16_t)(uint16_t)(uint64_t)v;
	return err;
}

/* Returns the register number, or -EINVAL. */
static int parse_reg(struct asm_state *st, const char *s)
{
	const char *p = s;
	char *end;
	long n;

	if (*p == '%')
		p++;
	if (*p != 'r' || !isdigit((unsigned char)p[1]))
		return asm_err(st, "invalid register '%s'", s);
	n = strtol(p + 1, &end, 10);
	if (*end || n < 0 || n >= HR_NREGS || (p[1] == '0' && p[2]))
		return asm_err(st, "invalid register '%s'", s);
	return (int)n;
}

static int set_dst(struct asm_state *st, const char *s, struct hr_insn *insn)
{
	int r = parse_reg(st, s);

	if (r < 0)
		return r;
	insn->dst = r;
	return 0;
}

static int set_src(struct asm_state *st, const char *s, struct hr_insn *insn)
{
	int r = parse_reg(st, s);

	if (r < 0)
		return r;
	insn->src = r;
	return 0;
}

static bool is_reg(const char *s)
{
	return s[0] == '%' || (s[0] == 'r' && isdigit((unsigned char)s[1]));
}

/*
 * "[%rN]", "[%rN+off]" or "[%rN-off]", spaces allowed inside. Returns the
 * register number or -EINVAL.
 */
static int parse_mem(struct asm_state *st, const char *s, int16_t *off)
{
	char buf[ASM_LINE_MAX], *q = buf, *sign;
	size_t len = strlen(s);
	const char *p;
	int err;

	if (len < 3 || s[0] != '[' || s[len - 1] != ']' || len >= sizeof(buf))
		return asm_err(st, "invalid memory operand '%s'", s);
	for (p = s + 1; p < s + len - 1; p++)
		if (!isspace((unsigned char)*p))
			*q++ = *p;
	*q = '\0';
	sign = strpbrk(buf, "+-");
	*off = 0;
	if (sign) {
		err = parse_off16(st, sign, off);
		if (err)
			return err;
		*sign = '\0';
	}
	return parse_reg(st, buf);
}

/* The memory operand names the base register in dst (stores) or src. */
static int mem_dst(struct asm_state *st, const char *s, struct hr_insn *insn)
{
	int r = parse_mem(st, s, &insn->off);

	if (r < 0)
		return r;
	insn->dst = r;
	return 0;
}

static int mem_src(struct asm_state *st, const char *s, struct hr_insn *insn)
{
	int r = parse_mem(st, s, &insn->off);

	if (r < 0)
		return r;
	insn->src = r;
	return 0;
}

/* A jump target: "+N"/"-N" or a label, fixed up later. */
static int parse_target(struct asm_state *st, const char *s, bool in_imm,
			struct hr_insn *insn)
{
	struct asm_fixup *fx;
	int err;

	if (s[0] == '+' || s[0] == '-')
		return in_imm ? parse_imm32(st, s, &insn->imm) :
				parse_off16(st, s, &insn->off);
	if (!is_ident(s))
		return asm_err(st, "invalid jump target '%s'", s);
	if (strlen(s) >= ASM_NAME_MAX)
		return asm_err(st, "label '%s' too long", s);
	err = grow((void **)&st->fixups, &st->capfixups, st->nfixups,
		   sizeof(*st->fixups));
	if (err)
		return asm_err(st, "out of memory"), err;
	fx = &st->fixups[st->nfixups++];
	strcpy(fx->label, s);
	fx->pc = st->cnt;
	fx->line = st->line;
	fx->in_imm = in_imm;
	return 0;
}

/* The second operand of an ALU or jump: a register or an imm32. */
static int parse_src(struct asm_state *st, const char *s, struct hr_insn *insn)
{
	if (is_reg(s)) {
		insn->code |= HR_X;
		return set_src(st, s, insn);
	}
	insn->code |= HR_K;
	return parse_imm32(st, s, &insn->imm);
}

static int enc_lddw(struct asm_state *st, char **ops, struct hr_insn *pair)
{
	char *val = ops[1], *sp = strpbrk(ops[1], " \t");
	int64_t v;
	int err;
	uint8_t i;

	err = set_dst(st, ops[0], &pair[0]);
	if (err)
		return err;
	if (sp) {
		/* "map_fd 3": a pseudo source name, then the value. */
		*sp = '\0';
		val = trim(sp + 1);
		for (i = 1; i <= HR_PSEUDO_MAP_IDX_VALUE; i++)
			if (!strcmp(ops[1], pseudo_names[i]))
				break;
		if (i > HR_PSEUDO_MAP_IDX_VALUE)
			return asm_err(st, "invalid lddw source '%s'", ops[1]);
		pair[0].src = i;
	}
	err = parse_sized(st, val, 64, "immediate", &v);
	if (err)
		return err;
	hr_insn_set_lddw(pair, (uint64_t)v);
	return 0;
}

static int split_words(char *s, char **words, int max)
{
	char *tok, *save;
	int n = 0;

	for (tok = strtok_r(s, " \t,", &save); tok;
	     tok = strtok_r(NULL, " \t,", &save)) {
		if (n == max)
			return max + 1;
		words[n++] = tok;
	}
	return n;
}

static int enc_call(struct asm_state *st, char *rest, struct hr_insn *insn)
{
	char *w[4];
	int n = split_words(rest, w, 3);

	if (n == 1 && is_reg(w[0])) {
		/* callx: LLVM and the conformance suite put it in dst. */
		insn->code |= HR_X;
		return set_dst(st, w[0], insn);
	}
	if (n == 1)
		return parse_imm32(st, w[0], &insn->imm);
	if (n == 2 && !strcmp(w[0], "helper"))
		return parse_imm32(st, w[1], &insn->imm);
	if (n == 2 && !strcmp(w[0], "local")) {
		insn->src = HR_CALL_LOCAL;
		return parse_target(st, w[1], true, insn);
	}
	if ((n == 2 || n == 3) &&
	    (!strcmp(w[0], "kfunc") || !strcmp(w[0], "runtime"))) {
		insn->src = HR_CALL_KFUNC;
		if (n == 3 && parse_off16(st, w[2], &insn->off))
			return -EINVAL;
		return parse_imm32(st, w[1], &insn->imm);
	}
	return asm_err(st, "invalid call operands");
}

/* lock [fetch] op[32] [dst+off], src */
static int enc_lock(struct asm_state *st, char *rest, struct hr_insn *insn)
{
	char *w[5], opname[ASM_NAME_MAX];
	bool fetch, w32;
	unsigned int i;
	size_t len;
	int n = split_words(rest, w, 4);

	fetch = n > 0 && !strcmp(w[0], "fetch");
	if (n != 3 + fetch)
		return asm_err(st, "invalid number of operands for lock");
	snprintf(opname, sizeof(opname), "%s", w[fetch]);
	len = strlen(opname);
	w32 = len > 2 && !strcmp(opname + len - 2, "32");
	if (w32)
		opname[len - 2] = '\0';
	for (i = 0; i < sizeof(atomic_ops) / sizeof(atomic_ops[0]); i++)
		if (!strcmp(opname, atomic_ops[i].name))
			break;
	if (i == sizeof(atomic_ops) / sizeof(atomic_ops[0]))
		return asm_err(st, "invalid lock operation '%s'", w[fetch]);
	insn->code |= w32 ? HR_W : HR_DW;
	insn->imm = atomic_ops[i].imm | (fetch ? HR_FETCH : 0);
	if (mem_dst(st, w[fetch + 1], insn))
		return -EINVAL;
	return set_src(st, w[fetch + 2], insn);
}

/* Finds @name, resolving the width suffixes of ALU and jump names. */
static bool find_mnem(const char *name, struct asm_mnem *m)
{
	char base[ASM_NAME_MAX];
	size_t len = strlen(name), i;
	int width = 64;

	for (i = 0; i < sizeof(fixed_ops) / sizeof(fixed_ops[0]); i++) {
		if (!strcmp(name, fixed_ops[i].name)) {
			*m = fixed_ops[i];
			return true;
		}
	}
	if (len >= sizeof(base))
		return false;
	strcpy(base, name);
	if (len > 2 &&
	    (!strcmp(base + len - 2, "32") || !strcmp(base + len - 2, "64"))) {
		width = base[len - 2] == '3' ? 32 : 64;
		base[len - 2] = '\0';
	}
	for (i = 0; i < sizeof(alu_ops) / sizeof(alu_ops[0]); i++) {
		if (!strcmp(base, alu_ops[i].name)) {
			*m = alu_ops[i];
			m->code |= width == 32 ? HR_ALU : HR_ALU64;
			return true;
		}
	}
	for (i = 0; i < sizeof(jmp_ops) / sizeof(jmp_ops[0]); i++) {
		if (!strcmp(base, jmp_ops[i].name) && width == 32 &&
		    strcmp(base, name)) {
			*m = jmp_ops[i];
			m->code |= HR_JMP32;
			return true;
		}
		if (!strcmp(name, jmp_ops[i].name)) {
			*m = jmp_ops[i];
			m->code |= HR_JMP;
			return true;
		}
	}
	return false;
}

static int split_ops(struct asm_state *st, char *rest, char **ops)
{
	int n = 0;
	char *p = rest, *comma;

	if (!*rest)
		return 0;
	for (;;) {
		comma = strchr(p, ',');
		if (comma)
			*comma = '\0';
		if (n == ASM_MAX_OPS)
			return ASM_MAX_OPS + 1;
		ops[n] = trim(p);
		if (!*ops[n])
			return asm_err(st, "empty operand");
		n++;
		if (!comma)
			return n;
		p = comma + 1;
	}
}

static int encode(struct asm_state *st, const struct asm_mnem *m, char **ops,
		  struct hr_insn *insn)
{
	switch (m->kind) {
	case ASM_ALU:
	case ASM_MOVSX:
		if (set_dst(st, ops[0], insn))
			return -EINVAL;
		if (m->kind == ASM_MOVSX) {
			insn->code = m->code;
			return set_src(st, ops[1], insn);
		}
		return parse_src(st, ops[1], insn);
	case ASM_NEG:
	case ASM_END:
		return set_dst(st, ops[0], insn);
	case ASM_LDX:
		if (set_dst(st, ops[0], insn))
			return -EINVAL;
		return mem_src(st, ops[1], insn);
	case ASM_ST:
		if (mem_dst(st, ops[0], insn))
			return -EINVAL;
		return parse_imm32(st, ops[1], &insn->imm);
	case ASM_STX:
		if (mem_dst(st, ops[0], insn))
			return -EINVAL;
		return set_src(st, ops[1], insn);
	case ASM_JA:
		return parse_target(st, ops[0], HR_CLASS(m->code) == HR_JMP32,
				    insn);
	case ASM_JCOND:
		if (set_dst(st, ops[0], insn) || parse_src(st, ops[1], insn))
			return -EINVAL;
		return parse_target(st, ops[2], false, insn);
	default:
		return 0;
	}
}

static int add_label(struct asm_state *st, const char *name)
{
	struct asm_label *l;
	uint32_t i;
	int err;

	if (!is_ident(name))
		return asm_err(st, "invalid label '%s'", name);
	if (strlen(name) >= ASM_NAME_MAX)
		return asm_err(st, "label '%s' too long", name);
	for (i = 0; i < st->nlabels; i++)
		if (!strcmp(st->labels[i].name, name))
			return asm_err(st, "duplicate label '%s'", name);
	err = grow((void **)&st->labels, &st->caplabels, st->nlabels,
		   sizeof(*st->labels));
	if (err)
		return asm_err(st, "out of memory"), err;
	l = &st->labels[st->nlabels++];
	strcpy(l->name, name);
	l->pc = st->cnt;
	return 0;
}

static int assemble_insn(struct asm_state *st, char *line)
{
	struct hr_insn insn[2] = { 0 };
	struct asm_mnem m;
	char *rest, *ops[ASM_MAX_OPS];
	int nops, err;

	rest = line + strcspn(line, " \t");
	if (*rest)
		*rest++ = '\0';
	rest = trim(rest);
	if (!find_mnem(line, &m))
		return asm_err(st, "invalid mnemonic '%s'", line);
	insn[0].code = m.code;
	insn[0].off = m.off;
	insn[0].imm = m.imm;
	if (m.kind == ASM_CALL) {
		err = enc_call(st, rest, insn);
	} else if (m.kind == ASM_LOCK) {
		err = enc_lock(st, rest, insn);
	} else {
		nops = split_ops(st, rest, ops);
		if (nops < 0)
			return nops;
		if (nops != m.nops)
			return asm_err(st, "'%s' takes %d operand%s, got %d",
				       m.name, m.nops, m.nops == 1 ? "" : "s",
				       nops);
		err = m.kind == ASM_LDDW ? enc_lddw(st, ops, insn) :
					   encode(st, &m, ops, insn);
	}
	if (err)
		return err;
	if (m.kind == ASM_EXIT && st->first_exit < 0)
		st->first_exit = st->cnt;
	err = emit(st, &insn[0]);
	if (!err && m.kind == ASM_LDDW)
		err = emit(st, &insn[1]);
	return err;
}

static int assemble_line(struct asm_state *st, char *line)
{
	char *hash = strchr(line, '#'), *colon;
	int err;

	if (hash)
		*hash = '\0';
	line = trim(line);
	/* "name:" labels the next instruction; more may follow on the line. */
	while ((colon = strchr(line, ':')) &&
	       colon == line + strcspn(line, " \t:")) {
		*colon = '\0';
		err = add_label(st, line);
		if (err)
			return err;
		line = trim(colon + 1);
	}
	if (!*line)
		return 0;
	return assemble_insn(st, line);
}

static int find_label(const struct asm_state *st, const char *name, int64_t *pc)
{
	uint32_t i;

	for (i = 0; i < st->nlabels; i++) {
		if (!strcmp(st->labels[i].name, name)) {
			*pc = st->labels[i].pc;
			return 0;
		}
	}
	if (!strcmp(name, "exit") && st->first_exit >= 0) {
		*pc = st->first_exit;
		return 0;
	}
	return -ENOENT;
}

static int fixup(struct asm_state *st)
{
	struct asm_fixup *fx;
	struct hr_insn *insn;
	int64_t pc, rel;
	uint32_t i;

	for (i = 0; i < st->nfixups; i++) {
		fx = &st->fixups[i];
		insn = &st->insns[fx->pc];
		st->line = fx->line;
		if (find_label(st, fx->label, &pc))
			return asm_err(st, "unknown label '%s'", fx->label);
		rel = pc - fx->pc - 1;
		if (fx->in_imm) {
			insn->imm = (int32_t)rel;
		} else if (rel < INT16_MIN || rel > INT16_MAX) {
			return asm_err(st, "jump to '%s' out of 16-bit range",
				       fx->label);
		} else {
			insn->off = (int16_t)rel;
		}
	}
	return 0;
}

static int assemble(struct asm_state *st, const char *text)
{
	char line[ASM_LINE_MAX];
	const char *p = text, *nl;
	size_t len;
	int err;

	while (*p) {
		st->line++;
		nl = strchr(p, '\n');
		len = nl ? (size_t)(nl - p) : strlen(p);
		if (len >= sizeof(line))
			return asm_err(st, "line too long");
		memcpy(line, p, len);
		line[len] = '\0';
		err = assemble_line(st, line);
		if (err)
			return err;
		p += len + (nl ? 1 : 0);
	}
	if (!st->cnt) {
		st->line = 0;
		if (st->err && st->errsz)
			snprintf(st->err, st->errsz, "no instructions");
		return -EINVAL;
	}
	return fixup(st);
}

int hr_asm(const char *text, struct hr_insn **out, uint32_t *cnt, char *err,
	   size_t errsz)
{
	struct asm_state st = { .first_exit = -1, .err = err, .errsz = errsz };
	int ret;

	*out = NULL;
	*cnt = 0;
	if (err && errsz)
		err[0] = '\0';
	ret = assemble(&st, text);
	free(st.labels);
	free(st.fixups);
	if (ret) {
		free(st.insns);
		return ret;
	}
	*out = st.insns;
	*cnt = st.cnt;
	return 0;
}
