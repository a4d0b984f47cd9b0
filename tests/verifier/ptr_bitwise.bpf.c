/* A bitwise operation on the context pointer: the kernel allows only add and subtract. */
#include "v.h"

SEC("xdp") NAKED int bad_ptr_bitwise(void)
{
	asm volatile("r2 = r1;"
		     "r2 &= 255;"
		     "r0 = 0;"
		     "exit;" ::
			     : "memory");
}

SEC("xdp") NAKED int ok_ptr_bitwise(void)
{
	asm volatile("r2 = r1;"
		     "r2 += 255;"
		     "r0 = 0;"
		     "exit;" ::
			     : "memory");
}
