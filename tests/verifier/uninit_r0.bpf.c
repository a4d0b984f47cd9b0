/* exit with r0 never written. */
#include "v.h"

SEC("xdp") NAKED int bad_uninit_r0(void)
{
	asm volatile("r2 = 1;"
		     "exit;" ::
			     : "memory");
}

SEC("xdp") NAKED int ok_uninit_r0(void)
{
	asm volatile("r0 = 1;"
		     "exit;" ::
			     : "memory");
}
