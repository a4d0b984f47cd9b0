/* A packet bounds check done with a 32-bit compare of the pointers. */
#include "v.h"

SEC("xdp") NAKED int bad_ptr_jmp32(void)
{
	asm volatile("r2 = *(u32 *)(r1 + 0);"
		     "r3 = *(u32 *)(r1 + 4);"
		     "r4 = r2;"
		     "r4 += 1;"
		     "if w4 > w3 goto 1f;"
		     "r0 = *(u8 *)(r2 + 0);"
		     "1: r0 = 2;"
		     "exit;" ::
			     : "memory");
}

SEC("xdp") NAKED int ok_ptr_jmp32(void)
{
	asm volatile("r2 = *(u32 *)(r1 + 0);"
		     "r3 = *(u32 *)(r1 + 4);"
		     "r4 = r2;"
		     "r4 += 1;"
		     "if r4 > r3 goto 1f;"
		     "r0 = *(u8 *)(r2 + 0);"
		     "1: r0 = 2;"
		     "exit;" ::
			     : "memory");
}
