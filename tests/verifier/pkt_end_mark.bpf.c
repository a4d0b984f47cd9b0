/* A packet pointer found past data_end decides the same test later (the
 * kernel's mark_pkt_end), but only in that register: a copy made before
 * the test is walked both ways. */
#include "v.h"

SEC("xdp") NAKED int bad_pkt_end_mark(void)
{
	asm volatile("r2 = *(u32 *)(r1 + 4);"
		     "r4 = *(u32 *)(r1 + 0);"
		     "r3 = r4;"
		     "r3 += 54;"
		     "r5 = r3;"
		     "r1 = 0;"
		     "if r3 > r2 goto 2f;"
		     "r4 += 14;"
		     "r1 = r4;"
		     "2: r0 = 1;"
		     "if r5 > r2 goto 3f;"
		     "r0 = *(u8 *)(r1 + 9);"
		     "3: exit;" ::
			     : "memory");
}

SEC("xdp") NAKED int ok_pkt_end_mark(void)
{
	asm volatile("r2 = *(u32 *)(r1 + 4);"
		     "r4 = *(u32 *)(r1 + 0);"
		     "r3 = r4;"
		     "r3 += 54;"
		     "r5 = r3;"
		     "r1 = 0;"
		     "if r3 > r2 goto 2f;"
		     "r4 += 14;"
		     "r1 = r4;"
		     "2: r0 = 1;"
		     "if r3 > r2 goto 3f;"
		     "r0 = *(u8 *)(r1 + 9);"
		     "3: exit;" ::
			     : "memory");
}
