/* An instruction no path reaches (after an unconditional jump): check_cfg
 * refuses it before any path is walked. */
#include "v.h"

SEC("xdp") NAKED int bad_cfg_unreach(void)
{
	asm volatile("r0 = 2;"
		     "goto +1;"
		     "r0 = 1;"
		     "exit;" ::
			     : "memory");
}

SEC("xdp") NAKED int ok_cfg_unreach(void)
{
	asm volatile("r0 = 2;"
		     "if r1 == 0 goto +1;"
		     "r0 = 1;"
		     "exit;" ::
			     : "memory");
}
