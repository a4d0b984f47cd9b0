/* A map key read past the stack's top: the key is 8 bytes, 4 are left. */
#include "v.h"

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 4);
	__type(key, __u64);
	__type(value, __u64);
} h SEC(".maps");

SEC("tc") NAKED int bad_helper_stackread(void)
{
	asm volatile("r2 = r10;"
		     "r2 += -4;"
		     "r1 = %[h] ll;"
		     "call %[f];"
		     "r0 = 0;"
		     "exit;"
		     :
		     : [h] "i"(&h), [f] "i"(BPF_FUNC_map_lookup_elem)
		     : "memory");
}

SEC("tc") NAKED int ok_helper_stackread(void)
{
	asm volatile("r2 = r10;"
		     "r2 += -8;"
		     "r1 = %[h] ll;"
		     "call %[f];"
		     "r0 = 0;"
		     "exit;"
		     :
		     : [h] "i"(&h), [f] "i"(BPF_FUNC_map_lookup_elem)
		     : "memory");
}
