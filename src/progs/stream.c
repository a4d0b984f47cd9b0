// SPDX-License-Identifier: MIT
/*
 * A program's standard streams, as kernel/bpf/stream.c keeps them (6.17):
 * two per program (BPF_STDOUT 1, BPF_STDERR 2), text appended by the
 * program's bpf_stream_vprintk_impl calls and taken out, oldest first, by
 * a read that consumes what it returns (bpf_prog_stream_read). The kernel
 * bounds the text unread; headroom does too (HR_STREAM_CAPACITY).
 *
 * Streams are for debugging, written rarely: one lock serves them all,
 * and a program's pair is allocated on its first write.
 */
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "headroom/object.h"
#include "progs/prog.h"
#include "progs/stream.h"

struct hr_prog_stream {
	char *buf;
	size_t len, cap;
};

static pthread_mutex_t stream_lock = PTHREAD_MUTEX_INITIALIZER;

static int stream_index(int id)
{
	return id == HR_STREAM_STDOUT || id == HR_STREAM_STDERR ? id - 1 :
								  -ENOENT;
}

static int stream_append(struct hr_prog_stream *st, const char *s, size_t n)
{
	size_t cap = st->cap ? st->cap : 256;
	char *p;

	if (st->len + n > HR_STREAM_CAPACITY)
		return -ENOSPC;
	while (cap < st->len + n)
		cap *= 2;
	if (cap != st->cap) {
		p = realloc(st->buf, cap);
		if (!p)
			return -ENOMEM;
		st->buf = p;
		st->cap = cap;
	}
	memcpy(st->buf + st->len, s, n);
	st->len += n;
	return 0;
}

int hr_prog_stream_push(const struct hr_prog *prog, int id, const char *s,
			size_t n)
{
	struct hr_prog *p = (struct hr_prog *)prog;
	int k = stream_index(id), err;

	if (k < 0)
		return k;
	pthread_mutex_lock(&stream_lock);
	if (!p->stream)
		p->stream = calloc(2, sizeof(*p->stream));
	err = p->stream ? stream_append(&p->stream[k], s, n) : -ENOMEM;
	pthread_mutex_unlock(&stream_lock);
	return err;
}

int hr_prog_stream_read(struct hr_prog *prog, int stream_id, char *buf,
			size_t len)
{
	struct hr_prog_stream *st;
	int k = stream_index(stream_id);
	size_t n = 0;

	if (!prog || k < 0)
		return -ENOENT;
	if (len > INT32_MAX)
		len = INT32_MAX;
	pthread_mutex_lock(&stream_lock);
	st = prog->stream ? &prog->stream[k] : NULL;
	/* A stream never written has no buffer at all. */
	if (st && st->len && buf) {
		n = st->len < len ? st->len : len;
		memcpy(buf, st->buf, n);
		memmove(st->buf, st->buf + n, st->len - n);
		st->len -= n;
	}
	pthread_mutex_unlock(&stream_lock);
	return (int)n;
}

void hr_prog_stream_free(struct hr_prog *prog)
{
	if (!prog->stream)
		return;
	free(prog->stream[0].buf);
	free(prog->stream[1].buf);
	free(prog->stream);
	prog->stream = NULL;
}
