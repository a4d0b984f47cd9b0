/* A number where bpf_map_lookup_elem wants a key pointer. */
#include "v.h"

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 4);
	__type(key, __u32);
	__type(value, __u32);
} m SEC(".maps");

SEC("xdp") NAKED int bad_helper_argkind(void)
{
	asm volatile("r2 = 0;"
		     "r1 = %[m] ll;"
		     "call %[lookup];"
		     "r0 = 2;"
		     "exit;"
		     :
		     : [m] "i"(&m), [lookup] "i"(BPF_FUNC_map_lookup_elem)
		     : "memory");
}

SEC("xdp") NAKED int ok_helper_argkind(void)
{
	asm volatile("r2 = 0;"
		     "*(u32 *)(r10 - 4) = r2;"
		     "r2 = r10;"
		     "r2 += -4;"
		     "r1 = %[m] ll;"
		     "call %[lookup];"
		     "r0 = 2;"
		     "exit;"
		     :
		     : [m] "i"(&m), [lookup] "i"(BPF_FUNC_map_lookup_elem)
		     : "memory");
}
