/* A BPF_LD_ABS may end the program (a load past the packet returns 0), so
 * the verifier refuses one while a socket reference is held. */
#include "v.h"

unsigned long long load_byte(void *skb,
			     unsigned long long off) asm("llvm.bpf.load.byte");

SEC("tc") int bad_ld_abs_ref(struct __sk_buff *skb)
{
	struct bpf_sock_tuple t = {};
	struct bpf_sock *sk;
	int proto;

	sk = bpf_sk_lookup_tcp(skb, &t, sizeof(t.ipv4), -1, 0);
	if (!sk)
		return TC_ACT_OK;
	proto = load_byte(skb, 23);
	bpf_sk_release(sk);
	return proto == 6 ? TC_ACT_SHOT : TC_ACT_OK;
}

SEC("tc") int ok_ld_abs_ref(struct __sk_buff *skb)
{
	struct bpf_sock_tuple t = {};
	struct bpf_sock *sk;
	int proto;

	sk = bpf_sk_lookup_tcp(skb, &t, sizeof(t.ipv4), -1, 0);
	if (!sk)
		return TC_ACT_OK;
	bpf_sk_release(sk);
	proto = load_byte(skb, 23);
	return proto == 6 ? TC_ACT_SHOT : TC_ACT_OK;
}
