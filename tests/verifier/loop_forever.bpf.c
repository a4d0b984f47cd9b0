/* A loop whose state never changes: the kernel finds it at once. */
#include "v.h"

SEC("xdp") NAKED int bad_loop_forever(void)
{
	asm volatile("r0 = 2;"
		     "1: r1 = 1;"
		     "if r1 != 0 goto 1b;"
		     "exit;" ::
			     : "memory");
}

SEC("xdp") NAKED int ok_loop_forever(void)
{
	asm volatile("r0 = 2;"
		     "r1 = 4;"
		     "1: r1 += -1;"
		     "if r1 != 0 goto 1b;"
		     "exit;" ::
			     : "memory");
}
