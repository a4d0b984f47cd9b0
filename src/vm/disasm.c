// SPDX-License-Identifier: MIT
/*
 * The eBPF disassembler. The output is the assembler's input syntax
 * (asm.h); test_asm checks the round trip over the conformance suite.
 */
#include <stdarg.h>
#include <stdio.h>

#include "vm/disasm.h"

static const char *const alu_names[16] = {
	"add", "sub", "mul", "div", "or",   "and", "lsh", "rsh",
	"neg", "mod", "xor", "mov", "arsh", NULL,  NULL,  NULL,
};

static const char *const jmp_names[16] = {
	"ja", "jeq", "jgt", "jge", "jset", "jne",  "jsgt", "jsge",
	NULL, NULL,  "jlt", "jle", "jslt", "jsle", NULL,   NULL,
};

static const char *const size_names[4] = { "w", "h", "b", "dw" };

static const char *const pseudo_names[] = {
	NULL,	"map_fd",  "map_value",	    "btf_id",
	"func", "map_idx", "map_idx_value",
};

/* An snprintf that never fails the caller: output is just truncated. */
static void out(char *buf, size_t sz, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void out(char *buf, size_t sz, const char *fmt, ...)
{
	va_list ap;

	if (!sz)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sz, fmt, ap);
	va_end(ap);
}

/* Immediates: small ones in decimal, others as 32-bit hex (both parse). */
static const char *imm_str(int32_t imm, char *tmp, size_t sz)
{
	if (imm >= -4096 && imm <= 65535)
		snprintf(tmp, sz, "%d", imm);
	else
		snprintf(tmp, sz, "0x%x", (uint32_t)imm);
	return tmp;
}

static const char *mem_str(int reg, int16_t off, char *tmp, size_t sz)
{
	snprintf(tmp, sz, "[%%r%d%s%d]", reg, off < 0 ? "" : "+", off);
	return tmp;
}

static void dis_alu(const struct hr_insn *insn, char *buf, size_t sz)
{
	bool alu64 = HR_CLASS(insn->code) == HR_ALU64;
	const char *w = alu64 ? "" : "32";
	uint8_t op = HR_OP(insn->code) >> 4;
	const char *name = alu_names[op];
	char imm[16];

	if (HR_OP(insn->code) == HR_END) {
		if (alu64)
			out(buf, sz, "bswap%d %%r%d", insn->imm, insn->dst);
		else
			out(buf, sz, "%s%d %%r%d",
			    HR_SRC(insn->code) == HR_X ? "be" : "le", insn->imm,
			    insn->dst);
		return;
	}
	if (HR_OP(insn->code) == HR_NEG) {
		out(buf, sz, "neg%s %%r%d", w, insn->dst);
		return;
	}
	if (HR_OP(insn->code) == HR_MOV && insn->off) {
		out(buf, sz, "movsx%d%s %%r%d, %%r%d", insn->off,
		    alu64 ? "64" : "32", insn->dst, insn->src);
		return;
	}
	if (insn->off == 1)
		name = HR_OP(insn->code) == HR_DIV ? "sdiv" : "smod";
	if (HR_SRC(insn->code) == HR_X)
		out(buf, sz, "%s%s %%r%d, %%r%d", name, w, insn->dst,
		    insn->src);
	else
		out(buf, sz, "%s%s %%r%d, %s", name, w, insn->dst,
		    imm_str(insn->imm, imm, sizeof(imm)));
}

static void dis_call(const struct hr_insn *insn, char *buf, size_t sz)
{
	if (HR_SRC(insn->code) == HR_X)
		out(buf, sz, "call %%r%d", insn->dst);
	else if (insn->src == HR_CALL_LOCAL)
		out(buf, sz, "call local %+d", insn->imm);
	else if (insn->src == HR_CALL_KFUNC && insn->off)
		out(buf, sz, "call kfunc %d, %d", insn->imm, insn->off);
	else if (insn->src == HR_CALL_KFUNC)
		out(buf, sz, "call kfunc %d", insn->imm);
	else
		out(buf, sz, "call %d", insn->imm);
}

