// SPDX-License-Identifier: MIT
/*
 * The conntrack lookups of the other program type: the kernel offers the
 * whole set to XDP and tc, but its verifier takes only a program's own
 * context as the first argument ("R1 must be referenced or trusted"), so
 * both programs are refused at load, in the kernel and in headroom
 * (test_ct).
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#include "hr_ct.h"

struct nf_conn {
	unsigned long status;
} __attribute__((preserve_access_index));

static __always_inline int status_of(struct nf_conn *ct, struct bpf_ct_opts *o)
{
	int st;

	if (!ct)
		return o->error;
	st = (int)ct->status;
	bpf_ct_release(ct);
	return st;
}

SEC("tc")
int tc_xdp_lookup(struct __sk_buff *skb)
{
	struct bpf_sock_tuple t = {};
	struct bpf_ct_opts o = { .netns_id = -1, .l4proto = 6 };

	return status_of(bpf_xdp_ct_lookup((struct xdp_md *)skb, &t,
					   sizeof(t.ipv4), &o, sizeof(o)),
			 &o);
}

SEC("xdp")
int xdp_skb_lookup(struct xdp_md *ctx)
{
	struct bpf_sock_tuple t = {};
	struct bpf_ct_opts o = { .netns_id = -1, .l4proto = 6 };

	return status_of(bpf_skb_ct_lookup((struct __sk_buff *)ctx, &t,
					   sizeof(t.ipv4), &o, sizeof(o)),
			 &o);
}

char LICENSE[] SEC("license") = "GPL";
