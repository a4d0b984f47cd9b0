/* A ring buffer record submitted through a pointer moved past its start. */
#include "v.h"
#include "rb.h"

SEC("xdp") NAKED int bad_rb_submit_off(void)
{
	asm volatile(RB_RESERVE8 "if r0 == 0 goto 1f;"
				 "r1 = r0;"
				 "r1 += 4;"
				 "r2 = 0;"
				 "call %[submit];"
				 "1: r0 = 2;"
				 "exit;"
		     :
		     : RB_OPERANDS
		     : "memory");
}

SEC("xdp") NAKED int ok_rb_submit_off(void)
{
	asm volatile(RB_RESERVE8 "if r0 == 0 goto 1f;"
				 "r1 = r0;"
				 "r2 = 0;"
				 "call %[submit];"
				 "1: r0 = 2;"
				 "exit;"
		     :
		     : RB_OPERANDS
		     : "memory");
}
