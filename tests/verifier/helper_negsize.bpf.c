/* A helper's size argument that may be negative (a signed length only
 * bounded from above). */
#include "v.h"

SEC("tc") int bad_helper_negsize(struct __sk_buff *skb)
{
	char buf[32];
	int len = skb->len;

	if (len > 32)
		return TC_ACT_SHOT;
	if (bpf_skb_load_bytes(skb, 0, buf, len))
		return TC_ACT_SHOT;
	return buf[0] ? TC_ACT_OK : TC_ACT_SHOT;
}

SEC("tc") int ok_helper_negsize(struct __sk_buff *skb)
{
	char buf[32];
	__u32 len = skb->len;

	if (len > 32 || len == 0)
		return TC_ACT_SHOT;
	if (bpf_skb_load_bytes(skb, 0, buf, len))
		return TC_ACT_SHOT;
	return buf[0] ? TC_ACT_OK : TC_ACT_SHOT;
}