static void dis_jmp(const struct hr_insn *insn, char *buf, size_t sz)
{
	bool jmp32 = HR_CLASS(insn->code) == HR_JMP32;
	const char *w = jmp32 ? "32" : "";
	uint8_t op = HR_OP(insn->code);
	char imm[16];

	if (op == HR_EXIT) {
		out(buf, sz, "exit");
	} else if (op == HR_CALL) {
		dis_call(insn, buf, sz);
	} else if (op == HR_JA) {
		out(buf, sz, "ja%s %+d", w, jmp32 ? insn->imm : insn->off);
	} else if (HR_SRC(insn->code) == HR_X) {
		out(buf, sz, "%s%s %%r%d, %%r%d, %+d", jmp_names[op >> 4], w,
		    insn->dst, insn->src, insn->off);
	} else {
		out(buf, sz, "%s%s %%r%d, %s, %+d", jmp_names[op >> 4], w,
		    insn->dst, imm_str(insn->imm, imm, sizeof(imm)), insn->off);
	}
}

static void dis_atomic(const struct hr_insn *insn, char *buf, size_t sz)
{
	const char *w = HR_SIZE(insn->code) == HR_W ? "32" : "";
	const char *fetch = "", *name;
	char mem[32];

	mem_str(insn->dst, insn->off, mem, sizeof(mem));
	if (insn->imm == HR_XCHG) {
		name = "xchg";
	} else if (insn->imm == HR_CMPXCHG) {
		name = "cmpxchg";
	} else {
		name = alu_names[(insn->imm & 0xf0) >> 4];
		if (insn->imm & HR_FETCH)
			fetch = "fetch ";
	}
	out(buf, sz, "lock %s%s%s %s, %%r%d", fetch, name, w, mem, insn->src);
}

static void dis_mem(const struct hr_insn *insn, char *buf, size_t sz)
{
	const char *size = size_names[HR_SIZE(insn->code) >> 3];
	char mem[32], imm[16];

	switch (HR_CLASS(insn->code)) {
	case HR_LDX:
		mem_str(insn->src, insn->off, mem, sizeof(mem));
		out(buf, sz, "ldx%s%s %%r%d, %s",
		    HR_MODE(insn->code) == HR_MEMSX ? "s" : "", size, insn->dst,
		    mem);
		break;
	case HR_ST:
		mem_str(insn->dst, insn->off, mem, sizeof(mem));
		out(buf, sz, "st%s %s, %s", size, mem,
		    imm_str(insn->imm, imm, sizeof(imm)));
		break;
	default: /* HR_STX */
		if (HR_MODE(insn->code) == HR_ATOMIC) {
			dis_atomic(insn, buf, sz);
			break;
		}
		mem_str(insn->dst, insn->off, mem, sizeof(mem));
		out(buf, sz, "stx%s %s, %%r%d", size, mem, insn->src);
		break;
	}
}

static void dis_lddw(const struct hr_insn *insn, const struct hr_insn *next,
		     char *buf, size_t sz)
{
	unsigned long long v =
		hr_insn_lddw_value((const struct hr_insn[]){ insn[0], *next });

	if (insn->src)
		out(buf, sz, "lddw %%r%d, %s 0x%llx", insn->dst,
		    pseudo_names[insn->src], v);
	else
		out(buf, sz, "lddw %%r%d, 0x%llx", insn->dst, v);
}

int hr_disasm_insn2(const struct hr_insn *insn, const struct hr_insn *next,
		    char *buf, size_t sz)
{
	const char *why = "invalid instruction";

	if (hr_insn_validate(insn, next, &why)) {
		out(buf, sz,
		    "invalid code=0x%02x dst=%d src=%d off=%d imm=%d (%s)",
		    insn->code, insn->dst, insn->src, insn->off, insn->imm,
		    why);
		return 1;
	}
	switch (HR_CLASS(insn->code)) {
	case HR_LD:
		dis_lddw(insn, next, buf, sz);
		return 2;
	case HR_ALU:
	case HR_ALU64:
		dis_alu(insn, buf, sz);
		break;
	case HR_JMP:
	case HR_JMP32:
		dis_jmp(insn, buf, sz);
		break;
	default:
		dis_mem(insn, buf, sz);
		break;
	}
	return 1;
}

int hr_disasm_insn(const struct hr_insn *insn, char *buf, size_t sz)
{
	return hr_disasm_insn2(insn, hr_insn_is_lddw(insn) ? &insn[1] : NULL,
			       buf, sz);
}

void hr_disasm_prog(FILE *f, const struct hr_insn *insns, uint32_t cnt)
{
	char line[128];
	uint32_t pc = 0;

	while (pc < cnt) {
		const struct hr_insn *next = pc + 1 < cnt ? &insns[pc + 1] :
							    NULL;

		fprintf(f, "%4u: ", pc);
		pc += hr_disasm_insn2(&insns[pc], next, line, sizeof(line));
		fprintf(f, "%s\n", line);
	}
}
