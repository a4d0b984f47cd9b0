// SPDX-License-Identifier: MIT
/*
 * bpf_percpu_obj_new and bpf_percpu_obj_drop with a __percpu_kptr field
 * (progs/helpers/xdp_percpu_obj.bpf.c, in its XDP program and then its tc
 * twin on the same maps): objects swapped into and out of
 * an array's field, each copy written and read back through
 * bpf_per_cpu_ptr (NULL past the last possible CPU) and
 * bpf_this_cpu_ptr, the field's object freed by a user space overwrite
 * of an array's element and a delete of a hash's,
 * compared with the kernel's BPF_PROG_TEST_RUN under the interpreter,
 * the JIT and the checked JIT: every return, the packet each case wrote
 * its answers into and the map's values, and headroom's answers against
 * the values each case must give. The process runs on CPU 0, so that
 * the kernel's test run's copy is headroom's (hr_test_run_opts.cpu 0),
 * and headroom's objects get the kernel's number of possible CPUs.
 *
 * Then on headroom alone: the structs the verifier refuses to allocate
 * are refused at load in its words, and the misuses of
 * progs/helpers/xdp_percpu_obj_forged.bpf.c (a second drop, a drop with
 * bpf_obj_drop, bpf_this_cpu_ptr of the run's own object and of the
 * stack, bpf_per_cpu_ptr of a pointer written into the field by hand, a
 * load through the object's pointer, a load and a store past a copy, a
 * plain object swapped into the field, a leak) each end the run with
 * their reason under every engine. Under ASan (make SAN=1) nothing
 * leaks and no freed byte is touched.
 */
#include <errno.h>
#include <sched.h>
#include <string.h>

#include <bpf/libbpf.h>

#include "forged_runs.h"
#include "harness.h"
#include "headroom/headroom.h"
#include "obj_cases.h"
#include "oracle.h"
#include "vm/vm.h"

ORACLE_LINK_HEADROOM;

#define OBJ "xdp_percpu_obj.o"

struct pc_rec {
	uint32_t mode;
	uint32_t null;
	uint64_t a;
	uint64_t x, y;
	uint64_t c[4];
};

static const char *const engine_names[] = { "interp", "jit", "jit-checked" };

static uint8_t pkt[14 + sizeof(struct pc_rec) + 8];
/* The program the cases run: the XDP one, or its tc twin. */
static const char *prog = "xdp_percpu_obj";
/* The kernel's possible CPUs, headroom's objects' too. */
static unsigned int ncpus;

/* Mode @mode with a = @a on both sides (headroom's alone without a
 * kernel), compared; headroom's answers in *@out, its return value
 * returned. */
static uint32_t pc_run(struct oracle *o, const char *en, uint32_t mode,
		       uint64_t a, struct pc_rec *out)
{
	struct oracle_case c = {
		.obj = OBJ, .prog = prog, .data = pkt, .size = sizeof(pkt)
	};
	struct pc_rec in = { .mode = mode, .a = a };
	const struct oracle_result *r;
	char label[80];
	int ret;

	memset(pkt, 0, sizeof(pkt));
	memcpy(pkt + 14, &in, sizeof(in));
	snprintf(label, sizeof(label), "%s %s mode %u a %llx", en, prog, mode,
		 (unsigned long long)a);
	ret = oracle_check(o, &c, label);
	CHECK(ret == 1, "%s: %s (%d)", label,
	      ret == 0 ? "differs from the kernel" : "not run", ret);
	r = oracle_headroom_result(o);
	memcpy(out, r->out + 14, sizeof(*out));
	return r->retval;
}

/* The bits of the CPUs of 0..3 past the last possible one. */
static uint64_t missing(void)
{
	uint64_t m = 0;
	unsigned int i;

	for (i = ncpus; i < 4; i++)
		m |= 1ull << i;
	return m;
}

/* A new object with copies written from @a into pcpu[0] (mode 0),
 * pcpu[1] (3) or hpcpu's element 1 (4); @had: the field held one before,
 * which comes back dropped. */
static void store(struct oracle *o, const char *en, uint32_t mode, uint64_t a,
		  bool had)
{
	struct pc_rec out;
	uint32_t ret = pc_run(o, en, mode, a, &out);

	CHECK(ret == (had ? XDP_TX : XDP_PASS) && out.null == 0 &&
		      out.y == missing(),
	      "%s store %llx: retval %u null %u missing %llx", en,
	      (unsigned long long)a, ret, out.null, (unsigned long long)out.y);
}

/* pcpu[0]'s copies read back: those store() wrote from @a, this CPU's
 * (0) b being a * 3; or none. */
static void read_back(struct oracle *o, const char *en, uint64_t a)
{
	struct pc_rec out;
	uint32_t ret = pc_run(o, en, 1, a, &out);
	bool ok = ret == XDP_PASS && out.null == !a;
	unsigned int i;

	for (i = 0; a && i < 4; i++)
		ok &= out.c[i] == (i < ncpus ? a + i : ~0ull);
	if (a)
		ok &= out.x == a && out.y == a * 3;
	CHECK(ok,
	      "%s read %llx: retval %u null %u c %llx %llx %llx %llx x %llx "
	      "y %llx",
	      en, (unsigned long long)a, ret, out.null,
	      (unsigned long long)out.c[0], (unsigned long long)out.c[1],
	      (unsigned long long)out.c[2], (unsigned long long)out.c[3],
	      (unsigned long long)out.x, (unsigned long long)out.y);
}

