/* A ring buffer record submitted twice: the first submit released the
 * copy kept in r6 too. */
#include "v.h"
#include "rb.h"

SEC("tc") NAKED int bad_rb_twice(void)
{
	asm volatile(RB_RESERVE8 "if r0 == 0 goto 1f;"
				 "r6 = r0;"
				 "r1 = r0;"
				 "r2 = 0;"
				 "call %[submit];"
				 "r1 = r6;"
				 "r2 = 0;"
				 "call %[submit];"
				 "1: r0 = 0;"
				 "exit;"
		     :
		     : RB_OPERANDS
		     : "memory");
}

SEC("tc") NAKED int ok_rb_twice(void)
{
	asm volatile(RB_RESERVE8 "if r0 == 0 goto 1f;"
				 "r6 = r0;"
				 "r1 = r0;"
				 "r2 = 0;"
				 "call %[submit];"
				 "r1 = r6;"
				 "r2 = 0;"
				 "1: r0 = 0;"
				 "exit;"
		     :
		     : RB_OPERANDS
		     : "memory");
}
