// SPDX-License-Identifier: MIT
/*
 * headroom feature: every helper and kfunc Linux 6.18 offers XDP and tc
 * programs, and whether headroom implements it or why it refuses it (the
 * table of src/helpers/offer_*.c), as text, JSON or the Markdown of
 * docs/helpers.md; with --kernel, the live kernel probed as bpftool's
 * "feature probe" does and every row that no longer holds named.
 */
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "check/probe.h"
#include "cli/cli.h"
#include "helpers/offer.h"
#include "progs/prog.h"

static const char usage[] =
	"usage: headroom feature [--type xdp|tc] [--json | --markdown]\n"
	"                        [--kernel]\n"
	"\n"
	"Lists every helper and kfunc Linux 6.18 offers XDP and tc programs\n"
	"(cpumap and devmap programs are XDP programs) and, for each, whether\n"
	"headroom implements it or why it refuses a program that calls it.\n"
	"\n"
	"  --type T     one program type only: xdp or tc\n"
	"  --json       one JSON object a helper or kfunc and type, a line each\n"
	"  --markdown   the table of docs/helpers.md\n"
	"  --kernel     probe the live kernel (root) as 'bpftool feature probe'\n"
	"               does and name each helper or kfunc whose offer differs\n"
	"               from headroom's table\n"
	"\n"
	"exit codes: 0 listed (and the kernel agrees), 2 bad arguments or not\n"
	"            privileged for --kernel, 4 the kernel differs\n";

struct feature_cfg {
	unsigned int types; /* HR_OFFER_* */
	bool json, markdown, kernel;
};

static const struct hr_prog_type *const prog_types[] = {
	&hr_prog_type_xdp,
	&hr_prog_type_tc,
};

#define NTYPES (sizeof(prog_types) / sizeof(prog_types[0]))

static const char *row_name(const struct hr_offer *o)
{
	const char *n = o->name ? o->name : hr_helper_name(o->id);

	return n ? n : "?";
}

static bool implemented(const struct hr_prog_type *t, const struct hr_offer *o)
{
	if (o->name)
		return t->kfunc && t->kfunc(o->name);
	return t->helper(o->id) != NULL;
}

static const char *kind(const struct hr_offer *o)
{
	return o->name ? "kfunc" : "helper";
}

static void print_json(const struct hr_prog_type *t, const struct hr_offer *o)
{
	struct json_object *j = json_object_new_object();
	bool impl = implemented(t, o);

	json_object_object_add(j, "type", json_object_new_string(t->name));
	json_object_object_add(j, "kind", json_object_new_string(kind(o)));
	json_object_object_add(j, "name", json_object_new_string(row_name(o)));
	if (!o->name)
		json_object_object_add(j, "id", json_object_new_int(o->id));
	json_object_object_add(j, "implemented", json_object_new_boolean(impl));
	json_object_object_add(j, "why",
			       impl ? NULL :
				      json_object_new_string(hr_offer_why(o)));
	puts(json_object_to_json_string_ext(j, JSON_C_TO_STRING_PLAIN));
	json_object_put(j);
}

static void print_text(const struct hr_prog_type *t, const struct hr_offer *o)
{
	char label[80];

	if (o->name)
		snprintf(label, sizeof(label), "kfunc %s", o->name);
	else
		snprintf(label, sizeof(label), "helper %s#%d", row_name(o),
			 o->id);
	if (implemented(t, o))
		printf("\t%-44s implemented\n", label);
	else
		printf("\t%-44s refused: %s\n", label, hr_offer_why(o));
}

/* How many of @n @rows the kernel offers @t, and of those headroom
 * implements. */
static void count_rows(const struct hr_prog_type *t,
		       const struct hr_offer *rows, size_t n,
		       unsigned int *offered, unsigned int *impl)
{
	unsigned int bit = hr_offer_type(t->kernel_type);
	size_t i;

	*offered = *impl = 0;
	for (i = 0; i < n; i++)
		if (rows[i].types & bit) {
			(*offered)++;
			*impl += implemented(t, &rows[i]);
		}
}

static void list_rows(const struct feature_cfg *cfg,
		      const struct hr_prog_type *t, const struct hr_offer *rows,
		      size_t n)
{
	unsigned int bit = hr_offer_type(t->kernel_type);
	size_t i;

	for (i = 0; i < n; i++) {
		if (!(rows[i].types & bit))
			continue;
		if (cfg->json)
			print_json(t, &rows[i]);
		else
			print_text(t, &rows[i]);
	}
}

