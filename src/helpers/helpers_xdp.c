// SPDX-License-Identifier: MIT
/*
 * The XDP packet helpers (net/core/filter.c). r1 is the program's context;
 * the buff behind it is reached through run->priv (struct hr_xdp_ctx).
 * After a helper moves the buff, the context and the run's packet bounds
 * follow, as the kernel's data pointers do.
 */
#include <errno.h>
#include <string.h>

#include "progs/ctx.h"
#include "helpers/helpers.h"
#include "helpers/xdp_bytes.h"

static struct hr_xdp_ctx *xdp_ctx(struct hr_run *run)
{
	return run->priv;
}

/* A helper result as the kernel's u64 return of a negative int. */
static uint64_t ret_int(int v)
{
	return (uint64_t)(int64_t)v;
}

static uint64_t adjust_done(struct hr_run *run, int err)
{
	if (!err)
		hr_xdp_ctx_sync(xdp_ctx(run), run);
	return ret_int(err);
}

static uint64_t xdp_adjust_head(uint64_t r1, uint64_t offset, uint64_t r3,
				uint64_t r4, uint64_t r5, struct hr_run *run)
{
	return adjust_done(run,
			   hr_xdp_adjust_head(xdp_ctx(run)->xdp, (int)offset));
}

static uint64_t xdp_adjust_meta(uint64_t r1, uint64_t offset, uint64_t r3,
				uint64_t r4, uint64_t r5, struct hr_run *run)
{
	return adjust_done(run,
			   hr_xdp_adjust_meta(xdp_ctx(run)->xdp, (int)offset));
}

static uint64_t xdp_adjust_tail(uint64_t r1, uint64_t offset, uint64_t r3,
				uint64_t r4, uint64_t r5, struct hr_run *run)
{
	return adjust_done(run,
			   hr_xdp_adjust_tail(xdp_ctx(run)->xdp, (int)offset));
}

/* The bpf_xdp_pull_data kfunc (6.18): the packet's first @len bytes made
 * linear, from its fragments; r1 is the context. */
static uint64_t xdp_pull_data(uint64_t r1, uint64_t len, uint64_t r3,
			      uint64_t r4, uint64_t r5, struct hr_run *run)
{
	return adjust_done(run,
			   hr_xdp_pull_data(xdp_ctx(run)->xdp, (uint32_t)len));
}

static uint64_t xdp_get_buff_len(uint64_t r1, uint64_t r2, uint64_t r3,
				 uint64_t r4, uint64_t r5, struct hr_run *run)
{
	return hr_xdp_buff_len(xdp_ctx(run)->xdp);
}

/*
 * bpf_xdp_load_bytes / bpf_xdp_store_bytes: the range rule of
 * bpf_xdp_pointer, then the bytes copied, across the packet's buffers
 * where they span more than one (bpf_xdp_copy_buf).
 */
static uint64_t xdp_copy_bytes(struct hr_run *run, uint32_t offset,
			       uint64_t buf, uint32_t len, bool store)
{
	const struct hr_xdp_buff *xdp = xdp_ctx(run)->xdp;
	uint8_t *mem = NULL;
	int err;

	/* The verifier checks the buffer before the call can fail. */
	if (len) {
		mem = hr_run_mem(run, buf, len, !store);
		if (!mem)
			return 0;
	}
	err = hr_xdp_bytes_range(xdp, offset, len);
	if (!err && len)
		hr_xdp_copy_buf(xdp, offset, mem, len, store);
	return ret_int(err);
}

static uint64_t xdp_load_bytes(uint64_t r1, uint64_t offset, uint64_t buf,
			       uint64_t len, uint64_t r5, struct hr_run *run)
{
	return xdp_copy_bytes(run, (uint32_t)offset, buf, (uint32_t)len, false);
}

static uint64_t xdp_store_bytes(uint64_t r1, uint64_t offset, uint64_t buf,
				uint64_t len, uint64_t r5, struct hr_run *run)
{
	return xdp_copy_bytes(run, (uint32_t)offset, buf, (uint32_t)len, true);
}

const struct hr_helper hr_helper_xdp_adjust_head = {
	.id = 44,
	.name = "bpf_xdp_adjust_head",
	.fn = xdp_adjust_head,
};

const struct hr_helper hr_helper_xdp_adjust_meta = {
	.id = 54,
	.name = "bpf_xdp_adjust_meta",
	.fn = xdp_adjust_meta,
};

const struct hr_helper hr_helper_xdp_adjust_tail = {
	.id = 65,
	.name = "bpf_xdp_adjust_tail",
	.fn = xdp_adjust_tail,
};

const struct hr_kfunc hr_kfunc_xdp_pull_data = {
	.name = "bpf_xdp_pull_data",
	.fn = xdp_pull_data,
};

const struct hr_helper hr_helper_xdp_get_buff_len = {
	.id = 188,
	.name = "bpf_xdp_get_buff_len",
	.fn = xdp_get_buff_len,
};

const struct hr_helper hr_helper_xdp_load_bytes = {
	.id = 189,
	.name = "bpf_xdp_load_bytes",
	.fn = xdp_load_bytes,
};

const struct hr_helper hr_helper_xdp_store_bytes = {
	.id = 190,
	.name = "bpf_xdp_store_bytes",
	.fn = xdp_store_bytes,
};
