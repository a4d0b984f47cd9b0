// SPDX-License-Identifier: MIT
/* Turning a relocated program into one the engines can run. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "progs/prog.h"
#include "progs/ld_abs.h"
#include "vm/ctx_check.h"
#include "vm/jit.h"
#include "progs/prog_registry.h"
#include "progs/stream.h"
#include "maps/fd_array.h"
#include "maps/map.h"

static int resolve_helper(struct hr_prog *prog, uint32_t pc, char *err,
			  size_t errsz)
{
	int id = prog->insns[pc].imm;
	const struct hr_helper *h = prog->type->helper(id);
	const char *name, *why;

	if (h) {
		prog->calls[pc] = h->fn;
		return 0;
	}
	name = hr_helper_name(id);
	why = prog->type->helper_why ?
		      prog->type->helper_why(prog->type->kernel_type, id) :
		      NULL;
	if (name)
		snprintf(err, errsz,
			 "insn %u: helper %s (id %d) is not available to %s "
			 "programs in headroom%s%s",
			 hr_prog_orig_pc(prog, pc), name, id, prog->type->name,
			 why ? ": " : "", why ? why : "");
	else
		snprintf(err, errsz, "insn %u: unknown helper id %d",
			 hr_prog_orig_pc(prog, pc), id);
	return -EINVAL;
}

static int resolve_calls(struct hr_prog *prog, char *err, size_t errsz)
{
	uint32_t pc;
	int ret;

	for (pc = 0; pc < prog->cnt; pc++) {
		const struct hr_insn *insn = &prog->insns[pc];

		if (insn->code == HR_OPC_LDDW) {
			pc++;
			continue;
		}
		if (insn->code != (HR_JMP | HR_CALL))
			continue;
		if (insn->src == HR_CALL_HELPER) {
			ret = resolve_helper(prog, pc, err, errsz);
			if (ret)
				return ret;
		} else if (insn->src == HR_CALL_KFUNC && !prog->calls[pc]) {
			snprintf(err, errsz, "insn %u: unresolved kfunc call",
				 hr_prog_orig_pc(prog, pc));
			return -EINVAL;
		}
	}
	return 0;
}

/*
 * The kernel's bpf_check_tail_call() at load: every PROG_ARRAY the program
 * names must hold (or come to hold) programs of its own kind, so that a
 * tail call never lands on another context's rules.
 */
static int claim_prog_arrays(struct hr_prog *prog, char *err, size_t errsz)
{
	uint32_t pc;

	for (pc = 0; pc + 1 < prog->cnt; pc++) {
		const struct hr_insn *in = &prog->insns[pc];
		struct hr_map *map;

		if (!hr_insn_is_lddw(in) || in->src != HR_PSEUDO_MAP_FD)
			continue;
		map = (struct hr_map *)(uintptr_t)((uint32_t)in[0].imm |
						   (uint64_t)(uint32_t)in[1].imm
							   << 32);
		pc++;
		if (!map || !hr_prog_array_claim(map, prog))
			continue;
		snprintf(err, errsz,
			 "section '%s' insn %u: PROG_ARRAY '%s' holds programs "
			 "of another type, attach type or frags flag (the "
			 "kernel's bpf_prog_map_compatible)",
			 prog->sec, hr_prog_orig_pc(prog, pc - 1), map->name);
		return -EINVAL;
	}
	return 0;
}

int hr_prog_finalize(struct hr_prog *prog, char *err, size_t errsz)
{
	char why[256] = "";
	const char *what = NULL;
	uint32_t bad_pc = 0;
	int ret;

	if (!prog->calls) {
		prog->calls =
			calloc(prog->cnt ? prog->cnt : 1, sizeof(*prog->calls));
		if (!prog->calls)
			return -ENOMEM;
	}
	ret = hr_ld_abs_expand(prog, prog->type->ld_abs, err, errsz);
	if (ret)
		return ret;
	ret = hr_prog_validate(prog->insns, prog->cnt, &bad_pc, &what);
	if (ret) {
		snprintf(err, errsz, "section '%s' insn %u: %s", prog->sec,
			 hr_prog_orig_pc(prog, bad_pc),
			 what ? what : "invalid instruction");
		return ret;
	}
	ret = resolve_calls(prog, why, sizeof(why));
	if (!ret)
		ret = hr_ctx_check(prog, prog->type, why, sizeof(why));
	if (ret) {
		snprintf(err, errsz, "section '%s' %s", prog->sec, why);
		return ret;
	}
	ret = claim_prog_arrays(prog, err, errsz);
	if (ret)
		return ret;
	hr_interp_free(&prog->vm); /* made for what it was before */
	prog->vm.insns = prog->insns;
	prog->vm.cnt = prog->cnt;
	prog->vm.calls = prog->calls;
	prog->vm.ctx_size = prog->type->ctx_size;
	prog->vm.ctx_access = prog->type->ctx_access;
	prog->vm.prog = prog;
	prog->vm.helper_by_id = NULL;
	prog->vm.abort_ret = prog->type->abort_ret;
	/* Prepared on first run and kept. */
	prog->vm.interp_cache = true;
	return 0;
}

void hr_prog_run_init(const struct hr_prog *prog, struct hr_run *run, void *ctx)
{
	hr_run_init(run, &prog->vm, ctx);
	hr_prog_run_use_object(prog, run);
}

void hr_prog_run_use_object(const struct hr_prog *prog, struct hr_run *run)
{
	if (!prog->obj)
		return;
	run->regions = prog->obj->regions;
	run->nregions = prog->obj->nregions;
	run->maps = prog->obj->maps;
	run->nmaps = prog->obj->nmaps;
}

void hr_prog_free(struct hr_prog *prog)
{
	if (!prog)
		return;
	hr_prog_unregister(prog);
	hr_jit_free(&prog->vm);
	hr_interp_free(&prog->vm);
	free(prog->name);
	free(prog->sec);
	free(prog->insns);
	free(prog->calls);
	free(prog->kfuncs);
	for (uint32_t i = 0; prog->funcs && i < prog->nfuncs; i++)
		free(prog->funcs[i].sec), free(prog->funcs[i].name);
	free(prog->funcs);
	free(prog->orig_pc);
	hr_prog_stream_free(prog);
	free(prog);
}
