/* skb->data loaded 8 bytes wide: __sk_buff's data is a 4-byte field. */
#include "v.h"

SEC("tc") NAKED int bad_ctx_wide(void)
{
	asm volatile("r2 = *(u64 *)(r1 + 76);"
		     "r0 = 0;"
		     "exit;" ::
			     : "memory");
}

SEC("tc") NAKED int ok_ctx_wide(void)
{
	asm volatile("r2 = *(u32 *)(r1 + 76);"
		     "r0 = 0;"
		     "exit;" ::
			     : "memory");
}
