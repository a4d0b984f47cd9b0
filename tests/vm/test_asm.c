// SPDX-License-Identifier: MIT
/*
 * The assembler, disassembler and ISA validator: encodings checked byte
 * for byte against what clang -target bpf emits for the same instruction,
 * error messages, validation rules and the text round trip.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "vm/asm.h"
#include "vm/disasm.h"
#include "vm/isa.h"
#include "harness.h"

/* Assembles @text and compares with @hex (the bytes clang emits). */
static void check_enc(const char *text, const char *hex)
{
	struct hr_insn *insns = NULL;
	char err[256], got[256];
	uint32_t cnt = 0;
	int ret = hr_asm(text, &insns, &cnt, err, sizeof(err));

	CHECK(ret == 0, "'%s': %s", text, err);
	if (ret)
		return;
	t_hex(insns, cnt * sizeof(*insns), got);
	CHECK(!strcmp(got, hex), "'%s': got %s, want %s", text, got, hex);
	free(insns);
}

/* Assembly of @text fails with a message containing @msg. */
static void check_err(const char *text, const char *msg)
{
	struct hr_insn *insns = NULL;
	char err[256] = "";
	uint32_t cnt = 7;
	int ret = hr_asm(text, &insns, &cnt, err, sizeof(err));

	CHECK(ret == -EINVAL, "'%s' assembled (ret %d)", text, ret);
	CHECK(strstr(err, msg), "'%s': error '%s' lacks '%s'", text, err, msg);
	CHECK(!insns && cnt == 0, "'%s': output left on failure", text);
	free(insns);
}

static void test_encodings(void)
{
	check_enc("mov %r0, 42", "b70000002a000000"); /* r0 = 42 */
	check_enc("mov32 %r0, 42", "b40000002a000000"); /* w0 = 42 */
	check_enc("add %r1, %r2", "0f21000000000000"); /* r1 += r2 */
	check_enc("add64 %r1, %r2", "0f21000000000000");
	check_enc("sub32 %r3, -3", "14030000fdffffff");
	check_enc("mov32 %r0, 0xffffffff", "b4000000ffffffff");
	check_enc("ldxw %r0, [%r1+4]", "6110040000000000");
	check_enc("ldxdw %r0, [%r1]", "7910000000000000");
	check_enc("stxdw [%r10-8], %r1", "7b1af8ff00000000");
	check_enc("stb [%r10-1], 0x80", "720affff80000000");
	check_enc("sth [ %r1 + 2 ], -1", "6a010200ffffffff");
	check_enc("lddw %r0, 0x1122334455667788",
		  "18000000887766550000000044332211");
	check_enc("jeq %r1, 5, +3", "1501030005000000");
	check_enc("jne32 %r1, %r2, -1", "5e21ffff00000000");
	check_enc("jsgt %r1, -2, +0", "65010000feffffff");
	check_enc("call 5", "8500000005000000");
	check_enc("call helper 5", "8500000005000000");
	check_enc("call kfunc 7", "8520000007000000");
	check_enc("call %r2", "8d02000000000000"); /* callx r2 */
	check_enc("exit", "9500000000000000");
	check_enc("lock add [%r10-8], %r1", "db1af8ff00000000");
	check_enc("lock fetch add [%r10-8], %r0", "db0af8ff01000000");
	check_enc("lock or32 [%r1+0], %r2", "c321000040000000");
	check_enc("lock fetch xor32 [%r1+0], %r2", "c3210000a1000000");
	check_enc("lock xchg [%r10-8], %r1", "db1af8ffe1000000");
	check_enc("lock cmpxchg32 [%r10-4], %r1", "c31afcfff1000000");
	check_enc("be16 %r0", "dc00000010000000");
	check_enc("le32 %r0", "d400000020000000");
	check_enc("bswap64 %r0", "d700000040000000");
	check_enc("swap16 %r3", "d703000010000000");
	check_enc("movsx864 %r0, %r1", "bf10080000000000"); /* r0 = (s8)r1 */
	check_enc("movsx1632 %r0, %r1", "bc10100000000000");
	check_enc("movsx3264 %r0, %r1", "bf10200000000000");
	check_enc("ldxsb %r0, [%r10-1]", "91a0ffff00000000");
	check_enc("ldxsw %r2, [%r1+8]", "8112080000000000");
	check_enc("sdiv %r0, 3", "3700010003000000");
	check_enc("smod32 %r0, %r1", "9c10010000000000");
	check_enc("neg %r0", "8700000000000000");
	check_enc("neg32 %r4", "8404000000000000");
	check_enc("arsh32 %r0, 16", "c400000010000000");
	check_enc("ja +5", "0500050000000000");
	check_enc("ja32 +5", "0600000005000000"); /* gotol +5 */
	check_enc("lddw %r1, map_fd 3", "18110000030000000000000000000000");
}

