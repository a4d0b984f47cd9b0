/* A number from the packet used as a pointer. */
#include "v.h"

SEC("xdp") NAKED int bad_scalar_deref(void)
{
	asm volatile("r2 = *(u32 *)(r1 + 0);"
		     "r3 = *(u32 *)(r1 + 4);"
		     "r4 = r2;"
		     "r4 += 8;"
		     "if r4 > r3 goto 1f;"
		     "r5 = *(u64 *)(r2 + 0);"
		     "r0 = *(u8 *)(r5 + 0);"
		     "1: r0 = 2;"
		     "exit;" ::
			     : "memory");
}

SEC("xdp") NAKED int ok_scalar_deref(void)
{
	asm volatile("r2 = *(u32 *)(r1 + 0);"
		     "r3 = *(u32 *)(r1 + 4);"
		     "r4 = r2;"
		     "r4 += 8;"
		     "if r4 > r3 goto 1f;"
		     "r5 = *(u64 *)(r2 + 0);"
		     "r0 = *(u8 *)(r2 + 7);"
		     "1: r0 = 2;"
		     "exit;" ::
			     : "memory");
}
