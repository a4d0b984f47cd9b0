// SPDX-License-Identifier: MIT
/*
 * Dynptrs over the packet (kernel/bpf/helpers.c, net/core/filter.c):
 * bpf_dynptr_from_xdp / _from_skb / _from_skb_meta, bpf_dynptr_slice /
 * _slice_rdwr and the bpf_dynptr_read / _write helpers, per dynptr type
 * (a ring buffer record's, made in helpers_generic.c, is read and
 * written as a local one is, as long as the run holds the record).
 * The layout is in dynptr.h; the type-independent kfuncs built on these
 * operations are in kfuncs_dynptr_ops.c.
 *
 * Without a verifier the 16 bytes are checked on every use: a packet
 * dynptr must name this run's context with a type the program type can
 * create (skb and skb_meta in tc, xdp in XDP), anything else ends the run
 * (HR_ABORT_HELPER_ARG). A zeroed (null) dynptr is legal and fails the
 * way the kernel's does.
 *
 * The skb_meta type (6.18) covers the metadata in front of the MAC
 * header: its size is skb_metadata_len() when it is made, and every
 * access goes to skb_mac_header - skb_metadata_len() + offset as they are
 * then (bpf_skb_meta_pointer), checked against the size made. A tc run
 * starts with the MAC header at data, where __sk_buff->data_meta ends;
 * when a helper later clears the metadata (helpers_skb.c), a dynptr made
 * before keeps its size and reaches the packet at the MAC header, as in
 * the kernel. Bytes outside the packet and metadata end the run (the
 * kernel would touch what lies there). The kernel makes the dynptr
 * read-only when the skb is a clone sharing its data (skb_cloned); the
 * skbs headroom runs tc on are never cloned, so it never is here.
 */
#include <errno.h>
#include <string.h>

#include "progs/ctx.h"
#include "helpers/dynptr.h"
#include "helpers/helpers.h"
#include "helpers/helpers_skb.h"
#include "helpers/xdp_bytes.h"

static uint64_t ret_int(int v)
{
	return (uint64_t)(int64_t)v;
}

static bool run_is_tc(const struct hr_run *run)
{
	return run->vm && run->vm->prog &&
	       run->vm->prog->type == &hr_prog_type_tc;
}

/*
 * bpf_skb_meta_pointer (the metadata ends at the MAC header) plus @at,
 * when @len bytes there are in the packet or the metadata; else NULL
 * with the run ended.
 */
static uint8_t *meta_mem(struct hr_run *run, uint32_t at, uint32_t len,
			 bool write)
{
	const struct hr_tc_ctx *c = run->priv;
	uintptr_t p = (uintptr_t)hr_skb_mac_header(c) - c->meta_len + at;

	if (p < run->pkt_lo || p > run->pkt_hi || run->pkt_hi - p < len) {
		hr_run_abort(run,
			     write ? HR_ABORT_OOB_STORE : HR_ABORT_OOB_LOAD, p);
		return NULL;
	}
	return (uint8_t *)p;
}

/*
 * A local dynptr's @len bytes at @at: memory this run may read (or
 * write), else NULL with the run ended, as for any forged pointer (the
 * verifier lets only bpf_dynptr_from_mem make one, over memory it
 * checked).
 */
static uint8_t *local_mem(struct hr_run *run, const struct hr_dynptr *d,
			  uint32_t at, uint32_t len, bool write)
{
	return hr_run_mem(run, d->data + at, len, write);
}

struct hr_dynptr *hr_dynptr_mem(struct hr_run *run, uint64_t addr)
{
	if (addr & 7) {
		hr_run_abort(run, HR_ABORT_HELPER_ARG, addr);
		return NULL;
	}
	return hr_run_mem(run, addr, sizeof(struct hr_dynptr), true);
}

/* Whether @d, naming this run's context, is one this run could make. */
static bool dp_valid(const struct hr_run *run, const struct hr_dynptr *d)
{
	uint64_t end = (uint64_t)d->offset + hr_dynptr_size(d);

	if (end > HR_DYNPTR_MAX_SIZE)
		return false;
	/* A local dynptr's memory is checked at every access
	 * (local_mem), so any address may stand in it; so is a ring
	 * buffer record's, which the run may touch while it holds it. */
	if (hr_dynptr_type(d) == HR_DYNPTR_TYPE_LOCAL ||
	    hr_dynptr_type(d) == HR_DYNPTR_TYPE_RINGBUF)
		return true;
	if (d->data != (uint64_t)(uintptr_t)run->priv)
		return false;
	switch (hr_dynptr_type(d)) {
	case HR_DYNPTR_TYPE_SKB:
		return run_is_tc(run);
	case HR_DYNPTR_TYPE_SKB_META:
		/* Helpers only ever clear the metadata: a dynptr longer
		 * than it was when the run began was not made by
		 * bpf_dynptr_from_skb_meta. */
		return run_is_tc(run) &&
		       end <= ((const struct hr_tc_ctx *)run->priv)
				       ->meta_len_run;
	case HR_DYNPTR_TYPE_XDP:
		return !run_is_tc(run);
	default:
		return false;
	}
}

