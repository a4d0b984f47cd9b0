/* A copy of a constant moved by a constant is still a constant to the
 * kernel (its linked copies change nothing), so the packet bound tested
 * through it covers the packet pointer it shares its base with. */
#include "v.h"

SEC("xdp") NAKED int bad_copy_add_const(void)
{
	asm volatile("r2 = *(u32 *)(r1 + 0);"
		     "r3 = *(u32 *)(r1 + 4);"
		     "r4 = 18;"
		     "r5 = r4;"
		     "r5 += 4;"
		     "r0 = r2;"
		     "r0 += r5;"
		     "if r0 > r3 goto 1f;"
		     "r0 = r2;"
		     "r0 += r4;"
		     "r0 = *(u32 *)(r0 + 2);"
		     "1: r0 = 2;"
		     "exit;" ::
			     : "memory");
}

SEC("xdp") NAKED int ok_copy_add_const(void)
{
	asm volatile("r2 = *(u32 *)(r1 + 0);"
		     "r3 = *(u32 *)(r1 + 4);"
		     "r4 = 18;"
		     "r5 = r4;"
		     "r5 += 4;"
		     "r0 = r2;"
		     "r0 += r5;"
		     "if r0 > r3 goto 1f;"
		     "r0 = r2;"
		     "r0 += r4;"
		     "r0 = *(u16 *)(r0 + 2);"
		     "1: r0 = 2;"
		     "exit;" ::
			     : "memory");
}
