/* SPDX-License-Identifier: MIT */
/*
 * struct bpf_wq (the kernel's 16 opaque bytes; the UAPI header has none)
 * and the three bpf_wq kfuncs of kernel/bpf/helpers.c, for the wq
 * programs (test_wq).
 */
#ifndef HR_WQ_H
#define HR_WQ_H

#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct bpf_wq {
	__u64 __opaque[2];
} __attribute__((aligned(8)));

extern int bpf_wq_init(struct bpf_wq *wq, void *p__map,
		       unsigned int flags) __ksym;
extern int bpf_wq_start(struct bpf_wq *wq, unsigned int flags) __ksym;
extern int bpf_wq_set_callback_impl(struct bpf_wq *wq,
				    int (*callback_fn)(void *map, int *key,
						       void *value),
				    unsigned int flags, void *aux__prog) __ksym;

/* bpf_experimental.h's: the verifier fills in the aux argument. */
#define bpf_wq_set_callback(wq, cb, flags) \
	bpf_wq_set_callback_impl(wq, cb, flags, NULL)

#endif /* HR_WQ_H */
