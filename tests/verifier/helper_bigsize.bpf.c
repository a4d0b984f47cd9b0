/* A helper's size argument with no upper bound. */
#include "v.h"

SEC("tc") NAKED int bad_helper_bigsize(void)
{
	asm volatile("r6 = r1;"
		     "r4 = *(u32 *)(r6 + 0);"
		     "r4 += 1;"
		     "r3 = r10;"
		     "r3 += -32;"
		     "r2 = 0;"
		     "r1 = r6;"
		     "call %[f];"
		     "r0 = 0;"
		     "exit;"
		     :
		     : [f] "i"(BPF_FUNC_skb_load_bytes)
		     : "memory");
}

SEC("tc") NAKED int ok_helper_bigsize(void)
{
	asm volatile("r6 = r1;"
		     "r4 = *(u32 *)(r6 + 0);"
		     "r4 &= 31;"
		     "r4 += 1;"
		     "r3 = r10;"
		     "r3 += -32;"
		     "r2 = 0;"
		     "r1 = r6;"
		     "call %[f];"
		     "r0 = 0;"
		     "exit;"
		     :
		     : [f] "i"(BPF_FUNC_skb_load_bytes)
		     : "memory");
}
