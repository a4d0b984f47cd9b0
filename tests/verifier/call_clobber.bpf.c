/* After a bpf-to-bpf call the caller's R1-R5 are not initialized; R6-R9
 * keep their values. */
#include "v.h"

static __attribute__((used)) NAKED void ret_zero(void)
{
	asm volatile("r0 = 0;"
		     "exit;" ::
			     : "memory");
}

SEC("xdp") NAKED int bad_call_clobber(void)
{
	asm volatile("r1 = 1;"
		     "r6 = 1;"
		     "call ret_zero;"
		     "r0 = r1;"
		     "exit;" ::
			     : "memory");
}

SEC("xdp") NAKED int ok_call_clobber(void)
{
	asm volatile("r1 = 1;"
		     "r6 = 1;"
		     "call ret_zero;"
		     "r0 = r6;"
		     "exit;" ::
			     : "memory");
}
