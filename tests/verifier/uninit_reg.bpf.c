/* A register read before anything was written to it. */
#include "v.h"

SEC("xdp") NAKED int bad_uninit_reg(void)
{
	asm volatile("r0 = r3;"
		     "exit;" ::
			     : "memory");
}

SEC("xdp") NAKED int ok_uninit_reg(void)
{
	asm volatile("r3 = 2;"
		     "r0 = r3;"
		     "exit;" ::
			     : "memory");
}
