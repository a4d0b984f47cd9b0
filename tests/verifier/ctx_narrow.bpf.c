/* A 2-byte load of xdp_md.data: the field must be read whole. */
#include "v.h"

SEC("xdp") NAKED int bad_ctx_narrow(void)
{
	asm volatile("r0 = *(u16 *)(r1 + 0);"
		     "r0 = 2;"
		     "exit;" ::
			     : "memory");
}

SEC("xdp") NAKED int ok_ctx_narrow(void)
{
	asm volatile("r0 = *(u32 *)(r1 + 0);"
		     "r0 = 2;"
		     "exit;" ::
			     : "memory");
}
