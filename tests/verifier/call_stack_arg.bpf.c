/* A static subprogram writing through a pointer into its caller's stack:
 * within the caller's frame, or past its top. */
#include "v.h"

static __attribute__((used)) NAKED void store_past(void)
{
	asm volatile("r2 = 2;"
		     "*(u64 *)(r1 + 8) = r2;"
		     "r0 = 0;"
		     "exit;" ::
			     : "memory");
}

static __attribute__((used)) NAKED void store_in(void)
{
	asm volatile("r2 = 2;"
		     "*(u64 *)(r1 + 0) = r2;"
		     "r0 = 0;"
		     "exit;" ::
			     : "memory");
}

SEC("xdp") NAKED int bad_call_stack_arg(void)
{
	asm volatile("r1 = r10;"
		     "r1 += -8;"
		     "call store_past;"
		     "r0 = *(u64 *)(r10 - 8);"
		     "r0 &= 3;"
		     "exit;" ::
			     : "memory");
}

SEC("xdp") NAKED int ok_call_stack_arg(void)
{
	asm volatile("r1 = r10;"
		     "r1 += -8;"
		     "call store_in;"
		     "r0 = *(u64 *)(r10 - 8);"
		     "r0 &= 3;"
		     "exit;" ::
			     : "memory");
}
