/* tc: skb->len is read-only, skb->mark may be written. */
#include "v.h"

SEC("tc") int bad_ctx_write(struct __sk_buff *skb)
{
	skb->len = 1;
	return TC_ACT_OK;
}

SEC("tc") int ok_ctx_write(struct __sk_buff *skb)
{
	skb->mark = 1;
	return TC_ACT_OK;
}
