/* A context field written that tc programs may only read, after
 * BPF_LD_ABS loads: refused at the object's instruction, not at its
 * place once the loads expand. */
#include "v.h"

unsigned long long load_half(void *skb,
			     unsigned long long off) asm("llvm.bpf.load.half");

SEC("tc") int bad_ld_abs_ctx(struct __sk_buff *skb)
{
	__u32 proto = load_half(skb, 12);

	skb->tc_index = proto;
	skb->len = load_half(skb, 16);
	return TC_ACT_OK;
}

SEC("tc") int ok_ld_abs_ctx(struct __sk_buff *skb)
{
	__u32 proto = load_half(skb, 12);

	skb->tc_index = proto;
	skb->mark = load_half(skb, 16);
	return TC_ACT_OK;
}
