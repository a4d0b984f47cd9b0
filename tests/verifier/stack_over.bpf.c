/* A store below the 512-byte stack. */
#include "v.h"

SEC("xdp") NAKED int bad_stack_over(void)
{
	asm volatile("r1 = 0;"
		     "*(u64 *)(r10 - 520) = r1;"
		     "r0 = 2;"
		     "exit;" ::
			     : "memory");
}

SEC("xdp") NAKED int ok_stack_over(void)
{
	asm volatile("r1 = 0;"
		     "*(u64 *)(r10 - 512) = r1;"
		     "r0 = 2;"
		     "exit;" ::
			     : "memory");
}
