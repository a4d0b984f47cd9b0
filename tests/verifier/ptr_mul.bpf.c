/* A multiplication of the context pointer. */
#include "v.h"

SEC("tc") NAKED int bad_ptr_mul(void)
{
	asm volatile("r2 = r1;"
		     "r2 *= 2;"
		     "r0 = 0;"
		     "exit;" ::
			     : "memory");
}

SEC("tc") NAKED int ok_ptr_mul(void)
{
	asm volatile("r2 = r1;"
		     "r2 -= 2;"
		     "r0 = 0;"
		     "exit;" ::
			     : "memory");
}
