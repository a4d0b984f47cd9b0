// SPDX-License-Identifier: MIT
/*
 * tc programs for the skb helpers, one per helper. Each takes its
 * arguments from skb->cb[] (settable through BPF_PROG_TEST_RUN's ctx_in),
 * returns the helper's result and leaves what it observed in cb[] (part of
 * ctx_out), so a test run shows everything the helper did.
 */
#include <linux/bpf.h>
#include <linux/pkt_cls.h>
#include <bpf/bpf_helpers.h>

SEC("tc")
int tc_load_bytes(struct __sk_buff *skb)
{
	__u32 buf[4] = { 1, 2, 3, 4 };
	long r = bpf_skb_load_bytes(skb, skb->cb[0], buf, sizeof(buf));

	skb->cb[1] = buf[0];
	skb->cb[2] = buf[1];
	skb->cb[3] = buf[2];
	skb->cb[4] = buf[3];
	return (int)r;
}

SEC("tc")
int tc_store_bytes(struct __sk_buff *skb)
{
	__u32 buf[2] = { skb->cb[1], skb->cb[2] };
	long r = bpf_skb_store_bytes(skb, skb->cb[0], buf, sizeof(buf),
				     skb->cb[3]);

	skb->cb[4] = skb->len;
	return (int)r;
}

SEC("tc")
int tc_pull_data(struct __sk_buff *skb)
{
	long r = bpf_skb_pull_data(skb, skb->cb[0]);

	skb->cb[1] = skb->data_end - skb->data;
	skb->cb[2] = skb->len;
	return (int)r;
}

/* mark 0: l3, else l4; cb: offset, from, to, flags. */
SEC("tc")
int tc_csum(struct __sk_buff *skb)
{
	__u64 from = skb->cb[1], to = skb->cb[2];
	long r;

	if (skb->mark)
		r = bpf_l4_csum_replace(skb, skb->cb[0], from, to, skb->cb[3]);
	else
		r = bpf_l3_csum_replace(skb, skb->cb[0], from, to, skb->cb[3]);
	return (int)r;
}

/* The TCP checksum fix-up of a NAT rewrite: diff then l4 by diff. */
SEC("tc")
int tc_csum_diff(struct __sk_buff *skb)
{
	__u32 old = skb->cb[1], new = skb->cb[2];
	__s64 diff = bpf_csum_diff(&old, 4, &new, 4, 0);

	if (diff < 0)
		return (int)diff;
	return (int)bpf_l4_csum_replace(skb, skb->cb[0], 0, diff, skb->cb[3]);
}

SEC("tc")
int tc_change_head(struct __sk_buff *skb)
{
	long r = bpf_skb_change_head(skb, skb->cb[0], skb->cb[1]);

	skb->cb[2] = skb->len;
	skb->cb[3] = skb->protocol;
	return (int)r;
}

/* cb[0] new length, cb[1] flags; mark 1: adjust room first (encap). */
SEC("tc")
int tc_change_tail(struct __sk_buff *skb)
{
	long r;

	if (skb->mark == 1) {
		r = bpf_skb_adjust_room(skb, 20, BPF_ADJ_ROOM_MAC,
					BPF_F_ADJ_ROOM_ENCAP_L3_IPV4);
		if (r)
			return (int)r;
	}
	r = bpf_skb_change_tail(skb, skb->cb[0], skb->cb[1]);
	skb->cb[2] = skb->len;
	return (int)r;
}

/* cb: len_diff, mode, flags low, flags high; mark 1: twice. */
SEC("tc")
int tc_adjust_room(struct __sk_buff *skb)
{
	__u64 flags = ((__u64)skb->cb[3] << 32) | skb->cb[2];
	long r = bpf_skb_adjust_room(skb, (__s32)skb->cb[0], skb->cb[1], flags);

	if (!r && skb->mark == 1)
		r = bpf_skb_adjust_room(skb, (__s32)skb->cb[0], skb->cb[1],
					flags);
	skb->cb[4] = skb->protocol | (skb->len << 16);
	return (int)r;
}

/* cb[0]: up to 4 operations, 4 bits each from the low end: 1 push with
 * cb[1] (proto low 16 bits, tci high), 2 push with cb[2], 3 pop. */
SEC("tc")
int tc_vlan(struct __sk_buff *skb)
{
	__u32 ops = skb->cb[0], arg1 = skb->cb[1], arg2 = skb->cb[2];
	long r = 0;
	int i;

	for (i = 0; i < 4 && !r; i++) {
		__u32 op = (ops >> (4 * i)) & 0xf;
		__u32 arg = op == 1 ? arg1 : arg2;

		if (op == 1 || op == 2)
			r = bpf_skb_vlan_push(skb, arg & 0xffff, arg >> 16);
		else if (op == 3)
			r = bpf_skb_vlan_pop(skb);
	}
	skb->cb[0] = skb->vlan_present;
	skb->cb[1] = skb->vlan_tci;
	skb->cb[2] = skb->vlan_proto;
	skb->cb[3] = skb->protocol;
	skb->cb[4] = skb->len;
	return (int)r;
}

SEC("tc")
int tc_change_proto(struct __sk_buff *skb)
{
	long r = bpf_skb_change_proto(skb, skb->cb[0], skb->cb[1]);

	skb->cb[2] = skb->protocol;
	skb->cb[3] = skb->len;
	return (int)r;
}

SEC("tc")
int tc_clone_redirect(struct __sk_buff *skb)
{
	return (int)bpf_clone_redirect(skb, skb->cb[0], skb->cb[1]);
}

SEC("tc")
int tc_redirect(struct __sk_buff *skb)
{
	return (int)bpf_redirect(skb->cb[0], skb->cb[1]);
}

/* A NAT-style rewrite through direct access after a pull: the IPv4
 * destination becomes cb[0], both checksums fixed with the helpers. */
SEC("tc")
int tc_nat(struct __sk_buff *skb)
{
	__u32 new_dst = skb->cb[0], old_dst;
	long r;

	r = bpf_skb_pull_data(skb, 14 + 20 + 20);
	if (r)
		return (int)r;
	if (bpf_skb_load_bytes(skb, 14 + 16, &old_dst, 4))
		return -1;
	r = bpf_l4_csum_replace(skb, 14 + 20 + 16, old_dst, new_dst,
				BPF_F_PSEUDO_HDR | 4);
	if (r)
		return (int)r;
	r = bpf_l3_csum_replace(skb, 14 + 10, old_dst, new_dst, 4);
	if (r)
		return (int)r;
	return (int)bpf_skb_store_bytes(skb, 14 + 16, &new_dst, 4, 0);
}

char _license[] SEC("license") = "GPL";