struct hr_dynptr *hr_dynptr_get(struct hr_run *run, uint64_t addr, bool write)
{
	struct hr_dynptr *d;

	if (addr & 7) {
		hr_run_abort(run, HR_ABORT_HELPER_ARG, addr);
		return NULL;
	}
	d = hr_run_mem(run, addr, sizeof(*d), write);
	if (!d || !d->data)
		return d; /* aborted, or a null dynptr */
	if (!dp_valid(run, d)) {
		hr_run_abort(run, HR_ABORT_HELPER_ARG, addr);
		return NULL;
	}
	return d;
}

int hr_dynptr_check_off_len(const struct hr_dynptr *d, uint32_t off,
			    uint32_t len)
{
	uint32_t size = hr_dynptr_size(d);

	if (len > size || off > size - len)
		return -E2BIG;
	return 0;
}

static void dp_init(struct hr_dynptr *d, void *obj, enum hr_dynptr_type t,
		    uint32_t size)
{
	d->data = (uint64_t)(uintptr_t)obj;
	d->size = size | (uint32_t)t << HR_DYNPTR_TYPE_SHIFT;
	d->offset = 0;
}

static uint64_t dp_from(struct hr_run *run, uint64_t flags, uint64_t ptr,
			enum hr_dynptr_type t, uint32_t size)
{
	struct hr_dynptr *d = hr_dynptr_mem(run, ptr);

	if (!d)
		return 0;
	if (flags) {
		hr_dynptr_set_null(d);
		return ret_int(-EINVAL);
	}
	dp_init(d, run->priv, t, size);
	return 0;
}

static uint64_t dynptr_from_xdp(uint64_t ctx, uint64_t flags, uint64_t ptr,
				uint64_t r4, uint64_t r5, struct hr_run *run)
{
	struct hr_xdp_ctx *c = run->priv;

	return dp_from(run, flags, ptr, HR_DYNPTR_TYPE_XDP,
		       hr_xdp_buff_len(c->xdp));
}

static uint64_t dynptr_from_skb(uint64_t ctx, uint64_t flags, uint64_t ptr,
				uint64_t r4, uint64_t r5, struct hr_run *run)
{
	struct hr_tc_ctx *c = run->priv;

	return dp_from(run, flags, ptr, HR_DYNPTR_TYPE_SKB,
		       (uint32_t)(c->data_end - c->data));
}

/* net/core/filter.c: flags must be 0 (-EINVAL, dynptr set null); the
 * size is skb_metadata_len(). */
static uint64_t dynptr_from_skb_meta(uint64_t ctx, uint64_t flags, uint64_t ptr,
				     uint64_t r4, uint64_t r5,
				     struct hr_run *run)
{
	struct hr_tc_ctx *c = run->priv;

	return dp_from(run, flags, ptr, HR_DYNPTR_TYPE_SKB_META, c->meta_len);
}

/* __bpf_xdp_load_bytes / __bpf_xdp_store_bytes over a dynptr. */
static int xdp_bytes(struct hr_xdp_ctx *c, uint32_t off, void *buf,
		     uint32_t len, bool store)
{
	int err = hr_xdp_bytes_range(c->xdp, off, len);

	if (!err && len) /* a zero-length access may come with no buffer */
		hr_xdp_copy_buf(c->xdp, off, buf, len, store);
	return err;
}

int hr_dynptr_read(struct hr_run *run, void *dst, uint32_t len,
		   const struct hr_dynptr *src, uint32_t off, uint64_t flags)
{
	uint32_t at;
	int err;

	if (!src->data || flags)
		return -EINVAL;
	err = hr_dynptr_check_off_len(src, off, len);
	if (err)
		return err;
	at = src->offset + off;
	switch (hr_dynptr_type(src)) {
	case HR_DYNPTR_TYPE_SKB:
		return hr_skb_load_bytes(run->priv, at, dst, len);
	case HR_DYNPTR_TYPE_XDP:
		return xdp_bytes(run->priv, at, dst, len, false);
	case HR_DYNPTR_TYPE_SKB_META:
		if (len) {
			const uint8_t *p = meta_mem(run, at, len, false);

			if (!p)
				return -EFAULT;
			memmove(dst, p, len);
		}
		return 0;
	case HR_DYNPTR_TYPE_LOCAL:
	case HR_DYNPTR_TYPE_RINGBUF:
		if (len) {
			const uint8_t *p = local_mem(run, src, at, len, false);

			if (!p)
				return -EFAULT;
			memmove(dst, p, len);
		}
		return 0;
	default:
		return -EFAULT;
	}
}

