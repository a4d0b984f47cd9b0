// SPDX-License-Identifier: MIT
/*
 * headroom check OBJ[:PROG]: the live kernel verifier's verdict on each
 * program, predicted without the kernel (src/check/predict.c), printed as
 * the kernel's log would say it; with --kernel, the kernel's own beside it
 * (loaded as libbpf's bpf_object__load does). Exit codes: 0 every program
 * predicted accepted, 5 a rejection predicted, 6 some program cannot be
 * told (and none rejected), 1 the object does not load, 2 bad arguments.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/libbpf.h>
#include <json-c/json.h>

#include "check/check.h"
#include "cli/cli.h"
#include "loader/line_info.h"
#include "progs/prog.h"

#define EXIT_REJECT 5
#define EXIT_UNKNOWN 6

static const char usage[] =
	"usage: headroom check [OPTIONS] OBJ[:PROG]\n"
	"  Predicts, without the kernel, whether the 6.18 verifier accepts\n"
	"  each program of OBJ (or PROG only), and for a rejection prints\n"
	"  what its log would say: the reason, the instruction and the\n"
	"  source file:line.\n"
	"  --json        one JSON object a program\n"
	"  --kernel      also load each program into the live kernel (root)\n"
	"                and print its verdict and first error line beside\n"
	"  --dev-bound   the programs are loaded device-bound (XDP hint\n"
	"                kfuncs allowed); --kernel then binds them to a veth\n"
	"  --type TYPE   program type for sections headroom does not know\n"
	"  -h, --help    this text\n"
	"  exit: 0 all accepted, 5 a rejection predicted, 6 cannot tell for\n"
	"  some program, 1 the object does not load, 2 bad arguments\n";

struct check_opts {
	bool json, kernel, dev_bound;
	const char *type;
};

static int src_text(const char *path, const char *func,
		    const struct hr_prog *prog, int insn, char *buf, size_t n)
{
	struct hr_line_table t;
	const struct hr_line *l;

	buf[0] = 0;
	if (insn < 0 || (prog ? hr_line_table_load_prog(path, prog, &t) :
				hr_line_table_load(path, func, &t)))
		return -ENOENT;
	l = hr_line_find(&t, (uint32_t)insn);
	if (l && l->src)
		snprintf(buf, n, "%s", l->src);
	hr_line_table_free(&t);
	return 0;
}

static void add_result(json_object *o, const char *prefix,
		       const struct hr_check_result *r)
{
	char k[32];

	snprintf(k, sizeof(k), "%sverdict", prefix);
	json_object_object_add(
		o, k, json_object_new_string(hr_check_verdict_str(r->verdict)));
	snprintf(k, sizeof(k), "%sreason", prefix);
	json_object_object_add(o, k, json_object_new_string(r->reason));
	snprintf(k, sizeof(k), "%sinsn", prefix);
	json_object_object_add(
		o, k, r->insn >= 0 ? json_object_new_int(r->insn) : NULL);
	snprintf(k, sizeof(k), "%sfile", prefix);
	json_object_object_add(
		o, k, r->file[0] ? json_object_new_string(r->file) : NULL);
	snprintf(k, sizeof(k), "%sline", prefix);
	json_object_object_add(
		o, k, r->line ? json_object_new_int((int)r->line) : NULL);
}

/* The section a loader refusal names ("section 'xdp' insn 4: ..."). */
static const char *err_section(const char *err, char *buf, size_t n)
{
	const char *p = strstr(err, "section '");
	const char *q = p ? strchr(p + 9, '\'') : NULL;

	if (!q || (size_t)(q - p - 9) >= n)
		return "";
	snprintf(buf, n, "%.*s", (int)(q - p - 9), p + 9);
	return buf;
}

