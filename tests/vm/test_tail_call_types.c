// SPDX-License-Identifier: MIT
/*
 * A reproducer found by fuzz/fuzz_insns, kept as a test before its fix.
 *
 * An XDP program that tail-calls through a PROG_ARRAY owned by tc
 * programs ran the tc program on the 24-byte xdp_md with __sk_buff's
 * rules, reading past the context (ASan: stack-buffer-overflow in the
 * interpreter's exec). Rule, as the kernel's bpf_prog_map_compatible()
 * (checked when a program using the map is loaded): either the program is
 * refused at load, or the tail call fails and the caller goes on, under
 * every engine. Each engine runs in a child, so a crash is one failed
 * check.
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

static void tail_call_other_type(void)
{
	static const enum hr_engine engines[] = { HR_ENGINE_INTERP,
						  HR_ENGINE_JIT,
						  HR_ENGINE_JIT_CHECKED };
	const struct hr_map_attr attr = { .type = BPF_MAP_TYPE_PROG_ARRAY,
					  .key_size = 4,
					  .value_size = 4,
					  .max_entries = 4,
					  .ncpus = 1,
					  .name = "pa" };
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

	CHECK(hr_map_create(&attr, &map) == 0, "PROG_ARRAY");
	if (!map)
		return;
	obj.maps = &map;
	obj.nmaps = 1;
	obj.ncpus = 1;
	CHECK(hr_object_build_regions(&obj) == 0, "regions");
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

int main(void)
{
	tail_call_other_type();
	return t_done();
}