int hr_dynptr_write(struct hr_run *run, const struct hr_dynptr *dst,
		    uint32_t off, const void *src, uint32_t len, uint64_t flags)
{
	uint32_t at;
	int err;

	if (!dst->data || hr_dynptr_rdonly(dst))
		return -EINVAL;
	err = hr_dynptr_check_off_len(dst, off, len);
	if (err)
		return err;
	at = dst->offset + off;
	switch (hr_dynptr_type(dst)) {
	case HR_DYNPTR_TYPE_SKB:
		err = hr_skb_store_bytes(run->priv, at, src, len, flags);
		hr_tc_ctx_sync(run->priv, run);
		return err;
	case HR_DYNPTR_TYPE_XDP:
		if (flags)
			return -EINVAL;
		return xdp_bytes(run->priv, at, (void *)src, len, true);
	case HR_DYNPTR_TYPE_SKB_META:
		/* No head reallocation: packet and metadata pointers and
		 * slices stay valid. */
		if (flags)
			return -EINVAL;
		if (len) {
			uint8_t *p = meta_mem(run, at, len, true);

			if (!p)
				return -EFAULT;
			memmove(p, src, len);
		}
		return 0;
	case HR_DYNPTR_TYPE_LOCAL:
	case HR_DYNPTR_TYPE_RINGBUF:
		if (flags)
			return -EINVAL;
		if (len) {
			uint8_t *p = local_mem(run, dst, at, len, true);

			if (!p)
				return -EFAULT;
			memmove(p, src, len);
		}
		return 0;
	default:
		return -EFAULT;
	}
}

/* bpf_dynptr_read(dst, len, src, offset, flags) */
static uint64_t dynptr_read(uint64_t dst, uint64_t len, uint64_t src,
			    uint64_t off, uint64_t flags, struct hr_run *run)
{
	uint32_t n = (uint32_t)len;
	void *to = NULL;
	struct hr_dynptr *d;

	if (n) {
		to = hr_run_mem(run, dst, n, true);
		if (!to)
			return 0;
	}
	d = hr_dynptr_get(run, src, false);
	if (!d)
		return 0;
	return ret_int(hr_dynptr_read(run, to, n, d, (uint32_t)off, flags));
}

/* bpf_dynptr_write(dst, offset, src, len, flags) */
static uint64_t dynptr_write(uint64_t dst, uint64_t off, uint64_t src,
			     uint64_t len, uint64_t flags, struct hr_run *run)
{
	uint32_t n = (uint32_t)len;
	const void *from = ""; /* never NULL, even for no bytes */
	struct hr_dynptr *d;

	if (n) {
		from = hr_run_mem(run, src, n, false);
		if (!from)
			return 0;
	}
	d = hr_dynptr_get(run, dst, false);
	if (!d)
		return 0;
	return ret_int(hr_dynptr_write(run, d, (uint32_t)off, from, n, flags));
}

void *hr_dynptr_slice(struct hr_run *run, const struct hr_dynptr *d,
		      uint32_t off, void *buf, uint32_t len)
{
	struct hr_xdp_ctx *x = run->priv;
	struct hr_tc_ctx *c = run->priv;
	uint32_t at;
	void *p;

	if (!d->data || hr_dynptr_check_off_len(d, off, len))
		return NULL;
	at = d->offset + off;
	switch (hr_dynptr_type(d)) {
	case HR_DYNPTR_TYPE_SKB:
		/* skb_header_pointer / skb_pointer_if_linear: linear. */
		if ((uint64_t)at + len > (uint64_t)(c->data_end - c->data))
			return NULL;
		return c->data + at;
	case HR_DYNPTR_TYPE_XDP:
		if (hr_xdp_bytes_range(x->xdp, at, len))
			return buf;
		p = hr_xdp_pointer(x->xdp, at, len);
		if (p || !buf)
			return p;
		hr_xdp_copy_buf(x->xdp, at, buf, len, false);
		return buf;
	case HR_DYNPTR_TYPE_SKB_META:
		/* Always the metadata itself, never the buffer (and the
		 * copy and memset kfuncs write through it). */
		return meta_mem(run, at, len, false);
	case HR_DYNPTR_TYPE_LOCAL:
	case HR_DYNPTR_TYPE_RINGBUF:
		return local_mem(run, d, at, len, false);
	default:
		return NULL;
	}
}

