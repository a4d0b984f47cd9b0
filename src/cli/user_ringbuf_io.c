// SPDX-License-Identifier: MIT
/*
 * headroom test --user-ringbuf NAME=@FILE | NAME=HEX: samples for a
 * BPF_MAP_TYPE_USER_RINGBUF, read from hex lines and submitted through
 * headroom/user_ringbuf.h before the first run, as a libbpf program
 * submits with user_ring_buffer__reserve() and __submit() before it
 * triggers the program that drains them.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"

static int add_sample(struct hr_cli_samples *s, uint8_t *data, size_t len)
{
	uint8_t **d = realloc(s->data, (s->n + 1) * sizeof(*d));
	size_t *l;

	if (!d)
		return -ENOMEM;
	s->data = d;
	l = realloc(s->len, (s->n + 1) * sizeof(*l));
	if (!l)
		return -ENOMEM;
	s->len = l;
	s->data[s->n] = data;
	s->len[s->n++] = len;
	return 0;
}

/* One line of @path: skipped, or one more sample. */
static int parse_line(struct hr_cli_samples *s, const char *path,
		      unsigned int lineno, char *line)
{
	uint8_t *data;
	size_t len;

	line[strcspn(line, "\r\n")] = '\0';
	line += strspn(line, " \t");
	if (!*line || *line == '#')
		return 0;
	if (hr_hex_parse(line, &data, &len)) {
		fprintf(stderr,
			"headroom: --user-ringbuf %s: %s:%u: not hex bytes "
			"(one sample a line; '-' for an empty one)\n",
			s->arg, path, lineno);
		return -EINVAL;
	}
	if (add_sample(s, data, len)) {
		free(data);
		return -ENOMEM;
	}
	return 0;
}

static int parse_file(struct hr_cli_samples *s, const char *path)
{
	unsigned int lineno = 0;
	size_t cap = 0;
	char *line = NULL;
	int err = 0;
	FILE *f = fopen(path, "r");

	if (!f) {
		err = -errno;
		fprintf(stderr, "headroom: --user-ringbuf %s: %s: %s\n", s->arg,
			path, strerror(errno));
		return err;
	}
	while (!err && getline(&line, &cap, f) >= 0)
		err = parse_line(s, path, ++lineno, line);
	free(line);
	fclose(f);
	return err;
}

int hr_cli_samples_parse(const char *arg, struct hr_cli_samples *s)
{
	const char *eq = strchr(arg, '=');
	uint8_t *data;
	size_t len;
	int err;

	memset(s, 0, sizeof(*s));
	s->arg = arg;
	if (!eq || eq == arg) {
		fprintf(stderr,
			"headroom: --user-ringbuf %s: want NAME=@FILE (hex "
			"lines) or NAME=HEX\n",
			arg);
		return -EINVAL;
	}
	s->map = strndup(arg, (size_t)(eq - arg));
	if (!s->map)
		return -ENOMEM;
	if (eq[1] == '@')
		return parse_file(s, eq + 2);
	if (hr_hex_parse(eq + 1, &data, &len)) {
		fprintf(stderr, "headroom: --user-ringbuf %s: not hex bytes\n",
			arg);
		return -EINVAL;
	}
	err = add_sample(s, data, len);
	if (err)
		free(data);
	return err;
}

int hr_cli_samples_submit(struct hr_object *obj, const struct hr_cli_samples *s)
{
	struct hr_map *map = hr_object_find_map(obj, s->map);
	struct hr_user_ringbuf *rb;
	unsigned int i;
	void *sample;
	int err;

	if (!map) {
		fprintf(stderr, "headroom: --user-ringbuf %s: no map '%s'\n",
			s->arg, s->map);
		return -ENOENT;
	}
	err = hr_user_ringbuf_new(map, NULL, &rb);
	if (err) {
		fprintf(stderr,
			"headroom: --user-ringbuf %s: map '%s' is a %s, not a "
			"BPF_MAP_TYPE_USER_RINGBUF\n",
			s->arg, s->map, hr_map_type_name(hr_map_type(map)));
		return err;
	}
	for (i = 0; i < s->n && !err; i++) {
		err = s->len[i] > UINT32_MAX ?
			      -E2BIG :
			      hr_user_ringbuf_reserve(rb, (uint32_t)s->len[i],
						      &sample);
		if (err == -E2BIG)
			fprintf(stderr,
				"headroom: --user-ringbuf %s: sample %u (%zu "
				"bytes) does not fit in the %u-byte ring\n",
				s->arg, i + 1, s->len[i],
				hr_map_max_entries(map));
		else if (err)
			fprintf(stderr,
				"headroom: --user-ringbuf %s: sample %u: the "
				"%u-byte ring is full (%u of these fit)\n",
				s->arg, i + 1, hr_map_max_entries(map), i);
		else {
			memcpy(sample, s->data[i], s->len[i]);
			hr_user_ringbuf_submit(rb, sample);
		}
	}
	hr_user_ringbuf_free(rb);
	return err;
}

void hr_cli_samples_free(struct hr_cli_samples *s)
{
	unsigned int i;

	for (i = 0; i < s->n; i++)
		free(s->data[i]);
	free(s->data);
	free(s->len);
	free(s->map);
	memset(s, 0, sizeof(*s));
}
