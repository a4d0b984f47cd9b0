/* SPDX-License-Identifier: MIT */
/*
 * Packet dynptrs, shared by the dynptr kfuncs and helpers
 * (kfuncs_dynptr.c: creation, read, write, slices per type;
 * kfuncs_dynptr_ops.c: size, adjust, clone, copy, memset ...).
 *
 * struct bpf_dynptr is 16 opaque bytes on the program's stack; headroom
 * keeps the kernel's bpf_dynptr_kern layout in them: the object pointer,
 * the size in the low 24 bits of a word whose bits 28..30 are the type
 * and bit 31 read-only, and the offset. The object is this run's context
 * (run->priv) for every packet type.
 */
#ifndef HR_HELPERS_DYNPTR_H
#define HR_HELPERS_DYNPTR_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "vm/vm.h"

#define HR_DYNPTR_SIZE_MASK 0xffffffu
#define HR_DYNPTR_TYPE_SHIFT 28
#define HR_DYNPTR_TYPE_MASK 0x7u
#define HR_DYNPTR_RDONLY_BIT (1u << 31)
#define HR_DYNPTR_MAX_SIZE HR_DYNPTR_SIZE_MASK

/* enum bpf_dynptr_type (include/linux/bpf.h, 6.18). */
enum hr_dynptr_type {
	HR_DYNPTR_TYPE_INVALID = 0,
	HR_DYNPTR_TYPE_LOCAL = 1,
	HR_DYNPTR_TYPE_RINGBUF = 2,
	HR_DYNPTR_TYPE_SKB = 3,
	HR_DYNPTR_TYPE_XDP = 4,
	HR_DYNPTR_TYPE_SKB_META = 5, /* skb_metadata_end - skb_metadata_len */
};

struct hr_dynptr {
	uint64_t data;
	uint32_t size; /* size | type << 28 | rdonly << 31 */
	uint32_t offset;
};

_Static_assert(sizeof(struct hr_dynptr) == 16, "struct bpf_dynptr is 16");

static inline uint32_t hr_dynptr_size(const struct hr_dynptr *d)
{
	return d->size & HR_DYNPTR_SIZE_MASK;
}

static inline enum hr_dynptr_type hr_dynptr_type(const struct hr_dynptr *d)
{
	return (d->size >> HR_DYNPTR_TYPE_SHIFT) & HR_DYNPTR_TYPE_MASK;
}

static inline bool hr_dynptr_rdonly(const struct hr_dynptr *d)
{
	return d->size & HR_DYNPTR_RDONLY_BIT;
}

/* bpf_dynptr_set_size: the type and read-only bits stay. */
static inline void hr_dynptr_set_size(struct hr_dynptr *d, uint32_t size)
{
	d->size = size | (d->size & ~HR_DYNPTR_SIZE_MASK);
}

static inline void hr_dynptr_set_null(struct hr_dynptr *d)
{
	memset(d, 0, sizeof(*d));
}

/* bpf_dynptr_check_off_len: -E2BIG unless [off, off + len) fits. */
int hr_dynptr_check_off_len(const struct hr_dynptr *d, uint32_t off,
			    uint32_t len);

/*
 * The dynptr at BPF address @addr (16 bytes of the run's memory, 8-byte
 * aligned, writable with @write), validated: a null dynptr as it is, a
 * packet dynptr only when it names this run's context with a type this
 * program type can make. NULL after an abort (HR_ABORT_HELPER_ARG).
 */
struct hr_dynptr *hr_dynptr_get(struct hr_run *run, uint64_t addr, bool write);

/* The 16 bytes at @addr to initialize (a __uninit argument); NULL after
 * an abort. */
struct hr_dynptr *hr_dynptr_mem(struct hr_run *run, uint64_t addr);

/* __bpf_dynptr_read / __bpf_dynptr_write: @len bytes at @off of a
 * validated dynptr, to or from host memory the caller checked. */
int hr_dynptr_read(struct hr_run *run, void *dst, uint32_t len,
		   const struct hr_dynptr *src, uint32_t off, uint64_t flags);
int hr_dynptr_write(struct hr_run *run, const struct hr_dynptr *dst,
		    uint32_t off, const void *src, uint32_t len,
		    uint64_t flags);

/* bpf_dynptr_slice / _rdwr: a pointer to the bytes, or @buf (checked by
 * the caller, may be NULL) holding a copy of them, or NULL. */
void *hr_dynptr_slice(struct hr_run *run, const struct hr_dynptr *d,
		      uint32_t off, void *buf, uint32_t len);
void *hr_dynptr_slice_rdwr(struct hr_run *run, const struct hr_dynptr *d,
			   uint32_t off, void *buf, uint32_t len);

#endif /* HR_HELPERS_DYNPTR_H */