static void list_type(const struct feature_cfg *cfg,
		      const struct hr_prog_type *t)
{
	unsigned int nh, nk, ih, ik;

	count_rows(t, hr_helper_offer, hr_helper_offer_cnt, &nh, &ih);
	count_rows(t, hr_kfunc_offer, hr_kfunc_offer_cnt, &nk, &ik);
	if (!cfg->json)
		printf("%s programs: Linux 6.18 offers %u helpers and %u "
		       "kfuncs; headroom implements %u and %u\n",
		       t->name, nh, nk, ih, ik);
	list_rows(cfg, t, hr_helper_offer, hr_helper_offer_cnt);
	list_rows(cfg, t, hr_kfunc_offer, hr_kfunc_offer_cnt);
}

/* One cell of the Markdown table: what a program of @t gets. */
static const char *cell(const struct hr_prog_type *t, const struct hr_offer *o)
{
	if (!(o->types & hr_offer_type(t->kernel_type)))
		return "-";
	return implemented(t, o) ? "yes" : "**no**";
}

static void markdown_rows(const struct hr_offer *rows, size_t n)
{
	size_t i;

	printf("| %s | xdp | tc | why headroom refuses it |\n",
	       rows[0].name ? "kfunc" : "helper (id)");
	printf("|---|---|---|---|\n");
	for (i = 0; i < n; i++) {
		const struct hr_offer *o = &rows[i];
		bool all = true;
		size_t t;

		for (t = 0; t < NTYPES; t++)
			if ((o->types &
			     hr_offer_type(prog_types[t]->kernel_type)) &&
			    !implemented(prog_types[t], o))
				all = false;
		if (o->name)
			printf("| `%s` ", o->name);
		else
			printf("| `%s` (%d) ", row_name(o), o->id);
		printf("| %s | %s | %s |\n", cell(prog_types[0], o),
		       cell(prog_types[1], o), all ? "" : hr_offer_why(o));
	}
}

static void print_markdown(void)
{
	size_t t;

	printf("# Helpers and kfuncs\n\n"
	       "Generated by `headroom feature --markdown` from "
	       "`src/helpers/offer_helpers.c` and `src/helpers/offer_kfuncs.c`"
	       "; do not edit (`make docs` rewrites it, and "
	       "`tests/cli/test_feature_cli.sh` fails when it is stale).\n\n"
	       "Every helper and kfunc Linux 6.18 offers XDP programs "
	       "(`xdp_func_proto`; cpumap and devmap programs are XDP programs) "
	       "and tc programs (`tc_cls_act_func_proto`), both with "
	       "`bpf_base_func_proto`, as a privileged loader sees them on the "
	       "project's machine. `yes`: headroom implements it for that "
	       "type; `**no**`: headroom refuses a program that calls it, at "
	       "load, with the reason given; `-`: the kernel does not offer it "
	       "to that type. `headroom feature --kernel` checks the table "
	       "against the live kernel.\n\n");
	for (t = 0; t < NTYPES; t++) {
		unsigned int nh, nk, ih, ik;

		count_rows(prog_types[t], hr_helper_offer, hr_helper_offer_cnt,
			   &nh, &ih);
		count_rows(prog_types[t], hr_kfunc_offer, hr_kfunc_offer_cnt,
			   &nk, &ik);
		printf("- %s: %u of %u implemented\n", prog_types[t]->name,
		       ih + ik, nh + nk);
	}
	printf("\n## Helpers\n\n");
	markdown_rows(hr_helper_offer, hr_helper_offer_cnt);
	printf("\n## Kfuncs\n\n");
	markdown_rows(hr_kfunc_offer, hr_kfunc_offer_cnt);
}

/* Helper IDs probed: past 6.18's last (211), so that a newer kernel's
 * additions show up too. */
#define PROBE_HELPER_END 256

struct kernel_diff {
	const struct hr_prog_type *t;
	unsigned int bit;
	unsigned int differ, probed;
	bool *seen; /* per row of hr_kfunc_offer: met in the kernel's BTF */
	int err;
};

static void differs(struct kernel_diff *d, const char *what, bool kernel)
{
	d->differ++;
	printf("%s: %s: the live kernel %s it; the table says it %s\n",
	       d->t->name, what, kernel ? "offers" : "refuses",
	       kernel ? "is not offered" : "is offered");
}

static int kfunc_probe(const char *name, int btf_id, void *ctx)
{
	struct kernel_diff *d = ctx;
	const struct hr_offer *o = hr_offer_kfunc(name);
	bool table = o && (o->types & d->bit);
	char what[160];
	int r = hr_probe_kfunc(d->t->kernel_type, btf_id);

	if (r < 0)
		return d->err = r;
	if (o)
		d->seen[o - hr_kfunc_offer] = true;
	d->probed++;
	if (!!r != table) {
		snprintf(what, sizeof(what), "kfunc %s", name);
		differs(d, what, r);
	}
	return 0;
}

