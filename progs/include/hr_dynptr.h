/* SPDX-License-Identifier: MIT */
/*
 * The dynptr kfuncs of Linux 6.18 (net/core/filter.c, kernel/bpf/helpers.c)
 * for programs built without vmlinux.h. bpf_dynptr_from_skb_meta is
 * for tc programs only.
 */
#ifndef HR_PROGS_DYNPTR_H
#define HR_PROGS_DYNPTR_H

#include <stdbool.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

extern int bpf_dynptr_from_xdp(struct xdp_md *x, __u64 flags,
			       struct bpf_dynptr *ptr__uninit) __ksym;
extern int bpf_dynptr_from_skb(struct __sk_buff *s, __u64 flags,
			       struct bpf_dynptr *ptr__uninit) __ksym;
extern int bpf_dynptr_from_skb_meta(struct __sk_buff *s, __u64 flags,
				    struct bpf_dynptr *ptr__uninit) __ksym;
extern void *bpf_dynptr_slice(const struct bpf_dynptr *p, __u32 offset,
			      void *buffer__opt, __u32 buffer__szk) __ksym;
extern void *bpf_dynptr_slice_rdwr(const struct bpf_dynptr *p, __u32 offset,
				   void *buffer__opt, __u32 buffer__szk) __ksym;
extern __u32 bpf_dynptr_size(const struct bpf_dynptr *p) __ksym;
extern bool bpf_dynptr_is_null(const struct bpf_dynptr *p) __ksym;
extern bool bpf_dynptr_is_rdonly(const struct bpf_dynptr *p) __ksym;
extern int bpf_dynptr_adjust(const struct bpf_dynptr *p, __u32 start,
			     __u32 end) __ksym;
extern int bpf_dynptr_clone(const struct bpf_dynptr *p,
			    struct bpf_dynptr *clone__uninit) __ksym;
extern int bpf_dynptr_copy(struct bpf_dynptr *dst_ptr, __u32 dst_off,
			   struct bpf_dynptr *src_ptr, __u32 src_off,
			   __u32 size) __ksym;
extern int bpf_dynptr_memset(struct bpf_dynptr *p, __u32 offset, __u32 size,
			     __u8 val) __ksym;

#endif /* HR_PROGS_DYNPTR_H */
