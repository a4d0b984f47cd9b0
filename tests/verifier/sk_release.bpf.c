/* A socket reference taken and never released. */
#include "v.h"

SEC("tc") int bad_sk_release(struct __sk_buff *skb)
{
	struct bpf_sock_tuple t = {};
	struct bpf_sock *sk;

	sk = bpf_sk_lookup_tcp(skb, &t, sizeof(t.ipv4), -1, 0);
	return sk ? TC_ACT_SHOT : TC_ACT_OK;
}

SEC("tc") int ok_sk_release(struct __sk_buff *skb)
{
	struct bpf_sock_tuple t = {};
	struct bpf_sock *sk;

	sk = bpf_sk_lookup_tcp(skb, &t, sizeof(t.ipv4), -1, 0);
	if (!sk)
		return TC_ACT_OK;
	bpf_sk_release(sk);
	return TC_ACT_SHOT;
}
