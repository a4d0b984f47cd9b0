/* An 8-byte store to a stack slot that is not 8-byte aligned: stack
 * accesses must be aligned to their size. */
#include "v.h"

SEC("xdp") NAKED int bad_stack_misalign(void)
{
	asm volatile("r1 = 0;"
		     "*(u64 *)(r10 - 12) = r1;"
		     "r0 = 2;"
		     "exit;" ::
			     : "memory");
}

SEC("xdp") NAKED int ok_stack_misalign(void)
{
	asm volatile("r1 = 0;"
		     "*(u64 *)(r10 - 16) = r1;"
		     "r0 = 2;"
		     "exit;" ::
			     : "memory");
}
