/* A store through a stack pointer moved below the frame: the frame is
 * 512 bytes. */
#include "v.h"

SEC("tc") NAKED int bad_stack_ptr_below(void)
{
	asm volatile("r2 = r10;"
		     "r2 += -256;"
		     "r3 = 0;"
		     "*(u64 *)(r2 - 264) = r3;"
		     "r0 = 0;"
		     "exit;" ::
			     : "memory");
}

SEC("tc") NAKED int ok_stack_ptr_below(void)
{
	asm volatile("r2 = r10;"
		     "r2 += -256;"
		     "r3 = 0;"
		     "*(u64 *)(r2 - 256) = r3;"
		     "r0 = 0;"
		     "exit;" ::
			     : "memory");
}
