/* A packet pointer kept across bpf_clone_redirect, which may move the
 * skb's data (bpf_helper_changes_pkt_data names it). */
#include "v.h"

SEC("tc") int bad_pkt_clone(struct __sk_buff *skb)
{
	unsigned char *data = (void *)(long)skb->data;
	void *end = (void *)(long)skb->data_end;

	if ((void *)(data + 14) > end)
		return TC_ACT_OK;
	bpf_clone_redirect(skb, 1, 0);
	return data[0] == 1 ? TC_ACT_SHOT : TC_ACT_OK;
}

SEC("tc") int ok_pkt_clone(struct __sk_buff *skb)
{
	unsigned char *data, *end;

	bpf_clone_redirect(skb, 1, 0);
	data = (void *)(long)skb->data;
	end = (void *)(long)skb->data_end;
	if (data + 14 > end)
		return TC_ACT_OK;
	return data[0] == 1 ? TC_ACT_SHOT : TC_ACT_OK;
}
