/* SPDX-License-Identifier: MIT */
/*
 * What the dynptr kfuncs share with helpers_skb.c: the skb byte accessors
 * (the kernel's __bpf_skb_load_bytes and __bpf_skb_store_bytes) and the
 * MAC header, where the metadata ends.
 */
#ifndef HR_HELPERS_HELPERS_SKB_H
#define HR_HELPERS_HELPERS_SKB_H

#include <stdint.h>

struct hr_tc_ctx;

/* skb_mac_header(): data until a helper first moves the headers. */
uint8_t *hr_skb_mac_header(const struct hr_tc_ctx *c);

struct hr_run;
/* skb_network_header() of the run's skb (after the Ethernet header until
 * a helper moves it). */
uint8_t *hr_skb_network_header(struct hr_run *run);

/* 0, or -EFAULT past the packet (@to zeroed then). */
int hr_skb_load_bytes(struct hr_tc_ctx *c, uint32_t off, void *to,
		      uint32_t len);
/* 0, -EINVAL for bad @flags, -EFAULT past the packet. */
int hr_skb_store_bytes(struct hr_tc_ctx *c, uint32_t off, const void *from,
		       uint32_t len, uint64_t flags);

/* __skb_reset_checksum_unnecessary (helpers_skb_csum.c): what
 * bpf_skb_adjust_room does unless told BPF_F_ADJ_ROOM_NO_CSUM_RESET. */
void hr_skb_csum_reset_unnecessary(struct hr_tc_ctx *c);

#endif /* HR_HELPERS_HELPERS_SKB_H */
