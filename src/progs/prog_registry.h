/* SPDX-License-Identifier: MIT */
/*
 * A process-wide table of program handles. The kernel names programs by
 * file descriptor wherever a map value refers to one (the bpf_prog.fd of
 * struct bpf_devmap_val and struct bpf_cpumap_val); headroom has no file
 * descriptors for programs, so a program gets a small positive int the
 * first time it is asked for one, and keeps it until it is unregistered.
 */
#ifndef HR_PROGS_PROG_REGISTRY_H
#define HR_PROGS_PROG_REGISTRY_H

struct hr_prog;

/* The handle of @prog (> 0), registering it on first use; -ENOMEM when
 * the table is full, -EINVAL for NULL. */
int hr_prog_fd(struct hr_prog *prog);

/* The program behind @fd, or NULL (as fdget() failing: the caller says
 * -EBADF or -EINVAL, whichever its kernel counterpart says). */
struct hr_prog *hr_prog_from_fd(int fd);

/* Forgets @prog (before it is freed); its handle may be reused. */
void hr_prog_unregister(struct hr_prog *prog);

#endif /* HR_PROGS_PROG_REGISTRY_H */
