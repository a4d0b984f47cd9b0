/* SPDX-License-Identifier: MIT */
/*
 * For the programs in progs/ that misuse an object on purpose: the
 * offset to read or write past its end, from the packet (byte 14, after
 * the Ethernet header), so that the compiler keeps the access.
 */
#ifndef HR_FORGED_H
#define HR_FORGED_H

#include <linux/bpf.h>

static __u32 pkt_off(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *data_end = (void *)(long)ctx->data_end;
	__u8 *p = data;

	if (data + 15 > data_end)
		return 0;
	return p[14];
}

#endif /* HR_FORGED_H */
