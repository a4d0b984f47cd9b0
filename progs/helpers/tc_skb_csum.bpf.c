// SPDX-License-Identifier: MIT
/*
 * bpf_csum_level, bpf_csum_update, bpf_skb_load_bytes_relative and
 * bpf_skb_change_type, driven by the cb[] words the test passes in and
 * answering in cb[] and the mark, for test_skb_csum to compare with the
 * kernel.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

/* One answer a byte, four a cb word. */
static __always_inline void put(struct __sk_buff *skb, int i, long v)
{
	__u32 w = skb->cb[i / 4];

	w &= ~(0xffu << (i % 4 * 8));
	w |= ((__u32)v & 0xff) << (i % 4 * 8);
	skb->cb[i / 4] = w;
}

/* The csum_level state machine; cb[4] the adjust_room flags to try. */
SEC("tc")
int tc_csum_level(struct __sk_buff *skb)
{
	__u64 flags = skb->cb[4];

	skb->cb[0] = skb->cb[1] = skb->cb[2] = skb->cb[3] = 0;
	put(skb, 0, bpf_csum_level(skb, BPF_CSUM_LEVEL_QUERY));
	put(skb, 1, bpf_csum_level(skb, BPF_CSUM_LEVEL_INC));
	put(skb, 2, bpf_csum_level(skb, BPF_CSUM_LEVEL_QUERY));
	bpf_csum_level(skb, BPF_CSUM_LEVEL_INC);
	bpf_csum_level(skb, BPF_CSUM_LEVEL_INC);
	bpf_csum_level(skb, BPF_CSUM_LEVEL_INC);
	bpf_csum_level(skb, BPF_CSUM_LEVEL_INC);
	put(skb, 3, bpf_csum_level(skb, BPF_CSUM_LEVEL_QUERY));
	put(skb, 4, bpf_csum_level(skb, BPF_CSUM_LEVEL_DEC));
	put(skb, 5, bpf_csum_level(skb, BPF_CSUM_LEVEL_QUERY));
	put(skb, 6, bpf_csum_level(skb, BPF_CSUM_LEVEL_RESET));
	put(skb, 7, bpf_csum_level(skb, BPF_CSUM_LEVEL_QUERY));
	bpf_csum_level(skb, BPF_CSUM_LEVEL_INC);
	bpf_csum_level(skb, BPF_CSUM_LEVEL_DEC);
	put(skb, 8, bpf_csum_level(skb, BPF_CSUM_LEVEL_QUERY));
	bpf_csum_level(skb, BPF_CSUM_LEVEL_DEC);
	put(skb, 9, bpf_csum_level(skb, BPF_CSUM_LEVEL_QUERY));
	put(skb, 10, bpf_csum_level(skb, 4));
	put(skb, 11, bpf_csum_update(skb, 0x1234));
	bpf_csum_level(skb, BPF_CSUM_LEVEL_INC);
	bpf_csum_level(skb, BPF_CSUM_LEVEL_INC);
	put(skb, 12, bpf_skb_adjust_room(skb, 8, BPF_ADJ_ROOM_NET, flags));
	put(skb, 13, bpf_csum_level(skb, BPF_CSUM_LEVEL_QUERY));
	return 0;
}

/* cb[0] offset, cb[1] start header: cb[2] and mark the two answers,
 * cb[3] and cb[4] the 8 bytes read. */
SEC("tc")
int tc_load_relative(struct __sk_buff *skb)
{
	__u32 off = skb->cb[0], start = skb->cb[1];
	__u8 b[8];
	__u16 h;

	skb->cb[2] = bpf_skb_load_bytes_relative(skb, off, b, sizeof(b), start);
	skb->mark = bpf_skb_load_bytes_relative(skb, off, &h, sizeof(h), start);
	__builtin_memcpy(&skb->cb[3], b, 4);
	__builtin_memcpy(&skb->cb[4], b + 4, 4);
	skb->priority = h;
	return 0;
}

/* cb[0] the type to set: cb[1] the answer, cb[2] the type before. */
SEC("tc")
int tc_change_type(struct __sk_buff *skb)
{
	skb->cb[2] = skb->pkt_type;
	skb->cb[1] = bpf_skb_change_type(skb, skb->cb[0]);
	return 0;
}

char _license[] SEC("license") = "GPL";
