/* An atomic add into the context (skb->mark). */
#include "v.h"

SEC("tc") int bad_atomic_ctx(struct __sk_buff *skb)
{
	__sync_fetch_and_add(&skb->mark, 1);
	return TC_ACT_OK;
}

SEC("tc") int ok_atomic_ctx(struct __sk_buff *skb)
{
	skb->mark += 1;
	return TC_ACT_OK;
}
