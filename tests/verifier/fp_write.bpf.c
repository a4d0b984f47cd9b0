/* r10 written: the frame pointer is read-only. */
#include "v.h"

SEC("xdp") NAKED int bad_fp_write(void)
{
	asm volatile("r10 = 0;"
		     "r0 = 2;"
		     "exit;" ::
			     : "memory");
}

SEC("xdp") NAKED int ok_fp_write(void)
{
	asm volatile("r1 = r10;"
		     "r0 = 2;"
		     "exit;" ::
			     : "memory");
}
