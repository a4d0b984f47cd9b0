// SPDX-License-Identifier: MIT
/*
 * Reproducers found by fuzz/fuzz_insns, kept as tests of their rules.
 *
 * An XDP program that tail-calls through a PROG_ARRAY owned by tc
 * programs ran the tc program on the 24-byte xdp_md with __sk_buff's
 * rules, reading past the context (ASan: stack-buffer-overflow in the
 * interpreter's exec). Rule, as the kernel's bpf_prog_map_compatible()
 * (checked when a program using the map is loaded): either the program is
 * refused at load, or the tail call fails and the caller goes on, under
 * every engine. Each engine runs in a child, so a crash is one failed
 * check.
 *
 * A program that tail-called itself with a scalar as ctx (r1 = 2) entered
 * its JIT code, compiled taking entry r1 to be the context, with r1 = 2;
 * the checked JIT reported its context fact at the next call failed
 * (fuzz/crashes/insns-tail-call-scalar-ctx). Rule, as the kernel's
 * ARG_PTR_TO_CTX: bpf_tail_call's first argument is the run's context
 * itself, or the run aborts with a helper-argument fault, under every
 * engine.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/bpf.h>

#include "progs/ctx.h"
#include "vm/engine.h"
#include "progs/prog.h"
#include "progs/prog_registry.h"
#include "harness.h"
#include "insn_progs.h"
#include "maps/map.h"
#include <headroom/map.h>
#include <headroom/test_run.h>

static const enum hr_engine engines[] = { HR_ENGINE_INTERP, HR_ENGINE_JIT,
					  HR_ENGINE_JIT_CHECKED };

/* @obj holding one 4-slot PROG_ARRAY, which is returned (NULL: failed). */
static struct hr_map *object_with_prog_array(struct hr_object *obj)
{
	const struct hr_map_attr attr = { .type = BPF_MAP_TYPE_PROG_ARRAY,
					  .key_size = 4,
					  .value_size = 4,
					  .max_entries = 4,
					  .ncpus = 1,
					  .name = "pa" };
	static struct hr_map *map;

	map = NULL;
	CHECK(hr_map_create(&attr, &map) == 0, "PROG_ARRAY");
	if (!map)
		return NULL;
	obj->maps = &map;
	obj->nmaps = 1;
	obj->ncpus = 1;
	CHECK(hr_object_build_regions(obj) == 0, "regions");
	return map;
}

static void tail_call_other_type(void)
{
	/* tc: reads __sk_buff data and data_end (76, 80) */
	const struct hr_insn callee[] = {
		t_insn(HR_LDX | HR_MEM | HR_W, 2, 1, 76, 0),
		t_insn(HR_LDX | HR_MEM | HR_W, 3, 1, 80, 0),
		t_insn(HR_ALU64 | HR_MOV | HR_K, 0, 0, 0, 2),
		t_insn(HR_JMP | HR_EXIT, 0, 0, 0, 0),
	};
	/* xdp: bpf_tail_call(ctx, pa, 0); return 1 */
	struct hr_insn caller[] = {
		t_insn(HR_LD | HR_IMM | HR_DW, 2, HR_PSEUDO_MAP_FD, 0, 0),
		t_insn(0, 0, 0, 0, 0),
		t_insn(HR_ALU64 | HR_MOV | HR_K, 3, 0, 0, 0),
		t_insn(HR_JMP | HR_CALL, 0, HR_CALL_HELPER, 0,
		       BPF_FUNC_tail_call),
		t_insn(HR_ALU64 | HR_MOV | HR_K, 0, 0, 0, 1),
		t_insn(HR_JMP | HR_EXIT, 0, 0, 0, 0),
	};
	struct hr_object obj = { 0 };
	struct hr_map *map = NULL;
	struct hr_prog *tc, *xdp;
	uint32_t key = 0, fd;
	char err[256];
	unsigned int e;
	int ret, status;
	pid_t pid;

	map = object_with_prog_array(&obj);
	if (!map)
		return;
	tc = t_insn_prog(&hr_prog_type_tc, &obj, false, callee, 4, err,
			 sizeof(err), &ret);
	CHECK(tc != NULL, "tc callee: %s", err);
	if (!tc)
		return;
	fd = (uint32_t)hr_prog_fd(tc);
	CHECK(hr_map_update_elem(map, &key, &fd, 0) == 0, "store tc callee");
	hr_insn_set_lddw(caller, (uint64_t)(uintptr_t)map);
	xdp = t_insn_prog(&hr_prog_type_xdp, &obj, false, caller, 6, err,
			  sizeof(err), &ret);
	if (!xdp) {
		CHECK(ret < 0, "refused at load: %s", err); /* as the kernel */
	} else {
		for (e = 0; e < 3; e++) {
			fflush(NULL);
			pid = fork();
			if (pid == 0)
				_exit(t_insn_xdp_run(xdp, engines[e]) == 1 ? 0 :
									     1);
			CHECK(pid > 0 && waitpid(pid, &status, 0) == pid &&
				      WIFEXITED(status) &&
				      WEXITSTATUS(status) == 0,
			      "engine %d: an XDP program's tail call into a "
			      "tc PROG_ARRAY must fail and the caller return "
			      "1 (status %#x)",
			      engines[e], status);
		}
		hr_prog_free(xdp);
	}
	hr_map_delete_elem(map, &key);
	hr_prog_free(tc);
	free(obj.regions);
	hr_map_free(map);
}

