// SPDX-License-Identifier: MIT
/*
 * Program handles: a fixed table under a mutex. Only the control path
 * (map updates naming a program) uses it, never a packet.
 */
#include <errno.h>
#include <pthread.h>
#include <stddef.h>

#include "progs/prog_registry.h"

/* Enough for every program of many objects; handle = index + 1. */
#define HR_PROG_FD_MAX 4096

static pthread_mutex_t hr_prog_fd_lock = PTHREAD_MUTEX_INITIALIZER;
static struct hr_prog *hr_prog_fds[HR_PROG_FD_MAX];

int hr_prog_fd(struct hr_prog *prog)
{
	int i, free_slot = -1, ret = -ENOMEM;

	if (!prog)
		return -EINVAL;
	pthread_mutex_lock(&hr_prog_fd_lock);
	for (i = 0; i < HR_PROG_FD_MAX; i++) {
		if (hr_prog_fds[i] == prog) {
			ret = i + 1;
			goto out;
		}
		if (!hr_prog_fds[i] && free_slot < 0)
			free_slot = i;
	}
	if (free_slot >= 0) {
		hr_prog_fds[free_slot] = prog;
		ret = free_slot + 1;
	}
out:
	pthread_mutex_unlock(&hr_prog_fd_lock);
	return ret;
}

struct hr_prog *hr_prog_from_fd(int fd)
{
	struct hr_prog *prog = NULL;

	if (fd <= 0 || fd > HR_PROG_FD_MAX)
		return NULL;
	pthread_mutex_lock(&hr_prog_fd_lock);
	prog = hr_prog_fds[fd - 1];
	pthread_mutex_unlock(&hr_prog_fd_lock);
	return prog;
}

void hr_prog_unregister(struct hr_prog *prog)
{
	int i;

	if (!prog)
		return;
	pthread_mutex_lock(&hr_prog_fd_lock);
	for (i = 0; i < HR_PROG_FD_MAX; i++)
		if (hr_prog_fds[i] == prog)
			hr_prog_fds[i] = NULL;
	pthread_mutex_unlock(&hr_prog_fd_lock);
}
