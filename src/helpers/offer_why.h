/* SPDX-License-Identifier: MIT */
/*
 * Why headroom refuses a helper or kfunc the kernel offers: the reasons
 * the rows of offer_helpers.c and offer_kfuncs.c share, as the loader
 * says them.
 */
#ifndef HR_HELPERS_OFFER_WHY_H
#define HR_HELPERS_OFFER_WHY_H

#define WHY_TASK \
	"it reads the current task, its memory or its signals; a program in headroom runs on no kernel task, so nothing true could be returned"
#define WHY_KCTX \
	"it casts to the kernel's own types (the xdp_buff or sk_buff behind the context, any BTF type), whose layout headroom's contexts do not share"
#define WHY_SOCK \
	"it works on a kernel socket (the packet's, or one a lookup returned); headroom's packets carry none and its socket lookups return none"
#define WHY_CGROUP \
	"it asks for a cgroup (the packet's socket's or a task's), and headroom runs in no cgroup hierarchy of its own"
#define WHY_PERF \
	"it reads perf event counters or the CPU's branch records, which headroom does not model"
#define WHY_XFRM \
	"it reads the kernel's IPsec state (xfrm), which headroom does not model"
#define WHY_KEYS \
	"it needs the kernel's keyrings or crypto API contexts, which only sleepable programs can create"
#define WHY_TEST "a kfunc of net/bpf/test_run.c for the kernel's own selftests"
#define WHY_ROUTE \
	"it reads the route's realm (dst->tclassid), which headroom's FIB model does not carry"
#define WHY_NETNS \
	"it reads the network namespace cookie, which headroom has no namespaces to give"
#define WHY_TODO "not implemented yet"

#endif /* HR_HELPERS_OFFER_WHY_H */
