// SPDX-License-Identifier: MIT
/*
 * .rodata once loaded: frozen (user space may not write it, as libbpf
 * freezes it), and read by the JIT as constants, its tests on them
 * folded (the verifier's bpf_map_direct_read). Rule: every engine gives
 * the same verdict and packet for each setting, the JIT compiled some
 * load or jump as a constant, and the map refuses writes with EPERM
 * while .bss stays writable.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <linux/bpf.h>

#include "harness.h"
#include "insn_progs.h"
#include "progs/prog.h"
#include "vm/engine.h"
#include <headroom/map.h>
#include <headroom/object.h>

static const enum hr_engine engines[] = { HR_ENGINE_INTERP, HR_ENGINE_JIT,
					  HR_ENGINE_JIT_CHECKED };

static struct hr_object *open_with(const char *file, const char *const *set,
				   size_t nset)
{
	char path[4200], err[256] = "";
	struct hr_object *obj = NULL;
	HR_OPTS(hr_object_open_opts, oo, .errbuf = err,
		.errbuf_sz = sizeof(err), .globals = set, .globals_cnt = nset);

	snprintf(path, sizeof(path), "%s/%s", t_progs_dir(), file);
	CHECK(hr_object_open(path, &oo, &obj) == 0, "open %s: %s", path, err);
	return obj;
}

/* bench_action with action @act and touch set: each engine's verdict
 * and packet. */
static void action(uint32_t act)
{
	char a[32];
	const char *set[] = { a, "touch=1" };
	struct hr_object *obj;
	struct hr_prog *prog;
	uint8_t pkt[3][64];
	unsigned int e, i;

	snprintf(a, sizeof(a), "action=%u", act);
	obj = open_with("bench_action.o", set, 2);
	prog = obj ? hr_object_find_prog(obj, NULL) : NULL;
	CHECK(prog != NULL, "action %u: no program", act);
	if (!prog) {
		hr_object_close(obj);
		return;
	}
	for (e = 0; e < 3; e++) {
		int why = 0;
		uint32_t pc = 0;
		long long r0;

		for (i = 0; i < 64; i++)
			pkt[e][i] = (uint8_t)(i + 1);
		r0 = t_xdp_run_pkt(prog, engines[e], pkt[e], &why, &pc);
		CHECK(r0 == act,
		      "action %u, engine %d: r0 %lld (abort %d at %u)", act,
		      engines[e], r0, why, pc);
		CHECK(!memcmp(pkt[e], pkt[0], 64),
		      "action %u: engine %d's packet differs from the "
		      "interpreter's",
		      act, engines[e]);
	}
	/* TX swaps the MAC addresses; the others leave them. */
	CHECK(pkt[0][0] == (act == XDP_TX ? 7 : 1), "action %u: first byte %u",
	      act, pkt[0][0]);
	CHECK(prog->vm.jit && prog->vm.jit_fused > 0,
	      "action %u: the JIT read no .rodata setting as a constant "
	      "(%u)",
	      act, prog->vm.jit_fused);
	hr_object_close(obj);
}

static void frozen(void)
{
	const char *set[] = { "action=2" };
	struct hr_object *obj = open_with("bench_action.o", set, 1);
	struct hr_map *ro = obj ? hr_object_find_map(obj, ".rodata") : NULL;
	uint32_t key = 0, val[3] = { 0 };

	CHECK(ro != NULL, "no .rodata map");
	if (!ro) {
		hr_object_close(obj);
		return;
	}
	CHECK_EQ(hr_map_lookup_elem(ro, &key, val), 0);
	CHECK(val[0] == XDP_PASS, "action read back %u", val[0]);
	CHECK_EQ(hr_map_update_elem(ro, &key, val, 0), -EPERM);
	hr_object_close(obj);
}

int main(void)
{
	uint32_t act;

	if (!hr_engine_available(HR_ENGINE_JIT)) {
		printf("skip: no JIT on this machine\n");
		return t_done();
	}
	for (act = XDP_DROP; act <= XDP_TX; act++)
		action(act);
	frozen();
	return t_done();
}