/* Label arithmetic: slots (lddw is two), both directions, "exit". */
static void test_labels(void)
{
	check_enc("ja L\nlddw %r0, 1\nL:\nexit",
		  "0500020000000000"
		  "18000000010000000000000000000000"
		  "9500000000000000");
	check_enc("top: mov %r0, 1\njne %r0, 0, top\nexit", "b700000001000000"
							    "5500feff00000000"
							    "9500000000000000");
	check_enc("jeq %r1, 0, exit\nmov %r0, 1\nexit\nmov %r0, 2\nexit",
		  "1501010000000000"
		  "b700000001000000"
		  "9500000000000000"
		  "b700000002000000"
		  "9500000000000000");
	check_enc("call local f\nexit\nf:\nmov %r0, 0 # comment\nexit",
		  "8510000001000000"
		  "9500000000000000"
		  "b700000000000000"
		  "9500000000000000");
	check_enc("ja32 L\nL:\nexit", "0600000000000000"
				      "9500000000000000");
}

static void test_errors(void)
{
	check_err("mov %r0, 0\nldxq %r0, %r1\nexit",
		  "line 2: invalid mnemonic");
	check_err("or %r0, %r50\nexit", "line 1: invalid register '%r50'");
	check_err("mov %r11, 1\nexit", "invalid register");
	check_err("lddw %r0\nexit", "'lddw' takes 2 operands, got 1");
	check_err("exit %r0", "'exit' takes 0 operands, got 1");
	check_err("ldxb %r0, [%r1+0x10000]\nexit", "out of 16-bit range");
	check_err("ldxb %r0, %r1\nexit", "invalid memory operand");
	check_err("mov32 %r0, 2147483648\nexit", "out of 32-bit range");
	check_err("mov32 %r0, 0x100000000\nexit", "out of 32-bit range");
	check_err("mov %r0, -2147483649\nexit", "out of 32-bit range");
	check_err("mov %r0, 12x\nexit", "invalid immediate '12x'");
	check_err("ja NOT_A_LABEL\nexit",
		  "line 1: unknown label 'NOT_A_LABEL'");
	check_err("lock or [%r10-8]\nexit",
		  "invalid number of operands for lock");
	check_err("lock\nexit", "invalid number of operands for lock");
	check_err("lock sub [%r10-8], %r1\nexit",
		  "invalid lock operation 'sub'");
	check_err("L:\nL:\nexit", "line 2: duplicate label 'L'");
	check_err("call bogus 1\nexit", "invalid call operands");
	check_err("# nothing\n\n", "no instructions");
	check_err("jeq %r1, 1, +40000\nexit", "out of 16-bit range");
	check_err("mov %r0,\nexit", "empty operand");
	check_err("lddw %r0, 0x10000000000000000\nexit", "out of 64-bit range");
}

static int validate(const char *text, const char **why)
{
	struct hr_insn *insns;
	char err[256];
	uint32_t cnt, pc;
	int ret;

	*why = "";
	ret = hr_asm(text, &insns, &cnt, err, sizeof(err));
	CHECK(ret == 0, "'%s': %s", text, err);
	if (ret)
		return ret;
	ret = hr_prog_validate(insns, cnt, &pc, why);
	free(insns);
	return ret;
}

