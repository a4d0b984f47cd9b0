// SPDX-License-Identifier: MIT
/*
 * Uses of a conntrack entry the kernel's verifier refuses, each of which
 * must end the run in headroom rather than reach memory the program was
 * not given (test_ct): reading past the struct nf_conn it was handed,
 * releasing a pointer into the entry rather than the entry, releasing an
 * allocated entry as an inserted one, changing the status of a
 * released entry, and writing a field other than the mark. Byte 14 of
 * the packet selects; 0 holds the reference to the end without releasing
 * it (headroom lets it go then).
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_endian.h>

#include "hr_ct.h"

/* The tuple test_ct gives the table: 10.7.0.2:1 -> 10.7.0.1:2, TCP. */
SEC("xdp")
int ct_forged(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *end = (void *)(long)ctx->data_end;
	struct bpf_sock_tuple t = {};
	struct bpf_ct_opts o = { .netns_id = -1, .l4proto = 6 };
	struct nf_conn___init *nc;
	struct nf_conn *ct;
	__u8 *sel = data + 14;
	long v;

	if ((void *)(sel + 1) > end)
		return XDP_ABORTED;
	t.ipv4.saddr = bpf_htonl(0x0a070002);
	t.ipv4.daddr = bpf_htonl(0x0a070001);
	t.ipv4.sport = bpf_htons(1);
	t.ipv4.dport = bpf_htons(2);
	if (*sel == 3) {
		nc = bpf_xdp_ct_alloc(ctx, &t, sizeof(t.ipv4), &o, sizeof(o));
		if (!nc)
			return XDP_DROP;
		bpf_ct_release((struct nf_conn *)nc);
		return XDP_PASS;
	}
	ct = bpf_xdp_ct_lookup(ctx, &t, sizeof(t.ipv4), &o, sizeof(o));
	if (!ct)
		return XDP_DROP;
	switch (*sel) {
	case 1:
		v = *(volatile long *)((void *)ct + 4096);
		bpf_ct_release(ct);
		return v ? XDP_TX : XDP_PASS;
	case 2:
		bpf_ct_release((struct nf_conn *)((void *)ct + 8));
		return XDP_PASS;
	case 4:
		bpf_ct_release(ct);
		bpf_ct_change_status(ct, 0);
		return XDP_PASS;
	case 5:
		/* 6.18's status, which only the kfuncs may change. */
		*(volatile long *)((void *)ct + 128) = 0;
		bpf_ct_release(ct);
		return XDP_PASS;
	}
	return XDP_PASS;
}

char LICENSE[] SEC("license") = "GPL";
