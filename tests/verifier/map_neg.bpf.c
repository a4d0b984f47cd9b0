/* A map value read before its start. */
#include "v.h"

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} a SEC(".maps");

SEC("xdp") NAKED int bad_map_neg(void)
{
	asm volatile("r1 = 0;"
		     "*(u32 *)(r10 - 4) = r1;"
		     "r2 = r10;"
		     "r2 += -4;"
		     "r1 = %[a] ll;"
		     "call %[lookup];"
		     "if r0 == 0 goto 1f;"
		     "r0 = *(u32 *)(r0 - 4);"
		     "1: r0 = 2;"
		     "exit;"
		     :
		     : [a] "i"(&a), [lookup] "i"(BPF_FUNC_map_lookup_elem)
		     : "memory");
}

SEC("xdp") NAKED int ok_map_neg(void)
{
	asm volatile("r1 = 0;"
		     "*(u32 *)(r10 - 4) = r1;"
		     "r2 = r10;"
		     "r2 += -4;"
		     "r1 = %[a] ll;"
		     "call %[lookup];"
		     "if r0 == 0 goto 1f;"
		     "r0 = *(u32 *)(r0 + 4);"
		     "1: r0 = 2;"
		     "exit;"
		     :
		     : [a] "i"(&a), [lookup] "i"(BPF_FUNC_map_lookup_elem)
		     : "memory");
}
