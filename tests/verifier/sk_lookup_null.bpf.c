/* bpf_sk_lookup_tcp's socket read before testing it for NULL. */
#include "v.h"

SEC("tc") int bad_sk_lookup_null(struct __sk_buff *skb)
{
	struct bpf_sock_tuple t = {};
	struct bpf_sock *sk;
	int st;

	sk = bpf_sk_lookup_tcp(skb, &t, sizeof(t.ipv4), -1, 0);
	st = sk->state;
	if (sk)
		bpf_sk_release(sk);
	return st == 1 ? TC_ACT_OK : TC_ACT_SHOT;
}

SEC("tc") int ok_sk_lookup_null(struct __sk_buff *skb)
{
	struct bpf_sock_tuple t = {};
	struct bpf_sock *sk;
	int st;

	sk = bpf_sk_lookup_tcp(skb, &t, sizeof(t.ipv4), -1, 0);
	if (!sk)
		return TC_ACT_OK;
	st = sk->state;
	bpf_sk_release(sk);
	return st == 1 ? TC_ACT_OK : TC_ACT_SHOT;
}