/* pcpu[0]'s object taken out and dropped; @had: there was one. */
static void take(struct oracle *o, const char *en, bool had)
{
	struct pc_rec out;
	uint32_t ret = pc_run(o, en, 2, 0, &out);

	CHECK(ret == (had ? XDP_TX : XDP_PASS) && out.null == !had,
	      "%s take: retval %u null %u", en, ret, out.null);
}

/* The engine before left an object in pcpu[0] (none before the first),
 * and this one leaves one for the next, the last for the map's end to
 * free (ASan). */
static void cases(struct oracle *o, bool kernel, size_t e)
{
	const char *en = engine_names[e];

	oracle_set_headroom_only(o, !kernel);
	oracle_set_ncpus(o, ncpus);
	take(o, en, e != 0);
	take(o, en, false);
	read_back(o, en, 0);
	store(o, en, 0, 0x100, false);
	read_back(o, en, 0x100);
	store(o, en, 0, 0x200, true);
	read_back(o, en, 0x200);
	take(o, en, true);
	read_back(o, en, 0);
	store(o, en, 0, 0x300 + e, false);
	read_back(o, en, 0x300 + e);
	/* pcpu[1]: an object replaced, then freed by user space. */
	store(o, en, 3, 0x400, false);
	store(o, en, 3, 0x500, true);
	t_kptr_elem(o, kernel, OBJ, "pcpu", 1, true);
	store(o, en, 3, 0x600, false);
	t_kptr_elem(o, kernel, OBJ, "pcpu", 1, false);
	t_kptr_elem(o, kernel, OBJ, "pcpu", 1, true);
	t_kptr_elem(o, kernel, OBJ, "pcpu", 0, false);
	t_kptr_elem(o, kernel, OBJ, "pcpu", 1, false);
	/* hpcpu's element 1: replaced, then deleted with its object; the
	 * last engine's left for the map's end. */
	store(o, en, 4, 0x700, false);
	store(o, en, 4, 0x800, true);
	t_kptr_delete(o, kernel, OBJ, "hpcpu", 1);
	t_kptr_delete(o, kernel, OBJ, "hpcpu", 1);
	store(o, en, 4, 0x900 + e, false);
	if (e < 2)
		t_kptr_delete(o, kernel, OBJ, "hpcpu", 1);
	/* The tc twin on the same maps: what the XDP program left in
	 * pcpu[0] read, replaced and read; one left for the next engine. */
	prog = "tc_percpu_obj";
	read_back(o, en, 0x300 + e);
	take(o, en, true);
	store(o, en, 0, 0x1000 + e, false);
	read_back(o, en, 0x1000 + e);
	store(o, en, 0, 0x1100 + e, true);
	read_back(o, en, 0x1100 + e);
	prog = "xdp_percpu_obj";
}

static const struct t_forged forged[] = {
	{ "pc_double_drop", HR_ABORT_HELPER_ARG },
	{ "pc_obj_drop", HR_ABORT_HELPER_ARG },
	{ "pc_this_owned", HR_ABORT_HELPER_ARG },
	{ "pc_this_stack", HR_ABORT_HELPER_ARG },
	{ "pc_per_forged", HR_ABORT_HELPER_ARG },
	{ "pc_deref", HR_ABORT_OOB_LOAD },
	{ "pc_past", HR_ABORT_OOB_LOAD },
	{ "pc_past_store", HR_ABORT_OOB_STORE },
	{ "pc_xchg_plain", HR_ABORT_HELPER_ARG },
	{ "pc_leak", HR_ABORT_OBJ_LEAK },
};

/* The structs the loader refuses to allocate, each in the verifier's
 * words. */
static void refused(void)
{
	static const char *const cases[][2] = {
		{ "pc_big", "bpf_percpu_obj_new type size (513) is greater "
			    "than 512" },
		{ "pc_ptr", "bpf_percpu_obj_new type ID argument must be of a "
			    "struct of scalars" },
		{ "pc_special", "bpf_percpu_obj_new type ID argument must not "
				"contain special fields" },
	};

	t_refused_loads("xdp_percpu_obj_refused.o", cases,
			sizeof(cases) / sizeof(cases[0]));
}

int main(void)
{
	uint8_t in[64] = { 0 };
	cpu_set_t set;
	int n = libbpf_num_possible_cpus();

	ncpus = n > 0 ? (unsigned int)n : 1;
	CPU_ZERO(&set);
	CPU_SET(0, &set);
	CHECK(sched_setaffinity(0, sizeof(set), &set) == 0, "run on CPU 0: %s",
	      strerror(errno));
	refused();
	in[14] = 16; /* sizeof(struct val): one byte past a copy's end */
	t_forged_runs("xdp_percpu_obj_forged.o", forged,
		      sizeof(forged) / sizeof(forged[0]), in);
	return oracle_main_engines3(cases);
}
