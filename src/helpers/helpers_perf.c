// SPDX-License-Identifier: MIT
/*
 * bpf_perf_event_output for XDP and tc (net/core/filter.c
 * bpf_xdp_event_output, bpf_skb_event_output): the program's bytes, then
 * as many packet bytes as the upper 32 bits of the flags ask for, as one
 * sample of a PERF_EVENT_ARRAY slot (src/maps/perf_event_array.c).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <linux/bpf.h>

#include "progs/ctx.h"
#include "helpers/helpers.h"
#include "helpers/xdp_bytes.h"
#include "maps/perf_event_array.h"

/* Samples up to this size are built on the stack. */
#define HR_PERF_STACK_BUF 4096u

static uint64_t ret_int(int v)
{
	return (uint64_t)(int64_t)v;
}

/*
 * The common part once the context checks passed: builds meta + packet
 * bytes (@pkt_copy fills the packet part) and outputs them.
 */
static int event_output(struct hr_run *run, uint64_t map_ptr, uint64_t flags,
			const void *meta, uint32_t meta_size, uint32_t ctx_size,
			void (*pkt_copy)(void *priv, void *dst, uint32_t len))
{
	struct hr_map *map = hr_run_map(run, map_ptr);
	uint8_t stack_buf[HR_PERF_STACK_BUF], *buf = stack_buf;
	uint64_t total = (uint64_t)meta_size + ctx_size;
	int err;

	if (!map)
		return 0;
	if (total > HR_PERF_STACK_BUF) {
		buf = malloc(total);
		if (!buf)
			return -ENOMEM;
	}
	if (meta_size) /* a NULL meta of 0 bytes is the kernel's too */
		memcpy(buf, meta, meta_size);
	if (ctx_size)
		pkt_copy(run->priv, buf + meta_size, ctx_size);
	err = hr_perf_output(map, flags & BPF_F_INDEX_MASK, run->cpu, buf,
			     (uint32_t)total);
	if (buf != stack_buf)
		free(buf);
	return err;
}

static void xdp_pkt_copy(void *priv, void *dst, uint32_t len)
{
	struct hr_xdp_ctx *c = priv;

	hr_xdp_copy_buf(c->xdp, 0, dst, len, false);
}

static void skb_pkt_copy(void *priv, void *dst, uint32_t len)
{
	struct hr_tc_ctx *c = priv;

	memcpy(dst, c->data, len);
}

static uint64_t perf_output(struct hr_run *run, uint64_t map, uint64_t flags,
			    uint64_t meta, uint64_t meta_size, bool xdp)
{
	uint64_t ctx_size = (flags & BPF_F_CTXLEN_MASK) >> 32;
	const void *m = NULL;
	uint32_t pkt_len;

	/* The verifier checks the buffer before the helper runs. */
	if (meta_size) {
		m = hr_run_mem(run, meta, meta_size, false);
		if (!m)
			return 0;
	}
	if (flags & ~(BPF_F_CTXLEN_MASK | BPF_F_INDEX_MASK))
		return ret_int(-EINVAL);
	if (xdp) {
		pkt_len =
			hr_xdp_buff_len(((struct hr_xdp_ctx *)run->priv)->xdp);
	} else {
		struct hr_tc_ctx *c = run->priv;

		pkt_len = (uint32_t)(c->data_end - c->data);
	}
	if (ctx_size > pkt_len)
		return ret_int(-EFAULT);
	return ret_int(event_output(run, map, flags, m, (uint32_t)meta_size,
				    (uint32_t)ctx_size,
				    xdp ? xdp_pkt_copy : skb_pkt_copy));
}

static uint64_t xdp_event_output(uint64_t r1, uint64_t map, uint64_t flags,
				 uint64_t meta, uint64_t size,
				 struct hr_run *run)
{
	return perf_output(run, map, flags, meta, size, true);
}

static uint64_t skb_event_output(uint64_t r1, uint64_t map, uint64_t flags,
				 uint64_t meta, uint64_t size,
				 struct hr_run *run)
{
	return perf_output(run, map, flags, meta, size, false);
}

const struct hr_helper hr_helper_xdp_event_output = {
	.id = BPF_FUNC_perf_event_output,
	.name = "bpf_perf_event_output",
	.fn = xdp_event_output,
};

const struct hr_helper hr_helper_skb_event_output = {
	.id = BPF_FUNC_perf_event_output,
	.name = "bpf_perf_event_output",
	.fn = skb_event_output,
};
