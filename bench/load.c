// SPDX-License-Identifier: MIT
/*
 * bench/load: what loading a program costs, pass by pass, in nanoseconds
 * per instruction, on the generated shapes of tests/lib/load_shapes.h (the
 * worst cases of the load-time analyses): ISA validation (isa.c), the
 * context check (ctx_check.c), the bounds analysis alone (bounds.c), the
 * interpreter's preparation (interp_prep.c, which runs the analysis
 * again) and the JIT (jit_x86.c, likewise). Each figure is the best of
 * RUNS loads. The kernel's verifier accepts at most 1,000,000
 * instructions (BPF_COMPLEXITY_LIMIT_INSNS), the default size here.
 *
 * --json: instead, a JSON object a shape with each pass's median,
 * minimum and maximum over the RUNS loads (for bench/report).
 *
 *   load [--insns N] [--runs N] [--json] [shape ...]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <json-c/json.h>

#include "vm/bounds.h"
#include "vm/ctx_check.h"
#include "vm/interp.h"
#include "vm/jit.h"
#include "progs/prog.h"
#include "../tests/lib/load_shapes.h"
#include "bench.h"

enum pass { P_VALIDATE, P_CTX, P_BOUNDS, P_INTERP, P_JIT, P__MAX };

#define MAX_RUNS 31

static const char *const pass_names[P__MAX] = {
	"validate", "ctx_check", "bounds", "interp_prep", "jit",
};

static bool json;

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* One line of --json: each pass's median, min and max, ns an insn. */
static void print_json(enum ls_shape shape, uint32_t cnt, int runs,
		       double ns[P__MAX][MAX_RUNS])
{
	struct json_object *o = json_object_new_object();
	struct json_object *passes = json_object_new_object(), *s;
	double *v, med;
	int p;

	json_object_object_add(o, "shape",
			       json_object_new_string(ls_name(shape)));
	json_object_object_add(o, "insns", json_object_new_int64(cnt));
	json_object_object_add(o, "runs", json_object_new_int(runs));
	json_object_object_add(o, "ns_per_insn", passes);
	for (p = 0; p < P__MAX; p++) {
		v = ns[p];
		qsort(v, (size_t)runs, sizeof(*v), cmp_d);
		med = runs % 2 ? v[runs / 2] :
				 (v[runs / 2 - 1] + v[runs / 2]) / 2;
		s = json_object_new_object();
		json_object_object_add(s, "median",
				       json_object_new_double(med / cnt));
		json_object_object_add(s, "min",
				       json_object_new_double(v[0] / cnt));
		json_object_object_add(
			s, "max", json_object_new_double(v[runs - 1] / cnt));
		json_object_object_add(passes, pass_names[p], s);
	}
	puts(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN));
	fflush(stdout);
	json_object_put(o);
}

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int bench_shape(enum ls_shape shape, uint32_t n, int runs)
{
	static double ns[P__MAX][MAX_RUNS];
	double best[P__MAX], t;
	struct hr_insn *insns;
	struct hr_prog *prog;
	uint32_t cnt, expect, bad;
	const char *why;
	char err[256];
	int r, p, ret;

	for (p = 0; p < P__MAX; p++)
		best[p] = 1e30;
	if (ls_build(shape, n, &insns, &cnt, &expect))
		return -1;
	prog = ls_prog(insns, cnt, &ret, err, sizeof(err));
	if (!prog) {
		fprintf(stderr, "%s: %s\n", ls_name(shape), err);
		return -1;
	}
	for (r = 0; r < runs; r++) {
		struct jb_facts f;
		struct hr_xcode *xc;

		t = now_ns();
		hr_prog_validate(prog->insns, prog->cnt, &bad, &why);
		t = now_ns() - t;
		best[P_VALIDATE] = t < best[P_VALIDATE] ? t : best[P_VALIDATE];
		ns[P_VALIDATE][r] = t;

		t = now_ns();
		hr_ctx_check(prog, prog->type, err, sizeof(err));
		t = now_ns() - t;
		best[P_CTX] = t < best[P_CTX] ? t : best[P_CTX];
		ns[P_CTX][r] = t;

		t = now_ns();
		jb_analyze(&prog->vm, jb_fp_fixed(&prog->vm), &f);
		t = now_ns() - t;
		jb_free(&f);
		best[P_BOUNDS] = t < best[P_BOUNDS] ? t : best[P_BOUNDS];
		ns[P_BOUNDS][r] = t;

		t = now_ns();
		xc = hr_xcode_build(&prog->vm, 0);
		t = now_ns() - t;
		hr_xcode_free(xc);
		best[P_INTERP] = t < best[P_INTERP] ? t : best[P_INTERP];
		ns[P_INTERP][r] = t;

		hr_jit_free(&prog->vm);
		prog->vm.jit_refused = false;
		t = now_ns();
		hr_jit_compile(&prog->vm);
		t = now_ns() - t;
		best[P_JIT] = t < best[P_JIT] ? t : best[P_JIT];
		ns[P_JIT][r] = t;
	}
	if (json) {
		print_json(shape, cnt, runs, ns);
	} else {
		printf("%-13s %8u", ls_name(shape), cnt);
		for (p = 0; p < P__MAX; p++)
			printf(" %11.1f", best[p] / cnt);
		printf("\n");
		fflush(stdout);
	}
	hr_prog_free(prog);
	return 0;
}

int main(int argc, char **argv)
{
	uint32_t n = 1000000;
	bool any = false, want[LS__MAX] = { 0 };
	int runs = 3, i, s, p;
	bench_begin();

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--insns") && i + 1 < argc) {
			n = (uint32_t)strtoul(argv[++i], NULL, 0);
		} else if (!strcmp(argv[i], "--runs") && i + 1 < argc) {
			runs = atoi(argv[++i]);
		} else if (!strcmp(argv[i], "--json")) {
			json = true;
		} else {
			for (s = 0; s < LS__MAX; s++)
				if (!strcmp(argv[i], ls_name(s)))
					break;
			if (s < LS__MAX) {
				want[s] = any = true;
			} else {
				fprintf(stderr,
					"usage: load [--insns N] [--runs N] "
					"[--json] [shape ...]\n");
				return 2;
			}
		}
	}
	if (runs < 1 || runs > MAX_RUNS) {
		fprintf(stderr, "load: --runs %d: 1 .. %d\n", runs, MAX_RUNS);
		return 2;
	}
	if (!json) {
		printf("ns per instruction, best of %d loads\n", runs);
		printf("%-13s %8s", "shape", "insns");
		for (p = 0; p < P__MAX; p++)
			printf(" %11s", pass_names[p]);
		printf("\n");
	}
	for (s = 0; s < LS__MAX; s++)
		if ((!any || want[s]) && bench_shape(s, n, runs))
			return 1;
	return 0;
}
