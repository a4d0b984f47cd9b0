/* A packet pointer spilled to the stack, one byte of it overwritten, then
 * filled back and used: it is no longer a pointer. */
#include "v.h"

SEC("xdp") NAKED int bad_spill_clobber(void)
{
	asm volatile("r2 = *(u32 *)(r1 + 0);"
		     "r3 = *(u32 *)(r1 + 4);"
		     "r4 = r2;"
		     "r4 += 1;"
		     "if r4 > r3 goto 1f;"
		     "*(u64 *)(r10 - 8) = r2;"
		     "r5 = 0;"
		     "*(u8 *)(r10 - 1) = r5;"
		     "r2 = *(u64 *)(r10 - 8);"
		     "r0 = *(u8 *)(r2 + 0);"
		     "1: r0 = 2;"
		     "exit;" ::
			     : "memory");
}

SEC("xdp") NAKED int ok_spill_clobber(void)
{
	asm volatile("r2 = *(u32 *)(r1 + 0);"
		     "r3 = *(u32 *)(r1 + 4);"
		     "r4 = r2;"
		     "r4 += 1;"
		     "if r4 > r3 goto 1f;"
		     "*(u64 *)(r10 - 8) = r2;"
		     "r5 = 0;"
		     "*(u8 *)(r10 - 9) = r5;"
		     "r2 = *(u64 *)(r10 - 8);"
		     "r0 = *(u8 *)(r2 + 0);"
		     "1: r0 = 2;"
		     "exit;" ::
			     : "memory");
}
