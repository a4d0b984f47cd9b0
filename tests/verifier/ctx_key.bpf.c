/* &skb->mark passed as a map key: helpers take no context memory. */
#include "v.h"

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 16);
	__type(key, __u32);
	__type(value, __u32);
} marks SEC(".maps");

SEC("tc") int bad_ctx_key(struct __sk_buff *skb)
{
	__u32 *v = bpf_map_lookup_elem(&marks, (void *)&skb->mark);

	return v ? TC_ACT_SHOT : TC_ACT_OK;
}

SEC("tc") int ok_ctx_key(struct __sk_buff *skb)
{
	__u32 k = skb->mark;
	__u32 *v = bpf_map_lookup_elem(&marks, &k);

	return v ? TC_ACT_SHOT : TC_ACT_OK;
}
