/* Arithmetic on a map pointer (the ld_imm64 of the map itself, not a
 * value from it). */
#include "v.h"

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 4);
	__type(key, __u32);
	__type(value, __u64);
} mp SEC(".maps");

SEC("xdp") NAKED int bad_map_ptr_arith(void)
{
	asm volatile("r1 = 0;"
		     "*(u32 *)(r10 - 4) = r1;"
		     "r2 = r10;"
		     "r2 += -4;"
		     "r1 = %[m] ll;"
		     "r1 += 8;"
		     "call %[f];"
		     "r0 = 2;"
		     "exit;"
		     :
		     : [m] "i"(&mp), [f] "i"(BPF_FUNC_map_lookup_elem)
		     : "memory");
}

SEC("xdp") NAKED int ok_map_ptr_arith(void)
{
	asm volatile("r1 = 0;"
		     "*(u32 *)(r10 - 4) = r1;"
		     "r2 = r10;"
		     "r2 += -4;"
		     "r1 = %[m] ll;"
		     "call %[f];"
		     "r0 = 2;"
		     "exit;"
		     :
		     : [m] "i"(&mp), [f] "i"(BPF_FUNC_map_lookup_elem)
		     : "memory");
}
