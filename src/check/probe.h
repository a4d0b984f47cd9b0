/* SPDX-License-Identifier: MIT */
/*
 * Asking the live kernel which helpers and kfuncs a program type may
 * call, as bpftool's feature probe does: a two-instruction program that
 * calls one and exits, loaded with the verifier's log, read for the
 * verifier's refusals of the call itself.
 */
#ifndef HR_CHECK_PROBE_H
#define HR_CHECK_PROBE_H

/* 1 when the kernel offers helper @id to programs of @kernel_type
 * (HR_KPROG_*), 0 when it refuses the call, -errno when it could not be
 * asked (not privileged: -EPERM). */
int hr_probe_helper(int kernel_type, int id);

/* The same for the vmlinux kfunc of BTF id @btf_id. */
int hr_probe_kfunc(int kernel_type, int btf_id);

/* Calls @fn(name, btf_id, ctx) for every function vmlinux's BTF tags as a
 * kfunc, in BTF order; stops at and returns @fn's first nonzero return.
 * -errno when vmlinux's BTF cannot be read. */
int hr_probe_each_kfunc(int (*fn)(const char *name, int btf_id, void *ctx),
			void *ctx);

#endif /* HR_CHECK_PROBE_H */
