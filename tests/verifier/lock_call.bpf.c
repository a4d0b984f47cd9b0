/* A helper called while a bpf_spin_lock is held. */
#include "v.h"
#include "lock.h"

SEC("tc") int bad_lock_call(struct __sk_buff *skb)
{
	__u32 k = 0;
	struct val *v = bpf_map_lookup_elem(&vals, &k);

	if (!v)
		return TC_ACT_OK;
	bpf_spin_lock(&v->lock);
	v->n = bpf_ktime_get_ns();
	bpf_spin_unlock(&v->lock);
	return TC_ACT_OK;
}

SEC("tc") int ok_lock_call(struct __sk_buff *skb)
{
	__u32 k = 0;
	struct val *v = bpf_map_lookup_elem(&vals, &k);
	__u64 now = bpf_ktime_get_ns();

	if (!v)
		return TC_ACT_OK;
	bpf_spin_lock(&v->lock);
	v->n = now;
	bpf_spin_unlock(&v->lock);
	return TC_ACT_OK;
}
