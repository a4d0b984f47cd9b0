// SPDX-License-Identifier: MIT
/*
 * LD_ABS and LD_IND in tc, as the classic socket-filter style programs
 * (and iproute2's examples) write them with LLVM's load_byte/half/word:
 * constant offsets, SKF_NET_OFF / SKF_LL_OFF based ones, and offsets the
 * test passes in cb[0..2]. Each value goes to cb[] or the mark as it is
 * read, so a failed load (the program returns 0 there) shows how far it
 * got; a static subprogram's failed load returns 0 to its caller only.
 */
#include <linux/bpf.h>
#include <linux/filter.h>
#include <bpf/bpf_helpers.h>

unsigned long long load_byte(void *skb,
			     unsigned long long off) asm("llvm.bpf.load.byte");
unsigned long long load_half(void *skb,
			     unsigned long long off) asm("llvm.bpf.load.half");
unsigned long long load_word(void *skb,
			     unsigned long long off) asm("llvm.bpf.load.word");

SEC("tc")
int tc_ld_abs(struct __sk_buff *skb)
{
	__u32 o1 = skb->cb[0], o2 = skb->cb[1], o3 = skb->cb[2];

	skb->cb[0] = load_half(skb, 12);
	skb->cb[1] = load_word(skb, 26);
	skb->cb[2] = load_byte(skb, SKF_NET_OFF + 9);
	skb->cb[3] = load_half(skb, SKF_LL_OFF + 12);
	skb->cb[4] = load_word(skb, o1);
	skb->mark = load_byte(skb, o2) << 16;
	skb->mark |= load_half(skb, o3 + 2);
	return 0x55;
}

static __attribute__((noinline)) int sub_load(struct __sk_buff *skb, __u32 off)
{
	return load_word(skb, off) + 1;
}

SEC("tc")
int tc_ld_abs_sub(struct __sk_buff *skb)
{
	skb->cb[1] = sub_load(skb, skb->cb[0]);
	return 0x66;
}

char _license[] SEC("license") = "GPL";
