// SPDX-License-Identifier: MIT
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"

static int hex_digit(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = tolower(c);
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

int hr_hex_parse(const char *text, uint8_t **out, size_t *len)
{
	size_t n = 0, cap = strlen(text) / 2 + 1;
	uint8_t *buf = malloc(cap);
	int hi = -1, d;

	if (!buf)
		return -ENOMEM;
	for (; *text; text++) {
		if (isspace((unsigned char)*text) || *text == ':' ||
		    *text == '-') {
			if (hi >= 0)
				goto bad; /* half a byte */
			continue;
		}
		d = hex_digit((unsigned char)*text);
		if (d < 0)
			goto bad;
		if (hi < 0) {
			hi = d;
		} else {
			buf[n++] = (uint8_t)(hi << 4 | d);
			hi = -1;
		}
	}
	if (hi >= 0)
		goto bad;
	*out = buf;
	*len = n;
	return 0;
bad:
	free(buf);
	return -EINVAL;
}

void hr_hex_print(FILE *f, const void *buf, size_t len)
{
	const uint8_t *p = buf;
	size_t i;

	for (i = 0; i < len; i++)
		fprintf(f, "%02x", p[i]);
}

char *hr_hex_str(const void *buf, size_t len)
{
	static const char digits[] = "0123456789abcdef";
	const uint8_t *p = buf;
	char *s = malloc(2 * len + 1);
	size_t i;

	if (!s)
		return NULL;
	for (i = 0; i < len; i++) {
		s[2 * i] = digits[p[i] >> 4];
		s[2 * i + 1] = digits[p[i] & 15];
	}
	s[2 * len] = '\0';
	return s;
}

struct hr_prog *hr_cli_open_prog(const char *spec, const char *force_type,
				 struct hr_object **obj)
{
	HR_OPTS(hr_object_open_opts, opts, .force_type = force_type);

	return hr_cli_open_prog_opts(spec, &opts, obj);
}

struct hr_prog *hr_cli_open_prog_opts(const char *spec,
				      struct hr_object_open_opts *opts,
				      struct hr_object **obj)
{
	char *path = strdup(spec), *sel = NULL, *colon;
	char err[512] = "";
	struct hr_prog *prog = NULL;
	int ret;

	if (!path)
		return NULL;
	/* PROG.o:SEL; a ':' inside a directory name is kept when the whole
	 * spec names a file. */
	colon = strrchr(path, ':');
	if (colon && colon[1] && !strchr(colon, '/')) {
		FILE *f = fopen(path, "rb");

		if (f) {
			fclose(f);
		} else {
			*colon = '\0';
			sel = colon + 1;
		}
	}
	opts->errbuf = err;
	opts->errbuf_sz = sizeof(err);
	/* With PROG.o:SEL only that program has to load. */
	opts->only_prog = sel;
	ret = hr_object_open(path, opts, obj);
	opts->errbuf = NULL;
	opts->errbuf_sz = 0;
	if (ret) {
		fprintf(stderr, "headroom: %s\n",
			err[0] ? err : strerror(-ret));
		goto out;
	}
	prog = hr_object_find_prog(*obj, sel);
	if (!prog) {
		fprintf(stderr, "headroom: %s: no program '%s'\n", path,
			sel ? sel : "(any)");
		hr_object_close(*obj);
		*obj = NULL;
	}
out:
	free(path);
	return prog;
}

int hr_cli_engine(const char *name, enum hr_engine *engine)
{
	if (!strcmp(name, "interp"))
		*engine = HR_ENGINE_INTERP;
	else if (!strcmp(name, "jit"))
		*engine = HR_ENGINE_JIT;
	else if (!strcmp(name, "jit-checked"))
		*engine = HR_ENGINE_JIT_CHECKED;
	else
		return -EINVAL;
	return 0;
}

int hr_cli_load_init(struct hr_cli_load *l, int argc)
{
	memset(l, 0, sizeof(*l));
	l->sizes = calloc((size_t)argc + 1, sizeof(*l->sizes));
	l->sets = calloc((size_t)argc + 1, sizeof(*l->sets));
	return l->sizes && l->sets ? 0 : -ENOMEM;
}

int hr_cli_load_opt(struct hr_cli_load *l, int c, const char *arg)
{
	switch (c) {
	case 'B':
		l->btf = arg;
		return 1;
	case 't':
		if (strcmp(arg, "xdp") && strcmp(arg, "tc")) {
			fprintf(stderr, "headroom: --type: want xdp or tc\n");
			return -EINVAL;
		}
		l->type = arg;
		return 1;
	case 'S':
		l->sizes[l->nsizes++] = arg;
		return 1;
	case 'P':
		l->pin_dir = arg;
		return 1;
	case 'V':
		l->sets[l->nsets++] = arg;
		return 1;
	}
	return 0;
}

void hr_cli_load_apply(const struct hr_cli_load *l,
		       struct hr_object_open_opts *o)
{
	o->force_type = l->type;
	o->btf_path = l->btf;
	o->pin_dir = l->pin_dir;
	o->map_sizes = l->sizes;
	o->map_sizes_cnt = (size_t)l->nsizes;
	o->globals = l->sets;
	o->globals_cnt = (size_t)l->nsets;
}

void hr_cli_load_free(struct hr_cli_load *l)
{
	free(l->sizes);
	free(l->sets);
}
