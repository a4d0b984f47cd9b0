/* A 32-bit add to a pointer (a privileged 32-bit subtract only yields a number). */
#include "v.h"

SEC("xdp") NAKED int bad_ptr_alu32(void)
{
	asm volatile("r2 = r1;"
		     "w2 += 4;"
		     "r0 = 0;"
		     "exit;" ::
			     : "memory");
}

SEC("xdp") NAKED int ok_ptr_alu32(void)
{
	asm volatile("r2 = r1;"
		     "w2 -= 4;"
		     "r0 = 0;"
		     "exit;" ::
			     : "memory");
}
