/* A store at or above the frame pointer. */
#include "v.h"

SEC("xdp") NAKED int bad_stack_above(void)
{
	asm volatile("r1 = 0;"
		     "*(u8 *)(r10 + 0) = r1;"
		     "r0 = 2;"
		     "exit;" ::
			     : "memory");
}

SEC("xdp") NAKED int ok_stack_above(void)
{
	asm volatile("r1 = 0;"
		     "*(u8 *)(r10 - 1) = r1;"
		     "r0 = 2;"
		     "exit;" ::
			     : "memory");
}
