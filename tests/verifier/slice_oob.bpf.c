/* A read one byte past a 14-byte slice: the slice is memory of the
 * buffer__szk size (check_mem_region_access). */
#include "v.h"
#include "hr_dynptr.h"

SEC("tc") int bad_slice_oob(struct __sk_buff *skb)
{
	struct bpf_dynptr d;
	__u8 buf[14], *eth;

	bpf_dynptr_from_skb(skb, 0, &d);
	eth = bpf_dynptr_slice(&d, 0, buf, sizeof(buf));
	if (!eth)
		return TC_ACT_SHOT;
	return eth[14] == 0x45 ? TC_ACT_OK : TC_ACT_SHOT;
}

SEC("tc") int ok_slice_oob(struct __sk_buff *skb)
{
	struct bpf_dynptr d;
	__u8 buf[15], *eth;

	bpf_dynptr_from_skb(skb, 0, &d);
	eth = bpf_dynptr_slice(&d, 0, buf, sizeof(buf));
	if (!eth)
		return TC_ACT_SHOT;
	return eth[14] == 0x45 ? TC_ACT_OK : TC_ACT_SHOT;
}
