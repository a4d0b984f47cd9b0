/* A map value pointer moved by an index with no upper bound. */
#include "v.h"

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64[16]);
} vals SEC(".maps");

SEC("xdp") NAKED int bad_map_unbounded(void)
{
	asm volatile("r6 = *(u32 *)(r1 + 12);" LOOKUP_KEY0 "if r0 == 0 goto 1f;"
		     "r0 += r6;"
		     "r0 = *(u8 *)(r0 + 0);"
		     "1: r0 = 2;"
		     "exit;"
		     :
		     : LOOKUP_OPERANDS(vals)
		     : "memory");
}

SEC("xdp") NAKED int ok_map_unbounded(void)
{
	asm volatile("r6 = *(u32 *)(r1 + 12);"
		     "r6 &= 127;" LOOKUP_KEY0 "if r0 == 0 goto 1f;"
		     "r0 += r6;"
		     "r0 = *(u8 *)(r0 + 0);"
		     "1: r0 = 2;"
		     "exit;"
		     :
		     : LOOKUP_OPERANDS(vals)
		     : "memory");
}
