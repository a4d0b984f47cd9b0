/* An atomic add on a counter that is not aligned in the map value:
 * atomics must be aligned even where plain loads need not be. */
#include "v.h"

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64[2]);
} am SEC(".maps");

SEC("xdp") NAKED int bad_atomic_misalign(void)
{
	asm volatile(LOOKUP_KEY0 "if r0 == 0 goto 1f;"
				 "r1 = 1;"
				 "lock *(u64 *)(r0 + 4) += r1;"
				 "1: r0 = 2;"
				 "exit;"
		     :
		     : LOOKUP_OPERANDS(am)
		     : "memory");
}

SEC("xdp") NAKED int ok_atomic_misalign(void)
{
	asm volatile(LOOKUP_KEY0 "if r0 == 0 goto 1f;"
				 "r1 = 1;"
				 "lock *(u64 *)(r0 + 8) += r1;"
				 "1: r0 = 2;"
				 "exit;"
		     :
		     : LOOKUP_OPERANDS(am)
		     : "memory");
}
