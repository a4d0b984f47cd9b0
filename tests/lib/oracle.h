/* SPDX-License-Identifier: MIT */
/*
 * The kernel as oracle, for XDP and tc test runs alike: one object,
 * program, packet and context (XDP: metadata length or a struct xdp_md;
 * tc: a struct __sk_buff) run through BPF_PROG_TEST_RUN in the live
 * kernel and through hr_prog_test_run, with every observable compared:
 * the error code, retval, data_size_out, the output bytes and ctx_out.
 * On a difference both sides are printed in hex. Objects are opened once
 * per oracle on each side; kernel_side.h loads the kernel's.
 */
#ifndef HR_TESTS_ORACLE_H
#define HR_TESTS_ORACLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <linux/bpf.h>

#define ORACLE_OUT_MAX 16384

struct oracle;
struct hr_tunnel_md;

/* What one side (kernel or headroom) produced. */
struct oracle_result {
	int err; /* 0 or -errno from the test run */
	uint32_t retval;
	uint32_t size_out;
	uint32_t ctx_size_out;
	struct xdp_md ctx_out;
	struct __sk_buff skb_out; /* tc runs (oracle_case.skb) */
	uint8_t out[ORACLE_OUT_MAX];
};

struct oracle_case {
	const char *obj; /* file name under t_progs_dir(), "xdp_parse.o" */
	const char *prog; /* program (function) name; NULL: the first */
	const void *data; /* metadata followed by the packet */
	uint32_t size;
	/* ctx_in = { .data = metalen, .data_end = size } and a ctx_out;
	 * without it no context is passed at all. */
	bool use_ctx;
	uint32_t metalen;
	/* When set, passed as ctx_in verbatim (for bad-field cases);
	 * ctx_size_in then defaults to sizeof(struct xdp_md). */
	const struct xdp_md *ctx;
	uint32_t ctx_size_in; /* 0: sizeof(struct xdp_md) */
	uint32_t data_out_cap; /* 0: ORACLE_OUT_MAX */
	bool no_data_out; /* pass data_out = NULL */
	/* A tc run: this __sk_buff is ctx_in, and skb_out receives ctx_out
	 * (the XDP fields above are then unused). */
	const struct __sk_buff *skb;
	/* headroom's side only (a kernel test run's skb has no tunnel
	 * metadata): hr_test_run_opts.tunnel_in and tunnel_out. */
	const struct hr_tunnel_md *tunnel_in;
	struct hr_tunnel_md *tunnel_out;
};

/* @s zeroed but for cb[0..3]: the arguments the tc test programs read. */
void oracle_skb_cb(struct __sk_buff *s, uint32_t a, uint32_t b, uint32_t c,
		   uint32_t d);

/* A new oracle with no object opened yet; 0 or -errno. */
int oracle_new(struct oracle **o);
void oracle_free(struct oracle *o);

/*
 * oracle.c refers to headroom's test-run API weakly, so that an oracle
 * test links without it; a weak reference alone does not pull those
 * functions out of the static library. A test that runs headroom's side
 * says ORACLE_LINK_HEADROOM; once, after including headroom/headroom.h.
 */
#define ORACLE_LINK_HEADROOM                               \
	static const void *const oracle_headroom_api[]     \
		__attribute__((used)) = {                  \
			(const void *)hr_object_open,      \
			(const void *)hr_object_close,     \
			(const void *)hr_object_find_prog, \
			(const void *)hr_prog_test_run,    \
			(const void *)hr_abort_str,        \
		}

/* Whether headroom's test-run API is linked in (weak until it lands). */
bool oracle_have_headroom(void);

/* One side only: 0, or -errno when the object or program cannot be set
 * up (not the run's own error, which goes to res->err). The kernel's
 * side is -EPERM for a program the kernel refuses only for the host's
 * kfunc restriction (kernel_side.h); the object's other programs run. */
int oracle_run_kernel(struct oracle *o, const struct oracle_case *c,
		      struct oracle_result *res);
int oracle_run_headroom(struct oracle *o, const struct oracle_case *c,
			struct oracle_result *res);

/*
 * Both sides, compared. Returns 1 when they agree, 0 when they differ
 * (both printed with @label), ORACLE_REFUSED when the kernel refuses the
 * program only for the host's kfunc restriction (nothing compared), or
 * -errno on a setup failure. Counts into the totals oracle_summary()
 * prints.
 */
#define ORACLE_REFUSED 2
int oracle_check(struct oracle *o, const struct oracle_case *c,
		 const char *label);

/* "oracle: N cases, M differences" (plus setup failures if any). */
void oracle_summary(const struct oracle *o);
unsigned int oracle_cases(const struct oracle *o);
unsigned int oracle_differences(const struct oracle *o);
unsigned int oracle_refused(const struct oracle *o);

/* The headroom engine oracle_check() uses (enum hr_engine; default 0). */
void oracle_set_engine(struct oracle *o, int engine);
int oracle_engine(const struct oracle *o);

/* Sets how many differences are printed in full (default 20). */
void oracle_set_print_limit(struct oracle *o, unsigned int n);
/* Maps left for user space to size (max_entries 0) get @n entries on
 * both sides, as a tool's loader gives them (kernel_side.h). */
void oracle_size_zero_maps(struct oracle *o, unsigned int n);
/* headroom's objects opened from now on get @n possible CPUs
 * (hr_object_open_opts.ncpus), the kernel's nr_cpu_ids for comparing
 * what depends on it (per-CPU objects' copies). */
void oracle_set_ncpus(struct oracle *o, unsigned int n);
/* Without a kernel: oracle_check() runs headroom only and counts the
 * case as agreeing; the result is in oracle_headroom_result(). */
void oracle_set_headroom_only(struct oracle *o, bool headroom_only);
/* headroom's result of the last oracle_check() or oracle_run_headroom()
 * through the oracle's own buffers. */
const struct oracle_result *oracle_headroom_result(const struct oracle *o);

/* The kernel's and headroom's loaded copies of @obj (opened on first
 * use), for comparing map contents; NULL when it cannot be loaded. */
struct bpf_object *oracle_kernel_object(struct oracle *o, const char *obj);
struct hr_object *oracle_headroom_object(struct oracle *o, const char *obj);
/* The programs of @obj the kernel's side left out for a host difference
 * (kernel_side.h), "a,b"; "" when none. */
const char *oracle_kernel_left_out(struct oracle *o, const char *obj);

/*
 * The body of a test that compares with the kernel under each of
 * headroom's engines: a new oracle, @each called with it once with the
 * interpreter and once with the JIT set, @kernel saying whether the live
 * kernel is there to compare with; then a summary, and the test's exit
 * status: t_done(), or t_skip() with the reason when there was no
 * kernel (a failure under HEADROOM_REQUIRE_KERNEL=1).
 */
int oracle_main_engines(void (*each)(struct oracle *o, bool kernel));
/* The same with the checked JIT third, @each told which engine runs
 * (0 the interpreter, 1 the JIT, 2 the checked JIT). */
int oracle_main_engines3(void (*each)(struct oracle *o, bool kernel,
				      size_t engine));

#endif /* HR_TESTS_ORACLE_H */
