/* bpf_skb_store_bytes told to copy more bytes than its source buffer, a
 * map value, holds. */
#include "v.h"

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} vals SEC(".maps");

SEC("tc") int bad_helper_memarg(struct __sk_buff *skb)
{
	__u32 k = 0;
	__u64 *v = bpf_map_lookup_elem(&vals, &k);

	if (!v)
		return TC_ACT_OK;
	bpf_skb_store_bytes(skb, 0, v, 12, 0);
	return TC_ACT_OK;
}

SEC("tc") int ok_helper_memarg(struct __sk_buff *skb)
{
	__u32 k = 0;
	__u64 *v = bpf_map_lookup_elem(&vals, &k);

	if (!v)
		return TC_ACT_OK;
	bpf_skb_store_bytes(skb, 0, v, 8, 0);
	return TC_ACT_OK;
}
