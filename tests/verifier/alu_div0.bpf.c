/* A division by the immediate 0; by a register holding 0 it is allowed
 * (the result is 0). */
#include "v.h"

SEC("xdp") NAKED int bad_alu_div0(void)
{
	asm volatile("r0 = 5;"
		     "r0 /= 0;"
		     "r0 = 2;"
		     "exit;" ::
			     : "memory");
}

SEC("xdp") NAKED int ok_alu_div0(void)
{
	asm volatile("r0 = 5;"
		     "r1 = 0;"
		     "r0 /= r1;"
		     "r0 = 2;"
		     "exit;" ::
			     : "memory");
}
