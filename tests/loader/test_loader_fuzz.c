// SPDX-License-Identifier: MIT
/*
 * Malformed objects never crash the loader or escape at run time: every
 * object under progs/ is mutated at random (bytes flipped, runs zeroed,
 * the file cut short) and opened; what opens runs on a few packets under
 * both engines. Each open must either succeed or fail with -errno and a
 * one-line message naming the file. Run under ASan/UBSan in CI, where any
 * stray access fails the test. HR_LOADER_FUZZ=N sets the mutations per
 * object (default 40), HR_FUZZ_SEED another sequence.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <headroom/headroom.h>

#include "harness.h"

struct blob {
	uint8_t *data;
	size_t len;
};

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint32_t next_rand(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)rng;
}

static int read_file(const char *path, struct blob *b)
{
	FILE *f = fopen(path, "rb");
	long n;

	if (!f)
		return -errno;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	b->data = malloc(n > 0 ? (size_t)n : 1);
	b->len = b->data && n > 0 ? fread(b->data, 1, (size_t)n, f) : 0;
	fclose(f);
	return b->data ? 0 : -ENOMEM;
}

/* One mutation of @src into @dst: flips, zeroed runs, or a cut. */
static size_t mutate(const struct blob *src, uint8_t *dst)
{
	size_t len = src->len, i, n;

	memcpy(dst, src->data, len);
	switch (next_rand() % 4) {
	case 0: /* a few random bytes */
		for (n = 1 + next_rand() % 8, i = 0; i < n; i++)
			dst[next_rand() % len] = (uint8_t)next_rand();
		break;
	case 1: /* a zeroed run */
		i = next_rand() % len;
		n = 1 + next_rand() % 64;
		memset(dst + i, 0, i + n > len ? len - i : n);
		break;
	case 2: /* cut short */
		len = next_rand() % len;
		break;
	default: /* bytes of the section and symbol tables, say */
		for (n = 1 + next_rand() % 4, i = 0; i < n; i++)
			dst[(len / 2 + next_rand() % (len / 2 + 1)) % len] ^=
				(uint8_t)(1u << (next_rand() % 8));
		break;
	}
	return len;
}

static void run_some(struct hr_object *obj)
{
	static const uint8_t pkt[64] = { 2, 0,	0, 0, 0,    2, 2,    0,
					 0, 0,	0, 1, 8,    0, 0x45, 0,
					 0, 50, 0, 0, 0x40, 0, 64,   17 };
	uint8_t out[8192];
	unsigned int i, e;

	for (i = 0; i < hr_object_prog_count(obj); i++) {
		for (e = HR_ENGINE_INTERP; e <= HR_ENGINE_JIT; e++) {
			HR_OPTS(hr_test_run_opts, o, .data_in = pkt,
				.data_size_in = sizeof(pkt), .data_out = out,
				.data_size_out = sizeof(out),
				.engine = (enum hr_engine)e);

			/* Any return is fine; crashing is not. */
			hr_prog_test_run(hr_object_prog(obj, i), &o);
		}
	}
}

static void fuzz_object(const char *dir, const char *name, unsigned int n,
			unsigned int *opened, unsigned int *refused)
{
	char path[4096], tmp[] = "/tmp/hr-lfuzz-XXXXXX", err[512];
	struct blob b = { NULL, 0 };
	uint8_t *buf;
	unsigned int i;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (read_file(path, &b) || b.len < 64) {
		free(b.data);
		return;
	}
	buf = malloc(b.len);
	fd = mkstemp(tmp);
	CHECK(buf && fd >= 0, "setup for %s", name);
	for (i = 0; buf && fd >= 0 && i < n; i++) {
		size_t len = mutate(&b, buf);
		struct hr_object *obj = NULL;
		HR_OPTS(hr_object_open_opts, o, .errbuf = err,
			.errbuf_sz = sizeof(err));
		int ret;

		if (ftruncate(fd, 0) || pwrite(fd, buf, len, 0) != (ssize_t)len)
			break;
		err[0] = '\0';
		ret = hr_object_open(tmp, &o, &obj);
		if (ret) {
			(*refused)++;
			CHECK(ret < 0 && !obj &&
				      !strncmp(err, tmp, strlen(tmp)),
			      "%s mutation %u: ret %d, message '%s'", name, i,
			      ret, err);
			continue;
		}
		(*opened)++;
		run_some(obj);
		hr_object_close(obj);
	}
	if (fd >= 0) {
		close(fd);
		unlink(tmp);
	}
	free(buf);
	free(b.data);
}

int main(void)
{
	const char *env = getenv("HR_LOADER_FUZZ");
	const char *seed = getenv("HR_FUZZ_SEED");
	unsigned int n = env ? (unsigned int)atoi(env) : 40;
	unsigned int opened = 0, refused = 0, objects = 0;
	struct dirent *e;
	DIR *d = opendir(t_progs_dir());

	if (seed)
		rng ^= strtoull(seed, NULL, 0) * 0x2545f4914f6cdd1dull;
	CHECK(d != NULL, "cannot open %s", t_progs_dir());
	if (!d)
		return t_done();
	while ((e = readdir(d))) {
		size_t l = strlen(e->d_name);

		if (l < 3 || strcmp(e->d_name + l - 2, ".o"))
			continue;
		fuzz_object(t_progs_dir(), e->d_name, n, &opened, &refused);
		objects++;
	}
	closedir(d);
	printf("loader fuzz: %u objects x %u mutations: %u opened and ran, "
	       "%u refused with a message\n",
	       objects, n, opened, refused);
	CHECK(objects >= 10, "only %u objects", objects);
	CHECK(refused > 0 && opened > 0, "mutations too weak or too strong");
	return t_done();
}
