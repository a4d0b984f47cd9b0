/* A loop bounded only by a 32-bit number from the packet. */
#include "v.h"

SEC("xdp") NAKED int bad_loop_unbounded(void)
{
	asm volatile("r2 = *(u32 *)(r1 + 0);"
		     "r3 = *(u32 *)(r1 + 4);"
		     "r4 = r2;"
		     "r4 += 4;"
		     "r0 = 2;"
		     "if r4 > r3 goto 2f;"
		     "r5 = *(u32 *)(r2 + 0);"
		     "r6 = 0;"
		     "1: r6 += 1;"
		     "if r6 < r5 goto 1b;"
		     "2: exit;" ::
			     : "memory");
}

SEC("xdp") NAKED int ok_loop_unbounded(void)
{
	asm volatile("r2 = *(u32 *)(r1 + 0);"
		     "r3 = *(u32 *)(r1 + 4);"
		     "r4 = r2;"
		     "r4 += 4;"
		     "r0 = 2;"
		     "if r4 > r3 goto 2f;"
		     "r5 = *(u32 *)(r2 + 0);"
		     "r5 &= 15;"
		     "r6 = 0;"
		     "1: r6 += 1;"
		     "if r6 < r5 goto 1b;"
		     "2: exit;" ::
			     : "memory");
}
