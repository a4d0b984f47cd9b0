/* A legacy packet load (BPF_LD_ABS) in XDP: the kernel keeps them for
 * socket filters and tc (may_access_skb); XDP reads the packet directly. */
#include "v.h"

SEC("xdp") NAKED int bad_ld_abs_xdp(void)
{
	asm volatile("r6 = r1;"
		     "r0 = *(u16 *)skb[12];"
		     "r0 &= 1;"
		     "exit;" ::
			     : "memory");
}

SEC("xdp") NAKED int ok_ld_abs_xdp(void)
{
	asm volatile("r2 = *(u32 *)(r1 + 0);"
		     "r3 = *(u32 *)(r1 + 4);"
		     "r4 = r2;"
		     "r4 += 14;"
		     "r0 = 0;"
		     "if r4 > r3 goto 1f;"
		     "r0 = *(u16 *)(r2 + 12);"
		     "r0 &= 1;"
		     "1: exit;" ::
			     : "memory");
}
