/* bpf_dynptr_slice's buffer__szk must be a constant the verifier knows,
 * not only a bounded number. */
#include "v.h"
#include "hr_dynptr.h"

SEC("tc") int bad_slice_szk(struct __sk_buff *skb)
{
	struct bpf_dynptr d;
	__u8 buf[8], *p;
	__u32 n = (skb->len & 3) + 1;

	bpf_dynptr_from_skb(skb, 0, &d);
	p = bpf_dynptr_slice(&d, 0, buf, n);
	return p && p[0] ? TC_ACT_OK : TC_ACT_SHOT;
}

SEC("tc") int ok_slice_szk(struct __sk_buff *skb)
{
	struct bpf_dynptr d;
	__u8 buf[8], *p;

	bpf_dynptr_from_skb(skb, 0, &d);
	p = bpf_dynptr_slice(&d, 0, buf, 4);
	return p && p[0] ? TC_ACT_OK : TC_ACT_SHOT;
}
