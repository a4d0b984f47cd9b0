/* Arithmetic on data_end: the end pointer may only be compared. */
#include "v.h"

SEC("xdp") NAKED int bad_pkt_end_arith(void)
{
	asm volatile("r2 = *(u32 *)(r1 + 0);"
		     "r3 = *(u32 *)(r1 + 4);"
		     "r3 += -14;"
		     "if r2 > r3 goto 1f;"
		     "r0 = *(u8 *)(r2 + 0);"
		     "1: r0 = 2;"
		     "exit;" ::
			     : "memory");
}

SEC("xdp") NAKED int ok_pkt_end_arith(void)
{
	asm volatile("r2 = *(u32 *)(r1 + 0);"
		     "r3 = *(u32 *)(r1 + 4);"
		     "r4 = r2;"
		     "r4 += 14;"
		     "if r4 > r3 goto 1f;"
		     "r0 = *(u8 *)(r2 + 0);"
		     "1: r0 = 2;"
		     "exit;" ::
			     : "memory");
}