static void check_valid(const char *text)
{
	const char *why;

	CHECK(validate(text, &why) == 0, "'%s' rejected: %s", text, why);
}

static void check_invalid(const char *text, const char *want)
{
	const char *why;

	CHECK(validate(text, &why) == -EINVAL, "'%s' accepted", text);
	CHECK(strstr(why, want), "'%s': '%s' lacks '%s'", text, why, want);
}

/* Raw instructions against hr_insn_validate(). */
static void check_raw(struct hr_insn insn, bool ok, const char *want)
{
	struct hr_insn next = { 0 };
	const char *why = "";
	int ret = hr_insn_validate(&insn, &next, &why);

	CHECK(ok ? ret == 0 : ret == -EINVAL,
	      "code 0x%02x dst %d src %d off %d imm %d: ret %d (%s)", insn.code,
	      insn.dst, insn.src, insn.off, insn.imm, ret, why);
	if (!ok)
		CHECK(strstr(why, want), "code 0x%02x: '%s' lacks '%s'",
		      insn.code, why, want);
}

static void test_validate(void)
{
	check_valid("mov %r0, 0\nexit");
	check_valid("mov %r0, 0\nja -1");
	check_valid("call local f\nexit\nf:\nmov %r0, 1\nexit");
	check_valid("stxdw [%r10-8], %r10\nmov %r0, %r10\nexit");
	check_invalid("mov %r0, 0", "last instruction is not an exit");
	check_invalid("mov %r0, 0\njeq %r0, 0, -3\nexit",
		      "jump out of program");
	check_invalid("ja +1\nexit", "jump out of program");
	check_invalid("ja +1\nlddw %r0, 1\nexit", "middle of an lddw");
	check_invalid("mov %r10, 0\nexit", "r10 is read only");
	check_invalid("ldxw %r10, [%r1+0]\nexit", "r10 is read only");
	check_invalid("lock fetch add [%r1+0], %r10\nexit", "read only");
	check_invalid("call local +5\nexit", "outside the program");
	check_invalid("call local f\nexit\nf:\nmov %r0, 1", "not an exit");
	check_invalid("call local f\nja +2\nf:\nmov %r0, 1\nexit\nexit",
		      "jump out of its function");
	check_invalid("exit\nlddw %r0, 5", "not an exit");
}

