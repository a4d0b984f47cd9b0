/* SPDX-License-Identifier: MIT */
/*
 * The kernel as oracle for tc programs: one program of one object run
 * over one packet with one __sk_buff ctx_in, through BPF_PROG_TEST_RUN in
 * the live kernel and through hr_prog_test_run, comparing the error,
 * retval, output length and bytes and the __sk_buff ctx_out.
 */
#ifndef HR_TESTS_TC_ORACLE_H
#define HR_TESTS_TC_ORACLE_H

#include <stdbool.h>
#include <stdint.h>
#include <linux/bpf.h>

#define TC_ORACLE_OUT_MAX 8192

struct tc_result {
	int err;
	uint32_t retval;
	uint32_t size_out;
	uint8_t out[TC_ORACLE_OUT_MAX];
	struct __sk_buff ctx;
};

struct tc_oracle;

/* Opens progs/@obj for both sides; @kernel false: headroom only. NULL on
 * failure (printed). */
struct tc_oracle *tc_oracle_open(const char *obj, bool kernel);
void tc_oracle_close(struct tc_oracle *o);

/* One side; 0 or -errno for a setup failure (program not found; for the
 * kernel, -EPERM: a program left out because the kernel refuses it only
 * for the host's kfunc restriction, kernel_side.h). */
int tc_run_kernel(struct tc_oracle *o, const char *prog, const void *pkt,
		  uint32_t len, const struct __sk_buff *ctx,
		  struct tc_result *res);
int tc_run_headroom(struct tc_oracle *o, const char *prog, const void *pkt,
		    uint32_t len, const struct __sk_buff *ctx,
		    struct tc_result *res);

/* Both sides compared (the kernel's only when it was opened): 1 agree, 0
 * differ (printed with @label), TC_REFUSED: the kernel refuses the
 * program only for the host's kfunc restriction, nothing compared. @hr
 * receives headroom's result. */
#define TC_REFUSED 2
int tc_check(struct tc_oracle *o, const char *prog, const void *pkt,
	     uint32_t len, const struct __sk_buff *ctx, const char *label,
	     struct tc_result *hr);

#endif /* HR_TESTS_TC_ORACLE_H */
