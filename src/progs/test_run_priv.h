/* SPDX-License-Identifier: MIT */
/* What the per-type test runs share (net/bpf/test_run.c's common part). */
#ifndef HR_PROGS_TEST_RUN_PRIV_H
#define HR_PROGS_TEST_RUN_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <headroom/test_run.h>

#include "vm/vm.h"

struct hr_prog;

/* A zero-filled-on-demand frame from the shared test pool, or NULL. */
void *hr_test_frame(void);
void hr_test_frame_put(void *frame);

/* bpf_ctx_init: copies ctx_in into @ctx (@max bytes, rest zero); -E2BIG
 * when ctx_in has non-zero bytes past @max. *@have: a context was given. */
int hr_ctx_init(const struct hr_test_run_opts *o, void *ctx, size_t max,
		bool *have);
/* bpf_test_finish and bpf_ctx_finish: 0 or -ENOSPC (output clamped). */
int hr_test_finish(struct hr_test_run_opts *o, const void *data, uint32_t size,
		   uint32_t retval, uint32_t duration);
int hr_ctx_finish(struct hr_test_run_opts *o, const void *ctx, uint32_t size);

/* Runs the program o->repeat times (at least once) on the same buffer;
 * @sync refreshes the context before each run. */
int hr_run_repeat(struct hr_prog *prog, struct hr_run *run,
		  struct hr_test_run_opts *o, uint32_t *retval,
		  uint32_t *duration,
		  void (*sync)(void *priv, struct hr_run *run), void *priv);

/* After a run of @prog that aborted: o->access (when the caller's opts
 * have it) from the run's record of the access and the regions it could
 * reach; @data is the packet's data (data_meta .. data is metadata). */
void hr_test_access_fill(const struct hr_prog *prog, const struct hr_run *run,
			 uintptr_t data, struct hr_test_run_opts *o);

int hr_xdp_test_run(struct hr_prog *prog, struct hr_test_run_opts *o);
int hr_tc_test_run(struct hr_prog *prog, struct hr_test_run_opts *o);

#endif /* HR_PROGS_TEST_RUN_PRIV_H */
