/* A load through data_end, the end pointer, instead of through data. */
#include "v.h"

SEC("xdp") NAKED int bad_pkt_end_deref(void)
{
	asm volatile("r2 = *(u32 *)(r1 + 0);"
		     "r3 = *(u32 *)(r1 + 4);"
		     "r4 = r2;"
		     "r4 += 1;"
		     "if r4 > r3 goto 1f;"
		     "r0 = *(u8 *)(r3 - 1);"
		     "1: r0 = 2;"
		     "exit;" ::
			     : "memory");
}

SEC("xdp") NAKED int ok_pkt_end_deref(void)
{
	asm volatile("r2 = *(u32 *)(r1 + 0);"
		     "r3 = *(u32 *)(r1 + 4);"
		     "r4 = r2;"
		     "r4 += 1;"
		     "if r4 > r3 goto 1f;"
		     "r0 = *(u8 *)(r2 + 0);"
		     "1: r0 = 2;"
		     "exit;" ::
			     : "memory");
}
