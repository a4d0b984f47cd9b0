/* A socket released twice: the first release ends the reference. */
#include "v.h"

SEC("tc") int bad_sk_release_twice(struct __sk_buff *skb)
{
	struct bpf_sock_tuple t = {};
	struct bpf_sock *sk;

	sk = bpf_sk_lookup_tcp(skb, &t, sizeof(t.ipv4), -1, 0);
	if (!sk)
		return TC_ACT_OK;
	bpf_sk_release(sk);
	bpf_sk_release(sk);
	return TC_ACT_SHOT;
}

SEC("tc") int ok_sk_release_twice(struct __sk_buff *skb)
{
	struct bpf_sock_tuple t = {};
	struct bpf_sock *sk;

	sk = bpf_sk_lookup_tcp(skb, &t, sizeof(t.ipv4), -1, 0);
	if (!sk)
		return TC_ACT_OK;
	bpf_sk_release(sk);
	return TC_ACT_SHOT;
}
