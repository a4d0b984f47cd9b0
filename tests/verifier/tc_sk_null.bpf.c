/* skb->sk read without testing it for NULL. */
#include "v.h"

SEC("tc") int bad_tc_sk_null(struct __sk_buff *skb)
{
	struct bpf_sock *sk = skb->sk;

	return sk->family == 2 ? TC_ACT_OK : TC_ACT_SHOT;
}

SEC("tc") int ok_tc_sk_null(struct __sk_buff *skb)
{
	struct bpf_sock *sk = skb->sk;

	if (!sk)
		return TC_ACT_OK;
	return sk->family == 2 ? TC_ACT_OK : TC_ACT_SHOT;
}
