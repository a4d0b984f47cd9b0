/* A ring buffer record written before its NULL test. */
#include "v.h"
#include "rb.h"

SEC("tc") NAKED int bad_rb_null(void)
{
	asm volatile(RB_RESERVE8 "r1 = 1;"
				 "*(u64 *)(r0 + 0) = r1;"
				 "r1 = r0;"
				 "r2 = 0;"
				 "call %[submit];"
				 "r0 = 0;"
				 "exit;"
		     :
		     : RB_OPERANDS
		     : "memory");
}

SEC("tc") NAKED int ok_rb_null(void)
{
	asm volatile(RB_RESERVE8 "if r0 == 0 goto 1f;"
				 "r1 = 1;"
				 "*(u64 *)(r0 + 0) = r1;"
				 "r1 = r0;"
				 "r2 = 0;"
				 "call %[submit];"
				 "1: r0 = 0;"
				 "exit;"
		     :
		     : RB_OPERANDS
		     : "memory");
}
