/* BPF_LD_ABS reads the skb from R6, which must be the context itself
 * (check_ld_abs). */
#include "v.h"

SEC("tc") NAKED int bad_ld_abs_r6(void)
{
	asm volatile("r6 = r1;"
		     "r6 += 8;"
		     "r0 = *(u8 *)skb[12];"
		     "r0 = 0;"
		     "exit;" ::
			     : "memory");
}

SEC("tc") NAKED int ok_ld_abs_r6(void)
{
	asm volatile("r6 = r1;"
		     "r7 = r1;"
		     "r7 += 8;"
		     "r0 = *(u8 *)skb[12];"
		     "r0 = 0;"
		     "exit;" ::
			     : "memory");
}

SEC("tc") NAKED int bad_ld_abs_r6_num(void)
{
	asm volatile("r6 = 0;"
		     "r0 = *(u16 *)skb[12];"
		     "r0 = 0;"
		     "exit;" ::
			     : "memory");
}
