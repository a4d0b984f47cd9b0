/* A static subprogram returning a pointer into its own stack. */
#include "v.h"

static __attribute__((used)) NAKED void ret_own_stack(void)
{
	asm volatile("r0 = r10;"
		     "r0 += -8;"
		     "exit;" ::
			     : "memory");
}

static __attribute__((used)) NAKED void ret_number(void)
{
	asm volatile("r0 = r10;"
		     "r0 = 0;"
		     "exit;" ::
			     : "memory");
}

SEC("xdp") NAKED int bad_call_stack_ret(void)
{
	asm volatile("call ret_own_stack;"
		     "r0 = 2;"
		     "exit;" ::
			     : "memory");
}

SEC("xdp") NAKED int ok_call_stack_ret(void)
{
	asm volatile("call ret_number;"
		     "r0 = 2;"
		     "exit;" ::
			     : "memory");
}
