/* bpf_dynptr_write through an skb's dynptr may reallocate the packet
 * (changes_data in check_helper_call): slices taken before it are gone.
 * The twin writes through an XDP dynptr, which changes nothing. */
#include "v.h"
#include "hr_dynptr.h"

SEC("tc") int bad_slice_write_skb(struct __sk_buff *skb)
{
	struct bpf_dynptr d;
	__u8 buf[14], *eth, b = 1;

	bpf_dynptr_from_skb(skb, 0, &d);
	eth = bpf_dynptr_slice(&d, 0, buf, sizeof(buf));
	if (!eth)
		return TC_ACT_SHOT;
	bpf_dynptr_write(&d, 0, &b, 1, 0);
	return eth[12] == 8 ? TC_ACT_OK : TC_ACT_SHOT;
}

SEC("xdp") int ok_slice_write_skb(struct xdp_md *ctx)
{
	struct bpf_dynptr d;
	__u8 buf[14], *eth, b = 1;

	bpf_dynptr_from_xdp(ctx, 0, &d);
	eth = bpf_dynptr_slice(&d, 0, buf, sizeof(buf));
	if (!eth)
		return XDP_DROP;
	bpf_dynptr_write(&d, 0, &b, 1, 0);
	return eth[12] == 8 ? XDP_PASS : XDP_DROP;
}