void *hr_dynptr_slice_rdwr(struct hr_run *run, const struct hr_dynptr *d,
			   uint32_t off, void *buf, uint32_t len)
{
	if (!d->data || hr_dynptr_rdonly(d))
		return NULL;
	return hr_dynptr_slice(run, d, off, buf, len);
}

static uint64_t slice_common(uint64_t ptr, uint64_t off, uint64_t buffer,
			     uint64_t len, struct hr_run *run, bool rdwr)
{
	struct hr_dynptr *d = hr_dynptr_get(run, ptr, false);
	uint32_t n = (uint32_t)len;
	void *buf = NULL;

	if (!d)
		return 0;
	if (rdwr && (!d->data || hr_dynptr_rdonly(d)))
		return 0;
	if (buffer) {
		buf = hr_run_mem(run, buffer, n, true);
		if (!buf)
			return 0;
	}
	return (uint64_t)(uintptr_t)(rdwr ? hr_dynptr_slice_rdwr(run, d,
								 (uint32_t)off,
								 buf, n) :
					    hr_dynptr_slice(run, d,
							    (uint32_t)off, buf,
							    n));
}

/* bpf_dynptr_slice(p, offset, buffer__opt, buffer__szk) */
static uint64_t dynptr_slice(uint64_t ptr, uint64_t off, uint64_t buffer,
			     uint64_t len, uint64_t r5, struct hr_run *run)
{
	return slice_common(ptr, off, buffer, len, run, false);
}

static uint64_t dynptr_slice_rdwr(uint64_t ptr, uint64_t off, uint64_t buffer,
				  uint64_t len, uint64_t r5, struct hr_run *run)
{
	return slice_common(ptr, off, buffer, len, run, true);
}

/* bpf_dynptr_from_mem(data, size, flags, ptr): a local dynptr over
 * memory the program may write; -E2BIG past DYNPTR_MAX_SIZE, then
 * -EINVAL for flags, either leaving it null. */
static uint64_t dynptr_from_mem(uint64_t data, uint64_t size, uint64_t flags,
				uint64_t ptr, uint64_t r5, struct hr_run *run)
{
	struct hr_dynptr *d;

	if (size <= HR_DYNPTR_MAX_SIZE && !hr_run_mem(run, data, size, true))
		return 0;
	d = hr_dynptr_mem(run, ptr);
	if (!d)
		return 0;
	if (size > HR_DYNPTR_MAX_SIZE || flags) {
		hr_dynptr_set_null(d);
		return ret_int(size > HR_DYNPTR_MAX_SIZE ? -E2BIG : -EINVAL);
	}
	d->data = data;
	d->size = (uint32_t)size | (uint32_t)HR_DYNPTR_TYPE_LOCAL
					   << HR_DYNPTR_TYPE_SHIFT;
	d->offset = 0;
	return 0;
}

/* bpf_dynptr_data(ptr, offset, len): a local or ring buffer dynptr's
 * bytes in place;
 * NULL out of bounds, read-only, null, and for packet dynptrs (which
 * have bpf_dynptr_slice). */
static uint64_t dynptr_data(uint64_t ptr, uint64_t off, uint64_t len,
			    uint64_t r4, uint64_t r5, struct hr_run *run)
{
	struct hr_dynptr *d = hr_dynptr_get(run, ptr, false);

	if (!d || !d->data ||
	    hr_dynptr_check_off_len(d, (uint32_t)off, (uint32_t)len) ||
	    hr_dynptr_rdonly(d) ||
	    (hr_dynptr_type(d) != HR_DYNPTR_TYPE_LOCAL &&
	     hr_dynptr_type(d) != HR_DYNPTR_TYPE_RINGBUF))
		return 0;
	return (uint64_t)(uintptr_t)local_mem(run, d, d->offset + (uint32_t)off,
					      (uint32_t)len, true);
}

const struct hr_helper hr_helper_dynptr_from_mem = {
	.id = 197,
	.name = "bpf_dynptr_from_mem",
	.fn = dynptr_from_mem,
};

const struct hr_helper hr_helper_dynptr_data = {
	.id = 203,
	.name = "bpf_dynptr_data",
	.fn = dynptr_data,
};

const struct hr_kfunc hr_kfunc_dynptr_from_xdp = {
	.name = "bpf_dynptr_from_xdp",
	.fn = dynptr_from_xdp,
};

const struct hr_kfunc hr_kfunc_dynptr_from_skb = {
	.name = "bpf_dynptr_from_skb",
	.fn = dynptr_from_skb,
};

/* Registered for BPF_PROG_TYPE_SCHED_CLS and SCHED_ACT only. */
const struct hr_kfunc hr_kfunc_dynptr_from_skb_meta = {
	.name = "bpf_dynptr_from_skb_meta",
	.fn = dynptr_from_skb_meta,
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
