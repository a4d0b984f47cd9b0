// SPDX-License-Identifier: MIT
/*
 * libFuzzer harness for the assembler (src/vm/asm.c): the input is
 * assembly text. A program that assembles and passes the ISA checker must
 * disassemble to text that assembles back to the same instructions (the
 * round trip test_conformance checks on the suite); anything else is a
 * crash.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vm/asm.h"
#include "vm/disasm.h"
#include "vm/vm.h"
#include "lib/fuzz_file.h"

/* Big enough for one instruction's text, however long its operands. */
#define LINE 160

static void round_trip(const struct hr_insn *insns, uint32_t cnt)
{
	size_t cap = (size_t)cnt * LINE + 1, used = 0;
	char *text = malloc(cap), line[LINE], err[256];
	struct hr_insn *back = NULL;
	uint32_t pc = 0, n = 0;

	if (!text)
		return;
	text[0] = '\0';
	while (pc < cnt) {
		pc += hr_disasm_insn2(&insns[pc],
				      pc + 1 < cnt ? &insns[pc + 1] : NULL,
				      line, sizeof(line));
		used += snprintf(text + used, cap - used, "%s\n", line);
	}
	if (hr_asm(text, &back, &n, err, sizeof(err)) != 0) {
		fprintf(stderr, "disassembly does not assemble: %s\n%s", err,
			text);
		abort();
	}
	if (n != cnt || memcmp(back, insns, cnt * sizeof(*insns))) {
		fprintf(stderr, "disassembly reassembles differently:\n%s",
			text);
		abort();
	}
	free(back);
	free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	struct hr_insn *insns = NULL;
	char err[256], *text;
	uint32_t cnt = 0;

	if (len > 1 << 16)
		return 0;
	text = fuzz_strdup(data, len);
	if (!text)
		return 0;
	if (hr_asm(text, &insns, &cnt, err, sizeof(err)) == 0) {
		if (!insns && cnt)
			abort();
		if (cnt && hr_prog_validate(insns, cnt, NULL, NULL) == 0)
			round_trip(insns, cnt);
	} else if (!memchr(err, '\0', sizeof(err))) {
		abort();
	}
	free(insns);
	free(text);
	return 0;
}
