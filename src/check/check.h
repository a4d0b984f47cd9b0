/* SPDX-License-Identifier: MIT */
/*
 * headroom check: the live kernel verifier's verdict on a program,
 * predicted without the kernel (predict.c), and the kernel's own when it
 * is there (kernel.c), in one shape so the two can be shown side by side.
 */
#ifndef HR_CHECK_CHECK_H
#define HR_CHECK_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct hr_prog;

enum hr_check_verdict {
	HR_CHECK_ACCEPT,
	HR_CHECK_REJECT,
	HR_CHECK_UNKNOWN, /* cannot tell; the kernel may reject */
};

const char *hr_check_verdict_str(enum hr_check_verdict v);

struct hr_check_result {
	enum hr_check_verdict verdict;
	/* The kernel log's error line (or why it cannot tell); "" when
	 * accepted. */
	char reason[256];
	int insn; /* the instruction at fault, -1: none */
	/* Set by a prediction given the line records: the first
	 * instruction of the record whose line the kernel's log shows last
	 * before the error (-1: none, the error comes before any line). */
	bool log_line_set;
	int line_insn;
	/* Its source position from .BTF.ext line info; "" / 0 unknown. */
	char file[256];
	unsigned int line;
};

/* Predicts the 6.18 verifier's verdict on @prog (loaded by headroom's own
 * loader, relocated); 0, or -errno when it could not even try. */
int hr_check_predict(const struct hr_prog *prog, struct hr_check_result *res);
/* The same for a program to be loaded device-bound (@dev_bound: the XDP
 * hint kfuncs allowed). */
int hr_check_predict_opts(const struct hr_prog *prog, bool dev_bound,
			  struct hr_check_result *res);

/* The same, given the first instruction of each line info record of
 * @prog as linked (ascending, @nlines of them): the error's line is then
 * the one the kernel's log would show (res->line_insn). */
int hr_check_predict_lines(const struct hr_prog *prog, bool dev_bound,
			   const uint32_t *line_insn, size_t nlines,
			   struct hr_check_result *res);

/* hr_check_predict_lines() with @prog's line records read from the
 * object at @path, and res->file/line filled: the kernel log's line for
 * a rejection, the instruction's own for "cannot tell". 0 or -errno. */
int hr_check_predict_at(const char *path, const struct hr_prog *prog,
			bool dev_bound, struct hr_check_result *res);

/* Fills res->file and res->line from the object's line info for res->insn
 * of function @func (nothing when there is none). */
void hr_check_set_line(const char *path, const char *func,
		       struct hr_check_result *res);
/* The same for res->insn of @prog as linked, its subprograms too. */
void hr_check_set_line_prog(const char *path, const struct hr_prog *prog,
			    struct hr_check_result *res);

/* Loads program @name of the object at @path into the live kernel
 * (device-bound on a veth of a netns of its own when @dev_bound) and
 * fills @res from the verifier's log: 0, or -errno when no verdict could
 * be had (not privileged: -EPERM). *log, if not NULL, receives the whole
 * log (free() it). */
int hr_check_kernel(const char *path, const char *name, bool dev_bound,
		    struct hr_check_result *res, char **log);

/* What libbpf warned last in this thread's hr_check_kernel() ("" for
 * nothing): why it could not even open or load an object. */
const char *hr_check_kernel_libbpf_error(void);

/* A refusal @err of headroom's loader read as the kernel's verdict where
 * their rules are the same (context fields, r10, helper ids); otherwise
 * unknown. @xdp: the program is XDP (else tc). */
void hr_check_from_load_error(const char *err, bool xdp,
			      struct hr_check_result *res);

/* Whether the kernel refuses helper @id to XDP (@xdp) or tc programs:
 * it offers it only to the other, or to neither. */
bool hr_check_helper_wrong_type(bool xdp, int id);

/* Whether @prog calls an XDP hint kfunc (so the kernel wants it
 * device-bound). */
bool hr_check_calls_hints(const struct hr_prog *prog);

/* Whether the verifier takes @fmt as bpf_snprintf's format for @num_args
 * arguments (bprintf.c). */
bool hr_check_bprintf_fmt_ok(const char *fmt, uint32_t num_args);

#endif /* HR_CHECK_CHECK_H */