static int kernel_type_diff(struct kernel_diff *d)
{
	char what[160];
	size_t i;
	int id, r;

	for (id = 1; id < PROBE_HELPER_END; id++) {
		const struct hr_offer *o = hr_offer_helper(id);
		bool table = o && (o->types & d->bit);

		r = hr_probe_helper(d->t->kernel_type, id);
		if (r < 0)
			return r;
		d->probed++;
		if (!!r != table) {
			const char *n = hr_helper_name(id);

			snprintf(what, sizeof(what), "helper %s#%d",
				 n ? n : "unknown", id);
			differs(d, what, r);
		}
	}
	r = hr_probe_each_kfunc(kfunc_probe, d);
	if (r)
		return d->err ? d->err : r;
	/* A kfunc of the table the kernel's BTF no longer has is one the
	 * probe above never met. */
	for (i = 0; i < hr_kfunc_offer_cnt; i++) {
		const struct hr_offer *o = &hr_kfunc_offer[i];

		if ((o->types & d->bit) && !d->seen[i]) {
			snprintf(what, sizeof(what), "kfunc %s", o->name);
			differs(d, what, false);
		}
	}
	return 0;
}

/* 0 when the live kernel agrees with the table for every type asked,
 * HR_EXIT_DIFFER when not, HR_EXIT_USAGE when it could not be asked. */
static int kernel_diff(const struct feature_cfg *cfg)
{
	unsigned int differ = 0;
	size_t t;
	int ret = 0;

	for (t = 0; t < NTYPES && !ret; t++) {
		struct kernel_diff d = {
			.t = prog_types[t],
			.bit = hr_offer_type(prog_types[t]->kernel_type),
		};

		if (!(cfg->types & d.bit))
			continue;
		d.seen = calloc(hr_kfunc_offer_cnt, sizeof(*d.seen));
		if (!d.seen)
			return HR_EXIT_USAGE;
		ret = kernel_type_diff(&d);
		free(d.seen);
		differ += d.differ;
		if (!ret)
			printf("%s: live kernel probed for %u helpers and kfuncs: "
			       "%u differ from the table\n",
			       d.t->name, d.probed, d.differ);
	}
	if (ret) {
		fprintf(stderr, "headroom feature: --kernel: %s%s\n",
			strerror(-ret),
			ret == -EPERM ? " (root is needed to load programs "
					"into the kernel)" :
					"");
		return HR_EXIT_USAGE;
	}
	return differ ? HR_EXIT_DIFFER : HR_EXIT_OK;
}

static int parse_type(const char *s, unsigned int *types)
{
	if (!strcmp(s, "xdp"))
		*types = HR_OFFER_XDP;
	else if (!strcmp(s, "tc"))
		*types = HR_OFFER_TC;
	else
		return -EINVAL;
	return 0;
}

int hr_cmd_feature(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "type", required_argument, NULL, 't' },
		{ "json", no_argument, NULL, 'j' },
		{ "markdown", no_argument, NULL, 'm' },
		{ "kernel", no_argument, NULL, 'k' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	struct feature_cfg cfg = { .types = HR_OFFER_XDP | HR_OFFER_TC };
	size_t t;
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 't':
			if (parse_type(optarg, &cfg.types)) {
				fprintf(stderr,
					"headroom feature: --type '%s': "
					"expected xdp or tc\n",
					optarg);
				return HR_EXIT_USAGE;
			}
			break;
		case 'j':
			cfg.json = true;
			break;
		case 'm':
			cfg.markdown = true;
			break;
		case 'k':
			cfg.kernel = true;
			break;
		case 'h':
			fputs(usage, stdout);
			return HR_EXIT_OK;
		default:
			fputs(usage, stderr);
			return HR_EXIT_USAGE;
		}
	}
	if (optind != argc) {
		fprintf(stderr, "headroom feature: unexpected argument '%s'\n",
			argv[optind]);
		return HR_EXIT_USAGE;
	}
	if (cfg.json && cfg.markdown) {
		fprintf(stderr,
			"headroom feature: --json and --markdown exclude each other\n");
		return HR_EXIT_USAGE;
	}
	if (cfg.kernel) {
		if (geteuid() != 0) {
			fprintf(stderr, "headroom feature: --kernel: not "
					"privileged (root is needed to load "
					"programs into the kernel)\n");
			return HR_EXIT_USAGE;
		}
		return kernel_diff(&cfg);
	}
	if (cfg.markdown) {
		print_markdown();
		return HR_EXIT_OK;
	}
	for (t = 0; t < NTYPES; t++)
		if (cfg.types & hr_offer_type(prog_types[t]->kernel_type))
			list_type(&cfg, prog_types[t]);
	return HR_EXIT_OK;
}
