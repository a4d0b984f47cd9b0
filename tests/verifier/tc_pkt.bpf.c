/* tc: the skb's linear data read without a data_end check. */
#include "v.h"

SEC("tc") int bad_tc_pkt(struct __sk_buff *skb)
{
	unsigned char *data = (void *)(long)skb->data;

	return data[13] == 0 ? TC_ACT_OK : TC_ACT_SHOT;
}

SEC("tc") int ok_tc_pkt(struct __sk_buff *skb)
{
	unsigned char *data = (void *)(long)skb->data;
	void *end = (void *)(long)skb->data_end;

	if ((void *)(data + 14) > end)
		return TC_ACT_SHOT;
	return data[13] == 0 ? TC_ACT_OK : TC_ACT_SHOT;
}
