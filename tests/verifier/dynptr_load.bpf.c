/* A load of a dynptr's own stack bytes: they are neither data nor a
 * spilled register (check_stack_read_fixed_off). The twin loads the
 * word after it. */
#include "v.h"
#include "hr_dynptr.h"

SEC("tc") int bad_dynptr_load(struct __sk_buff *skb)
{
	struct {
		struct bpf_dynptr d;
		__u64 x;
	} s = {};

	bpf_dynptr_from_skb(skb, 0, &s.d);
	return *(volatile __u64 *)&s.d ? TC_ACT_OK : TC_ACT_SHOT;
}

SEC("tc") int ok_dynptr_load(struct __sk_buff *skb)
{
	struct {
		struct bpf_dynptr d;
		__u64 x;
	} s = {};

	bpf_dynptr_from_skb(skb, 0, &s.d);
	return *(volatile __u64 *)&s.x ? TC_ACT_OK : TC_ACT_SHOT;
}
