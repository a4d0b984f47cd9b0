/* SPDX-License-Identifier: MIT */
/*
 * A program's standard streams (kernel/bpf/stream.c, 6.17): the text
 * bpf_stream_vprintk_impl writes, kept per program and stream until user
 * space reads it (hr_prog_stream_read, as BPF_PROG_STREAM_READ_BY_FD).
 */
#ifndef HR_PROGS_STREAM_H
#define HR_PROGS_STREAM_H

#include <stddef.h>

struct hr_prog;

/* Text a program's stream holds at most unread: past it a write is
 * -ENOSPC, as past the kernel's BPF_STREAM_MAX_CAPACITY. */
#define HR_STREAM_CAPACITY (1u << 20)

/* Appends @n bytes of @s to stream @id (1 stdout, 2 stderr) of @prog: 0,
 * -ENOENT for another id, -ENOSPC past the capacity, -ENOMEM. */
int hr_prog_stream_push(const struct hr_prog *prog, int id, const char *s,
			size_t n);
/* What hr_prog_free calls. */
void hr_prog_stream_free(struct hr_prog *prog);

#endif /* HR_PROGS_STREAM_H */
