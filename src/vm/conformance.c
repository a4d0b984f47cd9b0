// SPDX-License-Identifier: MIT
/* The bpf_conformance suite's execution environment (conformance.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vm/conformance.h"
#include "vm/disasm.h"
#include "vm/engine.h"
#include "vm/jit.h"
#include "vm/vm.h"

/*
 * ubpf's test helper: returns its argument, and an argument of 0 ends the
 * program at once with that value in r0 (call_unwind_fail.data).
 */
static uint64_t conformance_unwind(uint64_t r1, uint64_t r2, uint64_t r3,
				   uint64_t r4, uint64_t r5, struct hr_run *run)
{
	if (r1 == 0)
		run->unwind = true;
	return r1;
}

static hr_helper_fn conformance_helper(uint64_t id)
{
	return id == HR_CONFORMANCE_UNWIND ? conformance_unwind : NULL;
}

/* Resolves every helper call (call imm with src 0) ahead of the run. */
static hr_helper_fn *resolve_calls(const struct hr_insn *insns, uint32_t cnt)
{
	hr_helper_fn *calls = calloc(cnt, sizeof(*calls));
	uint32_t pc;

	if (!calls)
		return NULL;
	for (pc = 0; pc < cnt; pc++) {
		if (insns[pc].code == (HR_JMP | HR_CALL | HR_K) &&
		    insns[pc].src == HR_CALL_HELPER)
			calls[pc] = conformance_helper(
				(uint64_t)(uint32_t)insns[pc].imm);
	}
	return calls;
}

static int report_abort(const struct hr_vm_prog *vm, const struct hr_run *run,
			char *err, size_t errsz)
{
	char insn[128] = "?";

	if (run->abort_pc < vm->cnt)
		hr_disasm_insn2(&vm->insns[run->abort_pc],
				run->abort_pc + 1 < vm->cnt ?
					&vm->insns[run->abort_pc + 1] :
					NULL,
				insn, sizeof(insn));
	snprintf(err, errsz, "run aborted at insn %u (%s): %s", run->abort_pc,
		 insn, hr_abort_str(run->abort));
	return -EFAULT;
}

int hr_conformance_run(const struct hr_insn *insns, uint32_t cnt, void *mem,
		       size_t len, uint64_t *r0, char *err, size_t errsz)
{
	return hr_conformance_run_engine(HR_ENGINE_INTERP, insns, cnt, mem, len,
					 r0, NULL, err, errsz);
}

int hr_conformance_run_engine(enum hr_engine engine,
			      const struct hr_insn *insns, uint32_t cnt,
			      void *mem, size_t len, uint64_t *r0,
			      size_t *jit_bytes, char *err, size_t errsz)
{
	struct hr_vm_prog vm = { .insns = insns, .cnt = cnt };
	struct hr_region region = {
		.start = (uintptr_t)mem,
		.end = (uintptr_t)mem + len,
		.flags = HR_REGION_READ | HR_REGION_WRITE,
	};
	const char *why = "";
	struct hr_run *run;
	uint32_t bad_pc;
	int ret = 0;

	if (jit_bytes)
		*jit_bytes = 0;
	if (engine == HR_ENGINE_DEFAULT)
		engine = hr_engine_available(HR_ENGINE_JIT) ? HR_ENGINE_JIT :
							      HR_ENGINE_INTERP;
	if (!hr_engine_available(engine)) {
		snprintf(err, errsz, "engine %d is not in this build", engine);
		return -ENOEXEC;
	}
	if (hr_prog_validate(insns, cnt, &bad_pc, &why)) {
		snprintf(err, errsz, "insn %u: %s", bad_pc, why);
		return -EINVAL;
	}
	vm.calls = resolve_calls(insns, cnt);
	run = malloc(sizeof(*run));
	if (!vm.calls || !run) {
		snprintf(err, errsz, "out of memory");
		ret = -ENOMEM;
		goto out;
	}
	vm.helper_by_id = conformance_helper;
	hr_run_init(run, &vm, NULL);
	if (len) {
		run->regions = &region;
		run->nregions = 1;
	}
	if (engine == HR_ENGINE_JIT) {
		/* hr_jit_run() would run a refused program interpreted; a
		 * run that claims to test the JIT must not. */
		ret = hr_jit_compile(&vm);
		if (ret || !vm.jit) {
			snprintf(err, errsz, "the JIT refused the program: %s",
				 strerror(ret ? -ret : ENOEXEC));
			ret = -ENOEXEC;
			goto out;
		}
		if (jit_bytes)
			*jit_bytes = vm.jit_size;
	}
	*r0 = hr_engine_run2(engine, run, len ? (uint64_t)(uintptr_t)mem : 0,
			     len);
	if (run->abort)
		ret = report_abort(&vm, run, err, errsz);
out:
	hr_jit_free(&vm);
	free(run);
	free(vm.calls);
	return ret;
}
