/* A legacy packet load (LD_ABS) in tc with r6 not holding the context. */
#include "v.h"

SEC("tc") NAKED int bad_ld_abs_r6(void)
{
	asm volatile("r6 = 0;"
		     "r0 = *(u8 *)skb[12];"
		     "r0 = 0;"
		     "exit;" ::
			     : "memory");
}

SEC("tc") NAKED int ok_ld_abs_r6(void)
{
	asm volatile("r6 = r1;"
		     "r0 = *(u8 *)skb[12];"
		     "r0 = 0;"
		     "exit;" ::
			     : "memory");
}
