/* A packet pointer kept across bpf_skb_store_bytes, which may move the
 * packet's data. */
#include "v.h"

SEC("tc") int bad_tc_store_stale(struct __sk_buff *skb)
{
	unsigned char *data = (void *)(long)skb->data;
	void *end = (void *)(long)skb->data_end;
	__u8 v = 1;

	if ((void *)(data + 14) > end)
		return TC_ACT_SHOT;
	bpf_skb_store_bytes(skb, 0, &v, 1, 0);
	return data[13] == 1 ? TC_ACT_OK : TC_ACT_SHOT;
}

SEC("tc") int ok_tc_store_stale(struct __sk_buff *skb)
{
	unsigned char *data, *end;
	__u8 v = 1;

	bpf_skb_store_bytes(skb, 0, &v, 1, 0);
	data = (void *)(long)skb->data;
	end = (void *)(long)skb->data_end;
	if (data + 14 > end)
		return TC_ACT_SHOT;
	return data[13] == 1 ? TC_ACT_OK : TC_ACT_SHOT;
}
