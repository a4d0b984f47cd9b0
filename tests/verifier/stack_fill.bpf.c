/* Half of a spilled pointer read back from the stack. */
#include "v.h"

SEC("tc") NAKED int bad_stack_fill(void)
{
	asm volatile("*(u64 *)(r10 - 8) = r1;"
		     "r0 = *(u32 *)(r10 - 8);"
		     "r0 = 0;"
		     "exit;" ::
			     : "memory");
}

SEC("tc") NAKED int ok_stack_fill(void)
{
	asm volatile("*(u64 *)(r10 - 8) = r1;"
		     "r0 = *(u64 *)(r10 - 8);"
		     "r0 = 0;"
		     "exit;" ::
			     : "memory");
}
