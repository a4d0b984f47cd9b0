// SPDX-License-Identifier: MIT
/*
 * bpf_dynptr_from_skb_meta from an XDP program: the kernel registers it
 * for SCHED_CLS and SCHED_ACT only, so loading must fail (the verifier:
 * "calling kernel function ... is not allowed", -EACCES).
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#include "hr_dynptr.h"

SEC("xdp")
int smd_xdp_refused(struct xdp_md *ctx)
{
	struct bpf_dynptr d;

	return bpf_dynptr_from_skb_meta((struct __sk_buff *)ctx, 0, &d) ?
		       XDP_DROP :
		       XDP_PASS;
}

char _license[] SEC("license") = "GPL";