static void print_text(const char *label, const struct hr_check_result *r,
		       const char *src)
{
	printf("%s%s", label, hr_check_verdict_str(r->verdict));
	if (r->verdict != HR_CHECK_ACCEPT) {
		if (r->insn >= 0)
			printf(" at insn %d", r->insn);
		if (r->line)
			printf(" (%s:%u)", r->file, r->line);
		printf(": %s", r->reason);
	}
	printf("\n");
	if (src && src[0] && r->verdict != HR_CHECK_ACCEPT)
		printf("    ; %s\n", src);
}

/* One program: prediction, and the kernel's verdict when asked. */
/* Why the kernel gave no verdict: libbpf's own words when it said any
 * (they begin "libbpf: "), else the error. */
static const char *kernel_error(int kerr)
{
	const char *lb = hr_check_kernel_libbpf_error();

	return lb[0] ? lb : strerror(-kerr);
}

static int check_one(const char *path, const char *name,
		     const struct check_opts *co, int *worst)
{
	struct hr_object_open_opts oo = { .sz = sizeof(oo) };
	struct hr_check_result pr, kr;
	struct hr_object *obj = NULL;
	char err[512] = "", src[256];
	struct hr_prog *prog;
	const char *sec = "";
	char secbuf[64];
	int ret, kerr = -ENOENT;
	bool dev_bound = co->dev_bound;

	oo.errbuf = err;
	oo.errbuf_sz = sizeof(err);
	oo.only_prog = name;
	oo.force_type = co->type;
	ret = hr_object_open(path, &oo, &obj);
	memset(&pr, 0, sizeof(pr));
	pr.insn = -1;
	prog = ret ? NULL : hr_object_find_prog(obj, name);
	if (!prog) {
		/* headroom's own loader refused it: where its rule is the
		 * kernel's, that is the kernel's verdict too. */
		if (!err[0])
			snprintf(err, sizeof(err), "%s",
				 strerror(ret ? -ret : ENOENT));
		hr_check_from_load_error(err,
					 !strstr(err, "section 'tc") &&
						 !strstr(err,
							 "section 'classifier"),
					 &pr);
		if (pr.verdict == HR_CHECK_REJECT)
			hr_check_set_line(path, name, &pr);
		sec = err_section(err, secbuf, sizeof(secbuf));
	} else {
		sec = hr_prog_section(prog);
		ret = hr_check_predict_at(path, prog, dev_bound, &pr);
		if (ret) {
			fprintf(stderr, "headroom: %s: %s: %s\n", path, name,
				strerror(-ret));
			hr_object_close(obj);
			return HR_EXIT_LOAD;
		}
	}
	if (co->kernel)
		kerr = hr_check_kernel(path, name, dev_bound, &kr, NULL);
	if (co->json) {
		json_object *o = json_object_new_object();

		json_object_object_add(o, "program",
				       json_object_new_string(name));
		json_object_object_add(o, "section",
				       json_object_new_string(sec));
		add_result(o, "", &pr);
		if (co->kernel && !kerr)
			add_result(o, "kernel_", &kr);
		else if (co->kernel)
			json_object_object_add(
				o, "kernel_error",
				json_object_new_string(kernel_error(kerr)));
		printf("%s\n", json_object_to_json_string_ext(
				       o, JSON_C_TO_STRING_PLAIN));
		json_object_put(o);
	} else {
		char label[300];

		snprintf(label, sizeof(label), "%s (%s): ", name, sec);
		src_text(path, name, prog, pr.insn, src, sizeof(src));
		print_text(label, &pr, src);
		if (co->kernel && !kerr) {
			src_text(path, name, prog, kr.insn, src, sizeof(src));
			print_text("  kernel: ", &kr, NULL);
		} else if (co->kernel) {
			printf("  kernel: no verdict: %s\n",
			       kernel_error(kerr));
		}
	}
	if (pr.verdict == HR_CHECK_REJECT)
		*worst = EXIT_REJECT;
	else if (pr.verdict == HR_CHECK_UNKNOWN && *worst != EXIT_REJECT)
		*worst = EXIT_UNKNOWN;
	hr_object_close(obj);
	return 0;
}

