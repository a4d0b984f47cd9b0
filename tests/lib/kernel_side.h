/* SPDX-License-Identifier: MIT */
/*
 * The kernel side of the oracle tests: libbpf objects from the built
 * progs, and a network namespace of the test's own with a kernel veth
 * pair in it (made with iproute2, both ends up and IPv6 off so that no
 * router solicitations or DAD run on the pair, entered by the calling
 * thread, and removed with the pair by t_netns_cleanup(), at exit, or on
 * SIGINT / SIGTERM).
 */
#ifndef HR_TESTS_KERNEL_SIDE_H
#define HR_TESTS_KERNEL_SIDE_H

#include <stdbool.h>
#include <stddef.h>
#include <net/if.h>

struct bpf_object;
struct bpf_map;

/* $BUILD/progs/@name opened and loaded by libbpf; NULL after a failed
 * check. */
struct bpf_object *t_kopen(const char *name);
/*
 * Host differences: some kernels refuse, at load, every program that
 * calls the bpf_dynptr_slice_rdwr kfunc (EPERM, the verifier's last line
 * "bpf_dynptr_slice_rdwr() is not allowed"), whatever the program type
 * and dynptr kind, even when nothing is stored through the slice; and
 * some (6.18.44-fc-v1300) every XDP program calling the
 * bpf_xdp_adjust_meta helper (EINVAL, "program of this type cannot use
 * helper bpf_xdp_adjust_meta#54"). Mainline 6.18, and the kernels of the
 * machines CI ran on before, take both. Whether the live kernel refuses
 * each is probed once (kernel_side.c).
 */
#define T_HOST_KFUNC "bpf_dynptr_slice_rdwr"
#define T_HOST_HELPER "bpf_xdp_adjust_meta"

/* Whether the live kernel refuses T_HOST_KFUNC as above. */
bool t_host_refuses_kfunc(void);
/* Whether the live kernel refuses T_HOST_HELPER to XDP programs. */
bool t_host_refuses_adjust_meta(void);
/* Whether the live kernel refuses bpf_wq_set_callback_impl to programs
 * that are not sleepable ("sleepable callback in a program that is not
 * sleepable"; mainline 6.18 takes it), probed with xdp_wq_probe.o. */
bool t_host_refuses_wq_callback(void);
/* The same, saying so when it does: the kernel side of a test whose
 * kernel program @what calls T_HOST_HELPER is then not compared. */
bool t_host_skips_adjust_meta(const char *what);
/* One line saying what this kernel refuses and why ("" when nothing). */
const char *t_host_note(void);
/* Whether a failed load (@err, the verifier's @log) is one of those
 * refusals. */
bool t_host_refusal(int err, const char *log);
/* Whether the verifier's error @line (no newline) is one of them. */
bool t_host_refusal_line(const char *line);

/*
 * $BUILD/progs/@name opened and loaded by libbpf, leaving out (fd -1)
 * the programs the kernel refuses only because of a host difference
 * (named in @left_out, "" when none); NULL on any other failure, with
 * -errno in *@err when @err is given. No check is counted.
 */
struct bpf_object *t_kload(const char *name, char *left_out, size_t sz,
			   int *err);

/*
 * Maps an object leaves for its user space to size (max_entries 0, as
 * xdp-tools' xdp-bench declares its per-CPU counters) get @n entries in
 * every t_kload() from now on (0: none, the kernel then refuses them).
 */
void t_kload_size_zero_maps(unsigned int n);
/* Whether @m is such a map (not a perf event array, which libbpf sizes,
 * nor a ring buffer). */
bool t_sized_by_user(const struct bpf_map *m);

/* The fd of program or map @name of @o, or -1. */
int t_kprog(struct bpf_object *o, const char *name);
int t_kmap(struct bpf_object *o, const char *name);

struct t_netns {
	char name[32]; /* "<prefix>-<pid>" */
	char veth_a[IFNAMSIZ]; /* "<prefix>a<pid>" */
	char veth_b[IFNAMSIZ]; /* "<prefix>b<pid>" */
};

/* Runs a shell command, printing it when it fails; its exit status. */
int t_sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Makes and enters the namespace (one a process); 0, or -1 with what
 * was made left for t_netns_cleanup(). @prefix: 3 or 4 letters. */
int t_netns_setup(const char *prefix, struct t_netns *ns);

/* Back to the original namespace and the namespace deleted (again:
 * nothing). */
void t_netns_cleanup(void);

#endif /* HR_TESTS_KERNEL_SIDE_H */
