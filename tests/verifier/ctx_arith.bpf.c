/* The context pointer moved, then dereferenced. */
#include "v.h"

SEC("xdp") NAKED int bad_ctx_arith(void)
{
	asm volatile("r1 += 4;"
		     "r0 = *(u32 *)(r1 + 0);"
		     "r0 = 2;"
		     "exit;" ::
			     : "memory");
}

SEC("xdp") NAKED int ok_ctx_arith(void)
{
	asm volatile("r0 = *(u32 *)(r1 + 4);"
		     "r0 = 2;"
		     "exit;" ::
			     : "memory");
}
