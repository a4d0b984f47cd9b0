/* A store into a const global (.rodata, frozen read-only). */
#include "v.h"

const volatile __u32 limit = 10;
volatile __u32 hits;

SEC("xdp") NAKED int bad_rodata_write(void)
{
	asm volatile("r1 = %[g] ll;"
		     "r2 = 1;"
		     "*(u32 *)(r1 + 0) = r2;"
		     "r0 = 2;"
		     "exit;"
		     :
		     : [g] "i"(&limit)
		     : "memory");
}

SEC("xdp") NAKED int ok_rodata_write(void)
{
	asm volatile("r1 = %[g] ll;"
		     "r2 = 1;"
		     "*(u32 *)(r1 + 0) = r2;"
		     "r0 = 2;"
		     "exit;"
		     :
		     : [g] "i"(&hits)
		     : "memory");
}