static void tail_call_scalar_ctx(void)
{
	/* tail_call(ctx, pa, 8) (past the end: goes on),
	 * tail_call(2, pa, 0) (itself), return 1 */
	struct hr_insn insns[] = {
		t_insn(HR_LD | HR_IMM | HR_DW, 2, HR_PSEUDO_MAP_FD, 0, 0),
		t_insn(0, 0, 0, 0, 0),
		t_insn(HR_ALU64 | HR_MOV | HR_K, 3, 0, 0, 8),
		t_insn(HR_JMP | HR_CALL, 0, HR_CALL_HELPER, 0,
		       BPF_FUNC_tail_call),
		t_insn(HR_ALU64 | HR_MOV | HR_K, 1, 0, 0, 2),
		t_insn(HR_LD | HR_IMM | HR_DW, 2, HR_PSEUDO_MAP_FD, 0, 0),
		t_insn(0, 0, 0, 0, 0),
		t_insn(HR_ALU64 | HR_MOV | HR_K, 3, 0, 0, 0),
		t_insn(HR_JMP | HR_CALL, 0, HR_CALL_HELPER, 0,
		       BPF_FUNC_tail_call),
		t_insn(HR_ALU64 | HR_MOV | HR_K, 0, 0, 0, 1),
		t_insn(HR_JMP | HR_EXIT, 0, 0, 0, 0),
	};
	struct hr_object obj = { 0 };
	struct hr_map *map = NULL;
	struct hr_prog *prog;
	uint32_t key = 0, fd;
	char err[256];
	unsigned int e;
	int ret;

	map = object_with_prog_array(&obj);
	if (!map)
		return;
	hr_insn_set_lddw(&insns[0], (uint64_t)(uintptr_t)map);
	hr_insn_set_lddw(&insns[5], (uint64_t)(uintptr_t)map);
	prog = t_insn_prog(&hr_prog_type_xdp, &obj, false, insns,
			   sizeof(insns) / sizeof(insns[0]), err, sizeof(err),
			   &ret);
	CHECK(prog != NULL, "load: %s", err);
	if (!prog)
		goto out;
	fd = (uint32_t)hr_prog_fd(prog);
	CHECK(hr_map_update_elem(map, &key, &fd, 0) == 0, "store itself");
	for (e = 0; e < 3; e++) {
		uint32_t pc = 0;
		int why = 0, status = 0, pipefd[2];
		long long r0 = 0;
		pid_t pid;

		CHECK(pipe(pipefd) == 0, "pipe");
		fflush(NULL);
		pid = fork();
		if (pid == 0) {
			int out[2];

			close(pipefd[0]);
			r0 = t_insn_xdp_run_why(prog, engines[e], &why, &pc);
			out[0] = why;
			out[1] = (int)pc;
			_exit(write(pipefd[1], out, sizeof(out)) ==
						      (ssize_t)sizeof(out) &&
					      r0 == -1 ?
				      0 :
				      1);
		}
		close(pipefd[1]);
		{
			int in[2] = { -1, -1 };

			CHECK(read(pipefd[0], in, sizeof(in)) ==
				      (ssize_t)sizeof(in),
			      "engine %d: no answer", engines[e]);
			why = in[0];
			pc = (uint32_t)in[1];
		}
		close(pipefd[0]);
		CHECK(pid > 0 && waitpid(pid, &status, 0) == pid &&
			      WIFEXITED(status) && WEXITSTATUS(status) == 0,
		      "engine %d: the run must abort (status %#x)", engines[e],
		      status);
		CHECK(why == HR_ABORT_HELPER_ARG && pc == 8,
		      "engine %d: bpf_tail_call with r1 = 2 aborts as a "
		      "helper-argument fault at pc 8, not reason %d at pc %u",
		      engines[e], why, pc);
	}
	hr_map_delete_elem(map, &key);
	hr_prog_free(prog);
out:
	free(obj.regions);
	hr_map_free(map);
}

int main(void)
{
	tail_call_other_type();
	tail_call_scalar_ctx();
	return t_done();
}
