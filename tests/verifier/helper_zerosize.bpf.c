/* bpf_skb_load_bytes told to copy a length that may be 0: ARG_CONST_SIZE
 * wants at least one byte on every path. */
#include "v.h"

SEC("tc") int bad_helper_zerosize(struct __sk_buff *skb)
{
	__u8 buf[8];
	__u32 n = skb->len & 7;

	return bpf_skb_load_bytes(skb, 0, buf, n) ? TC_ACT_SHOT : TC_ACT_OK;
}

SEC("tc") int ok_helper_zerosize(struct __sk_buff *skb)
{
	__u8 buf[8];
	__u32 n = (skb->len & 7) + 1;

	return bpf_skb_load_bytes(skb, 0, buf, n) ? TC_ACT_SHOT : TC_ACT_OK;
}
