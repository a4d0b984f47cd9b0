/* A pointer subtracted from a number; the other way round is allowed. */
#include "v.h"

SEC("xdp") NAKED int bad_ptr_sub_scalar(void)
{
	asm volatile("r2 = 5;"
		     "r2 -= r1;"
		     "r0 = 2;"
		     "exit;" ::
			     : "memory");
}

SEC("xdp") NAKED int ok_ptr_sub_scalar(void)
{
	asm volatile("r2 = r1;"
		     "r2 -= 5;"
		     "r0 = 2;"
		     "exit;" ::
			     : "memory");
}
