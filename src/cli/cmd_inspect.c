// SPDX-License-Identifier: MIT
/*
 * headroom inspect: what an object holds and what headroom makes of it:
 * programs (and why one cannot run), maps, globals, helpers and kfuncs,
 * CO-RE relocations; as text or one JSON object.
 */
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "loader/inspect.h"
#include "loader/conventions.h"
#include "progs/prog.h"
#include "maps/map.h"

static const char inspect_usage[] =
	"usage: headroom inspect PROG.o [--json] [--btf FILE] [--type xdp|tc]\n"
	"                        [--map-size NAME=N ...] [--pin-dir DIR]\n"
	"                        [--set NAME=VALUE ...]\n"
	"\n"
	"Lists the object's programs (section, type, instructions, whether\n"
	"headroom can run each and if not why), maps (type, key and value\n"
	"sizes, max_entries, flags, pinning), global variables, the helpers\n"
	"and kfuncs it calls and its CO-RE relocations (resolved against the\n"
	"target BTF, or poisoned). The options are those of 'headroom test'.\n"
	"\n"
	"  --json          one JSON object\n"
	"\n"
	"exit codes: 0 listed, 1 the object did not open, 2 bad arguments\n";

struct inspect_cfg {
	const char *path;
	bool json;
	struct hr_cli_load load;
};

/* Our strings need escaping only for quotes and backslashes. */
static void jstr(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			putchar('\\');
		if ((unsigned char)*s >= 0x20)
			putchar(*s);
	}
	putchar('"');
}

static const char *map_type(const struct hr_map *m)
{
	const char *n = hr_map_type_name(m->attr.type);

	if (n && !strncmp(n, "BPF_MAP_TYPE_", 13))
		return n + 13;
	return n ? n : "unknown";
}

static void json_progs(const struct hr_inspect *in)
{
	size_t i;

	printf("\"programs\":[");
	for (i = 0; i < in->nprogs; i++) {
		const struct hr_inspect_prog *p = &in->progs[i];

		printf("%s{\"name\":", i ? "," : "");
		jstr(p->name);
		printf(",\"section\":");
		jstr(p->sec);
		printf(",\"type\":");
		jstr(p->type);
		printf(",\"insns\":%u,\"runnable\":%s,\"why\":", p->insns,
		       p->runnable ? "true" : "false");
		if (p->runnable)
			printf("null");
		else
			jstr(p->why);
		printf("}");
	}
	printf("]");
}

static void json_maps(const struct hr_object *obj)
{
	unsigned int i;

	printf(",\"maps\":[");
	for (i = 0; i < hr_object_map_count(obj); i++) {
		const struct hr_map *m = hr_object_map(obj, i);
		const char *pin = hr_pin_path_of(m);

		printf("%s{\"name\":", i ? "," : "");
		jstr(m->name);
		printf(",\"type\":");
		jstr(map_type(m));
		printf(",\"key_size\":%u,\"value_size\":%u,\"max_entries\":%u,"
		       "\"flags\":%u,\"pinned\":",
		       m->attr.key_size, m->attr.value_size,
		       m->attr.max_entries, m->attr.map_flags);
		if (pin)
			jstr(pin);
		else
			printf("null");
		printf("}");
	}
	printf("]");
}

static void json_rest(const struct hr_inspect *in)
{
	size_t i;

	printf(",\"globals\":[");
	for (i = 0; i < in->nvars; i++) {
		printf("%s{\"section\":", i ? "," : "");
		jstr(in->vars[i].sec);
		printf(",\"name\":");
		jstr(in->vars[i].name);
		printf(",\"offset\":%u,\"size\":%u}", in->vars[i].off,
		       in->vars[i].size);
	}
	printf("],\"helpers\":[");
	for (i = 0; i < in->nhelpers; i++) {
		const char *n = hr_helper_name(in->helpers[i]);

		printf("%s{\"id\":%d,\"name\":", i ? "," : "", in->helpers[i]);
		if (n)
			jstr(n);
		else
			printf("null");
		printf("}");
	}
	printf("],\"kfuncs\":[");
	for (i = 0; i < in->nkfuncs; i++) {
		printf("%s", i ? "," : "");
		jstr(in->kfuncs[i]);
	}
	printf("],\"core_relocations\":[");
	for (i = 0; i < in->ncore; i++) {
		const struct hr_inspect_core *c = &in->core[i];

		printf("%s{\"section\":", i ? "," : "");
		jstr(c->sec);
		printf(",\"insn\":%u,\"kind\":", c->insn);
		jstr(c->kind);
		printf(",\"access\":");
		jstr(c->desc);
		printf(",\"resolved\":%s,\"value\":%llu}",
		       c->resolved ? "true" : "false",
		       (unsigned long long)c->value);
	}
	printf("]");
}

