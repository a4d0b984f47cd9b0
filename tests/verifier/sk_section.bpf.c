/* A socket reference leaked inside an open RCU section: the kernel's
 * check_resource_leak reports the reference before the section. */
#include "v.h"

SEC("tc") int bad_sk_section(struct __sk_buff *skb)
{
	struct bpf_sock_tuple t = {};
	struct bpf_sock *sk;

	bpf_rcu_read_lock();
	sk = bpf_sk_lookup_tcp(skb, &t, sizeof(t.ipv4), -1, 0);
	if (!sk) {
		bpf_rcu_read_unlock();
		return TC_ACT_OK;
	}
	return TC_ACT_SHOT;
}

SEC("tc") int ok_sk_section(struct __sk_buff *skb)
{
	struct bpf_sock_tuple t = {};
	struct bpf_sock *sk;

	bpf_rcu_read_lock();
	sk = bpf_sk_lookup_tcp(skb, &t, sizeof(t.ipv4), -1, 0);
	if (sk)
		bpf_sk_release(sk);
	bpf_rcu_read_unlock();
	return sk ? TC_ACT_SHOT : TC_ACT_OK;
}
