/* A packet pointer used after bpf_dynptr_memset through an skb's
 * dynptr, which may move the packet. The twin copies out of the skb
 * into a map value's dynptr, which does not. */
#include "v.h"
#include "hr_dynptr.h"

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64[2]);
} mp_vals SEC(".maps");

SEC("tc") int bad_memset_pkt(struct __sk_buff *skb)
{
	struct bpf_dynptr d;
	__u8 *data = (void *)(long)skb->data;

	if ((void *)(data + 1) > (void *)(long)skb->data_end)
		return TC_ACT_SHOT;
	bpf_dynptr_from_skb(skb, 0, &d);
	bpf_dynptr_memset(&d, 0, 1, 0);
	return data[0] ? TC_ACT_OK : TC_ACT_SHOT;
}

SEC("tc") int ok_memset_pkt(struct __sk_buff *skb)
{
	struct bpf_dynptr d, l;
	__u32 key = 0;
	__u8 *data = (void *)(long)skb->data;
	__u64 *v = bpf_map_lookup_elem(&mp_vals, &key);

	if (!v)
		return TC_ACT_SHOT;
	if ((void *)(data + 1) > (void *)(long)skb->data_end)
		return TC_ACT_SHOT;
	bpf_dynptr_from_skb(skb, 0, &d);
	bpf_dynptr_from_mem(v, 16, 0, &l);
	bpf_dynptr_copy(&l, 0, &d, 0, 1);
	return data[0] ? TC_ACT_OK : TC_ACT_SHOT;
}
