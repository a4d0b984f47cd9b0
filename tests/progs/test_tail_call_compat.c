// SPDX-License-Identifier: MIT
/*
 * Tail calls between programs of different kinds, as the kernel's
 * bpf_prog_map_compatible(): the first program stored in a PROG_ARRAY (or
 * loaded using it) fixes the type, expected attach type and frags flag; an
 * incompatible update is -EINVAL; a call that still reaches another kind
 * fails and the caller goes on, under every engine (each run in a child).
 */
#include <stdbool.h>
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

static const struct hr_map_attr pa_attr = { .type = BPF_MAP_TYPE_PROG_ARRAY,
					    .key_size = 4,
					    .value_size = 4,
					    .max_entries = 4,
					    .ncpus = 1,
					    .name = "pa" };

/* return @v */
static void ret_prog(struct hr_insn *p, int v)
{
	p[0] = t_insn(HR_ALU64 | HR_MOV | HR_K, 0, 0, 0, v);
	p[1] = t_insn(HR_JMP | HR_EXIT, 0, 0, 0, 0);
}

/* bpf_tail_call(ctx, map, 0); return 1 */
static void caller_prog(struct hr_insn *p, struct hr_map *map)
{
	p[0] = t_insn(HR_LD | HR_IMM | HR_DW, 2, HR_PSEUDO_MAP_FD, 0, 0);
	p[1] = t_insn(0, 0, 0, 0, 0);
	p[2] = t_insn(HR_ALU64 | HR_MOV | HR_K, 3, 0, 0, 0);
	p[3] = t_insn(HR_JMP | HR_CALL, 0, HR_CALL_HELPER, 0,
		      BPF_FUNC_tail_call);
	p[4] = t_insn(HR_ALU64 | HR_MOV | HR_K, 0, 0, 0, 1);
	p[5] = t_insn(HR_JMP | HR_EXIT, 0, 0, 0, 0);
	hr_insn_set_lddw(p, (uint64_t)(uintptr_t)map);
}

static const enum hr_engine engines[] = { HR_ENGINE_INTERP, HR_ENGINE_JIT,
					  HR_ENGINE_JIT_CHECKED };

/* @xdp run in a child under each engine must return @want. */
static void expect_runs(struct hr_prog *xdp, long long want, const char *what)
{
	unsigned int e;
	int status;
	pid_t pid;

	for (e = 0; e < 3; e++) {
		fflush(NULL);
		pid = fork();
		if (pid == 0)
			_exit(t_insn_xdp_run(xdp, engines[e]) == want ? 0 : 1);
		CHECK(pid > 0 && waitpid(pid, &status, 0) == pid &&
			      WIFEXITED(status) && WEXITSTATUS(status) == 0,
		      "engine %d: %s: want %lld (status %#x)", engines[e], what,
		      want, status);
	}
}

struct fixture {
	struct hr_object obj;
	struct hr_map *maps[2];
};

static int fixture_init(struct fixture *f)
{
	memset(f, 0, sizeof(*f));
	if (hr_map_create(&pa_attr, &f->maps[0]) ||
	    hr_map_create(&pa_attr, &f->maps[1]))
		return -1;
	f->obj.maps = f->maps;
	f->obj.nmaps = 2;
	f->obj.ncpus = 1;
	return hr_object_build_regions(&f->obj);
}

static void fixture_fini(struct fixture *f)
{
	uint32_t k;

	for (k = 0; k < 4; k++) {
		hr_map_delete_elem(f->maps[0], &k);
		hr_map_delete_elem(f->maps[1], &k);
	}
	free(f->obj.regions);
	hr_map_free(f->maps[0]);
	hr_map_free(f->maps[1]);
}

/* The owner is fixed by the first program stored; another kind is -EINVAL
 * at update, in both directions and for XDP with another frags flag. */
