// SPDX-License-Identifier: MIT
/*
 * Dynptrs over the packet (kernel/bpf/helpers.c, net/core/filter.c):
 * bpf_dynptr_from_xdp / _from_skb, bpf_dynptr_slice / _slice_rdwr and the
 * bpf_dynptr_read / _write helpers.
 *
 * struct bpf_dynptr is 16 opaque bytes on the program's stack; headroom
 * keeps the kernel's bpf_dynptr_kern layout in them: the object pointer,
 * the size in the low 24 bits of a word whose bits 28..30 are the type and
 * bit 31 read-only, and the offset. Without a verifier the bytes are
 * checked on every use: a packet dynptr must name this run's context,
 * anything else ends the run (HR_ABORT_HELPER_ARG). A zeroed (null)
 * dynptr is legal and fails the way the kernel's does.
 */
#include <errno.h>
#include <string.h>

#include "ctx.h"
#include "helpers.h"
#include "helpers_skb.h"
#include "xdp_bytes.h"

#define DYNPTR_SIZE_MASK 0xffffffu
#define DYNPTR_TYPE_SHIFT 28
#define DYNPTR_TYPE_MASK 0x7u
#define DYNPTR_RDONLY_BIT (1u << 31)
#define DYNPTR_MAX_SIZE DYNPTR_SIZE_MASK

enum dynptr_type {
	DYNPTR_TYPE_INVALID = 0,
	DYNPTR_TYPE_LOCAL = 1,
	DYNPTR_TYPE_RINGBUF = 2,
	DYNPTR_TYPE_SKB = 3,
	DYNPTR_TYPE_XDP = 4,
};

struct dynptr {
	uint64_t data;
	uint32_t size; /* size | type << 28 | rdonly << 31 */
	uint32_t offset;
};

_Static_assert(sizeof(struct dynptr) == 16, "struct bpf_dynptr is 16");

static uint64_t ret_int(int v)
{
	return (uint64_t)(int64_t)v;
}

static uint32_t dp_size(const struct dynptr *d)
{
	return d->size & DYNPTR_SIZE_MASK;
}

static enum dynptr_type dp_type(const struct dynptr *d)
{
	return (d->size >> DYNPTR_TYPE_SHIFT) & DYNPTR_TYPE_MASK;
}

static bool dp_rdonly(const struct dynptr *d)
{
	return d->size & DYNPTR_RDONLY_BIT;
}

/* The 16 bytes of a dynptr at @addr: run memory, 8-byte aligned as the
 * verifier demands of a dynptr's stack slots; NULL after an abort. */
static struct dynptr *dp_mem(struct hr_run *run, uint64_t addr, bool write)
{
	if (addr & 7) {
		hr_run_abort(run, HR_ABORT_HELPER_ARG, addr);
		return NULL;
	}
	return hr_run_mem(run, addr, sizeof(struct dynptr), write);
}

/*
 * The dynptr at @addr (16 bytes of the run's memory), validated: NULL
 * after an abort when the bytes are not a dynptr this run made.
 */
static struct dynptr *dp_get(struct hr_run *run, uint64_t addr, bool write)
{
	struct dynptr *d = dp_mem(run, addr, write);
	enum dynptr_type t;

	if (!d)
		return NULL;
	if (!d->data)
		return d; /* null dynptr */
	t = dp_type(d);
	if ((t != DYNPTR_TYPE_SKB && t != DYNPTR_TYPE_XDP) ||
	    d->data != (uint64_t)(uintptr_t)run->priv ||
	    (uint64_t)d->offset + dp_size(d) > DYNPTR_MAX_SIZE) {
		hr_run_abort(run, HR_ABORT_HELPER_ARG, addr);
		return NULL;
	}
	return d;
}

/* bpf_dynptr_check_off_len */
static int dp_check(const struct dynptr *d, uint64_t off, uint64_t len)
{
	uint32_t size = dp_size(d);

	if (len > size || off > size - len)
		return -E2BIG;
	return 0;
}

static void dp_init(struct dynptr *d, void *obj, enum dynptr_type t,
		    uint32_t size)
{
	d->data = (uint64_t)(uintptr_t)obj;
	d->size = size | (uint32_t)t << DYNPTR_TYPE_SHIFT;
	d->offset = 0;
}

static uint64_t dp_from(struct hr_run *run, uint64_t flags, uint64_t ptr,
			enum dynptr_type t, uint32_t size)
{
	struct dynptr *d = dp_mem(run, ptr, true);

	if (!d)
		return 0;
	if (flags) {
		memset(d, 0, sizeof(*d));
		return ret_int(-EINVAL);
	}
	dp_init(d, run->priv, t, size);
	return 0;
}

static uint64_t dynptr_from_xdp(uint64_t ctx, uint64_t flags, uint64_t ptr,
				uint64_t r4, uint64_t r5, struct hr_run *run)
{
	struct hr_xdp_ctx *c = run->priv;

	return dp_from(run, flags, ptr, DYNPTR_TYPE_XDP,
		       hr_xdp_buff_len(c->xdp));
}

static uint64_t dynptr_from_skb(uint64_t ctx, uint64_t flags, uint64_t ptr,
				uint64_t r4, uint64_t r5, struct hr_run *run)
{
	struct hr_tc_ctx *c = run->priv;

	return dp_from(run, flags, ptr, DYNPTR_TYPE_SKB,
		       (uint32_t)(c->data_end - c->data));
}

