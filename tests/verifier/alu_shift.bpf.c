/* A 32-bit shift by the immediate 32: wider than the operand. */
#include "v.h"

SEC("tc") NAKED int bad_alu_shift(void)
{
	asm volatile("w0 = 5;"
		     "w0 <<= 32;"
		     "r0 = 0;"
		     "exit;" ::
			     : "memory");
}

SEC("tc") NAKED int ok_alu_shift(void)
{
	asm volatile("w0 = 5;"
		     "w0 <<= 31;"
		     "r0 = 0;"
		     "exit;" ::
			     : "memory");
}
