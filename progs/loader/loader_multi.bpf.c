// SPDX-License-Identifier: MIT
/* One xdp and one tc program, and a section headroom does not run. */
#include <linux/bpf.h>
#include <linux/pkt_cls.h>
#include <bpf/bpf_helpers.h>

SEC("xdp")
int xdp_pass(struct xdp_md *ctx)
{
	return XDP_PASS;
}

SEC("tc")
int tc_ok(struct __sk_buff *skb)
{
	return skb->len > 10 ? TC_ACT_OK : TC_ACT_SHOT;
}

SEC("xdp/devmap")
int xdp_egress(struct xdp_md *ctx)
{
	return XDP_PASS;
}

SEC("kprobe/do_nothing")
int probe(void *ctx)
{
	return 0;
}

char _license[] SEC("license") = "GPL";
