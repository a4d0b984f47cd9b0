/* SPDX-License-Identifier: MIT */
/*
 * Bytes of a possibly multi-buffer xdp_buff by packet offset, for the
 * helpers that copy packet data out or in (bpf_xdp_copy_buf and
 * bpf_xdp_pointer of net/core/filter.c): perf event output and dynptrs.
 */
#ifndef HR_HELPERS_XDP_BYTES_H
#define HR_HELPERS_XDP_BYTES_H

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "core/xdp.h"

/* The kernel limits offset and length to 16 bits in bpf_xdp_pointer. */
#define HR_XDP_BYTES_MAX 0xffffu

/* bpf_xdp_pointer's range rule, for [off, off + len) of the packet with
 * its fragments: -EFAULT past 16 bits, -EINVAL past the packet, else 0. */
static inline int hr_xdp_bytes_range(const struct hr_xdp_buff *xdp,
				     uint32_t off, uint32_t len)
{
	if (off > HR_XDP_BYTES_MAX || len > HR_XDP_BYTES_MAX)
		return -EFAULT;
	if ((uint64_t)off + len > hr_xdp_buff_len(xdp))
		return -EINVAL;
	return 0;
}

/* Copies @len bytes at packet offset @off to @buf (or from it, @flush);
 * the caller checked off + len against hr_xdp_buff_len(). */
static inline void hr_xdp_copy_buf(const struct hr_xdp_buff *xdp, uint32_t off,
				   void *buf, uint32_t len, bool flush)
{
	const struct hr_xdp_shinfo *si = hr_xdp_shinfo(xdp);
	uint8_t *p = xdp->data, *b = buf;
	uint32_t plen = (uint32_t)((uint8_t *)xdp->data_end - p);
	uint32_t base = 0, i = 0, n;

	for (;;) {
		if (off < base + plen) {
			n = base + plen - off < len ? base + plen - off : len;
			if (flush)
				memmove(p + (off - base), b, n);
			else
				memmove(b, p + (off - base), n);
			off += n;
			len -= n;
			b += n;
		}
		if (!len || !hr_xdp_has_frags(xdp) || i >= si->nr_frags)
			return;
		base += plen;
		p = hr_xdp_frag_data(&si->frags[i]);
		plen = si->frags[i].size;
		i++;
	}
}

/*
 * bpf_xdp_pointer: the address of [off, off + len) when it lies in one
 * buffer, NULL otherwise (older kernels said "offset + len < size", which
 * refused a range ending at the buffer's end; 6.18 takes it, checked
 * against the live kernel). The caller checked the range.
 */
static inline void *hr_xdp_pointer(const struct hr_xdp_buff *xdp, uint32_t off,
				   uint32_t len)
{
	const struct hr_xdp_shinfo *si = hr_xdp_shinfo(xdp);
	uint8_t *addr = xdp->data;
	uint32_t size = (uint32_t)((uint8_t *)xdp->data_end - addr), i;

	if (off >= size && hr_xdp_has_frags(xdp)) {
		off -= size;
		for (i = 0; i < si->nr_frags; i++) {
			if (off < si->frags[i].size) {
				addr = hr_xdp_frag_data(&si->frags[i]);
				size = si->frags[i].size;
				break;
			}
			off -= si->frags[i].size;
		}
	}
	return off + len <= size ? addr + off : NULL;
}

#endif /* HR_HELPERS_XDP_BYTES_H */
