// SPDX-License-Identifier: MIT
/*
 * hr_prog_test_run: one program over one packet with the semantics of the
 * kernel's BPF_PROG_TEST_RUN (net/bpf/test_run.c): the same buffer layout,
 * the same checks of data and context, the same error codes, the same
 * output (XDP output starts at data_meta).
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <headroom/test_run.h>

#include "progs/prog.h"
#include "progs/ctx.h"
#include "vm/engine.h"
#include "progs/test_run_priv.h"
#include "core/pool.h"

/* Test runs take frames from one small shared pool. */
static struct hr_pool *test_pool;
static pthread_once_t test_pool_once = PTHREAD_ONCE_INIT;

static void test_pool_init(void)
{
	if (hr_pool_create(64, &test_pool))
		test_pool = NULL;
}

void *hr_test_frame(void)
{
	pthread_once(&test_pool_once, test_pool_init);
	return test_pool ? hr_pool_get(test_pool) : NULL;
}

void hr_test_frame_put(void *frame)
{
	hr_pool_put(test_pool, frame);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* bpf_ctx_init: the user context, with bytes past what we know zero. */
int hr_ctx_init(const struct hr_test_run_opts *o, void *ctx, size_t max,
		bool *have)
{
	const uint8_t *in = o->ctx_in;
	size_t i;

	memset(ctx, 0, max);
	*have = o->ctx_in || o->ctx_out;
	if (!o->ctx_in)
		return 0;
	for (i = max; i < o->ctx_size_in; i++)
		if (in[i])
			return -E2BIG;
	memcpy(ctx, in, o->ctx_size_in < max ? o->ctx_size_in : max);
	return 0;
}

/* bpf_test_finish: copies the output, clamped by a non-zero size hint. */
int hr_test_finish(struct hr_test_run_opts *o, const void *data, uint32_t size,
		   uint32_t retval, uint32_t duration)
{
	uint32_t copy = size;
	int err = 0;

	if (o->data_size_out && copy > o->data_size_out) {
		copy = o->data_size_out;
		err = -ENOSPC;
	}
	if (o->data_out)
		memcpy(o->data_out, data, copy);
	o->data_size_out = size;
	o->retval = retval;
	o->duration = duration;
	return err;
}

/* bpf_ctx_finish */
int hr_ctx_finish(struct hr_test_run_opts *o, const void *ctx, uint32_t size)
{
	uint32_t copy = size;
	int err = 0;

	if (!o->ctx_out)
		return 0;
	if (copy > o->ctx_size_out) {
		copy = o->ctx_size_out;
		err = -ENOSPC;
	}
	memcpy(o->ctx_out, ctx, copy);
	o->ctx_size_out = size;
	return err;
}

int hr_run_repeat(struct hr_prog *prog, struct hr_run *run,
		  struct hr_test_run_opts *o, uint32_t *retval,
		  uint32_t *duration,
		  void (*sync)(void *priv, struct hr_run *run), void *priv)
{
	uint32_t repeat = o->repeat ? o->repeat : 1, i;
	enum hr_engine engine = HR_OPTS_GET(o, engine, HR_ENGINE_DEFAULT);
	uint64_t t0, r0 = 0;

	if (!hr_engine_available(engine))
		return -EOPNOTSUPP;
	t0 = now_ns();
	for (i = 0; i < repeat; i++) {
		hr_prog_run_init(prog, run, run->ctx);
		run->priv = priv;
		run->cpu = HR_OPTS_GET(o, cpu, 0);
		sync(priv, run);
		r0 = hr_engine_run_ctx(engine, run);
		if (run->abort)
			break;
	}
	*duration = (uint32_t)((now_ns() - t0) / (i ? i : 1));
	*retval = (uint32_t)r0;
	o->abort = run->abort;
	/* In the object's numbering when the run ended in @prog itself (a
	 * tail-called program's own is left as its engine gave it). */
	o->abort_pc = run->vm == &prog->vm ?
			      hr_prog_orig_pc(prog, run->abort_pc) :
			      run->abort_pc;
	return 0;
}

int hr_prog_test_run(struct hr_prog *prog, struct hr_test_run_opts *opts)
{
	if (!prog || !opts ||
	    opts->sz < offsetof(struct hr_test_run_opts, engine))
		return -EINVAL;
	opts->abort = 0;
	opts->abort_pc = 0;
	if (HR_OPTS_HAS(opts, access))
		memset(&opts->access, 0, sizeof(opts->access));
	if (prog->type == &hr_prog_type_xdp) {
		/* An xdp_buff has no dst to carry tunnel metadata. */
		if (HR_OPTS_GET(opts, tunnel_in, NULL))
			return -EINVAL;
		return hr_xdp_test_run(prog, opts);
	}
	if (prog->type == &hr_prog_type_tc)
		return hr_tc_test_run(prog, opts);
	return -EOPNOTSUPP;
}
