/* No BPF_LD_ABS inside a bpf_spin_lock-ed region. */
#include "v.h"
#include "lock.h"

unsigned long long load_half(void *skb,
			     unsigned long long off) asm("llvm.bpf.load.half");

SEC("tc") int bad_ld_abs_lock(struct __sk_buff *skb)
{
	__u32 k = 0;
	struct val *v = bpf_map_lookup_elem(&vals, &k);

	if (!v)
		return TC_ACT_OK;
	bpf_spin_lock(&v->lock);
	v->n = load_half(skb, 12);
	bpf_spin_unlock(&v->lock);
	return TC_ACT_OK;
}

SEC("tc") int ok_ld_abs_lock(struct __sk_buff *skb)
{
	__u32 k = 0;
	struct val *v = bpf_map_lookup_elem(&vals, &k);
	__u64 proto = load_half(skb, 12);

	if (!v)
		return TC_ACT_OK;
	bpf_spin_lock(&v->lock);
	v->n = proto;
	bpf_spin_unlock(&v->lock);
	return TC_ACT_OK;
}