static void update_refused(void)
{
	const struct hr_prog_type *types[][2] = {
		{ &hr_prog_type_xdp, &hr_prog_type_tc },
		{ &hr_prog_type_tc, &hr_prog_type_xdp },
		{ &hr_prog_type_xdp, &hr_prog_type_xdp },
	};
	struct hr_insn r[2];
	unsigned int i;

	for (i = 0; i < 3; i++) {
		struct hr_prog *a, *b, *c;
		struct fixture f;
		uint32_t k0 = 0, k1 = 1, k2 = 2, fd;
		char err[256];
		int ret;

		if (fixture_init(&f)) {
			CHECK(0, "fixture");
			return;
		}
		ret_prog(r, 7);
		a = t_insn_prog(types[i][0], &f.obj, false, r, 2, err,
				sizeof(err), &ret);
		b = t_insn_prog(types[i][1], &f.obj, i == 2, r, 2, err,
				sizeof(err), &ret);
		c = t_insn_prog(types[i][0], &f.obj, false, r, 2, err,
				sizeof(err), &ret);
		CHECK(a && b && c, "progs: %s", err);
		if (a && b && c) {
			fd = (uint32_t)hr_prog_fd(a);
			CHECK(hr_map_update_elem(f.maps[0], &k0, &fd, 0) == 0,
			      "case %u: first store sets the owner", i);
			fd = (uint32_t)hr_prog_fd(b);
			ret = hr_map_update_elem(f.maps[0], &k1, &fd, 0);
			CHECK(ret == -EINVAL,
			      "case %u: incompatible store is -EINVAL (%d)", i,
			      ret);
			fd = (uint32_t)hr_prog_fd(c);
			CHECK(hr_map_update_elem(f.maps[0], &k2, &fd, 0) == 0,
			      "case %u: same kind again is stored", i);
		}
		fixture_fini(&f);
		hr_prog_free(a);
		hr_prog_free(b);
		hr_prog_free(c);
	}
}

/* XDP -> XDP works (the control); a map the caller never claimed that holds
 * tc or XDP-frags programs, reached by patching the caller after load, makes
 * the tail call fail and the caller return 1. */
static void call_site(void)
{
	struct hr_prog *callee_ok, *callee_tc, *callee_frags, *caller;
	struct hr_insn r[2], c[6];
	uint32_t k = 0, fd;
	struct fixture f;
	char err[256];
	int ret;

	if (fixture_init(&f)) {
		CHECK(0, "fixture");
		return;
	}
	ret_prog(r, 3);
	callee_ok = t_insn_prog(&hr_prog_type_xdp, &f.obj, false, r, 2, err,
				sizeof(err), &ret);
	callee_tc = t_insn_prog(&hr_prog_type_tc, &f.obj, false, r, 2, err,
				sizeof(err), &ret);
	callee_frags = t_insn_prog(&hr_prog_type_xdp, &f.obj, true, r, 2, err,
				   sizeof(err), &ret);
	CHECK(callee_ok && callee_tc && callee_frags, "callees: %s", err);
	if (!callee_ok || !callee_tc || !callee_frags)
		goto out;
	fd = (uint32_t)hr_prog_fd(callee_ok);
	CHECK(hr_map_update_elem(f.maps[0], &k, &fd, 0) == 0, "store xdp");
	caller_prog(c, f.maps[0]);
	caller = t_insn_prog(&hr_prog_type_xdp, &f.obj, false, c, 6, err,
			     sizeof(err), &ret);
	CHECK(caller != NULL, "xdp caller: %s", err);
	if (caller) {
		expect_runs(caller, 3, "XDP -> XDP tail call is taken");
		hr_prog_free(caller);
	}

	/* map 1 owned by tc: an XDP caller using it is refused at load */
	fd = (uint32_t)hr_prog_fd(callee_tc);
	CHECK(hr_map_update_elem(f.maps[1], &k, &fd, 0) == 0, "store tc");
	caller_prog(c, f.maps[1]);
	caller = t_insn_prog(&hr_prog_type_xdp, &f.obj, false, c, 6, err,
			     sizeof(err), &ret);
	CHECK(!caller && ret == -EINVAL, "XDP caller of a tc map refused: %d",
	      ret);
	hr_prog_free(caller);

	/* forced: load against map 0 (XDP), then point the lddw at map 1 */
	caller_prog(c, f.maps[0]);
	caller = t_insn_prog(&hr_prog_type_xdp, &f.obj, false, c, 6, err,
			     sizeof(err), &ret);
	CHECK(caller != NULL, "xdp caller: %s", err);
	if (caller) {
		hr_insn_set_lddw(caller->insns, (uint64_t)(uintptr_t)f.maps[1]);
		expect_runs(caller, 1,
			    "forced XDP -> tc tail call falls through");
		hr_prog_free(caller);
	}
out:
	fixture_fini(&f);
	hr_prog_free(callee_ok);
	hr_prog_free(callee_tc);
	hr_prog_free(callee_frags);
}

int main(void)
{
	update_refused();
	call_site();
	return t_done();
}