static void print_json(const char *path, const struct hr_object *obj,
		       const struct hr_inspect *in)
{
	printf("{\"object\":");
	jstr(path);
	printf(",");
	json_progs(in);
	json_maps(obj);
	json_rest(in);
	printf("}\n");
}

static void text_progs(const struct hr_inspect *in)
{
	size_t i;

	printf("programs:\n");
	for (i = 0; i < in->nprogs; i++) {
		const struct hr_inspect_prog *p = &in->progs[i];

		printf("  %-24s section %-20s type %-10s %5u insns  %s%s\n",
		       p->name, p->sec, p->type, p->insns,
		       p->runnable ? "runs" : "cannot run: ",
		       p->runnable ? "" : p->why);
	}
}

static void text_maps(const struct hr_object *obj)
{
	unsigned int i;

	printf("maps:\n");
	for (i = 0; i < hr_object_map_count(obj); i++) {
		const struct hr_map *m = hr_object_map(obj, i);
		const char *pin = hr_pin_path_of(m);

		printf("  %-24s %-16s key %u value %u max_entries %u flags "
		       "0x%x%s%s\n",
		       m->name, map_type(m), m->attr.key_size,
		       m->attr.value_size, m->attr.max_entries,
		       m->attr.map_flags, pin ? " pinned " : "",
		       pin ? pin : "");
	}
}

static void text_rest(const struct hr_inspect *in)
{
	size_t i;

	printf("globals:\n");
	for (i = 0; i < in->nvars; i++)
		printf("  %-10s %-24s offset %u size %u\n", in->vars[i].sec,
		       in->vars[i].name, in->vars[i].off, in->vars[i].size);
	printf("helpers:\n");
	for (i = 0; i < in->nhelpers; i++) {
		const char *n = hr_helper_name(in->helpers[i]);

		printf("  %-4d %s\n", in->helpers[i], n ? n : "(unknown)");
	}
	printf("kfuncs:\n");
	for (i = 0; i < in->nkfuncs; i++)
		printf("  %s\n", in->kfuncs[i]);
	printf("CO-RE relocations:\n");
	for (i = 0; i < in->ncore; i++) {
		const struct hr_inspect_core *c = &in->core[i];

		printf("  %s insn %u: %s -> ", c->sec, c->insn, c->desc);
		if (c->resolved)
			printf("%llu\n", (unsigned long long)c->value);
		else
			printf("unresolved (poisoned)\n");
	}
}

static int parse_args(int argc, char **argv, struct inspect_cfg *cfg)
{
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, 'j' },
		HR_CLI_LOAD_LONGOPTS,
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c, ret;

	if (hr_cli_load_init(&cfg->load, argc))
		return -ENOMEM;
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 'j':
			cfg->json = true;
			break;
		case 'h':
			fputs(inspect_usage, stdout);
			exit(HR_EXIT_OK);
		default:
			ret = hr_cli_load_opt(&cfg->load, c, optarg);
			if (ret > 0)
				break;
			if (!ret)
				fputs(inspect_usage, stderr);
			return -EINVAL;
		}
	}
	if (optind != argc - 1) {
		fprintf(stderr, "headroom inspect: want exactly one PROG.o\n");
		return -EINVAL;
	}
	cfg->path = argv[optind];
	return 0;
}

int hr_cmd_inspect(int argc, char **argv)
{
	struct inspect_cfg cfg = { 0 };
	struct hr_inspect *in = NULL;
	struct hr_object *obj = NULL;
	char err[512] = "";
	int rc = HR_EXIT_OK, ret;

	if (parse_args(argc, argv, &cfg)) {
		rc = HR_EXIT_USAGE;
		goto out;
	}
	HR_OPTS(hr_object_open_opts, opts, .errbuf = err,
		.errbuf_sz = sizeof(err));
	hr_cli_load_apply(&cfg.load, &opts);
	ret = hr_object_open_inspect(cfg.path, &opts, &obj, &in);
	if (ret) {
		fprintf(stderr, "headroom: %s\n",
			err[0] ? err : strerror(-ret));
		rc = HR_EXIT_LOAD;
		goto out;
	}
	if (cfg.json) {
		print_json(cfg.path, obj, in);
	} else {
		printf("object %s\n", cfg.path);
		text_progs(in);
		text_maps(obj);
		text_rest(in);
	}
out:
	hr_inspect_free(in);
	hr_object_close(obj);
	hr_cli_load_free(&cfg.load);
	return rc;
}
