/* Two pointers added; only their difference is allowed. */
#include "v.h"

SEC("tc") NAKED int bad_ptr_ptr(void)
{
	asm volatile("r2 = r1;"
		     "r2 += r10;"
		     "r0 = 0;"
		     "exit;" ::
			     : "memory");
}

SEC("tc") NAKED int ok_ptr_ptr(void)
{
	asm volatile("r2 = r1;"
		     "r2 -= r1;"
		     "r0 = 0;"
		     "exit;" ::
			     : "memory");
}