/* __bpf_xdp_load_bytes / __bpf_xdp_store_bytes over a dynptr. */
static int xdp_bytes(struct hr_xdp_ctx *c, uint32_t off, void *buf,
		     uint32_t len, bool store)
{
	if (off > 0xffff || len > 0xffff)
		return -EFAULT;
	if ((uint64_t)off + len > hr_xdp_buff_len(c->xdp))
		return -EINVAL;
	if (len) /* a zero-length access may come with no buffer */
		hr_xdp_copy_buf(c->xdp, off, buf, len, store);
	return 0;
}

static uint64_t dynptr_read(uint64_t dst, uint64_t len, uint64_t src,
			    uint64_t off, uint64_t flags, struct hr_run *run)
{
	uint32_t n = (uint32_t)len, o = (uint32_t)off;
	void *to = NULL;
	struct dynptr *d;
	int err;

	if (n) {
		to = hr_run_mem(run, dst, n, true);
		if (!to)
			return 0;
	}
	d = dp_get(run, src, false);
	if (!d)
		return 0;
	if (!d->data || flags)
		return ret_int(-EINVAL);
	err = dp_check(d, o, n);
	if (err)
		return ret_int(err);
	if (dp_type(d) == DYNPTR_TYPE_SKB)
		return ret_int(
			hr_skb_load_bytes(run->priv, d->offset + o, to, n));
	return ret_int(xdp_bytes(run->priv, d->offset + o, to, n, false));
}

static uint64_t dynptr_write(uint64_t dst, uint64_t off, uint64_t src,
			     uint64_t len, uint64_t flags, struct hr_run *run)
{
	uint32_t n = (uint32_t)len, o = (uint32_t)off;
	const void *from = NULL;
	struct dynptr *d;
	int err;

	if (n) {
		from = hr_run_mem(run, src, n, false);
		if (!from)
			return 0;
	}
	d = dp_get(run, dst, false);
	if (!d)
		return 0;
	if (!d->data || dp_rdonly(d))
		return ret_int(-EINVAL);
	err = dp_check(d, o, n);
	if (err)
		return ret_int(err);
	if (dp_type(d) == DYNPTR_TYPE_SKB) {
		struct hr_tc_ctx *c = run->priv;

		err = hr_skb_store_bytes(c, d->offset + o, from, n, flags);
		hr_tc_ctx_sync(c, run);
		return ret_int(err);
	}
	if (flags)
		return ret_int(-EINVAL);
	return ret_int(
		xdp_bytes(run->priv, d->offset + o, (void *)from, n, true));
}

/*
 * bpf_dynptr_slice: a pointer into the packet when the bytes are there
 * in one piece, else a copy in @buffer (when given), else NULL.
 */
static uint64_t slice(struct hr_run *run, struct dynptr *d, uint64_t off,
		      uint64_t buffer, uint64_t len)
{
	uint8_t *buf = NULL;
	uint32_t at;
	void *p;

	if (buffer) {
		buf = hr_run_mem(run, buffer, len, true);
		if (!buf)
			return 0;
	}
	if (!d->data || dp_check(d, off, len))
		return 0;
	at = d->offset + (uint32_t)off;
	if (dp_type(d) == DYNPTR_TYPE_SKB) {
		struct hr_tc_ctx *c = run->priv;

		/* skb_header_pointer / skb_pointer_if_linear: linear. */
		if ((uint64_t)at + len > (uint64_t)(c->data_end - c->data))
			return 0;
		return (uint64_t)(uintptr_t)(c->data + at);
	}
	if (at > 0xffff || len > 0xffff ||
	    (uint64_t)at + len >
		    hr_xdp_buff_len(((struct hr_xdp_ctx *)run->priv)->xdp))
		return buf ? (uint64_t)(uintptr_t)buf : 0;
	p = hr_xdp_pointer(((struct hr_xdp_ctx *)run->priv)->xdp, at,
			   (uint32_t)len);
	if (p)
		return (uint64_t)(uintptr_t)p;
	if (!buf)
		return 0;
	hr_xdp_copy_buf(((struct hr_xdp_ctx *)run->priv)->xdp, at, buf,
			(uint32_t)len, false);
	return (uint64_t)(uintptr_t)buf;
}

static uint64_t dynptr_slice(uint64_t ptr, uint64_t off, uint64_t buffer,
			     uint64_t len, uint64_t r5, struct hr_run *run)
{
	struct dynptr *d = dp_get(run, ptr, false);

	return d ? slice(run, d, off, buffer, len) : 0;
}

static uint64_t dynptr_slice_rdwr(uint64_t ptr, uint64_t off, uint64_t buffer,
				  uint64_t len, uint64_t r5, struct hr_run *run)
{
	struct dynptr *d = dp_get(run, ptr, false);

	if (!d || !d->data || dp_rdonly(d))
		return 0;
	return slice(run, d, off, buffer, len);
}

const struct hr_kfunc hr_kfunc_dynptr_from_xdp = {
	.name = "bpf_dynptr_from_xdp",
	.fn = dynptr_from_xdp,
};

const struct hr_kfunc hr_kfunc_dynptr_from_skb = {
	.name = "bpf_dynptr_from_skb",
	.fn = dynptr_from_skb,
};

const struct hr_kfunc hr_kfunc_dynptr_slice = {
	.name = "bpf_dynptr_slice",
	.fn = dynptr_slice,
};

const struct hr_kfunc hr_kfunc_dynptr_slice_rdwr = {
	.name = "bpf_dynptr_slice_rdwr",
	.fn = dynptr_slice_rdwr,
};

const struct hr_helper hr_helper_dynptr_read = {
	.id = 201,
	.name = "bpf_dynptr_read",
	.fn = dynptr_read,
};

const struct hr_helper hr_helper_dynptr_write = {
	.id = 202,
	.name = "bpf_dynptr_write",
	.fn = dynptr_write,
};