/* Whether program @name in section @sec is the one @sel asks for. */
static bool selected(const char *sel, const char *name, const char *sec)
{
	return !sel || !strcmp(sel, name) || !strcmp(sel, sec);
}

/* Each program of @path as headroom's loader lists them. */
static int check_own_list(const char *path, const char *sel,
			  const struct check_opts *co, int *n, int *worst)
{
	char err[512] = "";
	HR_OPTS(hr_object_open_opts, oo, .errbuf = err,
		.errbuf_sz = sizeof(err), .force_type = co->type);
	struct hr_object *obj = NULL;
	unsigned int i;
	int ret = 0;

	if (hr_object_open(path, &oo, &obj)) {
		fprintf(stderr, "headroom check: %s: not a BPF object: %s\n",
			path, err[0] ? err : "it does not open");
		return HR_EXIT_LOAD;
	}
	for (i = 0; i < hr_object_prog_count(obj) && !ret; i++) {
		const struct hr_prog *p = hr_object_prog(obj, i);

		if (!selected(sel, hr_prog_name(p), hr_prog_section(p)))
			continue;
		(*n)++;
		ret = check_one(path, hr_prog_name(p), co, worst);
	}
	hr_object_close(obj);
	return ret;
}

static int quiet(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	return 0;
}

int hr_cmd_check(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "kernel", no_argument, NULL, 'k' },
		{ "dev-bound", no_argument, NULL, 'd' },
		{ "type", required_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	struct check_opts co = { 0 };
	struct bpf_object *bo;
	struct bpf_program *p;
	char *path, *sel = NULL, *colon;
	int c, worst = HR_EXIT_OK, ret = 0, n = 0;

	optind = 1;
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 'j':
			co.json = true;
			break;
		case 'k':
			co.kernel = true;
			break;
		case 'd':
			co.dev_bound = true;
			break;
		case 't':
			co.type = optarg;
			break;
		case 'h':
			fputs(usage, stdout);
			return HR_EXIT_OK;
		default:
			fputs(usage, stderr);
			return HR_EXIT_USAGE;
		}
	}
	if (optind != argc - 1) {
		fprintf(stderr, "headroom check: %s\n",
			optind >= argc ? "an object file is needed" :
					 "one object file only");
		return HR_EXIT_USAGE;
	}
	if (co.kernel && geteuid() != 0) {
		fprintf(stderr, "headroom check: --kernel: not privileged "
				"(root is needed to load into the kernel); "
				"predictions only\n");
		co.kernel = false;
	}
	path = strdup(argv[optind]);
	if (!path)
		return HR_EXIT_LOAD;
	colon = strrchr(path, ':');
	if (colon && colon[1] && !strchr(colon, '/') &&
	    access(path, F_OK) != 0) {
		*colon = 0;
		sel = colon + 1;
	}
	if (access(path, R_OK) != 0) {
		fprintf(stderr, "headroom check: %s: %s\n", path,
			strerror(errno));
		free(path);
		return HR_EXIT_LOAD;
	}
	/* The program list as libbpf sees it (no privilege needed to open),
	 * else as headroom's loader does: a libbpf older than the object
	 * (an extern it cannot resolve, say) need not stop the check. */
	libbpf_set_print(quiet);
	bo = bpf_object__open_file(path, NULL);
	if (bo) {
		bpf_object__for_each_program(p, bo)
		{
			if (!selected(sel, bpf_program__name(p),
				      bpf_program__section_name(p)))
				continue;
			n++;
			ret = check_one(path, bpf_program__name(p), &co,
					&worst);
			if (ret)
				break;
		}
		bpf_object__close(bo);
	} else {
		ret = check_own_list(path, sel, &co, &n, &worst);
	}
	if (!ret && !n) {
		fprintf(stderr, "headroom check: %s: no program '%s'\n", path,
			sel ? sel : "(any)");
		ret = HR_EXIT_LOAD;
	}
	free(path);
	return ret ? ret : worst;
}
