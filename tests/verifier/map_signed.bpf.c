/* A map value indexed by a signed int only checked from above. */
#include "v.h"

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64[16]);
} tab SEC(".maps");

SEC("xdp") NAKED int bad_map_signed(void)
{
	asm volatile("r6 = *(u32 *)(r1 + 12);"
		     "r6 <<= 32;"
		     "r6 s>>= 32;"
		     "r1 = 0;"
		     "*(u32 *)(r10 - 4) = r1;"
		     "r2 = r10;"
		     "r2 += -4;"
		     "r1 = %[m] ll;"
		     "call %[f];"
		     "if r0 == 0 goto 1f;"
		     "if r6 s> 15 goto 1f;"
		     "r6 <<= 3;"
		     "r0 += r6;"
		     "r0 = *(u64 *)(r0 + 0);"
		     "1: r0 = 2;"
		     "exit;"
		     :
		     : [m] "i"(&tab), [f] "i"(BPF_FUNC_map_lookup_elem)
		     : "memory");
}

SEC("xdp") NAKED int ok_map_signed(void)
{
	asm volatile("r6 = *(u32 *)(r1 + 12);"
		     "r6 <<= 32;"
		     "r6 s>>= 32;"
		     "r1 = 0;"
		     "*(u32 *)(r10 - 4) = r1;"
		     "r2 = r10;"
		     "r2 += -4;"
		     "r1 = %[m] ll;"
		     "call %[f];"
		     "if r0 == 0 goto 1f;"
		     "if r6 > 15 goto 1f;"
		     "r6 <<= 3;"
		     "r0 += r6;"
		     "r0 = *(u64 *)(r0 + 0);"
		     "1: r0 = 2;"
		     "exit;"
		     :
		     : [m] "i"(&tab), [f] "i"(BPF_FUNC_map_lookup_elem)
		     : "memory");
}
