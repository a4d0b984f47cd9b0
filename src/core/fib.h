/* SPDX-License-Identifier: MIT */
/* The lookup behind bpf_fib_lookup (core/fib.c, helpers_fib.c). */
#ifndef HR_CORE_FIB_H
#define HR_CORE_FIB_H

#include <stdbool.h>
#include <stdint.h>
#include <linux/bpf.h>

#include "headroom/fib.h"

/* BPF_FIB_LOOKUP_* of 6.18 (the 6.1 UAPI header lacks MARK). */
#define HR_FIB_LOOKUP_DIRECT (1u << 0)
#define HR_FIB_LOOKUP_OUTPUT (1u << 1)
#define HR_FIB_LOOKUP_SKIP_NEIGH (1u << 2)
#define HR_FIB_LOOKUP_TBID (1u << 3)
#define HR_FIB_LOOKUP_SRC (1u << 4)
#define HR_FIB_LOOKUP_MARK (1u << 5)
#define HR_FIB_LOOKUP_MASK 0x3fu
#define HR_FIB_LKUP_RET_NO_SRC_ADDR 9

/*
 * bpf_ipv4_fib_lookup / bpf_ipv6_fib_lookup on the tables: a
 * BPF_FIB_LKUP_RET_* code or -ENODEV / -EAFNOSUPPORT, @p updated as the
 * kernel does. With @check_mtu the route MTU is checked against tot_len.
 */
int hr_fib_lookup(struct bpf_fib_lookup *p, uint32_t flags, bool check_mtu);

/* The MTU of device @ifindex, 0 when there is none. */
uint32_t hr_fib_dev_mtu(uint32_t ifindex);

#endif /* HR_CORE_FIB_H */
