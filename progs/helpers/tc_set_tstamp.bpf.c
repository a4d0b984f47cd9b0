// SPDX-License-Identifier: MIT
/*
 * bpf_skb_set_tstamp with the timestamp and clock in cb[0..1] (low, high)
 * and cb[2]; its return in cb[3], and what the program then reads of the
 * skb in cb[4]: tstamp_type (tc_tstamp_type, which reads that byte) or
 * the low 32 bits of tstamp (tc_tstamp_only, which never names
 * tstamp_type, so the kernel's tstamp read is the plain one).
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

SEC("tc")
int tc_tstamp_type(struct __sk_buff *skb)
{
	__u64 ts = (__u64)skb->cb[1] << 32 | skb->cb[0];
	long r = bpf_skb_set_tstamp(skb, ts, skb->cb[2]);

	skb->cb[3] = (__u32)r;
	skb->cb[4] = skb->tstamp_type;
	return 0;
}

SEC("tc")
int tc_tstamp_only(struct __sk_buff *skb)
{
	__u64 ts = (__u64)skb->cb[1] << 32 | skb->cb[0];
	long r = bpf_skb_set_tstamp(skb, ts, skb->cb[2]);

	skb->cb[3] = (__u32)r;
	skb->cb[4] = (__u32)skb->tstamp;
	return 0;
}

char _license[] SEC("license") = "GPL";