static void test_validate_raw(void)
{
	const struct hr_insn ok[] = {
		{ HR_ALU64 | HR_DIV | HR_K, 0, 0, 1, 3 }, /* sdiv */
		{ HR_ALU | HR_MOV | HR_X, 0, 1, 16, 0 }, /* movsx1632 */
		{ HR_ALU64 | HR_END | HR_K, 0, 0, 0, 16 }, /* bswap16 */
		{ HR_LDX | HR_MEMSX | HR_H, 0, 1, 0, 0 }, /* ldxsh */
		{ HR_STX | HR_ATOMIC | HR_W, 1, 2, 0, HR_CMPXCHG },
		{ HR_JMP | HR_CALL | HR_K, 0, HR_CALL_KFUNC, 1, 99 },
		{ HR_JMP | HR_CALL | HR_X, 3, 0, 0, 0 }, /* callx r3 */
		{ HR_JMP32 | HR_JA, 0, 0, 0, 100 }, /* gotol */
		{ HR_OPC_LDDW, 1, HR_PSEUDO_MAP_IDX_VALUE, 0, 0 },
	};
	unsigned int i;

	for (i = 0; i < sizeof(ok) / sizeof(ok[0]); i++)
		check_raw(ok[i], true, "");
	check_raw((struct hr_insn){ HR_ALU64 | HR_ADD | HR_K, 0, 0, 1, 1 },
		  false, "offset is non-zero");
	check_raw((struct hr_insn){ HR_ALU64 | HR_ADD | HR_K, 0, 1, 0, 1 },
		  false, "src_reg is non-zero");
	check_raw((struct hr_insn){ HR_ALU64 | HR_ADD | HR_X, 0, 1, 0, 1 },
		  false, "imm is non-zero");
	check_raw((struct hr_insn){ HR_JMP | HR_EXIT, 1, 0, 0, 0 }, false,
		  "dst_reg is non-zero");
	check_raw((struct hr_insn){ HR_ALU | HR_MOV | HR_X, 0, 1, 32, 0 },
		  false, "movsx");
	check_raw((struct hr_insn){ HR_ALU64 | HR_END | HR_X, 0, 0, 0, 16 },
		  false, "invalid opcode");
	check_raw((struct hr_insn){ HR_ALU | HR_END | HR_K, 0, 0, 0, 8 }, false,
		  "byte swap width");
	check_raw((struct hr_insn){ HR_ALU | HR_NEG | HR_X, 0, 0, 0, 0 }, false,
		  "invalid opcode");
	check_raw((struct hr_insn){ HR_ALU64 | HR_DIV | HR_K, 0, 0, 2, 1 },
		  false, "signed division");
	check_raw((struct hr_insn){ HR_ALU64 | 0xe0, 0, 0, 0, 0 }, false,
		  "invalid ALU operation");
	check_raw((struct hr_insn){ HR_LD | HR_ABS | HR_W, 0, 0, 0, 12 }, false,
		  "socket filters");
	check_raw((struct hr_insn){ HR_LD | HR_IND | HR_H, 0, 1, 0, 0 }, false,
		  "socket filters");
	check_raw((struct hr_insn){ HR_LDX | HR_MEMSX | HR_DW, 0, 1, 0, 0 },
		  false, "sign-extending load size");
	check_raw((struct hr_insn){ HR_STX | HR_ATOMIC | HR_B, 1, 2, 0, 0 },
		  false, "atomic size");
	check_raw((struct hr_insn){ HR_STX | HR_ATOMIC | HR_DW, 1, 2, 0,
				    HR_SUB },
		  false, "atomic operation");
	check_raw((struct hr_insn){ HR_ST | HR_MEM | HR_W, 10, 1, -4, 0 },
		  false, "src_reg is non-zero");
	check_raw((struct hr_insn){ HR_JMP | HR_CALL | HR_K, 0, 3, 0, 1 },
		  false, "call type");
	check_raw((struct hr_insn){ HR_JMP | HR_CALL | HR_K, 0, 0, 1, 1 },
		  false, "offset is non-zero");
	check_raw((struct hr_insn){ HR_JMP32 | HR_CALL | HR_K, 0, 0, 0, 1 },
		  false, "invalid opcode");
	check_raw((struct hr_insn){ HR_JMP32 | HR_JA, 0, 0, 1, 0 }, false,
		  "offset is non-zero");
	check_raw((struct hr_insn){ HR_JMP | HR_JA, 0, 0, 0, 1 }, false,
		  "imm is non-zero");
	check_raw((struct hr_insn){ HR_JMP | 0xe0, 0, 0, 0, 0 }, false,
		  "invalid jump operation");
	check_raw((struct hr_insn){ HR_JMP | HR_JEQ | HR_X, 11, 0, 0, 0 },
		  false, "invalid dst register");
	check_raw((struct hr_insn){ HR_OPC_LDDW, 0, 7, 0, 0 }, false,
		  "pseudo source");
	check_raw((struct hr_insn){ HR_LD | HR_IMM | HR_W, 0, 0, 0, 0 }, false,
		  "invalid ld opcode");
}

