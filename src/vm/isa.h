/* SPDX-License-Identifier: MIT */
/*
 * The eBPF instruction set (RFC 9669): encoding, opcodes and field helpers.
 *
 * The constants are the ISA's own numbers; they are spelled out here rather
 * than taken from <linux/bpf.h> because the build machine's UAPI headers
 * (6.1) predate the v4 instructions (sdiv/smod, movsx, ldsx, bswap, ja32).
 */
#ifndef HR_VM_ISA_H
#define HR_VM_ISA_H

#include <stdbool.h>
#include <stdint.h>

/* Same layout as the kernel's struct bpf_insn. */
struct hr_insn {
	uint8_t code;
	uint8_t dst : 4;
	uint8_t src : 4;
	int16_t off;
	int32_t imm;
};

#define HR_NREGS 11
#define HR_STACK_SIZE 512 /* MAX_BPF_STACK, per call frame */
#define HR_MAX_CALL_FRAMES 8 /* MAX_CALL_FRAMES */

/* Instruction classes (low 3 bits). */
#define HR_LD 0x00
#define HR_LDX 0x01
#define HR_ST 0x02
#define HR_STX 0x03
#define HR_ALU 0x04
#define HR_JMP 0x05
#define HR_JMP32 0x06
#define HR_ALU64 0x07
#define HR_CLASS(code) ((code)&0x07)

/* Load/store size and mode. */
#define HR_W 0x00
#define HR_H 0x08
#define HR_B 0x10
#define HR_DW 0x18
#define HR_SIZE(code) ((code)&0x18)
#define HR_IMM 0x00
#define HR_ABS 0x20
#define HR_IND 0x40
#define HR_MEM 0x60
#define HR_MEMSX 0x80
#define HR_ATOMIC 0xc0
#define HR_MODE(code) ((code)&0xe0)

/* ALU and JMP source and operation. */
#define HR_K 0x00
#define HR_X 0x08
#define HR_SRC(code) ((code)&0x08)
#define HR_OP(code) ((code)&0xf0)

#define HR_ADD 0x00
#define HR_SUB 0x10
#define HR_MUL 0x20
#define HR_DIV 0x30
#define HR_OR 0x40
#define HR_AND 0x50
#define HR_LSH 0x60
#define HR_RSH 0x70
#define HR_NEG 0x80
#define HR_MOD 0x90
#define HR_XOR 0xa0
#define HR_MOV 0xb0
#define HR_ARSH 0xc0
#define HR_END 0xd0 /* byte swap; BPF_TO_LE = K, BPF_TO_BE = X */

#define HR_JA 0x00
#define HR_JEQ 0x10
#define HR_JGT 0x20
#define HR_JGE 0x30
#define HR_JSET 0x40
#define HR_JNE 0x50
#define HR_JSGT 0x60
#define HR_JSGE 0x70
#define HR_CALL 0x80
#define HR_EXIT 0x90
#define HR_JLT 0xa0
#define HR_JLE 0xb0
#define HR_JSLT 0xc0
#define HR_JSLE 0xd0

/* Atomic operations, in imm. */
#define HR_FETCH 0x01
#define HR_XCHG (0xe0 | HR_FETCH)
#define HR_CMPXCHG (0xf0 | HR_FETCH)

/* Pseudo source registers of ld_imm64 (BPF_PSEUDO_*). */
#define HR_PSEUDO_MAP_FD 1
#define HR_PSEUDO_MAP_VALUE 2
#define HR_PSEUDO_BTF_ID 3
#define HR_PSEUDO_FUNC 4
#define HR_PSEUDO_MAP_IDX 5
#define HR_PSEUDO_MAP_IDX_VALUE 6

/* Pseudo source registers of call. */
#define HR_CALL_HELPER 0
#define HR_CALL_LOCAL 1 /* BPF_PSEUDO_CALL */
#define HR_CALL_KFUNC 2 /* BPF_PSEUDO_KFUNC_CALL */

#define HR_OPC_LDDW (HR_LD | HR_IMM | HR_DW)

static inline bool hr_insn_is_lddw(const struct hr_insn *insn)
{
	return insn->code == HR_OPC_LDDW;
}

static inline uint64_t hr_insn_lddw_value(const struct hr_insn *insn)
{
	return (uint64_t)(uint32_t)insn[0].imm |
	       ((uint64_t)(uint32_t)insn[1].imm << 32);
}

static inline void hr_insn_set_lddw(struct hr_insn *insn, uint64_t v)
{
	insn[0].imm = (int32_t)(uint32_t)v;
	insn[1].imm = (int32_t)(uint32_t)(v >> 32);
}

static inline int hr_size_bytes(uint8_t code)
{
	static const int bytes[4] = { 4, 2, 1, 8 };

	return bytes[HR_SIZE(code) >> 3];
}

/*
 * Checks that one instruction is well formed: a known opcode, registers in
 * range and every field the ISA says is unused set to zero. @next is the
 * following instruction (for ld_imm64) or NULL. Returns 0 or -EINVAL and,
 * when @why is given, a static description of the fault.
 */
int hr_insn_validate(const struct hr_insn *insn, const struct hr_insn *next,
		     const char **why);

/*
 * Checks a whole program: every instruction, every jump target inside the
 * program and not into the middle of an ld_imm64, and local call targets.
 * On failure *@bad_pc is the faulting instruction index.
 */
int hr_prog_validate(const struct hr_insn *insns, uint32_t cnt,
		     uint32_t *bad_pc, const char **why);

/* Whether conditional jump @op is taken for a OP b: on 64 bits (@wide,
 * BPF_JMP) or on their low halves (BPF_JMP32). */
static inline bool hr_jump_taken(uint8_t op, uint64_t a, uint64_t b, bool wide)
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

#endif /* HR_VM_ISA_H */
