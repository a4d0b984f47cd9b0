/* A load past the end of struct xdp_md. */
#include "v.h"

SEC("xdp") NAKED int bad_ctx_field(void)
{
	asm volatile("r0 = *(u32 *)(r1 + 64);"
		     "r0 = 2;"
		     "exit;" ::
			     : "memory");
}

SEC("xdp") NAKED int ok_ctx_field(void)
{
	asm volatile("r0 = *(u32 *)(r1 + 12);"
		     "r0 = 2;"
		     "exit;" ::
			     : "memory");
}