static void test_prog_raw(void)
{
	const struct hr_insn bad2[] = {
		{ HR_OPC_LDDW, 0, 0, 0, 1 },
		{ HR_ALU64, 0, 0, 0, 2 }, /* second slot with a code */
		{ HR_JMP | HR_EXIT, 0, 0, 0, 0 },
	};
	const struct hr_insn ja32_out[] = {
		{ HR_JMP32 | HR_JA, 0, 0, 0, 1 },
		{ HR_JMP | HR_EXIT, 0, 0, 0, 0 },
	};
	const char *why = "";
	uint32_t pc = 99;

	CHECK(hr_prog_validate(bad2, 3, &pc, &why) == -EINVAL, "accepted");
	CHECK(pc == 0 && strstr(why, "second slot"), "pc %u: %s", pc, why);
	CHECK(hr_prog_validate(ja32_out, 2, &pc, &why) == -EINVAL, "accepted");
	CHECK(pc == 0 && strstr(why, "jump out of program"), "pc %u: %s", pc,
	      why);
	CHECK(hr_prog_validate(ja32_out, 0, &pc, &why) == -EINVAL, "empty");
	CHECK(strstr(why, "empty"), "%s", why);
}

static void check_dis(const char *text, const char *want)
{
	struct hr_insn *insns;
	char err[256], buf[128];
	uint32_t cnt;
	int slots;

	if (hr_asm(text, &insns, &cnt, err, sizeof(err))) {
		CHECK(0, "'%s': %s", text, err);
		return;
	}
	slots = hr_disasm_insn(insns, buf, sizeof(buf));
	CHECK(!strcmp(buf, want), "'%s' disassembles to '%s', want '%s'", text,
	      buf, want);
	CHECK_EQ(slots, cnt);
	free(insns);
}

static void test_disasm(void)
{
	const struct hr_insn bad = { HR_ALU64 | HR_ADD | HR_K, 0, 0, 1, 1 };
	char buf[128], small[8];

	check_dis("mov %r0, 42", "mov %r0, 42");
	check_dis("mov32 %r0, 0xffffffff", "mov32 %r0, -1");
	check_dis("mov %r0, 0x12345678", "mov %r0, 0x12345678");
	check_dis("add64 %r1, %r2", "add %r1, %r2");
	check_dis("sdiv32 %r1, 3", "sdiv32 %r1, 3");
	check_dis("smod %r1, %r2", "smod %r1, %r2");
	check_dis("movsx1664 %r1, %r2", "movsx1664 %r1, %r2");
	check_dis("swap32 %r1", "bswap32 %r1");
	check_dis("be64 %r1", "be64 %r1");
	check_dis("ldxsh %r1, [%r2-6]", "ldxsh %r1, [%r2-6]");
	check_dis("ldxdw %r1, [%r2]", "ldxdw %r1, [%r2+0]");
	check_dis("stw [%r10-4], 7", "stw [%r10-4], 7");
	check_dis("stxb [%r1+3], %r2", "stxb [%r1+3], %r2");
	check_dis("lock fetch and32 [%r1+0], %r2",
		  "lock fetch and32 [%r1+0], %r2");
	check_dis("lock cmpxchg [%r1+8], %r2", "lock cmpxchg [%r1+8], %r2");
	check_dis("lddw %r0, 0x8000000000000000",
		  "lddw %r0, 0x8000000000000000");
	check_dis("lddw %r2, map_value 0x500000003",
		  "lddw %r2, map_value 0x500000003");
	check_dis("jslt32 %r1, -3, -2", "jslt32 %r1, -3, -2");
	check_dis("jset %r1, %r2, +0", "jset %r1, %r2, +0");
	check_dis("ja32 -1", "ja32 -1");
	check_dis("call 5", "call 5");
	check_dis("call local -1", "call local -1");
	check_dis("call kfunc 12, 1", "call kfunc 12, 1");
	check_dis("call %r3", "call %r3");
	check_dis("exit", "exit");
	hr_disasm_insn(&bad, buf, sizeof(buf));
	CHECK(strstr(buf, "invalid code=0x07") && strstr(buf, "offset"), "%s",
	      buf);
	/* Truncation is safe and terminated. */
	hr_disasm_insn(&bad, small, sizeof(small));
	CHECK_EQ(strlen(small), sizeof(small) - 1);
}

int main(void)
{
	test_encodings();
	test_labels();
	test_errors();
	test_validate();
	test_validate_raw();
	test_prog_raw();
	test_disasm();
	return t_done();
}
