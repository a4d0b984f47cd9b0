// SPDX-License-Identifier: MIT
/*
 * The dynptr kfuncs that work on any dynptr type (kernel/bpf/helpers.c,
 * registered there for every program type): bpf_dynptr_size,
 * _is_null, _is_rdonly, _adjust, _clone, _copy and _memset, built on the
 * per-type read, write and slice operations of kfuncs_dynptr.c.
 */
#include <errno.h>
#include <string.h>

#include "helpers/dynptr.h"
#include "helpers/helpers.h"

/* The kernel's on-stack bounce buffer of bpf_dynptr_copy / _memset. */
#define DYNPTR_CHUNK 256u

static uint64_t ret_int(int v)
{
	return (uint64_t)(int64_t)v;
}

/* __u32 bpf_dynptr_size(p): -EINVAL (as a u32) for a null dynptr. */
static uint64_t dynptr_size(uint64_t p, uint64_t r2, uint64_t r3, uint64_t r4,
			    uint64_t r5, struct hr_run *run)
{
	struct hr_dynptr *d = hr_dynptr_get(run, p, false);

	if (!d)
		return 0;
	return d->data ? hr_dynptr_size(d) : (uint32_t)-EINVAL;
}

static uint64_t dynptr_is_null(uint64_t p, uint64_t r2, uint64_t r3,
			       uint64_t r4, uint64_t r5, struct hr_run *run)
{
	struct hr_dynptr *d = hr_dynptr_get(run, p, false);

	return d ? !d->data : 0;
}

static uint64_t dynptr_is_rdonly(uint64_t p, uint64_t r2, uint64_t r3,
				 uint64_t r4, uint64_t r5, struct hr_run *run)
{
	struct hr_dynptr *d = hr_dynptr_get(run, p, false);

	return d && d->data && hr_dynptr_rdonly(d);
}

/*
 * int bpf_dynptr_adjust(p, start, end): the dynptr becomes [start, end)
 * of what it was. -EINVAL for a null dynptr or start > end, -ERANGE when
 * either is past the size.
 */
static uint64_t dynptr_adjust(uint64_t p, uint64_t r_start, uint64_t r_end,
			      uint64_t r4, uint64_t r5, struct hr_run *run)
{
	uint32_t start = (uint32_t)r_start, end = (uint32_t)r_end, size;
	struct hr_dynptr *d = hr_dynptr_get(run, p, true);

	if (!d)
		return 0;
	if (!d->data || start > end)
		return ret_int(-EINVAL);
	size = hr_dynptr_size(d);
	if (start > size || end > size)
		return ret_int(-ERANGE);
	d->offset += start;
	hr_dynptr_set_size(d, end - start);
	return 0;
}

/* int bpf_dynptr_clone(p, clone__uninit): a copy of all 16 bytes, or a
 * null clone and -EINVAL for a null dynptr. */
static uint64_t dynptr_clone(uint64_t p, uint64_t clone, uint64_t r3,
			     uint64_t r4, uint64_t r5, struct hr_run *run)
{
	struct hr_dynptr *d = hr_dynptr_get(run, p, false), *c;

	if (!d)
		return 0;
	c = hr_dynptr_mem(run, clone);
	if (!c)
		return 0;
	if (!d->data) {
		hr_dynptr_set_null(c);
		return ret_int(-EINVAL);
	}
	memmove(c, d, sizeof(*c));
	return 0;
}

/*
 * int bpf_dynptr_copy(dst, dst_off, src, src_off, size): through direct
 * slices when both ends have them, else through one end's slice and the
 * other's write or read, else in chunks of 256 after both ranges were
 * checked (-E2BIG).
 */
static uint64_t dynptr_copy(uint64_t dst_p, uint64_t dst_off, uint64_t src_p,
			    uint64_t src_off, uint64_t size, struct hr_run *run)
{
	uint32_t doff = (uint32_t)dst_off, soff = (uint32_t)src_off;
	uint32_t n = (uint32_t)size, off, chunk;
	struct hr_dynptr *dst, *src;
	uint8_t buf[DYNPTR_CHUNK];
	void *ss, *ds;
	int err;

	dst = hr_dynptr_get(run, dst_p, false);
	if (!dst)
		return 0;
	src = hr_dynptr_get(run, src_p, false);
	if (!src)
		return 0;
	ss = hr_dynptr_slice(run, src, soff, NULL, n);
	ds = hr_dynptr_slice_rdwr(run, dst, doff, NULL, n);
	if (ss && ds) {
		memmove(ds, ss, n);
		return 0;
	}
	if (ss)
		return ret_int(hr_dynptr_write(run, dst, doff, ss, n, 0));
	if (ds)
		return ret_int(hr_dynptr_read(run, ds, n, src, soff, 0));
	if (hr_dynptr_check_off_len(dst, doff, n) ||
	    hr_dynptr_check_off_len(src, soff, n))
		return ret_int(-E2BIG);
	for (off = 0; off < n; off += chunk) {
		chunk = n - off < DYNPTR_CHUNK ? n - off : DYNPTR_CHUNK;
		err = hr_dynptr_read(run, buf, chunk, src, soff + off, 0);
		if (!err)
			err = hr_dynptr_write(run, dst, doff + off, buf, chunk,
					      0);
		if (err)
			return ret_int(err);
	}
	return 0;
}

/*
 * int bpf_dynptr_memset(p, offset, size, val): through a writable slice,
 * else -EINVAL when read-only, the range check (-E2BIG), then writes of
 * up to 256 bytes.
 */
static uint64_t dynptr_memset(uint64_t p, uint64_t r_off, uint64_t r_size,
			      uint64_t r_val, uint64_t r5, struct hr_run *run)
{
	uint32_t off = (uint32_t)r_off, n = (uint32_t)r_size, done, chunk;
	struct hr_dynptr *d = hr_dynptr_get(run, p, false);
	uint8_t buf[DYNPTR_CHUNK];
	void *slice;
	int err;

	if (!d)
		return 0;
	slice = hr_dynptr_slice_rdwr(run, d, off, NULL, n);
	if (slice) {
		memset(slice, (uint8_t)r_val, n);
		return 0;
	}
	if (hr_dynptr_rdonly(d))
		return ret_int(-EINVAL);
	err = hr_dynptr_check_off_len(d, off, n);
	if (err)
		return ret_int(err);
	memset(buf, (uint8_t)r_val, sizeof(buf));
	for (done = 0; done < n; done += chunk) {
		chunk = n - done < DYNPTR_CHUNK ? n - done : DYNPTR_CHUNK;
		err = hr_dynptr_write(run, d, off + done, buf, chunk, 0);
		if (err)
			return ret_int(err);
	}
	return 0;
}

HR_KFUNC(dynptr_size, dynptr_size);
HR_KFUNC(dynptr_is_null, dynptr_is_null);
HR_KFUNC(dynptr_is_rdonly, dynptr_is_rdonly);
HR_KFUNC(dynptr_adjust, dynptr_adjust);
HR_KFUNC(dynptr_clone, dynptr_clone);
HR_KFUNC(dynptr_copy, dynptr_copy);
HR_KFUNC(dynptr_memset, dynptr_memset);
