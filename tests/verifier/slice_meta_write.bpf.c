/* A slice of the skb metadata dynptr used after bpf_dynptr_write through
 * that dynptr: the write may move the packet, and metadata slices are
 * packet slices to 6.18. The twin writes through a map value's dynptr. */
#include "v.h"
#include "hr_dynptr.h"

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64[2]);
} smw_vals SEC(".maps");

SEC("tc") int bad_slice_meta_write(struct __sk_buff *skb)
{
	struct bpf_dynptr m;
	__u8 buf[4], *p, b = 1;

	bpf_dynptr_from_skb_meta(skb, 0, &m);
	p = bpf_dynptr_slice(&m, 0, buf, sizeof(buf));
	if (!p)
		return TC_ACT_SHOT;
	bpf_dynptr_write(&m, 0, &b, 1, 0);
	return p[0] ? TC_ACT_OK : TC_ACT_SHOT;
}

SEC("tc") int ok_slice_meta_write(struct __sk_buff *skb)
{
	struct bpf_dynptr m, l;
	__u32 key = 0;
	__u8 buf[4], *p, b = 1;
	__u64 *v = bpf_map_lookup_elem(&smw_vals, &key);

	if (!v)
		return TC_ACT_SHOT;
	bpf_dynptr_from_skb_meta(skb, 0, &m);
	bpf_dynptr_from_mem(v, 16, 0, &l);
	p = bpf_dynptr_slice(&m, 0, buf, sizeof(buf));
	if (!p)
		return TC_ACT_SHOT;
	bpf_dynptr_write(&l, 0, &b, 1, 0);
	return p[0] ? TC_ACT_OK : TC_ACT_SHOT;
}
